import { statusBody, traceResponseBody, type OtlpEncoding } from "@/lib/ingest/otlp/response";
import { toErrorResponse } from "./api-error";
import type { DoorRefusal } from "./node-server";

const CONTENT_TYPE: Record<OtlpEncoding, string> = { json: "application/json", protobuf: "application/x-protobuf" };

// google.rpc.Code for each HTTP status an OTLP answer can carry.
const RPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

/** The encoding of the answer follows the request's content type (JSON unless it was protobuf). */
export function otlpEncodingOf(req: Request): OtlpEncoding {
  return encodingOfType(req.headers.get("content-type"));
}

function encodingOfType(contentType: string | null | undefined): OtlpEncoding {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/x-protobuf" ? "protobuf" : "json";
}

/**
 * An error answer given before Next sees the request (admission control's door): `headers` are the
 * envelope's, the body a google.rpc.Status in the encoding of the request's `contentType`.
 */
export function otlpDoorAnswer(status: number, message: string, headers: Record<string, string>, contentType: string | undefined): DoorRefusal {
  const encoding = encodingOfType(contentType);
  return {
    status,
    headers: { ...headers, "content-type": CONTENT_TYPE[encoding] },
    body: statusBody({ code: RPC_CODE[status] ?? 2, message }, encoding),
  };
}

/**
 * Headers of an ingest answer: never cached, and `no-transform`, which keeps Next's response
 * compression off it. The answer is a few dozen bytes that gzip would only grow, and compressing it
 * cost a zlib stream, its flush and extra socket writes per request (~6 % of the server's time
 * under the ingest bench).
 */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = { "cache-control": "no-store, no-transform" };

/** `200` with an ExportTraceServiceResponse, `partialSuccess` set when spans were rejected. */
export function otlpSuccess(rejectedSpans: number, errorMessage: string, encoding: OtlpEncoding): Response {
  const body = traceResponseBody(rejectedSpans, errorMessage, encoding);
  return new Response(body as BodyInit, { status: 200, headers: { "content-type": CONTENT_TYPE[encoding], ...ANSWER_HEADERS } });
}

/**
 * Wraps an OTLP handler: every error becomes the status and headers Faultline's error envelope would
 * have (so 429/503 keep `Retry-After`), with a google.rpc.Status body in the request's encoding.
 */
export function otlpRoute(handler: (req: Request) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    try {
      return await handler(req);
    } catch (error) {
      const envelope = toErrorResponse(error);
      const { error: e } = (await envelope.json()) as { error: { message: string } };
      const encoding = otlpEncodingOf(req);
      const headers = new Headers(envelope.headers);
      headers.set("content-type", CONTENT_TYPE[encoding]);
      const body = statusBody({ code: RPC_CODE[envelope.status] ?? 2, message: e.message }, encoding);
      return new Response(body as BodyInit, { status: envelope.status, headers });
    }
  };
}
