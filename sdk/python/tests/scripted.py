"""The scripted agent of test/vectors/scripted-run.json, as Python tools (shared by the vectors test and the cross-language agent)."""

from __future__ import annotations

from typing import Any

from faultline import ToolDefinition, ToolFailure, ToolRefusal, ToolTimedOutError, tool
from faultline.errors import ToolError


def build_error(tool_name: str, spec: dict[str, Any]) -> ToolError:
    """A taxonomy error from its description in the vectors."""
    if spec["class"] == "ToolRefusal":
        return ToolRefusal(tool_name, spec["code"], spec["message"])
    if spec["class"] == "ToolTimedOutError":
        return ToolTimedOutError(
            tool_name, timeout_ms=spec.get("timeout_ms"), retryable=spec.get("retryable", False), retry_after_ms=spec.get("retry_after_ms")
        )
    return ToolFailure(
        tool_name, spec["code"], message=spec.get("message"), transient=spec.get("transient", False), retry_after_ms=spec.get("retry_after_ms")
    )


def scripted_tools(script: dict[str, Any]) -> list[ToolDefinition[Any]]:
    """Fresh tools of the script: each fails or returns per attempt as scripted."""
    counters: dict[str, int] = {}

    def make(name: str, spec: dict[str, Any]) -> ToolDefinition[Any]:
        def body(**_: Any) -> Any:
            n = counters.get(name, 0)
            counters[name] = n + 1
            step = spec["attempts"][min(n, len(spec["attempts"]) - 1)]
            if "raise" in step:
                raise build_error(name, step["raise"])
            return step["return"]

        return tool(name=name, idempotent=spec["idempotent"])(body)

    return [make(name, spec) for name, spec in script["tools"].items()]
