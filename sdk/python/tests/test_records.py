"""Records the package builds validate against the JSON Schema generated from lib/contracts."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from faultline import MemorySink, ToolFailure, ToolRefusal, ToolRunner, sequential_ids, tool

from .conftest import FakeClock, vector

SCHEMA = json.loads(resources.files("faultline").joinpath("schema/records.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def errors_of(record: dict[str, Any]) -> list[str]:
    """Every schema violation of one record, as text (also checked against the document's ``oneOf``)."""
    whole = [e.message for e in VALIDATOR.iter_errors(record)]
    # Nullable fields are anyOf(string, null): name the field so a test can say which one failed.
    kind = record.get("type")
    if kind not in SCHEMA["$defs"]:
        return whole or [f"unknown type {kind!r}"]
    own = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": SCHEMA["$defs"]})
    return whole + [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in own.iter_errors(record)]


def test_the_schema_itself_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_typescript_runtime_records_of_the_scripted_run_validate() -> None:
    records = vector("scripted-run.json")["expected"]["records"]
    assert {r["type"] for r in records} == {"run", "tool_call_span", "tool_error"}
    for record in records:
        assert errors_of(record) == [], record


def test_every_record_the_python_run_loop_writes_validates(clock: FakeClock) -> None:
    @tool
    def charge(amount: float) -> str:
        """Charges a card."""
        if amount > 500:
            raise ToolRefusal("charge", "over_limit", "charges over 500 need approval")
        raise ToolFailure("charge", "gateway_down", message="the gateway is down", transient=True, retry_after_ms=250)

    sink = MemorySink()
    runner = ToolRunner(agent="billing", tools=[charge], sink=sink, clock=clock, sleep=clock.sleep, ids=sequential_ids(), random=lambda: 0.3)
    with runner.run(timeout_ms=60_000) as run:
        run.model_turn(["a", "b", "c"])
        run.call("charge", {"amount": 900}, call_id="a")
        run.call("charge", {"amount": 10}, call_id="b")
    assert [r["type"] for r in sink.records] == ["tool_call_span", "tool_error"] + ["tool_call_span"] * 3 + ["tool_error", "run"]
    for record in sink.records:
        assert errors_of(record) == [], record
    assert sink.records[-1]["unanswered_tool_uses"] == 1
    assert clock.slept == [250, 250]


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"outcome": "exploded"}, "outcome: 'exploded' is not one of"),
        ({"attempt": 0}, "attempt: 0 is less than the minimum"),
        ({"args_hash": "NOT-HEX"}, "args_hash: 'NOT-HEX' is not valid"),
        ({"code": ""}, "code: '' is not valid"),
        ({"tool": None}, "tool: None is not of type 'string'"),
    ],
)
def test_the_schema_rejects_what_the_server_rejects(change: dict[str, Any], complaint: str) -> None:
    span = next(r for r in vector("scripted-run.json")["expected"]["records"] if r["type"] == "tool_call_span")
    problems = errors_of({**span, **change})
    assert problems and any(complaint in p for p in problems), problems
