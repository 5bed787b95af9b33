import { DEFAULT_CODES } from "./default-codes";
import type { ToolErrorOptions } from "./tool-error";
import { ToolError } from "./tool-error";

/** Options of {@link ToolNotPermittedError}. */
export interface ToolNotPermittedOptions extends ToolErrorOptions {
  /** The agent whose allowlist refused the call. */
  agent?: string;
  /** Tools the agent may call, named to help the model pick another. */
  permitted?: readonly string[];
  /** Defaults to `tool_not_permitted`. */
  code?: string;
}

/** The permission layer said no; the tool never ran. Never retried, even for idempotent tools. */
export class ToolNotPermittedError extends ToolError {
  override readonly name = "ToolNotPermittedError";
  readonly errorClass = "ToolNotPermittedError" as const;
  readonly outcome = "refused" as const;
  /** The agent whose allowlist refused the call. */
  readonly agent: string | undefined;
  /** Tools the agent may call. */
  readonly permitted: readonly string[];

  constructor(tool: string, options: ToolNotPermittedOptions = {}) {
    const who = options.agent ? `${options.agent}'s` : "this agent's";
    const allowed = options.permitted?.length ? `; it may call ${options.permitted.join(", ")}` : "";
    super(tool, options.code ?? DEFAULT_CODES.notPermitted, {
      message: options.message ?? `'${tool}' is outside ${who} allowlist and was not called${allowed}`,
      cause: options.cause,
      retryable: false,
    });
    this.agent = options.agent;
    this.permitted = [...(options.permitted ?? [])];
  }
}
