"""Retry accounting: the tenacity integration (real tenacity) and the decorator for tools without it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import tenacity

from faultline import MemorySink, Run, ToolErrorMap, ToolFailure, ToolRefusal, retry, sequential_ids, transient
from faultline.integrations.tenacity import faultline_retry, retry_if_retryable, wait_retry_after

from .conftest import FakeClock


class Upstream503(Exception):
    """An untyped library exception."""


def failing(times: int, error: BaseException, value: str = "ok") -> Any:
    """A body that raises ``error`` ``times`` times, then returns ``value``."""
    calls = {"n": 0}

    def body(q: str) -> str:
        calls["n"] += 1
        if calls["n"] <= times:
            raise error
        return value

    body.calls = calls  # type: ignore[attr-defined]
    return body


def spans(sink: MemorySink) -> list[tuple[Any, ...]]:
    return [(s["attempt"], s["outcome"], s.get("decision"), s.get("backoff_ms")) for s in sink.of_type("tool_call_span")]


def test_tenacity_attempts_are_spans_with_the_backoff_actually_waited(clock: FakeClock) -> None:
    sink = MemorySink()
    waited: list[float] = []
    mapping = ToolErrorMap({Upstream503: transient("upstream_unavailable")})
    search = faultline_retry("search", stop=tenacity.stop_after_attempt(4), wait=tenacity.wait_fixed(0.25), error_map=mapping, sleep=waited.append)(
        failing(2, Upstream503("503 Service Unavailable"))
    )
    with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        assert search("x") == "ok"
    assert waited == [0.25, 0.25]
    assert spans(sink) == [(1, "failed", "retried", 250), (2, "failed", "retried", 250), (3, "ok", None, None)]
    assert sink.of_type("tool_error") == []


def test_retry_after_is_honoured_by_the_wait_strategy(clock: FakeClock) -> None:
    sink = MemorySink()
    waited: list[float] = []
    body = failing(1, ToolFailure("book", "rate_limited", transient=True, retry_after_ms=1500))
    book = faultline_retry("book", wait=tenacity.wait_fixed(0.01), sleep=waited.append)(body)
    with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        assert book("x") == "ok"
    assert waited == [1.5]
    assert sink.of_type("tool_call_span")[0]["retry_after_ms"] == 1500
    assert sink.of_type("tool_call_span")[0]["backoff_ms"] == 1500


def test_refusals_and_permanent_failures_are_never_retried_and_the_decision_is_recorded(clock: FakeClock) -> None:
    sink = MemorySink()
    waited: list[float] = []
    refund = faultline_retry("refund", retry=tenacity.retry_always, sleep=waited.append)(
        failing(5, ToolRefusal("refund", "outside_policy", "refunds over 500 EUR need a human"))
    )
    charge = faultline_retry("charge", sleep=waited.append)(failing(5, ValueError("card number 4111 1111 1111 1111 rejected")))
    with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        with pytest.raises(ToolRefusal) as refused:
            refund("x")
        with pytest.raises(ToolFailure) as failed:
            charge("x")
    assert waited == []
    assert refund.__wrapped__.calls["n"] == 1 and charge.__wrapped__.calls["n"] == 1  # type: ignore[attr-defined]
    assert refused.value.told == "outside_policy: refunds over 500 EUR need a human"  # type: ignore[attr-defined]
    assert failed.value.decision == "surfaced" and failed.value.code == "unmapped_failure"  # type: ignore[attr-defined]
    assert isinstance(failed.value.__cause__, ValueError)
    errors = sink.of_type("tool_error")
    assert [(e["tool"], e["decision"]) for e in errors] == [("refund", "delivered"), ("charge", "surfaced")]
    assert errors[1]["told"] == (
        "error: unmapped_failure: card number [redacted:card] rejected; not declared idempotent, so it was not tried again\n"
        "retryable: no (repeating the same call will not help)"
    )
    assert errors[1]["told"] == failed.value.told  # type: ignore[attr-defined]


def test_tenacity_stop_ends_as_exhausted_with_the_told_text(clock: FakeClock) -> None:
    sink = MemorySink()
    search = faultline_retry("search", stop=tenacity.stop_after_attempt(2), wait=tenacity.wait_none(), sleep=lambda s: None)(
        failing(9, ToolFailure("search", "upstream_unavailable", transient=True))
    )
    with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        with pytest.raises(ToolFailure) as failed:
            search("x")
    assert spans(sink) == [(1, "failed", "retried", 0), (2, "failed", "exhausted", None)]
    assert failed.value.told == "error: upstream_unavailable after 2 attempts\nretryable: yes (the same call may succeed later)"  # type: ignore[attr-defined]


async def test_async_tenacity_and_cancellation_is_never_retried(clock: FakeClock) -> None:
    sink = MemorySink()
    waited: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waited.append(seconds)

    calls = {"n": 0}

    @faultline_retry("lookup", idempotent=True, wait=tenacity.wait_fixed(0.1), async_sleep=fake_sleep)
    async def lookup(q: str) -> str:
        calls["n"] += 1
        if calls["n"] == 1:
            raise TimeoutError("slow")
        if q == "cancel":
            raise asyncio.CancelledError()
        return "found"

    async with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        assert await lookup("x") == "found"
        with pytest.raises(asyncio.CancelledError):
            await lookup("cancel")
    assert waited == [0.1]
    assert spans(sink) == [(1, "failed", "retried", 100), (2, "ok", None, None)]


def test_the_building_blocks_work_with_plain_tenacity() -> None:
    waited: list[float] = []
    mapping = ToolErrorMap({Upstream503: transient("upstream_unavailable", retry_after_ms=lambda e: 700)})
    body = failing(1, Upstream503("busy"))
    r = tenacity.Retrying(retry=retry_if_retryable(mapping), wait=wait_retry_after(tenacity.wait_fixed(9), error_map=mapping), sleep=waited.append)
    assert r(body, "q") == "ok" and waited == [0.7]
    never = tenacity.Retrying(retry=retry_if_retryable(), reraise=True, sleep=waited.append)
    with pytest.raises(KeyError):
        never(failing(1, KeyError("k")), "q")


def test_the_decorator_without_tenacity_applies_the_decision_table(clock: FakeClock) -> None:
    sink = MemorySink()
    search = retry("search", idempotent=True, sleep=clock.sleep, random=lambda: 0.5)(failing(2, ConnectionError("reset")))
    book = retry("book", sleep=clock.sleep)(failing(1, ToolFailure("book", "rate_limited", transient=True, retry_after_ms=90_000)))
    with Run(agent="a", sink=sink, clock=clock, ids=sequential_ids()):
        assert search("x") == "ok"
        with pytest.raises(ToolFailure) as capped:
            book("x")
    assert clock.slept == [250, 500]
    assert spans(sink)[:3] == [(1, "failed", "retried", 250), (2, "failed", "retried", 500), (3, "ok", None, None)]
    assert capped.value.decision == "failed_closed"  # type: ignore[attr-defined]
    assert "asked to wait 90s, more than the 60s this run honours" in capped.value.told  # type: ignore[attr-defined]


async def test_the_decorator_is_async_too_and_works_outside_a_run() -> None:
    slept: list[float] = []

    async def fake(ms: float) -> None:
        slept.append(ms)

    calls = {"n": 0}

    @retry(async_sleep=fake, random=lambda: 0.0)
    async def fetch() -> str:
        calls["n"] += 1
        if calls["n"] < 3:
            raise ToolFailure("fetch", "busy", transient=True)
        return "done"

    assert await fetch() == "done"
    assert slept == [0, 0]
