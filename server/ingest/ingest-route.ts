import type { IngestFormat } from "@/lib/ingest/format";
import { EnvelopeError } from "@/lib/ingest/format";
import { ApiError } from "../http/api-error";
import { authenticateIngest } from "../http/auth";
import { withIngestSlot } from "../http/backpressure";
import { otlpEncodingOf, otlpRoute, otlpSuccess } from "../http/otlp-response";
import { contentTypeOf, readBody } from "../http/read-body";
import { route } from "../http/route";
import { scheduleDriftFold } from "../jobs/drift-fold";
import { getStore } from "../store";
import { ingestEnvelope } from "./ingest-envelope";

/** Spans named in an OTLP `partialSuccess.errorMessage`; the count covers the rest. */
const MESSAGE_SPANS = 5;

function parse<E>(format: IngestFormat<E>, body: Uint8Array, contentType: string): E {
  try {
    return format.parse(body, contentType);
  } catch (error) {
    if (error instanceof EnvelopeError) throw new ApiError(error.code, error.message, error.issues);
    throw error;
  }
}

function otlpMessage(rejected: readonly { id: string | null; message: string }[]): string {
  const listed = rejected.slice(0, MESSAGE_SPANS).map((r) => `span ${r.id ?? "(no id)"}: ${r.message}`).join("; ");
  return listed + (rejected.length > MESSAGE_SPANS ? `; and ${rejected.length - MESSAGE_SPANS} more` : "");
}

/**
 * The `POST` handler of an ingest endpoint: the same key check, body limits, backpressure, storage,
 * background drift fold and error answers for every format; only the answer's shape follows the
 * format (Faultline's 200/207 result, or OTLP's `partialSuccess`).
 */
export function ingestRoute<E>(format: IngestFormat<E>): (req: Request) => Promise<Response> {
  const wrap = format.answer === "otlp" ? otlpRoute : route;
  return wrap((req: Request) =>
    withIngestSlot(async () => {
      const store = getStore();
      const projectId = authenticateIngest(req, store);
      const body = await readBody(req, format.contentTypes);
      const result = ingestEnvelope(store, projectId, format, parse(format, body, contentTypeOf(req)));
      scheduleDriftFold(projectId);
      if (format.answer === "otlp") return otlpSuccess(result.rejected.length, otlpMessage(result.rejected), otlpEncodingOf(req));
      return Response.json(result, { status: result.rejected.length > 0 ? 207 : 200 });
    }),
  );
}
