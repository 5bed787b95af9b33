"""The Anthropic tool loop with the real anthropic SDK against a scripted local model API."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from faultline import MemorySink, ToolRunner, sequential_ids
from faultline.integrations.anthropic import aanswer_message, tool_params

from .agent_tools import travel_tools
from .conftest import FakeClock
from .fake_llm import FakeLLM, anthropic_message


@pytest.fixture
def model() -> Any:
    llm = FakeLLM([
        anthropic_message([
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "toolu_01", "name": "search_flights", "input": {"to": "LHR"}},
            {"type": "tool_use", "id": "toolu_02", "name": "refund", "input": {"booking": "bk_42", "amount": 900}},
            {"type": "tool_use", "id": "toolu_03", "name": "teleport", "input": {"to": "LHR"}},
        ]),
        anthropic_message([{"type": "tool_use", "id": "toolu_04", "name": "refund", "input": {"booking": "bk_42", "amount": 450}}]),
        anthropic_message([{"type": "text", "text": "Refunded 450 EUR."}], stop_reason="end_turn"),
    ])  # fmt: skip
    yield llm
    llm.close()


async def test_every_tool_use_is_answered_with_is_error_and_the_told_text(model: FakeLLM, clock: FakeClock) -> None:
    sink = MemorySink()
    tools = travel_tools()
    runner = ToolRunner(agent="travel", tools=tools, sink=sink, clock=clock, async_sleep=clock.async_sleep, ids=sequential_ids(), random=lambda: 0.5)
    client = anthropic.AsyncAnthropic(base_url=model.url, api_key="sk-test", max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Refund my flight"}]
    async with runner.run() as run:
        while True:
            message = await client.messages.create(model="claude-fake", max_tokens=512, tools=tool_params(tools), messages=messages)  # type: ignore[arg-type]
            if message.stop_reason != "tool_use":
                break
            messages += [{"role": "assistant", "content": [b.model_dump() for b in message.content]}, await aanswer_message(run, message)]
    assert message.content[0].text == "Refunded 450 EUR."  # type: ignore[union-attr]
    assert model.requests[0]["tools"][0] == {
        "name": "search_flights", "description": "Finds flights to a city.",
        "input_schema": {"type": "object", "properties": {"to": {"type": "string"}}, "required": ["to"]},
    }  # fmt: skip
    answered = model.requests[1]["messages"][-1]
    assert answered["role"] == "user"
    assert [(b["tool_use_id"], b.get("is_error", False)) for b in answered["content"]] == [("toolu_01", False), ("toolu_02", False), ("toolu_03", True)]
    assert answered["content"][0]["content"] == '<untrusted-data source="tool_result">\n{"flights":["LH123"],"to":"LHR"}\n</untrusted-data>'
    assert answered["content"][1]["content"] == (
        '<untrusted-data source="tool_refusal">\noutside_policy: refunds over 500 EUR need a human\n</untrusted-data>'
    )
    assert answered["content"][2]["content"] == (
        '<untrusted-data source="tool_error">\nerror: tool_not_found: no tool is registered as \'teleport\'; registered tools: search_flights, refund\n'
        "retryable: no (repeating the same call will not help)\n</untrusted-data>"
    )
    second = model.requests[2]["messages"][-1]["content"]
    assert second == [{"type": "tool_result", "tool_use_id": "toolu_04", "content": '<untrusted-data source="tool_result">\nrefunded 450 EUR on bk_42\n</untrusted-data>'}]
    errors = sink.of_type("tool_error")
    # The unknown tool is answered before any body runs, as in the TypeScript runtime.
    assert [(e["call_id"], e["decision"], e["told"]) for e in errors] == [
        ("toolu_03", "surfaced", "error: tool_not_found: no tool is registered as 'teleport'; registered tools: search_flights, refund\nretryable: no (repeating the same call will not help)"),
        ("toolu_02", "delivered", "outside_policy: refunds over 500 EUR need a human"),
    ]
    search = [s for s in sink.of_type("tool_call_span") if s["call_id"] == "toolu_01"]
    assert [(s["attempt"], s["outcome"], s.get("backoff_ms")) for s in search] == [(1, "failed", 250), (2, "ok", None)]
    retry_of_refund = next(s for s in sink.of_type("tool_call_span") if s["call_id"] == "toolu_04")
    assert retry_of_refund["after_error"] == "toolu_02"
    assert sink.of_type("run")[0]["unanswered_tool_uses"] == 0 and sink.of_type("run")[0]["state"] == "completed"


async def test_tool_uses_left_unanswered_are_counted_on_the_run(model: FakeLLM, clock: FakeClock) -> None:
    sink = MemorySink()
    runner = ToolRunner(agent="travel", tools=travel_tools(), sink=sink, clock=clock, ids=sequential_ids())
    client = anthropic.AsyncAnthropic(base_url=model.url, api_key="sk-test", max_retries=0)
    async with runner.run() as run:
        message = await client.messages.create(model="claude-fake", max_tokens=512, messages=[{"role": "user", "content": "hi"}])
        # The agent gives up on this turn (a budget, a crash in its own code) without answering it.
        run.model_turn([b.id for b in message.content if b.type == "tool_use"])
    assert sink.of_type("run")[0]["unanswered_tool_uses"] == 3
