import type { ToolErrorOptions } from "./tool-error";
import { ToolError, rejectRemovedOptions } from "./tool-error";

/** Options of {@link ToolFailure}. */
export interface ToolFailureOptions extends ToolErrorOptions {
  /**
   * The author asserts nothing landed and the same call could succeed. Defaults to `false`:
   * an author who has not thought about side effects has not shown a repeat is safe.
   */
  transient?: boolean;
  /** Milliseconds the upstream asked to wait. */
  retryAfterMs?: number;
}

/** The tool tried and could not finish. Retried only when `transient`. */
export class ToolFailure extends ToolError {
  override readonly name = "ToolFailure";
  readonly errorClass = "ToolFailure" as const;
  readonly outcome = "failed" as const;

  constructor(tool: string, code: string, options: ToolFailureOptions = {}) {
    rejectRemovedOptions(options, { retryAfter: "retryAfterMs" });
    super(tool, code, { message: options.message, cause: options.cause, retryable: options.transient === true, retryAfterMs: options.retryAfterMs, experiment: options.experiment });
  }
}
