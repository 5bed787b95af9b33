import { ERROR_CLASSES, type ErrorClass, type Outcome } from "@/lib/contracts";

// The reference kit reports failures by exception class name (adk.error.type on spans,
// tool_call_completed.error_code on published events, ToolCallSpan.failure). These are the class
// names whose outcome is fixed by the kit's own semantics; any other class is a plain failure.
const OUTCOME_OF_CLASS: Record<string, Outcome> = {
  ToolRefusal: "declined",
  ToolRefused: "refused",
  ToolNotPermittedError: "refused",
  ToolNotFoundError: "not_found",
  ToolTimedOutError: "timed_out",
  ToolArgumentValidationError: "invalid_arguments",
  ToolResultError: "result_rejected",
  Cancelled: "cancelled",
};

/** The attempt outcome a failure of class `name` stands for. */
export const outcomeOfClass = (name: string): Outcome => OUTCOME_OF_CLASS[name] ?? "failed";

/** The class name when it is one of Faultline's taxonomy classes, else null. */
export const taxonomyClass = (name: string | null | undefined): ErrorClass | null =>
  name && (ERROR_CLASSES as readonly string[]).includes(name) ? (name as ErrorClass) : null;
