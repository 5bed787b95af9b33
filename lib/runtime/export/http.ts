import { linkSignals } from "../common/abort";
import type { Scheduler } from "../common/time";
import { recogniseNetworkFailure } from "../http/network-error";

/** The subset of a fetch `Response` the exporter reads. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/**
 * The subset of `fetch` the exporter uses; inject one in tests. Global `fetch` fits. `body` is the
 * JSON text, or its gzip bytes when `headers["content-encoding"]` is `gzip`.
 */
export type FetchLike = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer>; signal: AbortSignal },
) => Promise<FetchResponseLike>;

/**
 * The answer to one POST, or why there was none. `maybeDelivered` is true when the request may
 * have been stored although no answer came: our own timeout or shutdown fired mid-request, or the
 * connection failed mid-request (`ECONNRESET`, `UND_ERR_SOCKET`, header/body timeouts).
 */
export type PostResult =
  | { kind: "network"; error: string; maybeDelivered: boolean }
  | { kind: "response"; status: number; retryAfterHeader: string | null; body: unknown };

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * POSTs `body` once, bounded by `timeoutMs` (timer unref'd) and by `signal`. Never rejects, and
 * settles by the timeout even when an injected `fetch` (or its body) ignores the abort: otherwise
 * one such request would hold the batch, and every record behind it, until shutdown.
 */
export async function postOnce(
  fetch: FetchLike,
  request: { url: string; headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> },
  options: { timeoutMs: number; scheduler: Scheduler; signal: AbortSignal },
): Promise<PostResult> {
  const { controller, detach } = linkSignals(options.signal);
  const cancel = options.scheduler.schedule(() => controller.abort("timeout"), options.timeoutMs, { unref: true });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error("aborted"));
    controller.signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {}); // only raced; an abort after the answer must not surface as unhandled
  try {
    const response = await Promise.race([fetch(request.url, { method: "POST", headers: request.headers, body: request.body, signal: controller.signal }), aborted]);
    const text = await Promise.race([response.text(), aborted]);
    return { kind: "response", status: response.status, retryAfterHeader: response.headers.get("retry-after"), body: parse(text) };
  } catch (error) {
    if (controller.signal.aborted) return { kind: "network", error: `request aborted (${String(controller.signal.reason)})`, maybeDelivered: true };
    const failure = recogniseNetworkFailure(error);
    const message = failure ? `${describe(error)} (${failure.code})` : describe(error);
    // Only a failure known to happen mid-request (a reset, a header timeout) may have been stored.
    return { kind: "network", error: message, maybeDelivered: failure?.phase === "in_flight" };
  } finally {
    cancel();
    detach();
    if (onAbort) controller.signal.removeEventListener("abort", onAbort);
  }
}

function describe(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unreadable error";
  }
}
