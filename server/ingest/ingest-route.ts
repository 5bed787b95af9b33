import type { IngestFormat } from "@/lib/ingest/format";
import { EnvelopeError } from "@/lib/ingest/format";
import { config } from "../config";
import { admit, whileBodyArrives } from "../http/admission";
import { ApiError } from "../http/api-error";
import { authenticateIngest } from "../http/auth";
import { withIngestSlot } from "../http/backpressure";
import { checkHost } from "../http/host-check";
import { clockMs, receivedAt } from "../http/node-server";
import { ANSWER_HEADERS, otlpEncodingOf, otlpRoute, otlpSuccess } from "../http/otlp-response";
import { contentTypeOf, readBody } from "../http/read-body";
import { route } from "../http/route";
import { scheduleDriftFold } from "../jobs/drift-fold";
import { noteWriteSucceeded, storageHealth } from "../storage-fault";
import { getStore } from "../store";
import { ingestEnvelope } from "./ingest-envelope";

/** Spans named in an OTLP `partialSuccess.errorMessage`; the count covers the rest. */
const MESSAGE_SPANS = 5;

function parse<E>(format: IngestFormat<E>, body: Uint8Array, contentType: string, query: URLSearchParams): E {
  try {
    return format.parse(body, contentType, query);
  } catch (error) {
    if (error instanceof EnvelopeError) throw new ApiError(error.code, error.message, error.issues);
    throw error;
  }
}

function otlpMessage(rejected: readonly { id: string | null; message: string }[], notes: readonly { message: string }[] = []): string {
  const listed = rejected.slice(0, MESSAGE_SPANS).map((r) => `span ${r.id ?? "(no id)"}: ${r.message}`).join("; ");
  const more = rejected.length > MESSAGE_SPANS ? `; and ${rejected.length - MESSAGE_SPANS} more` : "";
  // OTLP lets a full success carry a warning in the same field.
  const noted = notes.length > 0 ? `${listed || more ? "; " : ""}${notes.length} span(s) stored with changes: ${notes[0]!.message}` : "";
  return listed + more + noted;
}

/** A database that failed its integrity check takes no more writes until it passes one. */
function assertWritable(): void {
  const health = storageHealth();
  if (health.status === "degraded" && !health.acceptsWrites) {
    throw new ApiError("unavailable", health.reason, undefined, { "Retry-After": "60" });
  }
}

/**
 * The `POST` handler of an ingest endpoint: the same host check, admission control, key check,
 * body limits and deadline, backpressure, storage, background drift fold and error answers for
 * every format; only the answer's shape follows the format (Faultline's 200/207 result, or OTLP's
 * `partialSuccess`). Cheap refusals come first, before anything is read: a request that queued
 * past the budget is shed (429) before its key is even looked up.
 */
export function ingestRoute<E>(format: IngestFormat<E>): (req: Request) => Promise<Response> {
  const wrap = format.answer === "otlp" ? otlpRoute : route;
  return wrap(async (req: Request) => {
    const c = config();
    checkHost(req, c.allowedHosts);
    admit(req);
    const store = await getStore();
    const { projectId, key } = await authenticateIngest(req, store);
    assertWritable();
    return withIngestSlot(key, async () => {
      // The body's deadline counts from the headers' arrival: time spent queued is the client's too.
      const deadline = (receivedAt(req) ?? clockMs()) + c.bodyTimeoutMs;
      const body = await whileBodyArrives(req, () => readBody(req, format.contentTypes, { deadline, timeoutMs: c.bodyTimeoutMs }));
      const result = await ingestEnvelope(store, projectId, format, parse(format, body, contentTypeOf(req), new URL(req.url).searchParams));
      // New rows were committed, so the file takes writes again (duplicates alone write nothing).
      if (result.accepted > result.duplicates) noteWriteSucceeded();
      scheduleDriftFold(projectId);
      if (format.answer === "otlp") return otlpSuccess(result.rejected.length, otlpMessage(result.rejected, result.notes), otlpEncodingOf(req));
      return new Response(JSON.stringify(result), { status: result.rejected.length > 0 ? 207 : 200, headers: { "content-type": "application/json", ...ANSWER_HEADERS } });
    });
  });
}
