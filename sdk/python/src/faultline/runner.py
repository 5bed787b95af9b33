"""The run loop: executes the model's tool calls with typed errors, the decision table, retries,
budgets and deadlines, and records every attempt (``lib/runtime/loop``)."""

from __future__ import annotations

import asyncio
import random as _random
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from .error_map import ToolErrorMap, is_cancellation, unmapped_failure
from .errors import ToolArgumentValidationError, ToolError, ToolNotFoundError, ToolNotPermittedError, ToolResultError, ToolTimedOutError
from .policy import FailurePolicy, Random, RetryPolicy, Verdict, decide
from .records import IdSource, RecordSink, random_ids
from .run import UNSET, CallHandle, Clock, Run, system_clock
from .told import wire_text
from .tools import CallStatus, ToolCallResult, ToolDefinition, signature_of
from .wording_set import WordingSource

UNNAMED_TOOL = "(unnamed tool)"
"""Name recorded for a call whose tool name was missing or blank."""

Sleep = Callable[[float], None]
"""Sleeps for milliseconds."""
AsyncSleep = Callable[[float], Awaitable[None]]
"""Sleeps for milliseconds, asynchronously."""


def _sleep(ms: float) -> None:
    time.sleep(ms / 1000)


async def _async_sleep(ms: float) -> None:
    await asyncio.sleep(ms / 1000)


Prepared = tuple[CallHandle, ToolDefinition[Any], tuple[tuple[Any, ...], dict[str, Any]]]
"""A call that passed its pre-dispatch checks: its handle, its tool and the bound arguments."""


def _bind(definition: ToolDefinition[Any], args: object) -> tuple[tuple[Any, ...], dict[str, Any]] | ToolArgumentValidationError:
    """The call's positional and keyword arguments, or the argument error a mismatch is (nothing runs then)."""
    positional: tuple[Any, ...] = ()
    keywords: dict[str, Any] = {}
    if isinstance(args, Mapping):
        keywords = {str(k): v for k, v in args.items()}
    elif args is not None:
        positional = (args,)
    signature = signature_of(definition.fn)
    if signature is not None:  # without one (a builtin) the call itself decides
        try:
            signature.bind(*positional, **keywords)
        except TypeError as error:
            return ToolArgumentValidationError(definition.name, problems={"(arguments)": str(error)})
    return positional, keywords


class ToolRunner:
    """Executes tool calls for agent runs. One runner serves many runs; start one with :meth:`run`."""

    def __init__(
        self,
        *,
        agent: str,
        tools: Iterable[ToolDefinition[Any]],
        agent_version: str | None = None,
        release: str | None = None,
        environment: str | None = None,
        permitted: Iterable[str] | None = None,
        retry: RetryPolicy | None = None,
        max_tool_attempts: int = 12,
        on_tool_error: FailurePolicy = "surface_to_model",
        error_map: ToolErrorMap | None = None,
        wordings: WordingSource | None = None,
        sink: RecordSink | None = None,
        clock: Clock = system_clock,
        sleep: Sleep = _sleep,
        async_sleep: AsyncSleep = _async_sleep,
        random: Random = _random.random,
        ids: IdSource = random_ids,
    ) -> None:
        if not isinstance(max_tool_attempts, int) or not 0 <= max_tool_attempts <= 1000:
            raise ValueError("max_tool_attempts must be an integer in 0..1000")
        self.tools: dict[str, ToolDefinition[Any]] = {}
        """The tools by name."""
        for t in tools:
            if t.name in self.tools:
                raise ValueError(f"two tools are named '{t.name}'")
            self.tools[t.name] = t
        self.agent = agent
        """Agent name."""
        self.retry = retry or RetryPolicy()
        """Retry settings of tools without their own."""
        self.permitted = None if permitted is None else frozenset(permitted)
        """Allowlist; ``None``: every tool."""
        self.error_map = error_map or ToolErrorMap()
        """Translation for tools without their own map."""
        self.sink = sink
        """Where records go."""
        self._run_options: dict[str, Any] = dict(
            agent=agent, agent_version=agent_version, release=release, environment=environment,
            max_tool_attempts=max_tool_attempts, on_tool_error=on_tool_error, clock=clock, ids=ids, wordings=wordings,
        )  # fmt: skip
        self.clock, self.sleep, self.async_sleep, self.random = clock, sleep, async_sleep, random

    def run(self, *, run_id: str | None = None, deadline_at: float | None = None, timeout_ms: float | None = None) -> RunSession:
        """Starts a run; use it as a context manager (``with`` / ``async with``) or call ``end()``."""
        return RunSession(self, run_id=run_id, deadline_at=deadline_at, timeout_ms=timeout_ms)


