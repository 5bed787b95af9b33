import { wrapUntrusted } from "../envelope/untrusted";
import type { ToolCallResult } from "../loop/results";

/** Longest tool output handed to a model; the rest is cut and the envelope says so. */
export const MAX_RESULT_CHARS = 8000;

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The text a model receives for a finished call, always inside the untrusted-data envelope:
 * `tool_result` for values, `tool_refusal` for refusals, `tool_error` for errors and cancellations.
 */
export function modelText(result: ToolCallResult, maxChars: number = MAX_RESULT_CHARS): string {
  switch (result.status) {
    case "ok": {
      const text = stringify(result.value);
      return text.length > maxChars
        ? wrapUntrusted(text.slice(0, maxChars), "tool_result", { truncated: "true" })
        : wrapUntrusted(text, "tool_result");
    }
    case "declined":
      return wrapUntrusted(result.told, "tool_refusal");
    default:
      return wrapUntrusted(result.told, "tool_error");
  }
}

/**
 * Whether a provider should flag the result as an error. A refusal is not: the tool worked and its
 * answer is "no", which the model should read as data.
 */
export function isErrorResult(result: ToolCallResult): boolean {
  return result.status === "error" || result.status === "cancelled";
}
