import type { ToolCallResult } from "../loop/results";
import { renderResult } from "./content";

/** An MCP `CallToolResult` (structural; no SDK needed). */
export interface McpCallToolResult {
  content: { type: "text"; text: string }[];
  isError: boolean;
}

/** JSON-RPC "Invalid params", the code the MCP specification gives an unknown tool. */
export const MCP_INVALID_PARAMS = -32602;

/** A JSON-RPC error object. */
export interface McpJsonRpcError {
  code: number;
  message: string;
  data?: { code: string; tool: string };
}

/**
 * A protocol-level failure of `tools/call`. Thrown from a low-level MCP request handler, it
 * becomes a JSON-RPC error response (the SDKs copy a numeric `code` and `data` from what the
 * handler throws), not an `isError` tool result.
 */
export class McpProtocolError extends Error {
  override readonly name = "McpProtocolError";
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Extra data of the JSON-RPC error. */
  readonly data: McpJsonRpcError["data"];

  constructor(error: McpJsonRpcError) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

/** What a `tools/call` request is answered with: a result, or a JSON-RPC error. */
export type McpToolAnswer = { result: McpCallToolResult; error?: undefined } | { error: McpJsonRpcError; result?: undefined };

const MAX_NAME_IN_MESSAGE = 120;

/**
 * How the MCP specification wants a finished call answered. A call for a tool nobody registered
 * is a protocol error (`-32602`, "Unknown tool"): the request itself was wrong. Everything the
 * tool did, including failures, refusals and argument errors the model can repair, is a result,
 * with `isError` for errors and not for refusals.
 */
export function toMcpAnswer(result: ToolCallResult): McpToolAnswer {
  if (result.status === "error" && result.error.errorClass === "ToolNotFoundError") {
    const name = result.tool.length > MAX_NAME_IN_MESSAGE ? `${result.tool.slice(0, MAX_NAME_IN_MESSAGE)}…` : result.tool;
    return { error: { code: MCP_INVALID_PARAMS, message: `Unknown tool: ${name}`, data: { code: result.error.code, tool: name } } };
  }
  const rendered = renderResult(result);
  return { result: { content: [{ type: "text", text: rendered.text }], isError: rendered.isError } };
}

/** A complete JSON-RPC response to the `tools/call` request `id`. */
export function toMcpJsonRpcResponse(
  id: string | number,
  result: ToolCallResult,
): { jsonrpc: "2.0"; id: string | number; result: McpCallToolResult } | { jsonrpc: "2.0"; id: string | number; error: McpJsonRpcError } {
  const answer = toMcpAnswer(result);
  return answer.error ? { jsonrpc: "2.0", id, error: answer.error } : { jsonrpc: "2.0", id, result: answer.result };
}

/**
 * One finished call as an MCP `CallToolResult`, for a request handler that returns results.
 * Throws {@link McpProtocolError} for an unknown tool, so the SDK answers with the JSON-RPC error
 * the specification asks for; this is the only way it throws.
 */
export function toMcpCallToolResult(result: ToolCallResult): McpCallToolResult {
  const answer = toMcpAnswer(result);
  if (answer.error) throw new McpProtocolError(answer.error);
  return answer.result;
}
