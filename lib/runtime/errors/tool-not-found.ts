import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError } from "./tool-error";

/** Options of {@link ToolNotFoundError}. */
export interface ToolNotFoundOptions extends ToolErrorOptions {
  /** Registered tool names, named to help the model. */
  known?: readonly string[];
  /** Defaults to `tool_not_found`. */
  code?: string;
}

const MAX_QUOTED = 120;

/** Nothing is registered under the requested name: a deployment mistake. Never retried. */
export class ToolNotFoundError extends ToolError {
  override readonly name = "ToolNotFoundError";
  readonly errorClass = "ToolNotFoundError" as const;
  readonly outcome = "not_found" as const;
  /** Registered tool names. */
  readonly known: readonly string[];

  constructor(tool: string, options: ToolNotFoundOptions = {}) {
    const known = options.known?.length ? `; registered tools: ${options.known.join(", ")}` : "";
    // A model can invent a name of any length; the message quotes a bounded prefix of it.
    const shown = tool.length > MAX_QUOTED ? `${tool.slice(0, MAX_QUOTED)}…` : tool;
    super(tool, options.code ?? DEFAULT_CODES.notFound, {
      message: options.message ?? `no tool is registered as '${shown}'${known}`,
      cause: options.cause,
      retryable: false,
    });
    this.known = [...(options.known ?? [])];
  }
}
