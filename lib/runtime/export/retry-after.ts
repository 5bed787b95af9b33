/**
 * Parses an HTTP `Retry-After` value (delta seconds or an HTTP-date) into milliseconds from `now`.
 * Returns `undefined` when absent or unparseable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only an HTTP-date (it always contains "GMT") is read as a date; random text must not parse.
  if (!/GMT$/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
