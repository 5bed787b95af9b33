"""Anthropic Messages API tool loop: ``tool_use`` blocks in, ``tool_result`` blocks (``is_error``, the told text) out.

Works with the ``anthropic`` SDK's objects or plain dicts. Every ``tool_use`` of a turn is
answered once; a turn the agent never answers shows as ``unanswered_tool_uses`` on the run record.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..runner import RunSession
from ..tools import ToolCallResult, ToolDefinition
from ..told import missing_result_text
from ..turns import ToolUse, aanswer, answer, field


def tool_params(tools: Iterable[ToolDefinition[Any]]) -> list[dict[str, Any]]:
    """The ``tools=`` parameter of ``messages.create`` for these tool definitions."""
    return [{"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)} for t in tools]


def tool_uses(message: Any) -> list[ToolUse]:
    """The ``tool_use`` blocks of an assistant message (other blocks skipped)."""
    content = field(message, "content", message) or []
    return [
        ToolUse(field(b, "id"), field(b, "name"), field(b, "input") or {})
        for b in content
        if field(b, "type") == "tool_use"
    ]


def tool_result(result: ToolCallResult) -> dict[str, Any]:
    """One finished call as a ``tool_result`` block; ``is_error`` for errors (a refusal is data, not an error)."""
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.call_id, "content": result.model_text()}
    if result.is_error:
        block["is_error"] = True
    return block


def tool_results(uses: Iterable[ToolUse], results: Iterable[ToolCallResult]) -> list[dict[str, Any]]:
    """Exactly one ``tool_result`` per ``tool_use``, in order; a use without a result gets an error block."""
    by_id: dict[str, ToolCallResult] = {}
    for r in results:
        by_id.setdefault(r.call_id, r)
    blocks: list[dict[str, Any]] = []
    seen: set[str] = set()
    for use in uses:
        if use.call_id in seen:
            continue
        seen.add(use.call_id)
        found = by_id.get(use.call_id)
        blocks.append(tool_result(found) if found else {"type": "tool_result", "tool_use_id": use.call_id, "content": missing_result_text(), "is_error": True})
    return blocks


def answer_message(run: RunSession, message: Any) -> dict[str, Any]:
    """Runs the tool uses of an assistant message (sync tools) and returns the ``user`` message answering them."""
    uses = tool_uses(message)
    return {"role": "user", "content": tool_results(uses, answer(run, uses))}


async def aanswer_message(run: RunSession, message: Any) -> dict[str, Any]:
    """Runs the tool uses of an assistant message concurrently and returns the ``user`` message answering them."""
    uses = tool_uses(message)
    return {"role": "user", "content": tool_results(uses, await aanswer(run, uses))}
