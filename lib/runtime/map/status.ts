function read(value: Record<string, unknown>, key: string): unknown {
  try {
    return value[key];
  } catch {
    return undefined;
  }
}

/**
 * Reads an HTTP status from an error: the first integer among `statusCode`, `status_code`,
 * `status`, `response.status`. Strings (`"409"`) and booleans are ignored rather than coerced,
 * so only a value a client library really set as a number can select a status rule. Throwing
 * getters read as absent.
 */
export function readStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as Record<string, unknown>;
  const response = read(e, "response");
  const candidates = [
    () => read(e, "statusCode"),
    () => read(e, "status_code"),
    () => read(e, "status"),
    () => (typeof response === "object" && response !== null ? read(response as Record<string, unknown>, "status") : undefined),
  ];
  for (const candidate of candidates) {
    const value = candidate();
    if (typeof value === "number" && Number.isInteger(value)) return value;
  }
  return undefined;
}
