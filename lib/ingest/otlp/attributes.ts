/** A decoded attribute value. Maps (not objects) hold kvlists, so `__proto__` keys are plain data. */
export type AttrValue = string | number | boolean | null | AttrValue[] | AttrMap;
export type AttrMap = Map<string, AttrValue>;

// Nested arrays/kvlists deeper than this are cut off: nothing Faultline reads is nested, and the
// limit keeps a hostile body from recursing the stack away.
const MAX_DEPTH = 8;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const has = (o: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** One OTLP `AnyValue` (JSON or protobufjs object form) as a plain value. */
export function decodeAnyValue(value: unknown, depth = 0): AttrValue {
  if (!isRecord(value) || depth > MAX_DEPTH) return null;
  if (has(value, "stringValue") && typeof value.stringValue === "string") return value.stringValue;
  if (has(value, "boolValue") && typeof value.boolValue === "boolean") return value.boolValue;
  if (has(value, "intValue")) return decodeInt(value.intValue);
  if (has(value, "doubleValue") && typeof value.doubleValue === "number") return value.doubleValue;
  if (has(value, "bytesValue") && typeof value.bytesValue === "string") return value.bytesValue;
  if (has(value, "arrayValue") && isRecord(value.arrayValue)) {
    const values = Array.isArray(value.arrayValue.values) ? value.arrayValue.values : [];
    return values.map((v) => decodeAnyValue(v, depth + 1));
  }
  if (has(value, "kvlistValue") && isRecord(value.kvlistValue)) {
    return decodeAttributes(value.kvlistValue.values, depth + 1);
  }
  return null;
}

/** 64-bit integers arrive as decimal strings or numbers; unsafe magnitudes stay decimal strings. */
function decodeInt(v: unknown): AttrValue {
  if (typeof v === "number") return Number.isInteger(v) ? v : null;
  if (typeof v !== "string" || !/^-?\d{1,20}$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

/** A `KeyValue` list as a map; a repeated key keeps its first value (keys must be unique in OTLP). */
export function decodeAttributes(list: unknown, depth = 0): AttrMap {
  const out: AttrMap = new Map();
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isRecord(kv) || typeof kv.key !== "string" || out.has(kv.key)) continue;
    out.set(kv.key, decodeAnyValue(kv.value, depth));
  }
  return out;
}

/** A non-empty string attribute, or null. */
export function attrString(attrs: AttrMap, key: string): string | null {
  const v = attrs.get(key);
  return typeof v === "string" && v.trim() !== "" ? v : null;
}
