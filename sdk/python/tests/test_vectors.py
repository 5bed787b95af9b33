"""The shared vectors (test/vectors/*.json, computed by the TypeScript runtime) against the Python package."""

from __future__ import annotations

from typing import Any

import pytest

from faultline import (
    MemorySink,
    RetryPolicy,
    ToolErrorMap,
    ToolRunner,
    args_hash,
    canonical_args,
    decide,
    permanent,
    refusal,
    scrub_text,
    sequential_ids,
    told_text,
    transient,
)
from faultline.clamp import clamp_record
from faultline.errors import ToolError

from .conftest import vector
from .scripted import build_error, scripted_tools

ARGS = vector("args-hash.json")
SCRUB = vector("scrub.json")
ERROR_MAP = vector("error-map.json")
DECISIONS = vector("decisions.json")
SCRIPTED = vector("scripted-run.json")


@pytest.mark.parametrize("case", ARGS, ids=[c["name"] for c in ARGS])
def test_args_hash_matches_the_typescript_runtime(case: dict[str, Any]) -> None:
    assert canonical_args(case["args"]) == case["canonical"]
    assert args_hash(case["args"]) == case["hash"]


@pytest.mark.parametrize("case", SCRUB, ids=[c["input"][:40] for c in SCRUB])
def test_scrub_matches_the_typescript_rules(case: dict[str, str]) -> None:
    assert scrub_text(case["input"]) == case["output"]
    assert scrub_text(case["output"]) == case["output"]


def _rule(spec: dict[str, Any]) -> Any:
    if spec["kind"] == "refusal":
        return refusal(spec["code"], spec.get("message", ""))
    if spec.get("transient"):
        return transient(spec["code"], retry_after_ms=spec.get("retry_after_ms"), message=spec.get("message"))
    return permanent(spec["code"], message=spec.get("message"))


def _classes() -> dict[str, type[Exception]]:
    classes: dict[str, type[Exception]] = {}
    for name, parent in ERROR_MAP["classes"].items():
        classes[name] = type(name, (classes[parent] if parent else Exception,), {})
    return classes


def _error_of(error: ToolError) -> dict[str, Any]:
    return {
        "error_class": error.error_class,
        "code": error.code,
        "retryable": error.retryable,
        "retry_after_ms": error.retry_after_ms,
        "detail": error.detail,
    }


@pytest.mark.parametrize("case", ERROR_MAP["cases"], ids=[c["name"] for c in ERROR_MAP["cases"]])
def test_error_map_matches_the_typescript_runtime(case: dict[str, Any]) -> None:
    classes = _classes()
    mapping = ToolErrorMap(
        {classes[name]: _rule(spec) for name, spec in ERROR_MAP["rules"].items()},
        statuses={int(status): _rule(spec) for status, spec in ERROR_MAP["statuses"].items()},
    )
    thrown = classes[case["raise"]["class"]](case["raise"]["message"])
    if "status" in case["raise"]:
        thrown.status = case["raise"]["status"]  # type: ignore[attr-defined]
    assert _error_of(mapping.classify(thrown, "book")) == case["expected"]


def _policy(spec: dict[str, float] | None) -> RetryPolicy:
    names = {"maxAttempts": "max_attempts", "baseDelayMs": "base_delay_ms", "multiplier": "multiplier", "maxDelayMs": "max_delay_ms", "maxRetryAfterMs": "max_retry_after_ms"}
    return RetryPolicy(**{names[k]: v for k, v in (spec or {}).items()})


@pytest.mark.parametrize("case", DECISIONS, ids=[c["name"] for c in DECISIONS])
def test_decisions_and_told_text_match_the_typescript_runtime(case: dict[str, Any]) -> None:
    policy = _policy(case.get("retry"))
    error = build_error("book", case["error"])
    verdict = decide(
        error,
        attempt=case["attempt"],
        policy=policy,
        random=lambda: case["random"],
        now=case.get("now", 0),
        idempotent=case.get("idempotent", False),
        tool_retries_used=case.get("tool_retries_used", 0),
        max_tool_attempts=case.get("max_tool_attempts", 12),
        deadline_at=case.get("deadline_at"),
        on_failure=case.get("policy", "surface_to_model"),
    )
    told = None
    if verdict.decision != "retried":
        assert verdict.stop is not None
        told = told_text(error, stop=verdict.stop, attempts=case["attempt"], policy=policy, retry_after_ms=verdict.retry_after_ms)
    got = {"decision": verdict.decision, "backoff_ms": verdict.backoff_ms, "retry_after_ms": verdict.retry_after_ms, "stop": verdict.stop, "told": told}
    assert got == case["expected"]


def test_a_scripted_run_writes_the_records_the_typescript_runtime_writes() -> None:
    sink = MemorySink()
    runner = ToolRunner(
        agent=SCRIPTED["agent"],
        release=SCRIPTED["release"],
        environment=SCRIPTED["environment"],
        tools=scripted_tools(SCRIPTED),
        sink=sink,
        ids=sequential_ids(),
        clock=lambda: SCRIPTED["clock"],
        random=lambda: SCRIPTED["random"],
        sleep=lambda ms: None,
    )
    told: list[str | None] = []
    with runner.run() as run:
        for turn in SCRIPTED["turns"]:
            run.model_turn([c["call_id"] for c in turn])
            for c in turn:
                if c.get("unanswered"):
                    continue
                result = run.call(c["tool"], c["args"], call_id=c["call_id"])
                told.append(None if result.status == "ok" else result.told)
    assert told == SCRIPTED["expected"]["told"]
    assert sink.records == SCRIPTED["expected"]["records"]


CLAMP = vector("clamp.json")


@pytest.mark.parametrize("case", CLAMP, ids=[c["name"] for c in CLAMP])
def test_records_are_clamped_as_the_typescript_exporter_clamps_them(case: dict[str, Any]) -> None:
    record, clamped = clamp_record(case["input"])
    assert clamped == case["clamped"]
    assert record == case["record"]
