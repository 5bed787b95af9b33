import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError } from "./tool-error";

/** Options of {@link ToolResultError}. */
export interface ToolResultErrorOptions extends ToolErrorOptions {
  /** Which rule the result broke. Describe the rule; never quote the value. */
  violation?: string;
  /** Defaults to `result_rejected`. */
  code?: string;
}

/**
 * The tool returned, but what came back may not enter the run. Never retried: the call already
 * happened, so a repeat could repeat its effect.
 */
export class ToolResultError extends ToolError {
  override readonly name = "ToolResultError";
  readonly errorClass = "ToolResultError" as const;
  readonly outcome = "result_rejected" as const;
  /** Which rule the result broke. */
  readonly violation: string;

  constructor(tool: string, options: ToolResultErrorOptions = {}) {
    const violation = options.violation ?? "the result broke a result rule";
    super(tool, options.code ?? DEFAULT_CODES.resultRejected, {
      message: options.message ?? `the result may not enter the run: ${violation}`,
      cause: options.cause,
      retryable: false,
    });
    this.violation = violation;
  }
}
