"""OTel mode with the real OpenTelemetry SDK: the same facts as faultline.* attributes."""

from __future__ import annotations

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from faultline import FanOut, MemorySink, ToolFailure, ToolRunner, sequential_ids, tool
from faultline.otel import OtelSink

from .conftest import FakeClock


def test_attempts_errors_and_the_run_become_spans_with_faultline_attributes(clock: FakeClock) -> None:
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("agent")

    @tool(idempotent=True)
    def search(q: str) -> str:
        """Search."""
        raise ToolFailure("search", "upstream_unavailable", message="503", transient=True, retry_after_ms=100)

    native = MemorySink()
    runner = ToolRunner(agent="support", tools=[search], sink=FanOut([OtelSink(tracer), native]), clock=clock, sleep=clock.sleep, ids=sequential_ids())
    with tracer.start_as_current_span("invoke_agent support") as agent_span:
        with runner.run() as run:
            run.call("search", {"q": "x"}, call_id="toolu_1")
    spans = {s.name: s for s in memory.get_finished_spans()}
    attempts = [s for s in memory.get_finished_spans() if s.name == "execute_tool search"]
    assert [a.attributes["faultline.attempt"] for a in attempts] == [1, 2, 3]
    first = attempts[0].attributes
    assert first["faultline.decision"] == "retried" and first["faultline.backoff_ms"] == 100 and first["faultline.retry_after_ms"] == 100
    assert first["faultline.after_error"] == "" and first["faultline.args_hash"] == native.records[0]["args_hash"]
    assert attempts[0].parent is not None and attempts[0].parent.span_id == agent_span.get_span_context().span_id
    assert attempts[2].status.status_code == StatusCode.ERROR
    final = spans["faultline.tool_error search"].attributes
    assert final["faultline.decision"] == "exhausted"
    assert final["faultline.told"] == native.of_type("tool_error")[0]["told"]
    agent = spans["invoke_agent support"].attributes
    assert agent["faultline.run_state"] == "completed" and agent["faultline.run_id"] == run.run_id
