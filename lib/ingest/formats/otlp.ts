import { otlpTraceRequestSchema } from "@/lib/contracts/otlp";
import { EnvelopeError, parseJsonBody, type IngestFormat } from "../format";
import { normalizeOtlp } from "../normalize-otlp";
import { decodeJsonRequest, decodeProtobufRequest, OtlpDecodeError, type DecodedRequest } from "../otlp/decode";
import { extractToolSpans } from "../otlp/tool-spans";
import { emptyRowBatch } from "../rows";

function decode(body: Uint8Array, contentType: string): DecodedRequest {
  try {
    return contentType === "application/x-protobuf" ? decodeProtobufRequest(body) : decodeJsonRequest(parseJsonBody(body));
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw new EnvelopeError("bad_request", error.message);
    throw error;
  }
}

/**
 * `POST /v1/traces`: OTLP/HTTP trace export, JSON or protobuf. Tool spans and agent spans (run records)
 * are stored; every other valid span is acknowledged and not stored, as OTLP receivers do. Refused
 * spans have no record index: they are reported by span id in `partialSuccess`.
 */
export const otlpFormat: IngestFormat<DecodedRequest> = {
  name: "otlp",
  envelope: otlpTraceRequestSchema,
  answer: "otlp",
  contentTypes: ["application/json", "application/x-protobuf"],
  parse: decode,
  normalize(request, now = Date.now()) {
    const { tools, runs, rejected } = extractToolSpans(request, now);
    return {
      rows: normalizeOtlp(tools, runs, emptyRowBatch()),
      rejections: rejected.map((r) => ({ index: -1, id: r.spanId, code: "invalid_record" as const, message: r.reason })),
      accepted: tools.length + runs.length,
    };
  },
};
