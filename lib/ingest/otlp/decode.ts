import { otlpSpanSchema, otlpTraceRequestSchema, type OtlpSpanJson } from "@/lib/contracts/otlp";
import { decodeAttributes, type AttrMap } from "./attributes";
import { otlpType } from "./proto-schema";

/** The body could not be read as an ExportTraceServiceRequest at all (an OTLP 400). */
export class OtlpDecodeError extends Error {}

export interface DecodedScope {
  name: string | null;
  version: string | null;
  /** Spans as sent; each is checked alone by `checkSpan`. */
  spans: unknown[];
}

export interface DecodedRequest {
  resources: { attributes: AttrMap; scopes: DecodedScope[] }[];
}

/** A decoded span with ids in lower-case hex and times in nanoseconds. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: AttrMap;
  events: { name: string; timeNs: bigint | null; attributes: AttrMap }[];
  statusCode: number;
  statusMessage: string | null;
}

/** Reads the OTLP/JSON envelope; unknown fields are ignored, a wrong shape is an OtlpDecodeError. */
export function decodeJsonRequest(body: unknown): DecodedRequest {
  const parsed = otlpTraceRequestSchema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new OtlpDecodeError(`not an ExportTraceServiceRequest: ${first ? `${first.path.join(".") || "(body)"}: ${first.message}` : "invalid"}`);
  }
  return {
    resources: (parsed.data.resourceSpans ?? []).map((rs) => ({
      attributes: decodeAttributes(rs.resource?.attributes),
      scopes: (rs.scopeSpans ?? []).map((ss) => ({
        name: ss.scope?.name || null,
        version: ss.scope?.version || null,
        spans: ss.spans ?? [],
      })),
    })),
  };
}

const ID_FIELDS = ["traceId", "spanId", "parentSpanId"] as const;

/**
 * Decodes a protobuf ExportTraceServiceRequest with protobufjs into the OTLP/JSON object form (ids
 * as hex, 64-bit integers as decimal strings), so both encodings share one validation path.
 */
export function decodeProtobufRequest(body: Uint8Array): DecodedRequest {
  const type = otlpType("ExportTraceServiceRequest");
  let object: Record<string, unknown>;
  try {
    object = type.toObject(type.decode(body), { longs: String, enums: Number, bytes: String, defaults: false });
  } catch (error) {
    throw new OtlpDecodeError(`body is not a protobuf ExportTraceServiceRequest: ${protobufProblem(error)}`);
  }
  for (const rs of (object.resourceSpans as { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] | undefined) ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        for (const field of ID_FIELDS) {
          if (typeof span[field] === "string") span[field] = Buffer.from(span[field], "base64").toString("hex");
        }
      }
    }
  }
  return decodeJsonRequest(object);
}

/**
 * What was wrong with a protobuf body, in words a client can act on. protobufjs's own messages name
 * its internals ("index out of range: 5 + 10 > 12", "invalid wire type 7 at offset 3") and a deeply
 * nested value surfaces as a stack overflow; only the byte offsets are kept from them.
 */
function protobufProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  if (/call stack|maximum nesting depth/i.test(message)) return "values are nested too deeply";
  const outOfRange = /index out of range: (\d{1,12}) \+ (\d{1,12}) > (\d{1,12})/.exec(message);
  if (outOfRange) return `truncated: a field at byte ${outOfRange[1]} needs ${outOfRange[2]} more bytes, the body has ${outOfRange[3]}`;
  if (message.startsWith("index out of range")) return "truncated: a field runs past the end of the body";
  const wireType = /invalid wire type (\d{1,3}) at offset (\d{1,12})/.exec(message);
  if (wireType) return `malformed field at byte ${wireType[2]} (wire type ${wireType[1]} is not valid)`;
  return "malformed or truncated";
}

export type SpanCheck = { ok: true; span: OtlpSpan } | { ok: false; spanId: string | null; reason: string };

/** Validates one span alone. */
export function checkSpan(raw: unknown): SpanCheck {
  const parsed = otlpSpanSchema.safeParse(raw);
  if (!parsed.success) {
    const rawId = (raw as { spanId?: unknown } | null)?.spanId;
    const spanId = typeof rawId === "string" ? rawId.slice(0, 32) : null;
    const reason = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(span)"}: ${i.message}`)
      .join("; ");
    return { ok: false, spanId, reason };
  }
  return { ok: true, span: toSpan(parsed.data) };
}

function toSpan(s: OtlpSpanJson): OtlpSpan {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId ? s.parentSpanId : null,
    name: s.name ?? "",
    startNs: toNanos(s.startTimeUnixNano),
    endNs: toNanos(s.endTimeUnixNano),
    attributes: decodeAttributes(s.attributes),
    events: (s.events ?? []).map((e) => ({
      name: e.name ?? "",
      timeNs: e.timeUnixNano === undefined ? null : toNanos(e.timeUnixNano),
      attributes: decodeAttributes(e.attributes),
    })),
    statusCode: s.status?.code ?? 0,
    statusMessage: s.status?.message ? s.status.message : null,
  };
}

// A JSON number above 2^53 was already rounded by JSON.parse (to a multiple of 256 ns near today), so
// it is rounded to whole microseconds: 1767225600005000000 must stay in millisecond …005, not …004.
const toNanos = (v: string | number): bigint => (typeof v === "string" ? BigInt(v) : BigInt(Math.round(v / 1000)) * 1000n);

/** Nanoseconds since the epoch as integer milliseconds. */
export const nanosToMs = (ns: bigint): number => Number(ns / 1_000_000n);
