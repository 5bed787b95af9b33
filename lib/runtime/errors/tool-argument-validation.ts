import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError } from "./tool-error";

/** Problems by argument path (`"dates.from"` → `"must be an ISO date"`). Never contains values. */
export type ArgumentProblems = Readonly<Record<string, string>>;

/** Options of {@link ToolArgumentValidationError}. */
export interface ToolArgumentValidationOptions extends ToolErrorOptions {
  /** What is wrong, by path. Empty means the arguments as a whole were unusable. */
  problems?: ArgumentProblems;
  /** Defaults to `invalid_arguments`. */
  code?: string;
}

/** The model's arguments did not fit the tool's schema; nothing ran. Repaired by the model, not retried. */
export class ToolArgumentValidationError extends ToolError {
  override readonly name = "ToolArgumentValidationError";
  readonly errorClass = "ToolArgumentValidationError" as const;
  readonly outcome = "invalid_arguments" as const;
  /** What is wrong, by path. */
  readonly problems: ArgumentProblems;

  constructor(tool: string, options: ToolArgumentValidationOptions = {}) {
    const problems = { ...(options.problems ?? {}) };
    const paths = Object.keys(problems).sort();
    super(tool, options.code ?? DEFAULT_CODES.invalidArguments, {
      message: options.message ?? (paths.length ? `rejected arguments at ${paths.join(", ")}` : "rejected the arguments"),
      cause: options.cause,
      retryable: false,
    });
    this.problems = problems;
  }

  /**
   * Text for the model: which paths are wrong and why, one per line, sorted, and a request to send
   * corrected arguments. The values themselves are never echoed (they may be what leaked).
   */
  feedback(): string {
    const paths = Object.keys(this.problems).sort();
    const lines = [`${this.code}: ${this.tool} did not run because its arguments were rejected.`];
    if (paths.length === 0) lines.push("- (arguments): could not be used as a whole");
    for (const path of paths) lines.push(`- ${path}: ${this.problems[path]}`);
    lines.push("Call the tool again with corrected arguments. The values you sent are not repeated here.");
    return lines.join("\n");
  }
}
