import type { OtlpStatus, OtlpTraceResponse } from "@/lib/contracts/otlp";
import { otlpType } from "./proto-schema";

export type OtlpEncoding = "json" | "protobuf";

/** The ExportTraceServiceResponse body: `partialSuccess` only when something was rejected. */
export function traceResponseBody(rejectedSpans: number, errorMessage: string, encoding: OtlpEncoding): Uint8Array | string {
  const json: OtlpTraceResponse =
    rejectedSpans > 0 || errorMessage ? { partialSuccess: { rejectedSpans: String(rejectedSpans), errorMessage } } : {};
  if (encoding === "json") return JSON.stringify(json);
  const type = otlpType("ExportTraceServiceResponse");
  return type.encode(type.fromObject(json)).finish();
}

/** A google.rpc.Status body for an OTLP/HTTP error answer. */
export function statusBody(status: Omit<OtlpStatus, "details">, encoding: OtlpEncoding): Uint8Array | string {
  if (encoding === "json") return JSON.stringify({ ...status, details: [] } satisfies OtlpStatus);
  const type = otlpType("RpcStatus");
  return type.encode(type.fromObject(status)).finish();
}

/** Decodes a protobuf ExportTraceServiceResponse (for tests and clients). */
export function decodeTraceResponse(body: Uint8Array): OtlpTraceResponse {
  const type = otlpType("ExportTraceServiceResponse");
  return type.toObject(type.decode(body), { longs: String, defaults: false }) as OtlpTraceResponse;
}

/** Decodes a protobuf google.rpc.Status (for tests and clients). */
export function decodeStatus(body: Uint8Array): { code?: number; message?: string } {
  const type = otlpType("RpcStatus");
  return type.toObject(type.decode(body), { defaults: false });
}
