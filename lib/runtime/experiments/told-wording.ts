import { ToolArgumentValidationError } from "../errors/tool-argument-validation";
import type { ToolError } from "../errors/tool-error";
import { chooseWording, type ChosenWording, type WordingSet, type WordingSource } from "./wording-set";

/**
 * The wording a run tells for `error` raised by `tool`, if an experiment or a promoted winner has
 * one. Argument errors keep their repair feedback: it is generated from the problems, not worded by
 * anyone. The source may be the caller's code: whatever it throws, the code-side experiment (or the error's own message) applies.
 */
export function toldWording(source: WordingSource | undefined, at: { tool: string; runId: string; error: ToolError }): ChosenWording | undefined {
  const { error } = at;
  if (error instanceof ToolArgumentValidationError) return undefined;
  return chooseWording(currentSet(source), { code: error.code, tool: at.tool, runId: at.runId, local: error.experiment });
}

function currentSet(source: WordingSource | undefined): WordingSet | undefined {
  try {
    return source?.current();
  } catch {
    return undefined;
  }
}
