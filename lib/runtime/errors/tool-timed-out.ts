import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError, assertDelayMs, rejectRemovedOptions } from "./tool-error";

/** Options of {@link ToolTimedOutError}. */
export interface ToolTimedOutOptions extends ToolErrorOptions {
  /** The ceiling that elapsed, in milliseconds. */
  timeoutMs?: number;
  /** Defaults to `tool_timed_out`. */
  code?: string;
  /** Set when the author knows a repeat is safe; otherwise only idempotent tools retry a timeout. */
  retryable?: boolean;
  /** Milliseconds the upstream asked to wait. */
  retryAfterMs?: number;
}

/** The call outran its ceiling. Whether its effect landed is unknown. */
export class ToolTimedOutError extends ToolError {
  override readonly name = "ToolTimedOutError";
  readonly errorClass = "ToolTimedOutError" as const;
  readonly outcome = "timed_out" as const;
  /** The ceiling that elapsed, in milliseconds, when known. */
  readonly timeoutMs: number | undefined;

  constructor(tool: string, options: ToolTimedOutOptions = {}) {
    rejectRemovedOptions(options, { seconds: "timeoutMs", retryAfter: "retryAfterMs" });
    const { timeoutMs } = options;
    assertDelayMs(timeoutMs, "timeoutMs");
    const message = options.message ?? (timeoutMs === undefined ? "" : `did not return within ${Math.round(timeoutMs)} ms`);
    super(tool, options.code ?? DEFAULT_CODES.timedOut, {
      message,
      cause: options.cause,
      retryable: options.retryable === true,
      retryAfterMs: options.retryAfterMs,
    });
    this.timeoutMs = timeoutMs;
  }
}
