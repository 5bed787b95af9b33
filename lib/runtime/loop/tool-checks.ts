import { DEFAULT_CODES } from "../errors/default-codes";
import { unmappedFailure } from "../errors/guards";
import { ToolArgumentValidationError } from "../errors/tool-argument-validation";
import type { ToolError } from "../errors/tool-error";
import { ToolNotFoundError } from "../errors/tool-not-found";
import { ToolNotPermittedError } from "../errors/tool-not-permitted";
import { describeThrown } from "../map/describe";
import type { ToolErrorMap } from "../map/tool-error-map";
import type { RunnerConfig } from "./runner-config";
import type { ToolDefinition } from "./tool-definition";

/** A named call about to be dispatched. */
export interface Dispatch {
  tool: string;
  def: ToolDefinition | undefined;
  args: unknown;
  /** Why the arguments could not be decoded, when they could not. */
  argumentsError: string | undefined;
}

/**
 * Why a call must not reach its tool body (not permitted, unknown tool, arguments that do not
 * decode or fail the tool's `validate`), or undefined when it may. A `validate` that throws is
 * itself a validation failure.
 */
export function preDispatchError(cfg: Pick<RunnerConfig, "permitted" | "agent" | "tools">, call: Dispatch): ToolError | undefined {
  const { permitted, agent, tools } = cfg;
  const { tool, def, argumentsError } = call;
  if (permitted && !permitted.has(tool)) return new ToolNotPermittedError(tool, { agent, permitted: [...permitted] });
  if (!def) return new ToolNotFoundError(tool, { known: [...tools.keys()] });
  if (argumentsError !== undefined) return new ToolArgumentValidationError(tool, { message: argumentsError, problems: { "(arguments)": argumentsError } });
  if (!def.validate) return undefined;
  try {
    const problems = def.validate(call.args);
    return problems && Object.keys(problems).length > 0 ? new ToolArgumentValidationError(tool, { problems }) : undefined;
  } catch (error) {
    return new ToolArgumentValidationError(tool, { message: "the argument check failed", cause: error });
  }
}

/** The tool's (or the runner's) error map, fenced: a map that throws yields `unmapped_failure`. */
export function classifyThrown(map: ToolErrorMap, tool: string, thrown: unknown): ToolError {
  try {
    return map.classify(thrown, { tool });
  } catch {
    return unmappedFailure(tool, DEFAULT_CODES.unmapped, describeThrown(thrown), thrown);
  }
}

/** The tool's `checkResult` verdict on a value, fenced: a check that throws is a violation. */
export function resultViolation(def: ToolDefinition, value: unknown): string | undefined {
  if (!def.checkResult) return undefined;
  try {
    return def.checkResult(value);
  } catch {
    return "the result check itself failed";
  }
}
