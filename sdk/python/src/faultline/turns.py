"""Provider-neutral handling of one model turn: every tool use gets exactly one result.

Providers reject a conversation whose tool uses are not all answered, so an adapter declares the
turn (:meth:`~faultline.Run.model_turn`), runs each use once (duplicates keep the first), and
answers a use without a result with an error. Used by the Anthropic, OpenAI and CrewAI adapters.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .runner import RunSession
from .tools import ToolCallResult


@dataclass(frozen=True)
class ToolUse:
    """One tool use the model asked for."""

    call_id: str
    """The provider's id the answer must repeat."""
    tool: str
    """The tool's name."""
    args: Any = None
    """Decoded arguments."""
    arguments_error: str | None = None
    """Set when the arguments could not be decoded: the call ends as an argument error, nothing runs."""


def field(obj: Any, name: str, default: Any = None) -> Any:
    """Reads ``name`` from an SDK object or a plain dict alike."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def decode_arguments(text: object) -> tuple[Any, str | None]:
    """Arguments sent as JSON text: ``(value, None)``, or ``(None, reason)`` when not JSON. Empty text is ``{}``."""
    if not isinstance(text, str):
        return ({} if text is None else text), None
    if text.strip() == "":
        return {}, None
    try:
        return json.loads(text), None
    except ValueError:
        return None, "the arguments are not valid JSON"


def _unique(uses: Iterable[ToolUse]) -> list[ToolUse]:
    seen: set[str] = set()
    out: list[ToolUse] = []
    for use in uses:
        if use.call_id not in seen:
            seen.add(use.call_id)
            out.append(use)
    return out


def answer(run: RunSession, uses: Iterable[ToolUse]) -> list[ToolCallResult]:
    """Declares the turn and runs its uses in order (sync tools); one result per unique id."""
    unique = _unique(uses)
    run.model_turn([u.call_id for u in unique])
    return run.call_all({"tool": u.tool, "args": u.args, "call_id": u.call_id, "arguments_error": u.arguments_error} for u in unique)


async def aanswer(run: RunSession, uses: Iterable[ToolUse]) -> list[ToolCallResult]:
    """Declares the turn and runs its uses concurrently; one result per unique id, in order."""
    unique = _unique(uses)
    run.model_turn([u.call_id for u in unique])
    return await run.acall_all({"tool": u.tool, "args": u.args, "call_id": u.call_id, "arguments_error": u.arguments_error} for u in unique)
