"""The travel agent's tools the integration tests share: one flaky, one that refuses, one that works."""

from __future__ import annotations

from typing import Any

from faultline import ToolDefinition, ToolFailure, ToolRefusal, tool


def travel_tools() -> list[ToolDefinition[Any]]:
    """Fresh tool definitions (the flaky one fails its first call only)."""
    calls = {"search": 0}

    @tool(idempotent=True, input_schema={"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]})
    async def search_flights(to: str) -> dict[str, Any]:
        """Finds flights to a city."""
        calls["search"] += 1
        if calls["search"] == 1:
            raise ToolFailure("search_flights", "upstream_unavailable", message="the GDS answered 503", transient=True)
        return {"flights": ["LH123"], "to": to}

    @tool(input_schema={"type": "object", "properties": {"booking": {"type": "string"}, "amount": {"type": "number"}}})
    async def refund(booking: str, amount: float) -> str:
        """Refunds a booking."""
        if amount > 500:
            raise ToolRefusal("refund", "outside_policy", "refunds over 500 EUR need a human")
        return f"refunded {amount} EUR on {booking}"

    return [search_flights, refund]
