import { ERROR_CLASSES } from "@/lib/contracts/enums";
import { outcomeStyle } from "./outcomes";

/**
 * Each error class borrows the look of the outcome it produces, so a ToolRefusal (declined: the
 * tool said no) and a ToolNotPermittedError (refused: permission said no) keep the declined and
 * refused colours, patterns and words wherever classes are drawn.
 */
const CLASS_OUTCOME: Record<string, string> = {
  ToolFailure: "failed",
  ToolRefusal: "declined",
  ToolTimedOutError: "timed_out",
  ToolNotPermittedError: "refused",
  ToolNotFoundError: "not_found",
  ToolArgumentValidationError: "invalid_arguments",
  ToolResultError: "result_rejected",
};

const CLASS_HINT: Record<string, string> = {
  ToolRefusal: " (declined: tool said no)",
  ToolNotPermittedError: " (refused: permission said no)",
};

/** The outcome whose colour and fill pattern an error class is drawn with ('' = unknown look). */
export function classOutcome(errorClass: string): string {
  return CLASS_OUTCOME[errorClass] ?? "";
}

export function errorClassLabel(errorClass: string): string {
  return errorClass === "" ? "unknown class" : `${errorClass}${CLASS_HINT[errorClass] ?? ""}`;
}

export function errorClassColor(errorClass: string): string {
  return outcomeStyle(classOutcome(errorClass)).color;
}

/** Taxonomy classes in their documented order, then any other class by name. */
export function compareErrorClasses(a: string, b: string): number {
  const ia = (ERROR_CLASSES as readonly string[]).indexOf(a);
  const ib = (ERROR_CLASSES as readonly string[]).indexOf(b);
  const ra = ia === -1 ? ERROR_CLASSES.length : ia;
  const rb = ib === -1 ? ERROR_CLASSES.length : ib;
  return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
}
