import { API_ERROR_STATUS, type ApiErrorCode, type ErrorEnvelope } from "@/lib/contracts";

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

/** The one place an error becomes a response. Unknown errors never leak their message. */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    const body: ErrorEnvelope = { error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
    return Response.json(body, { status: API_ERROR_STATUS[error.code], headers: error.headers });
  }
  if (isStorageUnavailable(error)) {
    return Response.json(
      { error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } } satisfies ErrorEnvelope,
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
  console.error("[faultline] unexpected error", error);
  return Response.json({ error: { code: "internal", message: "internal error" } } satisfies ErrorEnvelope, { status: 500 });
}

const STORAGE_CODES = new Set(["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN"]);

function isStorageUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && [...STORAGE_CODES].some((c) => code.startsWith(c));
}
