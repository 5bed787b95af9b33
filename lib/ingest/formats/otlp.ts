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
 * `POST /v1/traces`: OTLP/HTTP trace export, JSON or protobuf. Tool spans, agent spans (run records)
 * and the runtime's final-error spans are stored; every other valid span is acknowledged and not
 * stored, as OTLP receivers do. Refused spans have no record index: they are reported by span id in
 * `partialSuccess`, and those that looked like tool calls are also counted per emitter and reason.
 */
export const otlpFormat: IngestFormat<DecodedRequest> = {
  name: "otlp",
  envelope: otlpTraceRequestSchema,
  answer: "otlp",
  contentTypes: ["application/json", "application/x-protobuf"],
  parse: decode,
  normalize(request, now = Date.now()) {
    const extract = extractToolSpans(request, now);
    return {
      rows: normalizeOtlp(extract, emptyRowBatch()),
      rejections: extract.rejected.map((r) => ({ index: -1, id: r.spanId, code: "invalid_record" as const, message: r.reason })),
      accepted: extract.tools.length + extract.runs.length + extract.toolErrors.length,
    };
  },
};
