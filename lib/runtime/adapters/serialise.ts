/** A value as text for a model: the text, or why it could not be produced. */
export type Serialised = { ok: true; text: string } | { ok: false; reason: string };

// Cycles become "[Circular]" and bigints their decimal text, so ordinary results with a back
// reference or an id column still reach the model as data instead of failing outright.
function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown) {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "object" || value === null) return value;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return "[Circular]";
    ancestors.push(value);
    return value;
  };
}

/**
 * Text of a tool result: strings as they are, `undefined` as empty, everything else as JSON.
 * Never throws; when the value cannot be serialised at all (a throwing getter or `toJSON`, a
 * Proxy) it says why instead of falling back to `[object Object]`.
 */
export function serialiseResult(value: unknown): Serialised {
  if (typeof value === "string") return { ok: true, text: value };
  if (value === undefined) return { ok: true, text: "" };
  try {
    const json = JSON.stringify(value, replacer());
    // Functions and symbols have no JSON form.
    if (json === undefined) return { ok: false, reason: `a ${typeof value} has no JSON form` };
    return { ok: true, text: json };
  } catch (error) {
    let reason = "serialisation threw";
    try {
      if (error instanceof Error && typeof error.message === "string") reason = error.message.slice(0, 200);
    } catch {
      // keep the generic reason
    }
    return { ok: false, reason };
  }
}
