import { scrubText } from "@/lib/contracts/scrub";

/** A scalar span attribute, as rules compare it. */
export type FactValue = string | number | boolean;

/**
 * What a failed span says about its failure beyond Faultline's own fields, kept for classification
 * (at ingest and again when a rule changes): the error type (exception type, else `error.type`), an
 * HTTP status, and the span's scalar attributes (bounded, see `boundAttributes`).
 */
export interface SpanFacts {
  errorType: string | null;
  httpStatus: number | null;
  attributes: Readonly<Record<string, FactValue>>;
}

const MAX_ATTRIBUTES = 64;
const MAX_VALUE_LENGTH = 512;
// Credentials are never kept, whatever their value looks like; other text is scrubbed as messages are.
const SECRET_KEY = /authorization|cookie|api[-_.]?key|token|secret|password|credential/i;

/**
 * The scalar attributes a rule may match, bounded so that a span with huge attributes costs a
 * bounded row: the first 64 keys, text values scrubbed and cut at 512 characters, credential-named
 * keys left out, `__proto__` kept as plain data.
 */
export function boundAttributes(entries: Iterable<[string, unknown]>): Record<string, FactValue> {
  const out: Record<string, FactValue> = Object.create(null) as Record<string, FactValue>;
  let n = 0;
  for (const [key, value] of entries) {
    if (n >= MAX_ATTRIBUTES) break;
    if (SECRET_KEY.test(key)) continue;
    // A header arrives as an array of strings (OpenTelemetry's `http.response.header.*`): its first value counts.
    const scalar = Array.isArray(value) && value.length > 0 ? value[0] : value;
    if (typeof scalar === "string") out[key] = scrubText(scalar.length > MAX_VALUE_LENGTH ? scalar.slice(0, MAX_VALUE_LENGTH) : scalar);
    else if (typeof scalar === "number" || typeof scalar === "boolean") out[key] = scalar;
    else continue;
    n++;
  }
  return out;
}

const STATUS_ATTRIBUTES = ["http.response.status_code", "http.status_code", "http.response.status", "status_code"];
// Provider SDKs put the status at the start of their messages: Python `Error code: 429 - {...}`,
// TypeScript `429 Rate limit reached…`.
const STATUS_IN_MESSAGE = /^(?:Error code: |Error: )?([1-5]\d\d)\b(?: -|\s+[A-Za-z{(])/;

const asStatus = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{3}$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : null;
};

/** The HTTP status of a failure: an attribute, else an `error.type` that is a status, else the message's. */
export function httpStatusOf(attributes: Readonly<Record<string, FactValue>>, errorType: string | null, message: string | null): number | null {
  for (const key of STATUS_ATTRIBUTES) {
    const status = asStatus(attributes[key]);
    if (status !== null) return status;
  }
  const fromType = asStatus(errorType);
  if (fromType !== null) return fromType;
  const m = message === null ? null : STATUS_IN_MESSAGE.exec(message);
  return m ? asStatus(m[1]) : null;
}

/** The attribute holding a JSON-RPC error code (OpenTelemetry's RPC conventions). */
export const RPC_ERROR_CODE = "rpc.jsonrpc.error_code";
const RPC_IN_MESSAGE = /\bMCP error (-32\d{3})\b|\bJSON-?RPC error (-32\d{3})\b|^(-32\d{3})\b/i;

/**
 * The facts of one failure: attributes bounded, the HTTP status found, and a JSON-RPC error code read
 * from an MCP SDK's message (`MCP error -32602: …`) when no attribute carries one.
 */
export function failureFacts(input: { attributes: Iterable<[string, unknown]>; errorType: string | null; message: string | null }): SpanFacts {
  const attributes = boundAttributes(input.attributes);
  if (attributes[RPC_ERROR_CODE] === undefined) {
    const m = input.message === null ? null : RPC_IN_MESSAGE.exec(input.message);
    const rpc = m ? (m[1] ?? m[2] ?? m[3]) : input.errorType !== null && /^-32\d{3}$/.test(input.errorType) ? input.errorType : undefined;
    if (rpc !== undefined) attributes[RPC_ERROR_CODE] = Number(rpc);
  }
  const errorType = input.errorType !== null && asStatus(input.errorType) === null && !/^-32\d{3}$/.test(input.errorType) ? input.errorType : null;
  return { errorType, httpStatus: httpStatusOf(attributes, input.errorType, input.message), attributes };
}

const HEADER_KEYS = ["http.response.header.retry-after-ms", "http.response.header.retry-after"];

/**
 * The wait an upstream asked for in its response headers, in milliseconds: `retry-after-ms` (OpenAI),
 * else `retry-after` in seconds or as an HTTP date (relative to `at`, the span's end). Null when absent
 * or unreadable; never negative, never beyond a day.
 */
export function retryAfterFromHeaders(attributes: Readonly<Record<string, FactValue>>, at: number): number | null {
  const ms = attributes[HEADER_KEYS[0]!];
  const secs = attributes[HEADER_KEYS[1]!];
  let out: number | null = null;
  if (ms !== undefined && /^\d+(?:\.\d+)?$/.test(String(ms).trim())) out = Math.round(Number(ms));
  else if (secs !== undefined) {
    const text = String(secs).trim();
    if (/^\d+(?:\.\d+)?$/.test(text)) out = Math.round(Number(text) * 1000);
    else {
      const date = Date.parse(text);
      if (Number.isFinite(date)) out = Math.max(0, date - at);
    }
  }
  return out === null ? null : Math.min(out, 86_400_000);
}
