import { z } from "zod";
import { RECORD_TYPES } from "./enums";
import { LIMITS } from "./limits";
import { nameSchema, versionSchema } from "./primitives";
import { ingestRecordSchema, type IngestRecord } from "./records";

/** What is true for every record of a batch. */
export const resourceSchema = z.object({
  service: nameSchema.optional(),
  release: versionSchema.optional(),
  environment: nameSchema.optional(),
  sdk: z.object({ name: nameSchema, version: versionSchema }).optional(),
});
export type Resource = z.infer<typeof resourceSchema>;

/**
 * The batch envelope. Records stay `unknown` here: each is validated on its own so that one bad
 * record is rejected alone instead of failing the whole batch.
 */
export const ingestBatchSchema = z.object({
  resource: resourceSchema.optional(),
  records: z
    .array(z.unknown())
    .min(1, "must contain at least one record")
    .max(LIMITS.maxRecords, `must contain at most ${LIMITS.maxRecords} records`),
});
export type IngestBatch = z.infer<typeof ingestBatchSchema>;

/** Per-record rejection reasons. */
/** `storage_refused`: the record passed every check but the database would not store it (the rest of its batch was). */
export const REJECTION_CODES = ["not_an_object", "unknown_type", "record_too_large", "invalid_record", "storage_refused"] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export const rejectionSchema = z.object({
  index: z.number().int(),
  id: z.string().nullable(),
  code: z.enum(REJECTION_CODES),
  message: z.string(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

/** A record stored with a change the sender should know of (see lib/contracts/text.ts). */
export const ingestNoteSchema = z.object({
  index: z.number().int(),
  id: z.string().nullable(),
  message: z.string(),
});
export type IngestNote = z.infer<typeof ingestNoteSchema>;

/** The answer to an ingest request (`200` or `207`); `notes` only when a stored record was changed. */
export const ingestResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(rejectionSchema),
  notes: z.array(ingestNoteSchema).optional(),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

export type RecordCheck = { ok: true; record: IngestRecord } | { ok: false; rejection: Rejection };

const textEncoder = new TextEncoder();

/**
 * Deepest nesting of objects and arrays a record may carry (in unknown fields too). Measuring a
 * record serialises it, and `JSON.stringify` recurses: a 10,000-level value would overflow the
 * stack and turn a client's mistake into a 500. No field of any wire record nests this deep.
 */
export const MAX_RECORD_DEPTH = 64;

/**
 * An upper bound of a flat record's JSON size in UTF-8 bytes (3 bytes per UTF-16 unit covers every
 * character, 6 covers escapes), or Infinity for nested values. Lets the common small record skip
 * serialising itself just to be measured.
 */
function flatSizeBound(obj: Record<string, unknown>): number {
  let bound = 2;
  for (const key in obj) {
    const value = obj[key];
    bound += key.length * 6 + 4;
    if (typeof value === "string") bound += value.length * 6 + 2;
    else if (typeof value === "number" || typeof value === "boolean" || value === null) bound += 24;
    else return Infinity;
  }
  return bound;
}

/**
 * The same bound for a record with nested values, walked without recursion (every value is visited
 * once, so the walk is linear in the body, which the body limit caps), or `"too_deep"` past
 * {@link MAX_RECORD_DEPTH}.
 */
function nestedSizeBound(root: Record<string, unknown>): number | "too_deep" {
  let bound = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === "string") bound += value.length * 6 + 2;
    else if (typeof value !== "object" || value === null) bound += 24;
    else if (depth > MAX_RECORD_DEPTH) return "too_deep";
    else if (Array.isArray(value)) {
      bound += 2 + value.length;
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
    } else {
      bound += 2;
      for (const key in value) {
        bound += key.length * 6 + 4;
        stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
      }
    }
  }
  return bound;
}

/**
 * The record's serialised size when it may exceed {@link LIMITS.maxRecordBytes} (0 when its bound
 * proves it cannot), or `"too_deep"`. Shared by every format's per-record check.
 */
export function measureRecord(obj: Record<string, unknown>): number | "too_deep" {
  const flat = flatSizeBound(obj);
  const bound = flat === Infinity ? nestedSizeBound(obj) : flat;
  if (bound === "too_deep") return bound;
  return bound <= LIMITS.maxRecordBytes ? 0 : textEncoder.encode(JSON.stringify(obj)).length;
}

/** The rejection for a record that fails {@link measureRecord}, or null when it fits. */
export function sizeRejection(obj: Record<string, unknown>, index: number, id: string | null): Rejection | null {
  const size = measureRecord(obj);
  if (size === "too_deep") {
    return { index, id, code: "invalid_record", message: `record nests deeper than ${MAX_RECORD_DEPTH} levels` };
  }
  if (size > LIMITS.maxRecordBytes) {
    return { index, id, code: "record_too_large", message: `record is ${size} bytes; the limit is ${LIMITS.maxRecordBytes}` };
  }
  return null;
}

/** Formats zod issues as one precise line: `field.path: message; other: message`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 10)
    .map((i) => `${i.path.length ? i.path.join(".") : "(record)"}: ${i.message}`)
    .join("; ");
}

/** Validates one record of a batch on its own. */
export function checkRecord(raw: unknown, index: number): RecordCheck {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, rejection: { index, id: null, code: "not_an_object", message: "record must be a JSON object" } };
  }
  const obj = raw as Record<string, unknown>;
  const id = typeof obj.id === "string" ? obj.id.slice(0, LIMITS.maxIdLength) : null;
  const tooLarge = sizeRejection(obj, index, id);
  if (tooLarge) return { ok: false, rejection: tooLarge };
  if (typeof obj.type !== "string" || !(RECORD_TYPES as readonly string[]).includes(obj.type)) {
    return {
      ok: false,
      rejection: {
        index,
        id,
        code: "unknown_type",
        message: `type must be one of ${RECORD_TYPES.join(", ")}`,
      },
    };
  }
  const parsed = ingestRecordSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, rejection: { index, id, code: "invalid_record", message: formatIssues(parsed.error.issues) } };
  }
  return { ok: true, record: parsed.data };
}
