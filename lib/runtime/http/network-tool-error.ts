import type { ToolError } from "../errors/tool-error";
import { ToolFailure } from "../errors/tool-failure";
import { ToolTimedOutError } from "../errors/tool-timed-out";
import { HTTP_CODES } from "./http-codes";
import { recogniseNetworkFailure } from "./network-error";

/**
 * Translates a failed `fetch` into the taxonomy by the cause's code, or `undefined` when it is not
 * a recognised network failure (then let it propagate: a bare `TypeError` is usually a bug, and
 * the reference kit's trap is retrying those).
 *
 * - Connect phase (`ECONNREFUSED`, `ETIMEDOUT`, `EAI_AGAIN`, `UND_ERR_CONNECT_TIMEOUT`, …):
 *   transient `upstream_unreachable`; nothing reached the server.
 * - `ENOTFOUND`: permanent `upstream_unresolvable`.
 * - In flight (`ECONNRESET`, `UND_ERR_SOCKET`, header/body timeouts): the request may have landed,
 *   so it is retryable only when `idempotent` — `upstream_connection_lost`, or a timeout error
 *   (`upstream_timeout`) for the timers.
 */
export function toolErrorFromNetworkError(tool: string, error: unknown, options: { idempotent?: boolean } = {}): ToolError | undefined {
  const failure = recogniseNetworkFailure(error);
  if (!failure) return undefined;
  const message = `network failure (${failure.code})`;
  switch (failure.phase) {
    case "connect":
      return new ToolFailure(tool, HTTP_CODES.unreachable, { transient: true, message: `${message}; the request was not sent`, cause: error });
    case "dns_missing":
      return new ToolFailure(tool, HTTP_CODES.unresolvable, { message: `${message}; the host name does not resolve`, cause: error });
    case "in_flight": {
      const repeatable = options.idempotent === true;
      const landed = `${message}; the request may have been processed`;
      return failure.timeout
        ? new ToolTimedOutError(tool, { code: HTTP_CODES.requestTimeout, retryable: repeatable, message: landed, cause: error })
        : new ToolFailure(tool, HTTP_CODES.connectionLost, { transient: repeatable, message: landed, cause: error });
    }
  }
}
