"""OTel mode: the same facts as ``faultline.*`` span attributes, for teams that already export OTLP.

:class:`OtelSink` is a :class:`~faultline.RecordSink`: each attempt becomes an ``execute_tool``
span (child of the current span) with GenAI and ``faultline.*`` attributes, each final error a
``faultline.tool_error <tool>`` span carrying ``faultline.told``, and the run's facts go on the
current span (the agent's span) when one is recording, else on an ``invoke_agent`` span. Faultline's
``/v1/traces`` reads exactly these names (docs/otlp.md). Needs the ``otel`` extra.
"""

from __future__ import annotations

from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Status, StatusCode, Tracer

from .records import Record
from .version import SDK_NAME, SDK_VERSION

AttributeValue = str | bool | int


def _compact(values: dict[str, Any]) -> dict[str, AttributeValue]:
    return {k: v for k, v in values.items() if v is not None}


def span_attributes(record: Record) -> dict[str, AttributeValue]:
    """The OTLP attributes of one native record, as the TypeScript runtime's OTLP export names them."""
    kind = record.get("type")
    if kind == "tool_call_span":
        failed = record["outcome"] not in ("ok", "declined")
        after = record.get("after_error", ...)
        return _compact({
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": record["tool"],
            "gen_ai.tool.call.id": record["call_id"],
            "error.type": (record.get("code") or record.get("error_class") or "_OTHER") if failed else None,
            "faultline.run_id": record["run_id"],
            "faultline.call_id": record["call_id"],
            "faultline.tool": record["tool"],
            "faultline.tool_version": record.get("tool_version"),
            "faultline.attempt": record["attempt"],
            "faultline.outcome": record["outcome"],
            "faultline.code": record.get("code"),
            "faultline.error_class": record.get("error_class"),
            "faultline.retryable": record.get("retryable"),
            "faultline.retry_after_ms": record.get("retry_after_ms"),
            "faultline.backoff_ms": record.get("backoff_ms"),
            "faultline.decision": record.get("decision"),
            "faultline.permitted": record.get("permitted"),
            "faultline.abandoned": record.get("abandoned"),
            "faultline.args_hash": record.get("args_hash"),
            # "" says "answers no error" (attributes cannot be null; absent means unknown).
            "faultline.after_error": None if after is ... else (after if after is not None else ""),
            "faultline.release": record.get("release"),
        })  # fmt: skip
    if kind == "run":
        return _compact({
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": record["agent"],
            "faultline.run_id": record["run_id"],
            "faultline.run_state": record["state"],
            "faultline.agent_version": record.get("agent_version"),
            "faultline.deadline_at": record.get("deadline_at"),
            "faultline.max_tool_attempts": record.get("max_tool_attempts"),
            "faultline.unanswered_tool_uses": record.get("unanswered_tool_uses"),
            "faultline.release": record.get("release"),
        })  # fmt: skip
    return _compact({
        "gen_ai.tool.name": record["tool"],
        "gen_ai.tool.call.id": record["call_id"],
        "error.type": record["code"],
        "faultline.run_id": record["run_id"],
        "faultline.call_id": record["call_id"],
        "faultline.tool": record["tool"],
        "faultline.tool_version": record.get("tool_version"),
        "faultline.code": record["code"],
        "faultline.error_class": record["error_class"],
        "faultline.retryable": record["retryable"],
        "faultline.attempts": record["attempts"],
        "faultline.decision": record["decision"],
        "faultline.told": record.get("told"),
        "faultline.release": record.get("release"),
        "faultline.experiment": record.get("experiment"),
        "faultline.variant": record.get("variant"),
    })  # fmt: skip


def _ns(ms: float) -> int:
    return int(round(ms)) * 1_000_000


class OtelSink:
    """Puts every record on OpenTelemetry spans (see the module docstring). Never raises into the agent."""

    def __init__(self, tracer: Tracer | None = None) -> None:
        self.tracer: Tracer = tracer or trace.get_tracer(SDK_NAME, SDK_VERSION)
        """The tracer spans are started on."""

    def record(self, record: Record) -> None:
        """Turns one record into span data."""
        try:
            self._record(record)
        except Exception:
            pass

    def _record(self, record: Record) -> None:
        attributes = span_attributes(record)
        kind = record.get("type")
        if kind == "run":
            current = trace.get_current_span()
            if current.is_recording():
                current.set_attributes(attributes)
                if record["state"] == "failed":
                    current.set_status(Status(StatusCode.ERROR, record.get("error")))
                return
            end = record.get("ended_at") or record["started_at"]
            span = self.tracer.start_span(f"invoke_agent {record['agent']}", attributes=attributes, start_time=_ns(record["started_at"]))
            if record["state"] == "failed":
                span.set_status(Status(StatusCode.ERROR, record.get("error")))
            span.end(end_time=_ns(end))
            return
        if kind == "tool_call_span":
            span = self.tracer.start_span(f"execute_tool {record['tool']}", attributes=attributes, start_time=_ns(record["started_at"]))
            if record["outcome"] not in ("ok", "declined"):
                span.set_status(Status(StatusCode.ERROR, record.get("message")))
            span.end(end_time=_ns(record["ended_at"]))
            return
        at = _ns(record["occurred_at"])
        span = self.tracer.start_span(f"faultline.tool_error {record['tool']}", attributes=attributes, start_time=at)
        if record["error_class"] != "ToolRefusal":
            span.set_status(Status(StatusCode.ERROR))
        span.end(end_time=at)
