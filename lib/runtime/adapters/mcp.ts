import type { ToolCallResult } from "../loop/results";
import { isErrorResult, modelText } from "./content";

/** An MCP `CallToolResult` (structural; no SDK needed). */
export interface McpCallToolResult {
  content: { type: "text"; text: string }[];
  isError: boolean;
}

/** One finished call as an MCP `CallToolResult`; `isError` for errors, not for refusals. */
export function toMcpCallToolResult(result: ToolCallResult): McpCallToolResult {
  return { content: [{ type: "text", text: modelText(result) }], isError: isErrorResult(result) };
}
