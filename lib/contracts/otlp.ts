import { z } from "zod";

// OTLP/HTTP JSON (ExportTraceServiceRequest). Receivers must ignore unknown fields, which zod's
// default object parsing does. Field names are lowerCamelCase; 64-bit integers arrive as decimal
// strings or as numbers; ids are case-insensitive hex.

/** A 64-bit unsigned integer (nanosecond timestamps) as a decimal string or a number. */
export const otlpUnsignedLongSchema = z.union(
  [
    z.string().regex(/^\d{1,20}$/, "must be a decimal integer string"),
    // Not .int(): that demands a safe integer, and nanosecond times are beyond 2^53 as JSON numbers.
    z.number().nonnegative().refine(Number.isInteger, "must be an integer"),
  ],
  { error: "must be a non-negative integer (string or number)" },
);

const hexId = (bytes: number) =>
  z
    .string()
    .regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes * 2} hex characters`)
    .refine((s) => !/^0+$/.test(s), "must not be all zeroes")
    .transform((s) => s.toLowerCase());

/** A key/value attribute; the value is decoded by lib/otlp (nested values need a depth limit). */
export const otlpKeyValueSchema = z.object({ key: z.string(), value: z.unknown().optional() });

const attributes = z.array(otlpKeyValueSchema).optional();

/** Enum fields MUST be integers in OTLP/JSON; names are tolerated for lenient senders. */
const statusCode = z
  .union([z.number().int(), z.enum(["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"])])
  .transform((c) => (typeof c === "number" ? c : c === "STATUS_CODE_ERROR" ? 2 : c === "STATUS_CODE_OK" ? 1 : 0));

/** One span, validated on its own so one bad span is rejected alone. */
export const otlpSpanSchema = z.object({
  traceId: hexId(16),
  spanId: hexId(8),
  parentSpanId: z.union([z.literal(""), hexId(8)]).optional(),
  name: z.string().max(1024).optional(),
  kind: z.union([z.number().int(), z.string()]).optional(),
  startTimeUnixNano: otlpUnsignedLongSchema,
  endTimeUnixNano: otlpUnsignedLongSchema,
  attributes,
  events: z
    .array(z.object({ name: z.string().optional(), timeUnixNano: otlpUnsignedLongSchema.optional(), attributes }))
    .optional(),
  status: z.object({ code: statusCode.optional(), message: z.string().optional() }).optional(),
});
export type OtlpSpanJson = z.infer<typeof otlpSpanSchema>;

/** The request envelope; spans stay `unknown` until each is checked alone. */
export const otlpTraceRequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes }).optional(),
        scopeSpans: z
          .array(
            z.object({
              scope: z.object({ name: z.string().optional(), version: z.string().optional() }).optional(),
              spans: z.array(z.unknown()).optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
});
export type OtlpTraceRequestJson = z.infer<typeof otlpTraceRequestSchema>;

/** ExportTraceServiceResponse in OTLP/JSON: `partialSuccess` only when spans were rejected. */
export const otlpTraceResponseSchema = z.object({
  partialSuccess: z.object({ rejectedSpans: z.string(), errorMessage: z.string() }).optional(),
});
export type OtlpTraceResponse = z.infer<typeof otlpTraceResponseSchema>;

/** google.rpc.Status, the body of OTLP/HTTP error answers. */
export const otlpStatusSchema = z.object({ code: z.number().int(), message: z.string(), details: z.array(z.unknown()) });
export type OtlpStatus = z.infer<typeof otlpStatusSchema>;
