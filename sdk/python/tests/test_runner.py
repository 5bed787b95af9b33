"""The run loop's edges: timeouts, deadlines, cancellation, allowlists, fail_run, calls after the end."""

from __future__ import annotations

import asyncio

import pytest

from faultline import MemorySink, ToolFailure, ToolRunner, sequential_ids, tool

from .conftest import FakeClock


@tool(timeout_ms=50)
async def slow(seconds: float) -> str:
    """Sleeps."""
    await asyncio.sleep(seconds)
    return "woke"


@tool
def charge(amount: int) -> str:
    """Charges."""
    raise ToolFailure("charge", "card_expired", message="the card expired")


def runner(sink: MemorySink, **options: object) -> ToolRunner:
    return ToolRunner(agent="edge", tools=[slow, charge], sink=sink, ids=sequential_ids(), **options)  # type: ignore[arg-type]


async def test_an_async_tool_past_its_timeout_is_a_timed_out_error_not_retried_unless_idempotent() -> None:
    sink = MemorySink()
    async with runner(sink).run() as run:
        result = await run.acall("slow", {"seconds": 30})
    assert (result.status, result.decision) == ("error", "surfaced")
    assert result.told == "error: tool_timed_out: did not return within 50 ms\nretryable: no (repeating the same call will not help)"
    span = sink.of_type("tool_call_span")[0]
    assert (span["outcome"], span["abandoned"]) == ("timed_out", False)


async def test_the_run_deadline_cancels_the_attempt_and_ends_the_run() -> None:
    sink = MemorySink()
    fast = tool(name="slow", timeout_ms=None)(slow.fn)
    r = ToolRunner(agent="edge", tools=[fast], sink=sink, ids=sequential_ids())
    async with r.run(timeout_ms=30) as run:
        result = await run.acall("slow", {"seconds": 30})
        late = await run.acall("slow", {"seconds": 0})
    assert (result.status, result.told) == ("cancelled", "error: cancelled: the run's deadline passed")
    assert late.told == "error: never dispatched: the run already ended (cancelled)" and late.attempts == 0
    assert sink.of_type("run")[0]["state"] == "cancelled" and sink.of_type("run")[0]["error"] == "deadline exceeded"
    assert sink.of_type("tool_call_span")[0]["decision"] == "cancelled"


async def test_a_cancelled_task_ends_its_attempt_and_the_run_as_cancelled() -> None:
    sink = MemorySink()
    started = asyncio.Event()

    @tool
    async def wait_forever() -> None:
        """Waits."""
        started.set()
        await asyncio.Event().wait()

    r = ToolRunner(agent="edge", tools=[wait_forever], sink=sink, ids=sequential_ids())

    async def agent() -> None:
        async with r.run() as run:
            await run.acall("wait_forever", {})

    task = asyncio.create_task(agent())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sink.of_type("tool_call_span")[0]["outcome"] == "cancelled"
    assert sink.of_type("run")[0]["state"] == "cancelled"


def test_the_allowlist_refuses_without_running(clock: FakeClock) -> None:
    sink = MemorySink()
    with runner(sink, permitted=["slow"], clock=clock).run() as run:
        result = run.call("charge", {"amount": 5})
    assert result.error is not None and result.error.error_class == "ToolNotPermittedError"
    assert result.told == (
        "error: tool_not_permitted: 'charge' is outside edge's allowlist and was not called; it may call slow\n"
        "retryable: no (repeating the same call will not help)"
    )
    assert sink.of_type("tool_call_span")[0]["permitted"] is False


def test_fail_run_ends_the_run_and_the_record_says_the_model_was_told_nothing(clock: FakeClock) -> None:
    sink = MemorySink()
    with runner(sink, on_tool_error="fail_run", clock=clock).run() as run:
        result = run.call("charge", {"amount": 5})
        after = run.call("charge", {"amount": 6})
    assert result.decision == "failed_run"
    assert sink.of_type("tool_error")[0]["told"] is None
    assert sink.of_type("run")[0]["state"] == "failed"
    assert sink.of_type("run")[0]["error"].startswith("tool 'charge' failed: error: card_expired: the card expired")
    assert after.status == "cancelled" and after.attempts == 0


def test_an_exception_in_agent_code_fails_the_run_with_its_scrubbed_text(clock: FakeClock) -> None:
    sink = MemorySink()
    with pytest.raises(RuntimeError):
        with runner(sink, clock=clock).run():
            raise RuntimeError("lost the session, password=hunter2")
    assert sink.of_type("run")[0]["state"] == "failed"
    assert sink.of_type("run")[0]["error"] == "lost the session, password=[redacted:secret_value]"


def test_a_sync_tool_called_with_acall_runs_in_a_thread_and_acall_only_tools_refuse_call() -> None:
    sink = MemorySink()
    r = runner(sink)

    async def go() -> str:
        async with r.run() as run:
            return (await run.acall("charge", {"amount": 1})).decision or ""

    assert asyncio.run(go()) == "surfaced"
    with r.run() as run, pytest.raises(TypeError, match="is async"):
        run.call("slow", {"seconds": 0})
