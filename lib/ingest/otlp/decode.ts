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
  const plain = plainSpan(raw);
  return plain !== null ? { ok: true, span: plain } : checkSpanBySchema(raw);
}

/** `checkSpan` through the schema alone, for every span: what `plainSpan` must agree with. */
export function checkSpanBySchema(raw: unknown): SpanCheck {
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

// The common span, read by hand: every check below is one of otlpSpanSchema's, or stricter (a name
// within 1,024 UTF-16 units, where the schema counts code points; status and kind numbers that are
// safe integers), and the values read are those toSpan reads from the schema's output. Whatever is
// not plainly valid goes through the schema, so every refusal keeps the schema's message; the two
// paths are compared in test/unit/otlp/plain-span.test.ts.
const HEX32 = /^[0-9a-fA-F]{32}$/;
const HEX16 = /^[0-9a-fA-F]{16}$/;
const ZEROES = /^0+$/;
const DECIMAL = /^\d{1,20}$/;
const STATUS_NAMES: Readonly<Record<string, number>> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const hexId = (v: unknown, pattern: RegExp): string | null => (typeof v === "string" && pattern.test(v) && !ZEROES.test(v) ? v.toLowerCase() : null);
const isUnsignedLong = (v: unknown): v is string | number =>
  typeof v === "string" ? DECIMAL.test(v) : typeof v === "number" && Number.isFinite(v) && v >= 0 && Number.isInteger(v);

function isAttributeList(v: unknown): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (const kv of v) if (!isPlainObject(kv) || typeof kv.key !== "string") return false;
  return true;
}

function plainEvents(v: unknown): OtlpSpan["events"] | null {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return null;
  const out: OtlpSpan["events"] = [];
  for (const e of v) {
    if (!isPlainObject(e)) return null;
    const { name, timeUnixNano, attributes } = e;
    if ((name !== undefined && typeof name !== "string") || (timeUnixNano !== undefined && !isUnsignedLong(timeUnixNano)) || !isAttributeList(attributes)) return null;
    out.push({ name: name ?? "", timeNs: timeUnixNano === undefined ? null : toNanos(timeUnixNano), attributes: decodeAttributes(attributes) });
  }
  return out;
}

/** The span when it is plainly valid (the common case), else null: then the schema decides. */
export function plainSpan(raw: unknown): OtlpSpan | null {
  if (!isPlainObject(raw)) return null;
  const traceId = hexId(raw.traceId, HEX32);
  const spanId = hexId(raw.spanId, HEX16);
  if (traceId === null || spanId === null) return null;
  const parent = raw.parentSpanId;
  const parentSpanId = parent === undefined || parent === "" ? null : hexId(parent, HEX16);
  if (parent !== undefined && parent !== "" && parentSpanId === null) return null;
  const { name, kind, startTimeUnixNano, endTimeUnixNano, status } = raw;
  if (name !== undefined && (typeof name !== "string" || name.length > 1024)) return null;
  if (kind !== undefined && typeof kind !== "string" && !Number.isSafeInteger(kind)) return null;
  if (!isUnsignedLong(startTimeUnixNano) || !isUnsignedLong(endTimeUnixNano) || !isAttributeList(raw.attributes)) return null;
  let statusCode = 0;
  let statusMessage: string | null = null;
  if (status !== undefined) {
    if (!isPlainObject(status)) return null;
    const { code, message } = status;
    if (code !== undefined) {
      if (Number.isSafeInteger(code)) statusCode = code as number;
      else if (typeof code === "string" && Object.prototype.hasOwnProperty.call(STATUS_NAMES, code)) statusCode = STATUS_NAMES[code]!;
      else return null;
    }
    if (message !== undefined && typeof message !== "string") return null;
    statusMessage = message ? message : null;
  }
  const events = plainEvents(raw.events);
  if (events === null) return null;
  return {
    traceId,
    spanId,
    parentSpanId,
    name: name ?? "",
    startNs: toNanos(startTimeUnixNano),
    endNs: toNanos(endTimeUnixNano),
    attributes: decodeAttributes(raw.attributes),
    events,
    statusCode,
    statusMessage,
  };
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
