import {
  ARGS_HASH_PATTERN,
  checkRecord,
  DECISIONS,
  ERROR_CLASSES,
  LIMITS,
  MAX_FUTURE_SKEW_MS,
  measureRecord,
  MIN_TIME_MS,
  NO_CONTROL,
  OUTCOMES,
  type RecordCheck,
  type ToolCallSpanRecord,
} from "@/lib/contracts";

// The common native record, a tool call span, read by hand: zod was most of the native format's
// JavaScript per record. Every check is one of toolCallSpanRecordSchema's or stricter (lengths in
// UTF-16 units where the schema counts code points; times as integers only, RFC 3339 strings go to
// the schema), and the output is the schema's (names trimmed, unknown fields left out). Whatever is
// not plainly valid goes through `checkRecord`, so every refusal keeps its message; the two are
// compared field by field in test/unit/contracts/plain-record.test.ts.

const OUTCOME_SET: ReadonlySet<unknown> = new Set(OUTCOMES);
const ERROR_CLASS_SET: ReadonlySet<unknown> = new Set(ERROR_CLASSES);
const DECISION_SET: ReadonlySet<unknown> = new Set(DECISIONS);
const INVALID = Symbol("invalid");
type Read<T> = T | typeof INVALID;

const bounded = (v: unknown, max: number): v is string => typeof v === "string" && v.length >= 1 && v.length <= max && NO_CONTROL.test(v);
const id = (v: unknown): Read<string> => (bounded(v, LIMITS.maxIdLength) ? v : INVALID);
const version = (v: unknown): Read<string> => (bounded(v, LIMITS.maxVersionLength) ? v : INVALID);
// nameSchema trims first, then checks what is left.
const name = (v: unknown): Read<string> => {
  if (typeof v !== "string") return INVALID;
  const t = v.trim();
  return bounded(t, LIMITS.maxNameLength) ? t : INVALID;
};
const intIn = (v: unknown, min: number, max: number): Read<number> => (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : INVALID);
const member = (set: ReadonlySet<unknown>) => (v: unknown) => (set.has(v) ? v : INVALID);
const boolean = (v: unknown): Read<boolean> => (typeof v === "boolean" ? v : INVALID);
const text = (v: unknown): Read<string> => (typeof v === "string" && v.length <= LIMITS.maxTextLength ? v : INVALID);
const hash = (v: unknown): Read<string> => (typeof v === "string" && ARGS_HASH_PATTERN.test(v) ? v : INVALID);
/** `.nullish()`: null and absent are kept as they came. */
const nullish = <T>(read: (v: unknown) => Read<T>) => (v: unknown): Read<T | null | undefined> => (v === null || v === undefined ? v : read(v));
const optional = <T>(read: (v: unknown) => Read<T>) => (v: unknown): Read<T | undefined> => (v === undefined ? v : read(v));

/** The span record's fields and how each is read, in the schema's order. */
const FIELDS = {
  id,
  trace_id: nullish(id),
  parent_span_id: nullish(id),
  run_id: id,
  call_id: id,
  tool: name,
  tool_version: nullish(version),
  attempt: (v: unknown) => intIn(v, 1, LIMITS.maxAttempt),
  started_at: (v: unknown) => v,
  ended_at: (v: unknown) => v,
  outcome: member(OUTCOME_SET),
  code: nullish((v) => (bounded(v, LIMITS.maxCodeLength) ? v : INVALID)),
  error_class: nullish(member(ERROR_CLASS_SET)),
  retryable: nullish(boolean),
  retry_after_ms: nullish((v) => intIn(v, 0, LIMITS.maxDelayMs)),
  backoff_ms: nullish((v) => intIn(v, 0, LIMITS.maxDelayMs)),
  decision: nullish(member(DECISION_SET)),
  permitted: nullish(boolean),
  abandoned: nullish(boolean),
  message: nullish(text),
  args_hash: nullish(hash),
  after_error: nullish(id),
  service: optional(name),
  release: optional(version),
  environment: optional(name),
} as const;
const FIELD_NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

/** A tool call span record when it is plainly valid, else null (then the schema decides). */
export function plainSpanRecord(raw: unknown): ToolCallSpanRecord | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  if (r.type !== "tool_call_span" || measureRecord(r) !== 0) return null;
  const { started_at: start, ended_at: end } = r;
  const latest = Date.now() + MAX_FUTURE_SKEW_MS;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  if ((start as number) < MIN_TIME_MS || (start as number) > latest || (end as number) < MIN_TIME_MS || (end as number) > latest || (end as number) < (start as number)) return null;
  const out: Record<string, unknown> = { type: "tool_call_span" };
  for (const key of FIELD_NAMES) {
    const value = r[key];
    const read = FIELDS[key](value);
    if (read === INVALID) return null;
    if (value !== undefined) out[key] = read;
  }
  return out as unknown as ToolCallSpanRecord;
}

/** `checkRecord`, with tool call spans that are plainly valid read by hand. */
export function checkNativeRecord(raw: unknown, index: number): RecordCheck {
  const plain = plainSpanRecord(raw);
  return plain !== null ? { ok: true, record: plain } : checkRecord(raw, index);
}
