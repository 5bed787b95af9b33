import { sha256Hex } from "./sha256";

/** Hex characters of an arguments hash (64 bits: collisions within one run are not a concern). */
export const ARGS_HASH_HEX = 16;

/** What the wire accepts as `args_hash`: lowercase hex, 8 to 64 characters (other runtimes may hash longer). */
export const ARGS_HASH_PATTERN = /^[0-9a-f]{8,64}$/;

const MAX_DEPTH = 64;

function number(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  // -0 and 0 are the same argument; String() already gives the shortest round-trip form (1.0 → 1).
  return Object.is(n, -0) ? "0" : String(n);
}

// ASCII text is its own NFC form; the check is cheaper than normalize()'s copy on the hot path.
const NOT_ASCII = /[^\x00-\x7f]/;
const nfc = (text: string) => (NOT_ASCII.test(text) ? text.normalize("NFC") : text);

/** An object's members as canonical JSON: keys sorted by UTF-16 code units, absent values left out. */
function members(entries: [string, unknown][], seen: Set<object>, depth: number): string {
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = "{";
  for (const [key, item] of entries) {
    const text = canonical(item, seen, depth + 1);
    if (text === undefined) continue;
    if (out.length > 1) out += ",";
    out += `${JSON.stringify(nfc(key))}:${text}`;
  }
  return `${out}}`;
}

function canonical(value: unknown, seen: Set<object>, depth: number): string | undefined {
  switch (typeof value) {
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return number(value);
    case "bigint":
      return value.toString();
    case "string":
      return JSON.stringify(nfc(value));
  }
  if (value === null) return "null";
  const object = value as object;
  if (depth >= MAX_DEPTH) return '"[deep]"';
  if (seen.has(object)) return '"[cycle]"';
  seen.add(object);
  try {
    const toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return canonical((toJSON as () => unknown).call(object), seen, depth + 1);
    if (Array.isArray(object) || object instanceof Set) {
      const items = Array.from(object as Iterable<unknown>, (item) => canonical(item, seen, depth + 1) ?? "null");
      return `[${items.join(",")}]`;
    }
    if (object instanceof Map) return members(Array.from(object, ([k, v]) => [String(k), v]), seen, depth);
    // Values are read before sorting, as Object.entries reads them: a getter sees the same order.
    return members(Object.entries(object), seen, depth);
  } finally {
    seen.delete(object);
  }
}

/**
 * The canonical text of a tool call's arguments: JSON with object keys sorted, numbers in their
 * shortest form (-0 is 0, 1.0 is 1), strings in Unicode NFC, absent and function-valued fields
 * left out, and no insignificant whitespace. Two argument values that mean the same call have the
 * same text. Never throws: cycles and nesting deeper than 64 levels become placeholders.
 */
export function canonicalArgs(args: unknown): string {
  try {
    return canonical(args, new Set(), 0) ?? "null";
  } catch {
    // A getter or toJSON that throws: the arguments cannot be read, so they hash as unreadable.
    return '"[unreadable]"';
  }
}

/**
 * A stable hash of a tool call's arguments (the first {@link ARGS_HASH_HEX} hex characters of the
 * SHA-256 of {@link canonicalArgs}). The runtime library and OTLP ingest compute it the same way,
 * so "the model called again with the same arguments" can be told without storing the arguments.
 */
export function argsHash(args: unknown): string {
  return sha256Hex(canonicalArgs(args)).slice(0, ARGS_HASH_HEX);
}

/**
 * The hash of arguments that arrived as text (an OTLP attribute): JSON text is parsed first, so its
 * formatting does not matter and it hashes as the runtime hashes the same value; other text hashes
 * as a string with its whitespace runs collapsed.
 */
export function argsHashOfText(text: string): string {
  const trimmed = text.trim();
  if (trimmed !== "") {
    try {
      return argsHash(JSON.parse(trimmed) as unknown);
    } catch {
      // Not JSON: hashed as text below.
    }
  }
  return argsHash(trimmed.replace(/\s+/g, " "));
}
