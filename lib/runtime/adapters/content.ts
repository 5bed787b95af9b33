import { DEFAULT_CODES } from "../errors/default-codes";
import { wrapUntrusted } from "../envelope/untrusted";
import type { ToolCallResult } from "../loop/results";
import { serialiseResult } from "./serialise";

/** Longest tool output handed to a model; the rest is cut and the envelope says so. */
export const MAX_RESULT_CHARS = 8000;

/** What a provider adapter sends for one finished call. */
export interface RenderedResult {
  /** The envelope the model reads. */
  readonly text: string;
  /** Whether the provider should flag it as an error. */
  readonly isError: boolean;
}

/**
 * Renders a finished call once for a provider: the enveloped text and the error flag. A value
 * that cannot be serialised is reported to the model as a `result_unserialisable` error rather
 * than as `[object Object]`, and flagged as an error.
 */
export function renderResult(result: ToolCallResult, maxChars: number = MAX_RESULT_CHARS): RenderedResult {
  switch (result.status) {
    case "ok": {
      const out = serialiseResult(result.value);
      if (!out.ok) {
        const told = `error: ${DEFAULT_CODES.resultUnserialisable}: the tool returned a value that could not be turned into text (${out.reason})\nretryable: no (repeating the same call will not help)`;
        return { text: wrapUntrusted(told, "tool_error"), isError: true };
      }
      const text =
        out.text.length > maxChars
          ? wrapUntrusted(out.text.slice(0, maxChars), "tool_result", { truncated: "true" })
          : wrapUntrusted(out.text, "tool_result");
      return { text, isError: false };
    }
    case "declined":
      return { text: wrapUntrusted(result.told, "tool_refusal"), isError: false };
    default:
      return { text: wrapUntrusted(result.told, "tool_error"), isError: true };
  }
}

/**
 * The text a model receives for a finished call, always inside the untrusted-data envelope:
 * `tool_result` for values, `tool_refusal` for refusals, `tool_error` for errors, cancellations
 * and values that could not be serialised.
 */
export function modelText(result: ToolCallResult, maxChars: number = MAX_RESULT_CHARS): string {
  return renderResult(result, maxChars).text;
}

/**
 * Whether a provider should flag the result as an error. A refusal is not: the tool worked and its
 * answer is "no", which the model should read as data. A value that cannot be serialised is.
 */
export function isErrorResult(result: ToolCallResult): boolean {
  if (result.status === "ok") return !serialiseResult(result.value).ok;
  return result.status === "error" || result.status === "cancelled";
}

/** The error block for a call of the turn that has no result (never dispatched). */
export function missingResultText(): string {
  return wrapUntrusted("error: never dispatched: no result was produced for this call\nretryable: yes (the same call may succeed later)", "tool_error");
}
