/**
 * Reads an HTTP status from an error: the first integer among `statusCode`, `status_code`,
 * `status`, `response.status`. Strings (`"409"`) and booleans are ignored rather than coerced,
 * so only a value a client library really set as a number can select a status rule.
 */
export function readStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as Record<string, unknown>;
  const response = e.response;
  const candidates = [
    e.statusCode,
    e.status_code,
    e.status,
    typeof response === "object" && response !== null ? (response as Record<string, unknown>).status : undefined,
  ];
  for (const value of candidates) {
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  return undefined;
}
