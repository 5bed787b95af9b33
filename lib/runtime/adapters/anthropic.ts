import type { ToolCallRequest, ToolCallResult } from "../loop/results";
import { missingResultText, renderResult } from "./content";
import { answerTurn } from "./turn";

/** An Anthropic Messages API `tool_result` content block (structural; no SDK needed). */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** The part of an Anthropic `tool_use` block this module reads. */
export interface AnthropicToolUse {
  type?: "tool_use";
  id: string;
  name: string;
  input?: unknown;
}

/** One finished call as a `tool_result` block with the same `tool_use_id`; `is_error` for errors. */
export function toAnthropicToolResult(result: ToolCallResult): AnthropicToolResultBlock {
  const rendered = renderResult(result);
  const block: AnthropicToolResultBlock = { type: "tool_result", tool_use_id: result.callId, content: rendered.text };
  if (rendered.isError) block.is_error = true;
  return block;
}

/**
 * The `tool_result` blocks answering one assistant turn: exactly one per `tool_use`, in the turn's
 * order (the API rejects a turn with a missing or extra result). A `tool_use` without a result
 * gets an error block; results for ids the turn did not contain, and duplicates, are dropped.
 */
export function anthropicToolResults(
  toolUses: readonly AnthropicToolUse[],
  results: readonly ToolCallResult[],
): AnthropicToolResultBlock[] {
  return answerTurn(toolUses, (u) => u.id, results).map(({ id, result }) =>
    result ? toAnthropicToolResult(result) : { type: "tool_result", tool_use_id: id, content: missingResultText(), is_error: true },
  );
}

/**
 * The run-loop requests for the `tool_use` blocks of an assistant message (other blocks are skipped).
 * Generic so a message's whole `content` fits as written, text and thinking blocks included (a
 * literal block's other fields would otherwise be excess properties), and so does the SDK's type.
 */
export function requestsFromAnthropic<B extends { type?: string; id?: string; name?: string; input?: unknown }>(content: readonly B[]): ToolCallRequest[] {
  return content
    .filter((b) => b.type === undefined || b.type === "tool_use")
    .map((b) => ({ ...(b.id === undefined ? {} : { callId: b.id }), tool: b.name as string, args: b.input ?? {} }));
}
