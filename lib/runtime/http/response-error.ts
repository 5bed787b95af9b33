import type { Clock } from "../common/time";
import type { ToolError } from "../errors/tool-error";
import { ToolFailure } from "../errors/tool-failure";
import { parseRetryAfter } from "../export/retry-after";
import { applyRule, type ToolErrorRule } from "../map/rules";
import { HTTP_CODES } from "./http-codes";

/** The part of a fetch `Response` the helpers read. */
export interface HttpResponseLike {
  readonly status: number;
  readonly statusText?: string;
  readonly headers: { get(name: string): string | null };
}

/** Options of {@link toolErrorFromResponse}. */
export interface HttpStatusOptions {
  /** Rules by status; they replace the default translation of that status. */
  statuses?: Readonly<Record<number, ToolErrorRule>>;
  /** Reads "now" for an HTTP-date `Retry-After`. Default: the wall clock. */
  clock?: Clock;
  /** Upstream text to add to the message (already read from the body, if you read it). */
  detail?: string;
}

// Only these answers say "nothing was done, try later": the same set OTLP exporters retry.
const TRANSIENT: Readonly<Record<number, string>> = {
  408: HTTP_CODES.requestTimeout,
  429: HTTP_CODES.rateLimited,
  502: HTTP_CODES.unavailable,
  503: HTTP_CODES.unavailable,
  504: HTTP_CODES.unavailable,
};

const PERMANENT: Readonly<Record<number, string>> = {
  400: HTTP_CODES.rejected,
  401: HTTP_CODES.unauthorized,
  403: HTTP_CODES.forbidden,
  404: HTTP_CODES.notFound,
  409: HTTP_CODES.conflict,
  422: HTTP_CODES.rejected,
};

function retryAfterMs(response: HttpResponseLike, clock: Clock | undefined): number | undefined {
  let header: string | null;
  try {
    header = response.headers.get("retry-after");
  } catch {
    return undefined;
  }
  return parseRetryAfter(header, (clock ?? { now: () => Date.now() }).now());
}

/**
 * Translates an HTTP answer into the taxonomy, or `undefined` for a 1xx–3xx answer.
 *
 * - 429, 502, 503, 504 and 408: a transient failure (`rate_limited`, `upstream_unavailable`,
 *   `upstream_timeout`) carrying `Retry-After` (seconds or an HTTP-date) as `retryAfterMs`.
 * - 500 and other 5xx: a permanent `upstream_error`; the upstream failed in an unknown state.
 * - 4xx: a permanent failure named after the status (`upstream_not_found`, `upstream_conflict`, …).
 * - A `statuses` rule replaces the default for its status (a refusal for 409, say). A transient
 *   rule without its own wait takes the `Retry-After` header.
 */
export function toolErrorFromResponse(tool: string, response: HttpResponseLike, options: HttpStatusOptions = {}): ToolError | undefined {
  const status = response.status;
  if (status < 400) return undefined;
  const text = `upstream answered ${status}${response.statusText ? ` ${response.statusText}` : ""}${options.detail ? `: ${options.detail}` : ""}`;
  const rule = options.statuses?.[status];
  if (rule) {
    const withWait = rule.transient && rule.retryAfterMs === undefined ? { ...rule, retryAfterMs: () => retryAfterMs(response, options.clock) } : rule;
    return applyRule(withWait, tool, text, response);
  }
  const transientCode = TRANSIENT[status];
  if (transientCode !== undefined) {
    const wait = retryAfterMs(response, options.clock);
    return new ToolFailure(tool, transientCode, { transient: true, message: text, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
  }
  const code = PERMANENT[status] ?? (status >= 500 ? HTTP_CODES.serverError : HTTP_CODES.clientError);
  return new ToolFailure(tool, code, { message: text });
}