class RunSession(Run):
    """A run driven by a :class:`ToolRunner`: :meth:`call` / :meth:`acall` execute the model's tool calls."""

    def __init__(self, runner: ToolRunner, **options: Any) -> None:
        super().__init__(sink=runner.sink, **runner._run_options, **options)
        self.runner = runner
        """The runner executing the calls."""

    def _policy(self, tool: str) -> RetryPolicy:
        found = self.runner.tools.get(tool)
        return found.retry if found and found.retry else self.runner.retry

    def _decide(self, handle: CallHandle, error: ToolError, attempt: int) -> Verdict:
        found = self.runner.tools.get(handle.tool)
        return decide(
            error,
            attempt=attempt,
            policy=self._policy(handle.tool),
            random=self.runner.random,
            now=self.clock(),
            idempotent=bool(found and found.idempotent),
            tool_retries_used=self.retries_used(handle.tool),
            max_tool_attempts=self.max_tool_attempts,
            deadline_at=self.deadline_at,
            on_failure=self.on_tool_error,
        )

    def _failed(self, handle: CallHandle, error: ToolError, attempt: int, started_at: float, permitted: bool | None = None) -> ToolCallResult:
        verdict = self._decide(handle, error, attempt)
        if verdict.decision == "retried":  # a pre-dispatch error is never retried; kept total for safety
            verdict = Verdict("surfaced", verdict.retry_after_ms, None, "not_retryable")
        handle.attempt(attempt, started_at, error=error, verdict=verdict, permitted=permitted, abandoned=None)
        told = handle.gave_up(error, attempt, verdict, self._policy(handle.tool))
        status: CallStatus = "declined" if verdict.decision == "delivered" else "error"
        return ToolCallResult(status, self.run_id, handle.call_id, handle.tool, attempt, None, error, verdict.decision, told)

    def _cancelled(self, handle: CallHandle | None, call_id: str, tool: str, attempts: int, reason: str) -> ToolCallResult:
        return ToolCallResult("cancelled", self.run_id, call_id, tool, attempts, decision="cancelled", told=wire_text(f"error: cancelled: {reason}"))

    def _prepare(
        self, tool: object, args: object, call_id: str | None, after_error: str | None, arguments_error: str | None
    ) -> Prepared | ToolCallResult:
        """Everything before the first attempt; a result when the call ends before running."""
        name = tool if isinstance(tool, str) and tool.strip() else None
        if self.state != "running":
            cid = call_id or self.ids("call")
            self.answer(cid)
            told = f"error: never dispatched: the run already ended ({self.state})"
            return ToolCallResult("cancelled", self.run_id, cid, name or UNNAMED_TOOL, 0, decision="cancelled", told=told)
        found = self.runner.tools.get(name) if name else None
        handle = self.begin_call(
            name or UNNAMED_TOOL, args, call_id=call_id, tool_version=found.version if found else None,
            after_error=after_error, hash_args=arguments_error is None,
        )  # fmt: skip
        now = self.clock()
        pre: ToolError | None = None
        if name is None:
            shown = "no name" if tool is None else "a blank name" if isinstance(tool, str) else f"a {type(tool).__name__} instead of a name"
            pre = ToolNotFoundError(UNNAMED_TOOL, message=f"the call named no tool (it sent {shown})")
        elif self.runner.permitted is not None and name not in self.runner.permitted:
            pre = ToolNotPermittedError(name, agent=self.agent, permitted=sorted(self.runner.permitted))
        elif found is None:
            pre = ToolNotFoundError(name, known=list(self.runner.tools))
        elif arguments_error is not None:
            pre = ToolArgumentValidationError(name, message=arguments_error, problems={"(arguments)": arguments_error})
        else:
            pre = self._validate(found, args)
        if pre is not None or found is None:
            error = pre or ToolNotFoundError(handle.tool)
            return self._failed(handle, error, 1, now, False if isinstance(error, ToolNotPermittedError) else None)
        bound = _bind(found, args)
        if isinstance(bound, ToolError):
            return self._failed(handle, bound, 1, now)
        return handle, found, bound

    @staticmethod
    def _validate(found: ToolDefinition[Any], args: object) -> ToolError | None:
        if found.validate is None:
            return None
        try:
            problems = found.validate(args)
        except Exception:
            return ToolArgumentValidationError(found.name, message="the argument check failed")
        return ToolArgumentValidationError(found.name, problems=problems) if problems else None

    def _classify(self, found: ToolDefinition[Any], exc: BaseException) -> ToolError:
        try:
            return (found.error_map or self.runner.error_map).classify(exc, found.name)
        except BaseException as again:
            if is_cancellation(again):
                raise
            return unmapped_failure(found.name, exc)

    def _after_value(self, handle: CallHandle, found: ToolDefinition[Any], attempt: int, started: float, value: Any) -> ToolCallResult | ToolError:
        violation: str | None = None
        if found.check_result is not None:
            try:
                violation = found.check_result(value)
            except Exception:
                violation = "the result check itself failed"
        if violation is None:
            handle.attempt(attempt, started)
            return ToolCallResult("ok", self.run_id, handle.call_id, handle.tool, attempt, value)
        return ToolResultError(handle.tool, violation=violation)

    def call(
        self, tool: str, args: object = None, *, call_id: str | None = None, after_error: str | None = UNSET, arguments_error: str | None = None
    ) -> ToolCallResult:
        """Runs one tool call to its end (sync tools). Never raises for a tool's failure: every ending is a result."""
        return self._run_sync(self._prepare(tool, args, call_id, after_error, arguments_error))

    def _run_sync(self, prepared: Prepared | ToolCallResult) -> ToolCallResult:
        if isinstance(prepared, ToolCallResult):
            return prepared
        handle, found, (positional, keywords) = prepared
        if found.is_async:
            raise TypeError(f"tool '{found.name}' is async: use `await run.acall(...)`")
        attempt = 0
        while True:
            attempt += 1
            started = self.clock()
            try:
                outcome: ToolCallResult | ToolError = self._after_value(handle, found, attempt, started, found.fn(*positional, **keywords))
            except BaseException as exc:
                outcome = self._failed_attempt(handle, found, attempt, started, exc)
            next_step = self._after_attempt(handle, outcome, attempt, started)
            if isinstance(next_step, ToolCallResult):
                return next_step
            self.runner.sleep(next_step)

    async def acall(
        self, tool: str, args: object = None, *, call_id: str | None = None, after_error: str | None = UNSET, arguments_error: str | None = None
    ) -> ToolCallResult:
        """Runs one tool call to its end (async or sync tools; a sync body runs in a worker thread)."""
        return await self._run_async(self._prepare(tool, args, call_id, after_error, arguments_error))

    async def _run_async(self, prepared: Prepared | ToolCallResult) -> ToolCallResult:
        if isinstance(prepared, ToolCallResult):
            return prepared
        handle, found, (positional, keywords) = prepared
        attempt = 0
        while True:
            attempt += 1
            abandoned = False
            started = self.clock()
            remaining = None if self.deadline_at is None else (self.deadline_at - started) / 1000
            limit = found.timeout_ms / 1000 if found.timeout_ms is not None else None
            deadline_first = remaining is not None and (limit is None or remaining <= limit)
            ceiling = remaining if deadline_first else limit
            try:
                if found.is_async:
                    body = found.fn(*positional, **keywords)
                else:
                    body = asyncio.to_thread(found.fn, *positional, **keywords)
                value = await (asyncio.wait_for(body, max(ceiling, 0)) if ceiling is not None else body)
                outcome: ToolCallResult | ToolError = self._after_value(handle, found, attempt, started, value)
            except asyncio.TimeoutError:
                if deadline_first:
                    handle.attempt(attempt, started, outcome="cancelled", message="the run's deadline passed", abandoned=not found.is_async)
                    self.end("cancelled", "deadline exceeded")
                    return self._cancelled(handle, handle.call_id, handle.tool, attempt, "the run's deadline passed")
                outcome = ToolTimedOutError(handle.tool, timeout_ms=found.timeout_ms)
                abandoned = not found.is_async  # a worker thread cannot be stopped; a coroutine was cancelled
            except BaseException as exc:
                outcome = self._failed_attempt(handle, found, attempt, started, exc)
            next_step = self._after_attempt(handle, outcome, attempt, started, abandoned)
            if isinstance(next_step, ToolCallResult):
                return next_step
            await self.runner.async_sleep(next_step)

    def _failed_attempt(self, handle: CallHandle, found: ToolDefinition[Any], attempt: int, started: float, exc: BaseException) -> ToolError:
        """The taxonomy error of a body that raised; a cancellation ends the attempt and the run and is re-raised."""
        if is_cancellation(exc):
            handle.attempt(attempt, started, outcome="cancelled", message="cancelled by the caller")
            self.end("cancelled", "cancelled by the caller")
            raise exc
        return self._classify(found, exc)

    def _after_attempt(
        self, handle: CallHandle, outcome: ToolCallResult | ToolError, attempt: int, started: float, abandoned: bool = False
    ) -> ToolCallResult | float:
        """The call's result, or the milliseconds to wait before the next attempt (the retried attempt is recorded)."""
        if isinstance(outcome, ToolCallResult):
            return outcome
        verdict = self._decide(handle, outcome, attempt)
        if verdict.decision != "retried":
            return self._final(handle, outcome, attempt, started, verdict, abandoned)
        handle.attempt(attempt, started, error=outcome, verdict=verdict, abandoned=abandoned)
        return verdict.backoff_ms or 0

    def _final(self, handle: CallHandle, error: ToolError, attempt: int, started: float, verdict: Verdict, abandoned: bool = False) -> ToolCallResult:
        handle.attempt(attempt, started, error=error, verdict=verdict, abandoned=abandoned)
        told = handle.gave_up(error, attempt, verdict, self._policy(handle.tool))
        status: CallStatus = "declined" if verdict.decision == "delivered" else "error"
        return ToolCallResult(status, self.run_id, handle.call_id, handle.tool, attempt, None, error, verdict.decision, told)

    def _prepare_turn(self, requests: Iterable[Mapping[str, Any]]) -> list[Prepared | ToolCallResult]:
        # Every call of a turn starts (is linked and checked) before any runs, as the TypeScript
        # runtime's callAll does: siblings of one turn never answer each other's errors.
        items = list(requests)
        for r in items:
            if isinstance(r.get("call_id"), str):
                self.answer(r["call_id"])
        return [self._prepare(r.get("tool", ""), r.get("args"), r.get("call_id"), r.get("after_error", UNSET), r.get("arguments_error")) for r in items]

    async def acall_all(self, requests: Iterable[Mapping[str, Any]]) -> list[ToolCallResult]:
        """Runs the calls of one model turn concurrently (``{"tool", "args", "call_id"}`` each); results keep their order."""
        return list(await asyncio.gather(*(self._run_async(p) for p in self._prepare_turn(requests))))

    def call_all(self, requests: Iterable[Mapping[str, Any]]) -> list[ToolCallResult]:
        """Runs the calls of one model turn one after another (sync tools); results keep their order."""
        return [self._run_sync(p) for p in self._prepare_turn(requests)]
