import { wrapUntrusted } from "../envelope/untrusted";
import type { ToolCallResult } from "../loop/results";
import { isErrorResult, modelText } from "./content";

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
}

/** One finished call as a `tool_result` block with the same `tool_use_id`; `is_error` for errors. */
export function toAnthropicToolResult(result: ToolCallResult): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: "tool_result", tool_use_id: result.callId, content: modelText(result) };
  if (isErrorResult(result)) block.is_error = true;
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
  const byId = new Map<string, ToolCallResult>();
  for (const r of results) if (!byId.has(r.callId)) byId.set(r.callId, r);
  const seen = new Set<string>();
  const blocks: AnthropicToolResultBlock[] = [];
  for (const use of toolUses) {
    if (seen.has(use.id)) continue;
    seen.add(use.id);
    const result = byId.get(use.id);
    blocks.push(
      result
        ? toAnthropicToolResult(result)
        : {
            type: "tool_result",
            tool_use_id: use.id,
            content: wrapUntrusted("error: never dispatched: no result was produced for this call", "tool_error"),
            is_error: true,
          },
    );
  }
  return blocks;
}
