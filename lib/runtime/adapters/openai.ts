import type { ToolCallRequest, ToolCallResult } from "../loop/results";
import { missingResultText, modelText } from "./content";
import { answerTurn, decodeArguments } from "./turn";

/** An OpenAI Chat Completions `tool` message (structural; no SDK needed). */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** The part of a Chat Completions `tool_calls[]` entry this module reads. */
export interface OpenAIToolCall {
  id: string;
  type?: "function" | (string & {});
  function: { name: string; arguments: string };
}

/**
 * One finished call as a `tool` message. Chat Completions has no error flag, so the envelope's
 * `source` (`tool_error` / `tool_refusal`) is what tells the model.
 */
export function toOpenAIToolMessage(result: ToolCallResult): OpenAIToolMessage {
  return { role: "tool", tool_call_id: result.callId, content: modelText(result) };
}

/**
 * The `tool` messages answering one assistant message: exactly one per `tool_calls[].id`, in order
 * (the API rejects a conversation where a tool call has no answer). A call without a result gets
 * an error message; unknown and duplicate results are dropped.
 */
export function openAIToolMessages(toolCalls: readonly OpenAIToolCall[], results: readonly ToolCallResult[]): OpenAIToolMessage[] {
  return answerTurn(toolCalls, (c) => c.id, results).map(({ id, result }) =>
    result ? toOpenAIToolMessage(result) : { role: "tool", tool_call_id: id, content: missingResultText() },
  );
}

/** The run-loop requests for an assistant message's `tool_calls`; arguments are decoded from JSON. */
export function requestsFromOpenAIToolCalls(toolCalls: readonly OpenAIToolCall[]): ToolCallRequest[] {
  return toolCalls.map((c) => ({ callId: c.id, tool: c.function?.name, ...decodeArguments(c.function?.arguments) }));
}
