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
export const REJECTION_CODES = ["not_an_object", "unknown_type", "record_too_large", "invalid_record"] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export const rejectionSchema = z.object({
  index: z.number().int(),
  id: z.string().nullable(),
  code: z.enum(REJECTION_CODES),
  message: z.string(),
});
export type Rejection = z.infer<typeof rejectionSchema>;

/** The answer to an ingest request (`200` or `207`). */
export const ingestResultSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(rejectionSchema),
});
export type IngestResult = z.infer<typeof ingestResultSchema>;

export type RecordCheck = { ok: true; record: IngestRecord } | { ok: false; rejection: Rejection };

const textEncoder = new TextEncoder();

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

function serializedSize(obj: Record<string, unknown>): number {
  return flatSizeBound(obj) <= LIMITS.maxRecordBytes ? 0 : textEncoder.encode(JSON.stringify(obj)).length;
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
  const size = serializedSize(obj);
  if (size > LIMITS.maxRecordBytes) {
    return {
      ok: false,
      rejection: { index, id, code: "record_too_large", message: `record is ${size} bytes; the limit is ${LIMITS.maxRecordBytes}` },
    };
  }
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
