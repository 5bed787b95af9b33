import type { ToolCallResult } from "../loop/results";
import { modelText } from "./content";

/** An OpenAI Chat Completions `tool` message (structural; no SDK needed). */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/**
 * One finished call as a `tool` message. Chat Completions has no error flag, so the envelope's
 * `source` (`tool_error` / `tool_refusal`) is what tells the model.
 */
export function toOpenAIToolMessage(result: ToolCallResult): OpenAIToolMessage {
  return { role: "tool", tool_call_id: result.callId, content: modelText(result) };
}
