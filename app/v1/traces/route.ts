import { getStore } from "@/db/client";
import { ingestOtlpTraces } from "@/db/ingest/ingest-otlp";
import { decodeJsonRequest, decodeProtobufRequest, OtlpDecodeError, type DecodedRequest } from "@/lib/otlp/decode";
import { ApiError } from "@/lib/server/api-error";
import { authenticateIngest } from "@/lib/server/auth";
import { withIngestSlot } from "@/lib/server/backpressure";
import { otlpEncodingOf, otlpRoute, otlpSuccess } from "@/lib/server/otlp-response";
import { parseJson, readBody } from "@/lib/server/read-body";
import { scheduleDriftRefresh } from "@/lib/server/drift-refresh";

export const dynamic = "force-dynamic";

const OTLP_TYPES = ["application/json", "application/x-protobuf"];

function decode(body: Buffer, encoding: "json" | "protobuf"): DecodedRequest {
  try {
    return encoding === "json" ? decodeJsonRequest(parseJson(body)) : decodeProtobufRequest(body);
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw new ApiError("bad_request", error.message);
    throw error;
  }
}

/** OTLP/HTTP trace export: the tool spans are stored, every other span is acknowledged and dropped. */
export const POST = otlpRoute((req: Request) =>
  withIngestSlot(async () => {
    const store = getStore();
    const projectId = authenticateIngest(req, store);
    const encoding = otlpEncodingOf(req);
    const request = decode(await readBody(req, OTLP_TYPES), encoding);
    const result = ingestOtlpTraces(store, projectId, request);
    scheduleDriftRefresh(store, projectId);
    return otlpSuccess(result.rejectedSpans, result.errorMessage, encoding);
  }),
);
