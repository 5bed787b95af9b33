import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError, assertDelayMs, resolveRetryAfterMs } from "./tool-error";

/** Options of {@link ToolTimedOutError}. */
export interface ToolTimedOutOptions extends ToolErrorOptions {
  /** The ceiling that elapsed, in milliseconds. */
  timeoutMs?: number;
  /** @deprecated The ceiling in seconds; use `timeoutMs`. Ignored when `timeoutMs` is set. */
  seconds?: number;
  /** Defaults to `tool_timed_out`. */
  code?: string;
  /** Set when the author knows a repeat is safe; otherwise only idempotent tools retry a timeout. */
  retryable?: boolean;
  /** Milliseconds the upstream asked to wait. */
  retryAfterMs?: number;
  /** @deprecated Seconds; use `retryAfterMs`. */
  retryAfter?: number;
}

/** The call outran its ceiling. Whether its effect landed is unknown. */
export class ToolTimedOutError extends ToolError {
  override readonly name = "ToolTimedOutError";
  readonly errorClass = "ToolTimedOutError" as const;
  readonly outcome = "timed_out" as const;
  /** The ceiling that elapsed, in milliseconds, when known. */
  readonly timeoutMs: number | undefined;

  constructor(tool: string, options: ToolTimedOutOptions = {}) {
    const timeoutMs = options.timeoutMs ?? (options.seconds === undefined ? undefined : options.seconds * 1000);
    assertDelayMs(timeoutMs, "timeoutMs");
    const message = options.message ?? (timeoutMs === undefined ? "" : `did not return within ${Math.round(timeoutMs)} ms`);
    super(tool, options.code ?? DEFAULT_CODES.timedOut, {
      message,
      cause: options.cause,
      retryable: options.retryable === true,
      retryAfterMs: resolveRetryAfterMs(options),
    });
    this.timeoutMs = timeoutMs;
  }

  /** @deprecated Seconds; read {@link ToolTimedOutError.timeoutMs} instead. */
  get seconds(): number | undefined {
    return this.timeoutMs === undefined ? undefined : this.timeoutMs / 1000;
  }
}
