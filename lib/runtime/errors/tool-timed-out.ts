import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError } from "./tool-error";

/** Options of {@link ToolTimedOutError}. */
export interface ToolTimedOutOptions extends ToolErrorOptions {
  /** The ceiling that elapsed, in seconds. */
  seconds?: number;
  /** Defaults to `tool_timed_out`. */
  code?: string;
  /** Set when the author knows a repeat is safe; otherwise only idempotent tools retry a timeout. */
  retryable?: boolean;
  retryAfter?: number;
}

/** The call outran its ceiling. Whether its effect landed is unknown. */
export class ToolTimedOutError extends ToolError {
  override readonly name = "ToolTimedOutError";
  readonly errorClass = "ToolTimedOutError" as const;
  readonly outcome = "timed_out" as const;
  /** The ceiling that elapsed, in seconds, when known. */
  readonly seconds: number | undefined;

  constructor(tool: string, options: ToolTimedOutOptions = {}) {
    const message = options.message ?? (options.seconds === undefined ? "" : `did not return within ${options.seconds}s`);
    super(tool, options.code ?? DEFAULT_CODES.timedOut, {
      message,
      cause: options.cause,
      retryable: options.retryable === true,
      retryAfter: options.retryAfter,
    });
    this.seconds = options.seconds;
  }
}
