"""A small retry decorator for tools called directly by agent code, without tenacity.

It applies the same decision table as the run loop and records into :func:`faultline.current_run`:
one span per attempt with the backoff actually scheduled, and the final ``tool_error`` with the
told text. A failure that stops the call is raised as its taxonomy error with ``told`` set;
refusals and permanent failures are never retried.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import random as _random
import time
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, ParamSpec, TypeVar, cast

from .error_map import ToolErrorMap, is_cancellation
from .errors import ToolError
from .policy import Random, RetryPolicy, Verdict, decide
from .run import CallHandle, Run, current_run
from .tools import signature_of

P = ParamSpec("P")
R = TypeVar("R")


def call_arguments(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The call's arguments by parameter name (what ``args_hash`` is computed over)."""
    signature = signature_of(fn)
    if signature is not None:
        try:
            return dict(signature.bind(*args, **kwargs).arguments)
        except TypeError:
            pass
    return {"args": list(args), **kwargs}


class _Attempts:
    """The bookkeeping shared by the sync and async wrappers."""

    def __init__(self, name: str, policy: RetryPolicy, error_map: ToolErrorMap, idempotent: bool, random: Random, run: Run | None, arguments: dict[str, Any]) -> None:
        self.name, self.policy, self.error_map, self.idempotent, self.random, self.run = name, policy, error_map, idempotent, random, run
        self.handle: CallHandle | None = run.begin_call(name, arguments) if run else None

    def failed(self, exc: BaseException, attempt: int, started: float, now: float) -> Verdict:
        error = self.error_map.classify(exc, self.name)
        run = self.run
        verdict = decide(
            error, attempt=attempt, policy=self.policy, random=self.random, now=now, idempotent=self.idempotent,
            tool_retries_used=run.retries_used(self.name) if run else 0,
            max_tool_attempts=run.max_tool_attempts if run else 1000,
            deadline_at=run.deadline_at if run else None,
            on_failure=run.on_tool_error if run else "surface_to_model",
        )  # fmt: skip
        if self.handle:
            self.handle.attempt(attempt, started, error=error, verdict=verdict)
        self.error = error
        return verdict

    def give_up(self, attempt: int, verdict: Verdict, exc: BaseException) -> ToolError:
        error = self.error
        told = self.handle.gave_up(error, attempt, verdict, self.policy) if self.handle else None
        error.told = told  # type: ignore[attr-defined]
        error.decision = verdict.decision  # type: ignore[attr-defined]
        if error is not exc and error.__cause__ is None:
            error.__cause__ = exc
        return error

    def ok(self, attempt: int, started: float) -> None:
        if self.handle:
            self.handle.attempt(attempt, started)


def _raise(error: ToolError, cause: BaseException) -> NoReturn:
    if error is cause:
        raise error
    raise error from cause


def retry(
    name: str | None = None,
    *,
    policy: RetryPolicy | None = None,
    error_map: ToolErrorMap | None = None,
    idempotent: bool = False,
    clock: Callable[[], float] | None = None,
    sleep: Callable[[float], None] | None = None,
    async_sleep: Callable[[float], Awaitable[None]] | None = None,
    random: Random = _random.random,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: retries a tool (sync or async) by the decision table and records it into the current run.

    ``clock`` (epoch ms), ``sleep`` and ``async_sleep`` (milliseconds) are injectable so tests never sleep.
    """
    chosen = policy or RetryPolicy()
    mapping = error_map or ToolErrorMap()

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        tool = name or fn.__name__

        def start(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[_Attempts, Callable[[], float]]:
            run = current_run()
            now = clock or (run.clock if run else (lambda: time.time() * 1000))
            return _Attempts(tool, chosen, mapping, idempotent, random, run, call_arguments(fn, args, kwargs)), now

        if inspect.iscoroutinefunction(fn):
            wait_async = async_sleep or (lambda ms: asyncio.sleep(ms / 1000))

            @functools.wraps(fn)
            async def run_async(*args: P.args, **kwargs: P.kwargs) -> Any:
                state, now = start(args, kwargs)
                attempt = 0
                while True:
                    attempt += 1
                    started = now()
                    try:
                        value = await cast(Callable[..., Awaitable[Any]], fn)(*args, **kwargs)
                    except BaseException as exc:
                        if is_cancellation(exc):
                            raise
                        verdict = state.failed(exc, attempt, started, now())
                        if verdict.decision != "retried":
                            _raise(state.give_up(attempt, verdict, exc), exc)
                        await wait_async(verdict.backoff_ms or 0)
                        continue
                    state.ok(attempt, started)
                    return value

            return cast(Callable[P, R], run_async)

        wait = sleep or (lambda ms: time.sleep(ms / 1000))

        @functools.wraps(fn)
        def run_sync(*args: P.args, **kwargs: P.kwargs) -> R:
            state, now = start(args, kwargs)
            attempt = 0
            while True:
                attempt += 1
                started = now()
                try:
                    value = fn(*args, **kwargs)
                except BaseException as exc:
                    if is_cancellation(exc):
                        raise
                    verdict = state.failed(exc, attempt, started, now())
                    if verdict.decision != "retried":
                        _raise(state.give_up(attempt, verdict, exc), exc)
                    wait(verdict.backoff_ms or 0)
                    continue
                state.ok(attempt, started)
                return value

        return run_sync

    return decorate
