import { LIMITS } from "@/lib/contracts";
import type { AttrMap } from "./attributes";

/** Why a span that looks like a tool call was not stored; counted per emitter and shown on the conformance page. */
export type DropReason = "invalid_attribute" | "invalid_time" | "no_tool_name" | "unrecognised" | "malformed";

/**
 * A span that was read but cannot be stored; the message is reported in OTLP `partialSuccess`.
 * `attribute` names what the sender must fix (the fix hint of the conformance page).
 */
export class SpanRejection extends Error {
  constructor(
    message: string,
    readonly reason: DropReason,
    readonly attribute: string | null,
  ) {
    super(message);
  }
}

/** Refuses the span being read. */
export const reject = (message: string, reason: DropReason = "invalid_attribute", attribute: string | null = null): never => {
  throw new SpanRejection(message, reason, attribute);
};

/** Refuses the span for a bad time field. */
export const rejectTime = (message: string, attribute: string): never => reject(message, "invalid_time", attribute);

/** The first value that is neither null nor undefined. */
export function first<T>(...values: (T | null | undefined)[]): T | null {
  for (const v of values) if (v !== null && v !== undefined) return v;
  return null;
}

// faultline.* attributes are Faultline's own contract: a wrong value rejects the span, loudly.
// Other conventions' attributes are read leniently (`strict = false`): a value that does not fit is unknown.

export function text(a: AttrMap, key: string, max: number): string | null {
  if (!a.has(key)) return null;
  const v = a.get(key);
  if (typeof v !== "string" || v.trim() === "" || v.length > max) reject(`${key} must be a non-empty string of at most ${max} characters`, "invalid_attribute", key);
  return v as string;
}

export const id = (a: AttrMap, key: string) => text(a, key, LIMITS.maxIdLength);

export function oneOf<T extends string>(a: AttrMap, key: string, allowed: readonly T[]): T | null {
  if (!a.has(key)) return null;
  const v = a.get(key);
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) reject(`${key} must be one of ${allowed.join(", ")}`, "invalid_attribute", key);
  return v as T;
}

export function int(a: AttrMap, key: string, min: number, max: number, strict: boolean): number | null {
  if (!a.has(key)) return null;
  const v = a.get(key);
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  if (strict) reject(`${key} must be an integer from ${min} to ${max}`, "invalid_attribute", key);
  return null;
}

export function bool(a: AttrMap, key: string, strict: boolean): boolean | null {
  if (!a.has(key)) return null;
  const v = a.get(key);
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  if (strict) reject(`${key} must be a boolean`, "invalid_attribute", key);
  return null;
}

/** Where a span was found: its resource and instrumentation scope, and the receiver's clock. */
export interface SpanContext {
  resource: AttrMap;
  scopeName: string | null;
  scopeVersion: string | null;
  now: number;
}
