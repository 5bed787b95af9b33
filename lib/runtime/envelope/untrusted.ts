/** Where an enveloped text came from. */
export type UntrustedSource = "tool_result" | "tool_error" | "tool_refusal" | (string & {});

const SOURCE = /^[a-z0-9_-]+$/;
// Any spelling a model might read as our marker: any case, spaces inside the brackets, with or
// without the slash. Escaping the `<` is enough to make it plain text again.
const MARKER = /<(\s{0,8}\/?\s{0,8}untrusted-data)(\s{0,8}>)?/giu;

/** Escapes every look-alike of the envelope markers inside `content`. */
export function escapeMarkers(content: string): string {
  return content.replace(MARKER, (_m, name: string, close: string | undefined) => `&lt;${name}${close ? close.replace(">", "&gt;") : ""}`);
}

/**
 * Wraps untrusted text (tool output, refusals, errors) so the model reads it as data, never as
 * instructions: an opening line with the source, the escaped content, and exactly one closing line.
 */
export function wrapUntrusted(content: string, source: UntrustedSource, attributes: Readonly<Record<string, string>> = {}): string {
  if (!SOURCE.test(source)) throw new TypeError(`envelope source must match ${SOURCE}; got ${JSON.stringify(source)}`);
  let open = `<untrusted-data source="${source}"`;
  for (const [key, value] of Object.entries(attributes)) {
    if (!SOURCE.test(key)) continue;
    open += ` ${key}="${value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")}"`;
  }
  return `${open}>\n${escapeMarkers(content)}\n</untrusted-data>`;
}
