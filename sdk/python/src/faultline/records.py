"""The native wire records (``lib/contracts/records.ts``), their builders, and the sinks they go to."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict

from .errors import ToolError, round_half_up
from .limits import MAX_DELAY_MS
from .policy import Decision
from .told import wire_text

Record = dict[str, Any]
"""One native record as sent on the wire: a ``run``, ``tool_call_span`` or ``tool_error`` object."""

RunState = Literal["pending", "running", "suspended", "completed", "failed", "cancelled"]
"""Run states on the wire."""

IdKind = Literal["run", "trace", "span", "record", "call"]
"""What an id is generated for."""

IdSource = Callable[[IdKind], str]
"""Generates identifiers; injected so tests get stable ids."""


class Resource(TypedDict, total=False):
    """What is true for every record of a batch."""

    service: str
    release: str
    environment: str
    sdk: dict[str, str]


def random_ids(kind: IdKind) -> str:
    """Default ids: 32 hex for runs and traces, 16 hex for spans and records, ``call_`` + 16 hex for calls."""
    if kind in ("run", "trace"):
        return secrets.token_hex(16)
    if kind == "call":
        return f"call_{secrets.token_hex(8)}"
    return secrets.token_hex(8)


def sequential_ids() -> IdSource:
    """Deterministic ids (``<kind>_<n>``) for tests and reproducible demos."""
    counter = 0

    def next_id(kind: IdKind) -> str:
        nonlocal counter
        counter += 1
        return f"{kind}_{counter}"

    return next_id


class RecordSink(Protocol):
    """Receives records (the exporter is one). Must not block and should not raise."""

    def record(self, record: Record) -> None:
        """Accepts one record in the native wire format."""


@dataclass
class MemorySink:
    """A sink that keeps records in memory: for tests and local inspection."""

    records: list[Record] = field(default_factory=list)
    """Everything recorded, in order."""

    def record(self, record: Record) -> None:
        """Keeps ``record``."""
        self.records.append(record)

    def of_type(self, kind: str) -> list[Record]:
        """Records of one type (``run``, ``tool_call_span``, ``tool_error``)."""
        return [r for r in self.records if r.get("type") == kind]


class FanOut:
    """Sends every record to several sinks; one failing sink does not stop the others."""

    def __init__(self, sinks: Iterable[RecordSink]) -> None:
        self._sinks = list(sinks)

    def record(self, record: Record) -> None:
        """Forwards ``record`` to every sink."""
        for sink in self._sinks:
            safe_record(sink, record)


def safe_record(sink: RecordSink | None, record: Record) -> None:
    """Calls ``sink.record``, swallowing its failures: telemetry never breaks the agent."""
    if sink is None:
        return
    try:
        sink.record(record)
    except Exception:
        pass


@dataclass(frozen=True)
class Scope:
    """Fields a run's records share."""

    run_id: str
    trace_id: str
    release: str | None = None
    environment: str | None = None


def _delay(ms: float) -> int:
    return min(max(0, round_half_up(ms)), MAX_DELAY_MS)


_UNSET: Any = object()


def span_record(
    scope: Scope,
    *,
    id: str,
    call_id: str,
    tool: str,
    attempt: int,
    started_at: float,
    ended_at: float,
    outcome: str,
    tool_version: str | None = None,
    error: ToolError | None = None,
    decision: Decision | None = None,
    retry_after_ms: float | None = None,
    backoff_ms: float | None = None,
    permitted: bool | None = None,
    abandoned: bool | None = None,
    message: str | None = None,
    args_hash: str | None = None,
    after_error: str | None = _UNSET,
) -> Record:
    """A ``tool_call_span`` record with the field order and rounding of the TypeScript builder."""
    r: Record = {
        "type": "tool_call_span",
        "id": id,
        "trace_id": scope.trace_id,
        "run_id": scope.run_id,
        "call_id": call_id,
        "tool": tool,
        "attempt": attempt,
        "started_at": round_half_up(started_at),
        "ended_at": round_half_up(max(ended_at, started_at)),
        "outcome": outcome,
    }
    if tool_version is not None:
        r["tool_version"] = tool_version
    if error is not None:
        r["code"] = error.code
        r["error_class"] = error.error_class
        r["retryable"] = error.retryable
    if retry_after_ms is not None:
        r["retry_after_ms"] = _delay(retry_after_ms)
    if backoff_ms is not None:
        r["backoff_ms"] = _delay(backoff_ms)
    if decision is not None:
        r["decision"] = decision
    if permitted is not None:
        r["permitted"] = permitted
    if abandoned is not None:
        r["abandoned"] = abandoned
    text = message if message is not None else (error.detail if error is not None and error.detail else None)
    if text is not None:
        r["message"] = wire_text(text)
    if args_hash is not None:
        r["args_hash"] = args_hash
    if after_error is not _UNSET:
        r["after_error"] = after_error
    if scope.release is not None:
        r["release"] = scope.release
    if scope.environment is not None:
        r["environment"] = scope.environment
    return r


def tool_error_record(
    scope: Scope,
    *,
    id: str,
    call_id: str,
    tool: str,
    error: ToolError,
    attempts: int,
    decision: Decision,
    told: str | None,
    occurred_at: float,
    tool_version: str | None = None,
    experiment: str | None = None,
    variant: str | None = None,
) -> Record:
    """The ``tool_error`` record: the final error of one call, its decision and the exact told text (``None``: told nothing).

    ``experiment`` and ``variant`` name the wording experiment's arm the told text came from: both or neither.
    """
    r: Record = {"type": "tool_error", "id": id, "run_id": scope.run_id, "call_id": call_id, "tool": tool}
    if tool_version:
        r["tool_version"] = tool_version
    r.update(
        code=error.code,
        error_class=error.error_class,
        retryable=error.retryable,
        attempts=attempts,
        decision=decision,
        told=told,
        occurred_at=round_half_up(occurred_at),
    )
    if experiment is not None and variant is not None:
        r.update(experiment=experiment, variant=variant)
    if scope.release:
        r["release"] = scope.release
    if scope.environment:
        r["environment"] = scope.environment
    return r


def run_record(
    scope: Scope,
    *,
    agent: str,
    started_at: float,
    ended_at: float,
    state: RunState,
    agent_version: str | None = None,
    deadline_at: float | None = None,
    max_tool_attempts: int | None = None,
    error: str | None = None,
    unanswered_tool_uses: int | None = None,
) -> Record:
    """The ``run`` record, with absent fields left out."""
    r: Record = {"type": "run", "id": scope.run_id, "run_id": scope.run_id, "agent": agent}
    optional: dict[str, Any] = {
        "agent_version": agent_version,
        "started_at": round_half_up(started_at),
        "ended_at": round_half_up(ended_at),
        "state": state,
        "deadline_at": None if deadline_at is None else round_half_up(deadline_at),
        "max_tool_attempts": max_tool_attempts,
        "error": wire_text(error) if error else None,
        "unanswered_tool_uses": unanswered_tool_uses,
        "release": scope.release,
        "environment": scope.environment,
    }
    r.update({k: v for k, v in optional.items() if v is not None})
    return r
