import { LIMITS, type Outcome } from "@/lib/contracts";
import { attrString } from "../attributes";
import type { OtlpSpan } from "../decode";
import { taxonomyClass } from "../kit-classes";

// An exception class as languages name them: PascalCase ending in a failure word, optionally
// package-qualified (`TimeoutError`, `java.net.SocketTimeoutException`, `requests.exceptions.ReadTimeout`).
const CLASS_NAME = /^(?:[a-z_$][\w$]*\.)*[A-Z][A-Za-z0-9_$]*(?:Error|Exception|Failure|Fault|Refusal|Timeout)$|^(?:Error|Exception)$/;

/** The last `exception` event of a span: its type (a class name) and message, each null when absent. */
export function lastException(s: OtlpSpan): { type: string | null; message: string | null } | null {
  const events = s.events.filter((e) => e.name === "exception");
  const last = events[events.length - 1];
  if (!last) return null;
  return { type: attrString(last.attributes, "exception.type"), message: attrString(last.attributes, "exception.message") };
}

/**
 * An `error.type`-like value as a code or a class, never both: class names (and the exception's own
 * type) are error classes, `_OTHER`, an HTTP status (`500`) and a JSON-RPC code are nothing, anything
 * else (`rate_limited`) is a code.
 */
export function splitErrorType(value: string | null, exceptionType: string | null): { code: string | null; errorClass: string | null } {
  // An HTTP status or a JSON-RPC code as `error.type` is a fact for classification (lib/classify), not the emitter's code.
  if (value === null || value === "_OTHER" || /^(?:[1-5]\d\d|-32\d{3})$/.test(value)) return { code: null, errorClass: null };
  if (value === exceptionType || taxonomyClass(value) !== null || CLASS_NAME.test(value)) return { code: null, errorClass: fitClass(value) };
  return { code: value.length <= LIMITS.maxCodeLength ? value : null, errorClass: null };
}

/** A class name short enough to store, else unknown. */
export const fitClass = (name: string | null): string | null => (name !== null && name.length <= LIMITS.maxNameLength ? name : null);

/**
 * OpenTelemetry's own failure signals, for conventions that do not state an outcome: status Error or
 * an `error.type` means it failed; so does an `exception` event, unless the instrumentation set the
 * status to Ok (the exception was handled inside the call); otherwise it succeeded (status stays
 * unset on success).
 */
export function otelOutcome(s: OtlpSpan, errorType: string | null, exception: unknown): Outcome {
  if (s.statusCode === 2 || (errorType !== null && errorType !== "")) return "failed";
  if (s.statusCode === 1) return "ok";
  return exception !== null ? "failed" : "ok";
}
