import type { ToolError } from "./tool-error";
import { ToolFailure } from "./tool-failure";

/** True for any taxonomy error, including ones from another copy of this library. */
export function isToolError(value: unknown): value is ToolError {
  if (typeof value !== "object" || value === null) return false;
  try {
    return (value as { isFaultlineToolError?: unknown }).isFaultlineToolError === true;
  } catch {
    // A Proxy or a throwing getter is a hostile thrown value, not one of ours.
    return false;
  }
}

/** True for a refusal (the tool declined). */
export function isToolRefusal(value: unknown): value is ToolError & { errorClass: "ToolRefusal" } {
  return isToolError(value) && value.errorClass === "ToolRefusal";
}

// Failures the library built from an untyped exception. Kept out of the public constructor so an
// author cannot opt into the "retry only if idempotent" path by accident.
const unmapped = new WeakSet<ToolFailure>();

/** Builds the permanent `unmapped_failure` for an exception no rule matched. */
export function unmappedFailure(tool: string, code: string, message: string, cause: unknown): ToolFailure {
  const failure = new ToolFailure(tool, code, { message, cause });
  unmapped.add(failure);
  return failure;
}

/** True when `error` stands for an untyped exception (the loop retries those only for idempotent tools). */
export function isUnmapped(error: unknown): boolean {
  return error instanceof ToolFailure && unmapped.has(error);
}
