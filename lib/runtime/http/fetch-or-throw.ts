import { toolErrorFromNetworkError } from "./network-tool-error";
import { toolErrorFromResponse, type HttpStatusOptions } from "./response-error";

/** Options of {@link fetchOrThrow}. */
export interface FetchOrThrowOptions extends Omit<HttpStatusOptions, "detail"> {
  /**
   * Whether repeating this request cannot repeat a side effect (GET, PUT with the same body, a
   * request with an idempotency key). Decides whether a connection lost mid-request is retryable.
   */
  idempotent?: boolean;
  /** HTTP client. Default: the global `fetch`. */
  fetch?: (input: string | URL, init?: RequestInit) => Promise<Response>;
  /** Upstream text kept in the message for an error answer. Default 0 (the body is not read). */
  maxDetailChars?: number;
}

/**
 * `fetch` for a tool body: resolves with the `Response` when it is 1xx–3xx, otherwise throws a
 * typed error (see {@link toolErrorFromResponse} and {@link toolErrorFromNetworkError}).
 * Cancellation and unrecognised exceptions are re-thrown unchanged, so the run loop treats them
 * as cancellation and as an untyped error respectively.
 */
export async function fetchOrThrow(tool: string, input: string | URL, init?: RequestInit, options: FetchOrThrowOptions = {}): Promise<Response> {
  const doFetch = options.fetch ?? ((i: string | URL, r?: RequestInit) => globalThis.fetch(i, r));
  let response: Response;
  try {
    response = await doFetch(input, init);
  } catch (error) {
    throw toolErrorFromNetworkError(tool, error, options) ?? error;
  }
  if (response.status < 400) return response;
  let detail: string | undefined;
  const max = options.maxDetailChars ?? 0;
  try {
    if (max > 0) detail = (await response.text()).slice(0, max);
    else await response.body?.cancel();
  } catch {
    // The status already says what happened; the body is a bonus.
  }
  throw toolErrorFromResponse(tool, response, { ...options, ...(detail ? { detail } : {}) })!;
}
