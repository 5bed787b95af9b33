/** Renders `backticked` parts as code — still as React text, never as HTML. */
export function CodeText({ text }: { text: string }) {
  const parts = text.split(/`([^`]*)`/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
