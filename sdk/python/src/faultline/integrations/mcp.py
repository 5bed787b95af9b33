"""MCP Python SDK (``mcp`` 2.x): serve Faultline tools over MCP, as the specification wants them answered.

Everything a tool did, failures, refusals and repairable argument errors included, is a
``CallToolResult`` (``isError`` for errors, not for refusals) whose text is the enveloped told
text; a call for a tool nobody registered is a protocol error (JSON-RPC ``-32602``, "Unknown
tool"), because the request itself was wrong. By default each ``tools/call`` is one run of
``runner``; pass ``run=`` to report every call into one run of yours instead.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server import Server
from mcp.shared.exceptions import MCPError

from ..runner import RunSession, ToolRunner
from ..tools import ToolCallResult

MCP_INVALID_PARAMS = -32602
"""JSON-RPC "Invalid params", the code the MCP specification gives an unknown tool."""

_MAX_NAME = 120


def call_tool_result(result: ToolCallResult) -> types.CallToolResult:
    """One finished call as a ``CallToolResult``; raises :class:`MCPError` (``-32602``) for an unknown tool."""
    if result.status == "error" and result.error is not None and result.error.error_class == "ToolNotFoundError":
        name = f"{result.tool[:_MAX_NAME]}…" if len(result.tool) > _MAX_NAME else result.tool
        raise MCPError(MCP_INVALID_PARAMS, f"Unknown tool: {name}", {"code": result.error.code, "tool": name})
    return types.CallToolResult(content=[types.TextContent(type="text", text=result.model_text())], is_error=result.is_error)


def list_tools_result(runner: ToolRunner) -> types.ListToolsResult:
    """The runner's tools as an MCP tool listing."""
    return types.ListToolsResult(
        tools=[types.Tool(name=t.name, description=t.description, input_schema=dict(t.input_schema)) for t in runner.tools.values()]
    )


def mcp_server(name: str, runner: ToolRunner, *, run: RunSession | None = None, **server_options: Any) -> Server[Any]:
    """A low-level MCP ``Server`` exposing ``runner``'s tools; every call is recorded, every failure answered as data."""

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return list_tools_result(runner)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        call_id = None if ctx.request_id is None else f"mcp_{ctx.request_id}"
        if run is not None:
            result = await run.acall(params.name, params.arguments or {}, call_id=call_id)
        else:
            async with runner.run() as own:
                result = await own.acall(params.name, params.arguments or {}, call_id=call_id)
        return call_tool_result(result)

    return Server(name, on_list_tools=on_list_tools, on_call_tool=on_call_tool, **server_options)
