"""CrewAI 1.x as it is: a Crew whose agent calls a Faultline-wrapped tool through a scripted OpenAI-compatible model."""

from __future__ import annotations

import json
from typing import Any

from crewai import LLM, Agent, Crew, Task
from fake_llm import FakeLLM, chat_completion  # type: ignore[import-not-found]

from faultline import MemorySink, ToolFailure, ToolRunner, tool
from faultline.integrations.crewai import crewai_tool


def lookup_tool() -> Any:
    calls = {"n": 0}

    @tool
    def lookup_order(order_id: str) -> str:
        """Looks up an order by id."""
        calls["n"] += 1
        if calls["n"] == 1:
            raise ToolFailure("lookup_order", "order_service_down", message="orders API answered 503, token=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
        return f"order {order_id}: shipped"

    return lookup_order


def test_a_crew_reads_the_told_text_and_faultline_gets_typed_records() -> None:
    model = FakeLLM([
        chat_completion([{"id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": json.dumps({"order_id": "A1"})}}]),
        chat_completion([{"id": "call_2", "type": "function", "function": {"name": "lookup_order", "arguments": json.dumps({"order_id": "A1"})}}]),
        chat_completion(None, content="Order A1 has shipped."),
    ])  # fmt: skip
    try:
        sink = MemorySink()
        lookup_order = lookup_tool()
        runner = ToolRunner(agent="support-crew", tools=[lookup_order], sink=sink)
        llm = LLM(model="openai/gpt-fake", base_url=f"{model.url}/v1", api_key="sk-test")
        agent = Agent(role="support", goal="answer order questions", backstory="a support agent", tools=[crewai_tool(lookup_order, runner)], llm=llm)
        task = Task(description="Where is order A1?", expected_output="the order's status", agent=agent)
        with runner.run():
            answer = Crew(agents=[agent], tasks=[task]).kickoff()
        assert str(answer) == "Order A1 has shipped."
        tool_message = next(m for m in model.requests[1]["messages"] if m["role"] == "tool")
        assert tool_message["content"] == (
            '<untrusted-data source="tool_error">\nerror: order_service_down: orders API answered 503, token=[redacted:api_key]\n'
            "retryable: no (repeating the same call will not help)\n</untrusted-data>"
        )
        assert model.requests[0]["tools"][0]["function"]["parameters"]["properties"] == {"order_id": {"type": "string"}}
        errors = sink.of_type("tool_error")
        assert [(e["code"], e["error_class"], e["decision"]) for e in errors] == [("order_service_down", "ToolFailure", "surfaced")]
        spans = sink.of_type("tool_call_span")
        assert [s["outcome"] for s in spans] == ["failed", "ok"]
        assert spans[1]["after_error"] == errors[0]["call_id"]
        assert spans[0]["args_hash"] == spans[1]["args_hash"]
        assert sink.of_type("run")[0]["state"] == "completed"
    finally:
        model.close()


def test_crewai_validates_arguments_against_the_tool_signature() -> None:
    sink = MemorySink()
    lookup_order = lookup_tool()
    runner = ToolRunner(agent="support-crew", tools=[lookup_order], sink=sink)
    wrapped = crewai_tool(lookup_order, runner)
    first = wrapped.run(order_id="B2")
    assert first.startswith('<untrusted-data source="tool_error">\nerror: order_service_down')
    assert wrapped.run(order_id="B2") == '<untrusted-data source="tool_result">\norder B2: shipped\n</untrusted-data>'
    assert [r["type"] for r in sink.records] == ["tool_call_span", "tool_error", "run", "tool_call_span", "run"]
