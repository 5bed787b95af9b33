"""OpenAI tool calls: Chat Completions (``tool`` messages) and the Responses API (``function_call_output`` items).

Neither API has an error flag, so the untrusted-data envelope's ``source`` (``tool_error`` /
``tool_refusal``) tells the model what happened. Arguments arrive as JSON text: text that is not
JSON ends as a repairable argument error, and nothing runs. Works with SDK objects or dicts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..runner import RunSession
from ..tools import ToolCallResult, ToolDefinition
from ..told import missing_result_text
from ..turns import ToolUse, aanswer, answer, decode_arguments, field


def chat_tool_params(tools: Iterable[ToolDefinition[Any]]) -> list[dict[str, Any]]:
    """The ``tools=`` parameter of ``chat.completions.create``."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": dict(t.input_schema)}} for t in tools]


def response_tool_params(tools: Iterable[ToolDefinition[Any]]) -> list[dict[str, Any]]:
    """The ``tools=`` parameter of ``responses.create``."""
    return [{"type": "function", "name": t.name, "description": t.description, "parameters": dict(t.input_schema)} for t in tools]


def _use(call_id: str, name: str, arguments: object) -> ToolUse:
    args, problem = decode_arguments(arguments)
    return ToolUse(call_id, name, args, problem)


def chat_tool_uses(message: Any) -> list[ToolUse]:
    """The ``tool_calls`` of an assistant chat message."""
    calls = field(message, "tool_calls") or []
    return [_use(field(c, "id"), field(field(c, "function"), "name"), field(field(c, "function"), "arguments")) for c in calls]


def _pair(uses: list[ToolUse], results: Iterable[ToolCallResult]) -> list[tuple[str, ToolCallResult | None]]:
    by_id: dict[str, ToolCallResult] = {}
    for r in results:
        by_id.setdefault(r.call_id, r)
    seen: set[str] = set()
    out: list[tuple[str, ToolCallResult | None]] = []
    for use in uses:
        if use.call_id not in seen:
            seen.add(use.call_id)
            out.append((use.call_id, by_id.get(use.call_id)))
    return out


def tool_messages(uses: list[ToolUse], results: Iterable[ToolCallResult]) -> list[dict[str, Any]]:
    """Exactly one ``tool`` message per tool call, in order; a call without a result gets an error."""
    return [{"role": "tool", "tool_call_id": i, "content": r.model_text() if r else missing_result_text()} for i, r in _pair(uses, results)]


def answer_chat(run: RunSession, message: Any) -> list[dict[str, Any]]:
    """Runs an assistant message's tool calls (sync tools) and returns the ``tool`` messages answering them."""
    uses = chat_tool_uses(message)
    return tool_messages(uses, answer(run, uses))


async def aanswer_chat(run: RunSession, message: Any) -> list[dict[str, Any]]:
    """Runs an assistant message's tool calls concurrently and returns the ``tool`` messages answering them."""
    uses = chat_tool_uses(message)
    return tool_messages(uses, await aanswer(run, uses))


def response_tool_uses(response: Any) -> list[ToolUse]:
    """The ``function_call`` items of a response's ``output`` (messages and reasoning skipped)."""
    output = field(response, "output", response) or []
    return [_use(field(i, "call_id"), field(i, "name"), field(i, "arguments")) for i in output if field(i, "type") == "function_call"]


def function_call_outputs(uses: list[ToolUse], results: Iterable[ToolCallResult]) -> list[dict[str, Any]]:
    """Exactly one ``function_call_output`` per ``function_call``, in order; a call without a result gets an error."""
    return [
        {"type": "function_call_output", "call_id": i, "output": r.model_text() if r else missing_result_text()}
        for i, r in _pair(uses, results)
    ]


def answer_response(run: RunSession, response: Any) -> list[dict[str, Any]]:
    """Runs a response's function calls (sync tools) and returns the ``function_call_output`` items answering them."""
    uses = response_tool_uses(response)
    return function_call_outputs(uses, answer(run, uses))


async def aanswer_response(run: RunSession, response: Any) -> list[dict[str, Any]]:
    """Runs a response's function calls concurrently and returns the ``function_call_output`` items answering them."""
    uses = response_tool_uses(response)
    return function_call_outputs(uses, await aanswer(run, uses))
