/**
 * A dynamic route segment as the user wrote it. Links encode names with encodeURIComponent and the
 * segment arrives still percent-encoded; a malformed escape is kept as it came.
 */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
