"""OpenAI Chat Completions tools and the Responses API with the real openai SDK against a scripted local model API."""

from __future__ import annotations

import json
from typing import Any

import openai

from faultline import MemorySink, ToolFailure, ToolRunner, sequential_ids, tool
from faultline.integrations.openai import aanswer_response, answer_chat, chat_tool_params, response_tool_params

from .agent_tools import travel_tools
from .conftest import FakeClock
from .fake_llm import FakeLLM, chat_completion, response


def test_chat_tool_messages_carry_the_told_text_and_bad_json_is_repairable(clock: FakeClock) -> None:
    calls = {"n": 0}

    @tool(input_schema={"type": "object", "properties": {"city": {"type": "string"}}})
    def weather(city: str) -> str:
        """Current weather."""
        calls["n"] += 1
        raise ToolFailure("weather", "quota_exceeded", message="daily quota of 1000 calls used, api_key=sk-abcdefghijklmnopqrstuvwxyz123456")

    llm = FakeLLM([
        chat_completion([
            {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city": "Paris"}'}},
            {"id": "call_2", "type": "function", "function": {"name": "weather", "arguments": '{"city": '}},
        ]),
        chat_completion(None, content="Sorry, no weather today."),
    ])  # fmt: skip
    try:
        sink = MemorySink()
        runner = ToolRunner(agent="assistant", tools=[weather], sink=sink, clock=clock, sleep=clock.sleep, ids=sequential_ids())
        client = openai.OpenAI(base_url=f"{llm.url}/v1", api_key="sk-test", max_retries=0)
        messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
        with runner.run() as run:
            while True:
                completion = client.chat.completions.create(model="gpt-fake", messages=messages, tools=chat_tool_params([weather]))  # type: ignore[arg-type]
                message = completion.choices[0].message
                if not message.tool_calls:
                    break
                messages += [message.model_dump(exclude_none=True), *answer_chat(run, message)]
        assert llm.requests[0]["tools"] == [{"type": "function", "function": {"name": "weather", "description": "Current weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
        answers = llm.requests[1]["messages"][-2:]
        assert [(m["role"], m["tool_call_id"]) for m in answers] == [("tool", "call_1"), ("tool", "call_2")]
        assert answers[0]["content"] == (
            '<untrusted-data source="tool_error">\nerror: quota_exceeded: daily quota of 1000 calls used, api_key=[redacted:api_key]\n'
            "retryable: no (repeating the same call will not help)\n</untrusted-data>"
        )
        assert answers[1]["content"].startswith('<untrusted-data source="tool_error">\ninvalid_arguments: weather did not run because its arguments were rejected.\n- (arguments): the arguments are not valid JSON\n')
        assert calls["n"] == 1  # the undecodable call never ran
        spans = {s["call_id"]: s for s in sink.of_type("tool_call_span")}
        assert "args_hash" in spans["call_1"] and "args_hash" not in spans["call_2"]
    finally:
        llm.close()


async def test_responses_api_function_call_outputs(clock: FakeClock) -> None:
    tools = travel_tools()
    llm = FakeLLM([
        response([
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "search_flights", "arguments": json.dumps({"to": "LHR"}), "status": "completed"},
            {"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "refund", "arguments": json.dumps({"booking": "bk_1", "amount": 700}), "status": "completed"},
        ]),
        response([{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "done", "annotations": []}]}]),
    ])  # fmt: skip
    try:
        sink = MemorySink()
        runner = ToolRunner(agent="assistant", tools=tools, sink=sink, clock=clock, async_sleep=clock.async_sleep, ids=sequential_ids(), random=lambda: 0.0)
        client = openai.AsyncOpenAI(base_url=f"{llm.url}/v1", api_key="sk-test", max_retries=0)
        async with runner.run() as run:
            first = await client.responses.create(model="gpt-fake", input="Refund me", tools=response_tool_params(tools))  # type: ignore[arg-type]
            outputs = await aanswer_response(run, first)
            final = await client.responses.create(model="gpt-fake", previous_response_id=first.id, input=outputs)  # type: ignore[arg-type]
        assert final.output_text == "done"
        assert llm.paths == ["/v1/responses", "/v1/responses"]
        assert llm.requests[1]["input"] == [
            {"type": "function_call_output", "call_id": "call_a", "output": '<untrusted-data source="tool_result">\n{"flights":["LH123"],"to":"LHR"}\n</untrusted-data>'},
            {"type": "function_call_output", "call_id": "call_b", "output": '<untrusted-data source="tool_refusal">\noutside_policy: refunds over 500 EUR need a human\n</untrusted-data>'},
        ]
        assert [(e["call_id"], e["decision"]) for e in sink.of_type("tool_error")] == [("call_b", "delivered")]
        assert sink.of_type("run")[0]["unanswered_tool_uses"] == 0
    finally:
        llm.close()
