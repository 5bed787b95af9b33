import { ToolError, type ToolErrorOptions } from "./tool-error";

/**
 * The tool worked and declined: an answer, not a fault. Delivered to the model once as data,
 * never retried, never fails the run.
 */
export class ToolRefusal extends ToolError {
  override readonly name = "ToolRefusal";
  readonly errorClass = "ToolRefusal" as const;
  readonly outcome = "declined" as const;

  constructor(tool: string, code: string, message: string, options: Pick<ToolErrorOptions, "cause" | "experiment"> = {}) {
    super(tool, code, { message, cause: options.cause, retryable: false, experiment: options.experiment });
  }
}
