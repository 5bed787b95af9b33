"""MCP with the real MCP Python SDK: a client connected in-process to the Faultline-backed server."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from faultline import MemorySink, ToolArgumentValidationError, ToolRunner, sequential_ids
from faultline.integrations.mcp import MCP_INVALID_PARAMS, mcp_server

from .agent_tools import travel_tools
from .conftest import FakeClock


async def test_tool_errors_are_is_error_results_and_unknown_tools_protocol_errors(clock: FakeClock) -> None:
    sink = MemorySink()
    runner = ToolRunner(agent="travel-mcp", tools=travel_tools(), sink=sink, clock=clock, async_sleep=clock.async_sleep, ids=sequential_ids(), random=lambda: 0.0)
    async with Client(mcp_server("travel", runner)) as client:
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == ["search_flights", "refund"]
        found = await client.call_tool("search_flights", {"to": "LHR"})
        refused = await client.call_tool("refund", {"booking": "bk_1", "amount": 900})
        broken = await client.call_tool("refund", {"booking": "bk_1"})
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("teleport", {"to": "LHR"})
    assert (found.is_error, found.content[0].text) == (False, '<untrusted-data source="tool_result">\n{"flights":["LH123"],"to":"LHR"}\n</untrusted-data>')  # type: ignore[union-attr]
    assert (refused.is_error, refused.content[0].text) == (False, '<untrusted-data source="tool_refusal">\noutside_policy: refunds over 500 EUR need a human\n</untrusted-data>')  # type: ignore[union-attr]
    assert broken.is_error is True
    assert "- (arguments): missing a required argument: 'amount'" in broken.content[0].text  # type: ignore[union-attr]
    assert (unknown.value.code, unknown.value.message) == (MCP_INVALID_PARAMS, "Unknown tool: teleport")
    assert unknown.value.data == {"code": "tool_not_found", "tool": "teleport"}
    runs = sink.of_type("run")
    assert len(runs) == 4 and all(r["agent"] == "travel-mcp" and r["state"] == "completed" for r in runs)
    assert [e["decision"] for e in sink.of_type("tool_error")] == ["delivered", "surfaced", "surfaced"]
    assert ToolArgumentValidationError.error_class in {e["error_class"] for e in sink.of_type("tool_error")}
