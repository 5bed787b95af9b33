import { API_ERROR_STATUS, type ApiErrorCode, type ErrorEnvelope } from "@/lib/contracts";
import { isDatabaseError, noteStorageFailure, storageFaultKind } from "../storage-fault";

/** An error with a client-facing code; its message is shown to the client as is. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: { path: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The answer to a request that storage cannot serve right now (and the seconds to wait for it). */
export const STORAGE_UNAVAILABLE: ErrorEnvelope = { error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } };
export const STORAGE_RETRY_AFTER = "5";

/** The one place an error becomes a response. Unknown errors never leak their message. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    const body: ErrorEnvelope = { error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
    return Response.json(body, { status: API_ERROR_STATUS[error.code], headers: error.headers });
  }
  if (isStorageUnavailable(error)) {
    // Health reports the fault (a busy lock is not one) until a write goes through again.
    noteStorageFailure(error);
    return Response.json(STORAGE_UNAVAILABLE, { status: 503, headers: { "Retry-After": STORAGE_RETRY_AFTER } });
  }
  if (isClientAbort(error)) {
    // The client went away mid-request: nobody reads this answer, and it is not a server fault.
    return Response.json({ error: { code: "bad_request", message: "the client closed the request before it was read" } } satisfies ErrorEnvelope, { status: 400 });
  }
  console.error("[faultline] unexpected error", error);
  return Response.json({ error: { code: "internal", message: "internal error" } } satisfies ErrorEnvelope, { status: 500 });
}

/** Database failures that are the storage's state, not the request's fault: 503, retry later. */
export function isStorageUnavailable(error: unknown): boolean {
  return isDatabaseError(error) && storageFaultKind(error) !== null;
}

// What a request body stream fails with when the client disconnects: Node's `aborted` /
// ECONNRESET from the socket, undici's `terminated`, or an AbortError from the request signal.
const ABORT_CODES = new Set(["ECONNRESET", "ECONNABORTED", "EPIPE", "ERR_STREAM_PREMATURE_CLOSE", "UND_ERR_ABORTED", "UND_ERR_SOCKET", "ABORT_ERR"]);

/** True when `error` (or its cause) means the client closed the connection, not that the server failed. */
export function isClientAbort(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, code, message } = e as { name?: unknown; code?: unknown; message?: unknown };
    if (name === "AbortError" || name === "ResponseAborted") return true;
    if (typeof code === "string" && ABORT_CODES.has(code)) return true;
    if (message === "aborted" || message === "terminated") return true;
  }
  return false;
}
