"""``tenacity`` integration: keep your retry decorators, get Faultline's accounting.

:func:`faultline_retry` is a drop-in for ``tenacity.retry`` on a tool (sync or async). Each
attempt is recorded as a span in the current run (:func:`faultline.current_run`) with the backoff
tenacity actually waited; refusals, permanent failures and errors the decision table would never
retry are not retried whatever ``retry=`` says; a ``retry_after_ms`` the error carries is
honoured by :class:`wait_retry_after`; and the final decision is recorded with the told text.
When the call stops, the taxonomy error is raised with ``told`` and ``decision`` set.

The two building blocks work on their own with plain tenacity: :class:`retry_if_retryable` and
:class:`wait_retry_after`.
"""

from __future__ import annotations

import functools
import inspect
import random as _random
import time
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar, cast

import tenacity
from tenacity import RetryCallState
from tenacity.retry import retry_base
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ..error_map import ToolErrorMap, is_cancellation
from ..errors import ToolError
from ..policy import Random, RetryPolicy, Verdict, decide
from ..retry import call_arguments
from ..run import CallHandle, Run, current_run

P = ParamSpec("P")
R = TypeVar("R")

_NEVER: RetryPolicy = RetryPolicy(max_attempts=1000)


def _exception(state: RetryCallState) -> BaseException | None:
    outcome = state.outcome
    return outcome.exception() if outcome is not None and outcome.failed else None


class retry_if_retryable(retry_base):  # noqa: N801 - tenacity's naming
    """Retries only what the decision table would: never refusals, permanent or never-retried errors.

    Untyped exceptions go through ``error_map``; an ``unmapped_failure`` is retried only when
    ``idempotent``. Cancellations are never retried.
    """

    def __init__(self, error_map: ToolErrorMap | None = None, *, tool: str = "tool", idempotent: bool = False) -> None:
        self.error_map = error_map or ToolErrorMap()
        """Translation of untyped exceptions."""
        self.tool = tool
        """Tool name used when translating."""
        self.idempotent = idempotent
        """Whether untyped failures and timeouts may be repeated."""

    def __call__(self, retry_state: RetryCallState) -> bool:
        """True when the failed attempt may be repeated."""
        error = _exception(retry_state)
        if error is None or is_cancellation(error):
            return False
        typed = self.error_map.classify(error, self.tool)
        verdict = decide(typed, attempt=1, policy=_NEVER, random=lambda: 0.0, now=0, idempotent=self.idempotent, max_tool_attempts=1000)
        return verdict.decision == "retried"


class wait_retry_after(wait_base):  # noqa: N801 - tenacity's naming
    """Waits what the error asked for (``retry_after_ms`` of a taxonomy error or of its error-map rule), else ``fallback``."""

    def __init__(self, fallback: wait_base | None = None, *, error_map: ToolErrorMap | None = None, tool: str = "tool") -> None:
        self.fallback = fallback or tenacity.wait_exponential(multiplier=0.5, max=30)
        """The wait when the error asked for none."""
        self.error_map = error_map or ToolErrorMap()
        """Translation of untyped exceptions."""
        self.tool = tool
        """Tool name used when translating."""

    def __call__(self, retry_state: RetryCallState) -> float:
        """Seconds to wait before the next attempt."""
        error = _exception(retry_state)
        if error is not None and not is_cancellation(error):
            typed = self.error_map.classify(error, self.tool)
            if typed.retry_after_ms is not None and not typed.unmapped:
                return typed.retry_after_ms / 1000
        return float(self.fallback(retry_state))


class _Call:
    """One decorated call's bookkeeping across tenacity's attempts."""

    def __init__(self, tool: str, run: Run | None, arguments: dict[str, Any], error_map: ToolErrorMap, idempotent: bool, policy: RetryPolicy, random: Random) -> None:
        self.tool, self.run, self.error_map, self.idempotent, self.policy, self.random = tool, run, error_map, idempotent, policy, random
        self.clock: Callable[[], float] = run.clock if run else (lambda: time.time() * 1000)
        self.handle: CallHandle | None = run.begin_call(tool, arguments) if run else None
        self.attempt = 0
        self.started = 0.0
        self.error: ToolError | None = None
        self.verdict: Verdict | None = None

    def begin(self) -> None:
        self.attempt += 1
        self.started = self.clock()

    def failed(self, exc: BaseException) -> None:
        if is_cancellation(exc):
            self.error = self.verdict = None  # never retried, never recorded as a tool error
            return
        self.error = self.error_map.classify(exc, self.tool)
        run = self.run
        # Attempts are tenacity's to count (its `stop`); budgets, deadline and the retry-after cap are ours.
        self.verdict = decide(
            self.error, attempt=1, policy=RetryPolicy(max_attempts=1000, max_retry_after_ms=self.policy.max_retry_after_ms),
            random=self.random, now=self.clock(), idempotent=self.idempotent,
            tool_retries_used=run.retries_used(self.tool) if run else 0,
            max_tool_attempts=run.max_tool_attempts if run else 1000,
            deadline_at=run.deadline_at if run else None,
            on_failure=run.on_tool_error if run else "surface_to_model",
        )  # fmt: skip

    def succeeded(self) -> None:
        if self.handle:
            self.handle.attempt(self.attempt, self.started)

    def retry(self, state: RetryCallState) -> bool:
        """Ours: only a failed attempt the decision table would repeat."""
        failed = state.outcome is not None and state.outcome.failed
        return failed and self.verdict is not None and self.verdict.decision == "retried"

    def before_sleep(self, state: RetryCallState) -> None:
        waited = state.next_action.sleep if state.next_action is not None else 0.0
        if self.handle and self.error and self.verdict:
            backoff = round(waited * 1000)
            self.handle.attempt(self.attempt, self.started, error=self.error, verdict=Verdict("retried", self.verdict.retry_after_ms, backoff))

    def stopped(self, exc: BaseException) -> ToolError:
        """The call ends: records the final attempt and error, and returns the taxonomy error to raise."""
        error = self.error or self.error_map.classify(exc, self.tool)
        verdict = self.verdict or Verdict("surfaced", None, None, "not_retryable")
        if verdict.decision == "retried":  # tenacity's stop ended it
            verdict = Verdict("exhausted", verdict.retry_after_ms, None, "exhausted")
        told = None
        if self.handle:
            self.handle.attempt(self.attempt, self.started, error=error, verdict=verdict)
            told = self.handle.gave_up(error, self.attempt, verdict, self.policy)
        error.told = told  # type: ignore[attr-defined]
        error.decision = verdict.decision  # type: ignore[attr-defined]
        return error


def faultline_retry(
    tool: str | None = None,
    *,
    stop: stop_base | None = None,
    wait: wait_base | None = None,
    error_map: ToolErrorMap | None = None,
    idempotent: bool = False,
    max_retry_after_ms: float = 60_000,
    sleep: Callable[[float], None] | None = None,
    async_sleep: Callable[[float], Awaitable[None]] | None = None,
    random: Random = _random.random,
    **tenacity_options: Any,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Like ``tenacity.retry`` on a tool, with Faultline's records and rules (see the module docstring).

    ``stop`` defaults to three attempts and ``wait`` to :class:`wait_retry_after` over exponential
    backoff; a ``wait`` you pass is wrapped so ``retry_after_ms`` still wins. ``sleep`` /
    ``async_sleep`` (seconds, as tenacity calls them) are injectable so tests never sleep.
    """
    mapping = error_map or ToolErrorMap()
    policy = RetryPolicy(max_retry_after_ms=max_retry_after_ms)

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        name = tool or fn.__name__
        waiting = wait_retry_after(wait, error_map=mapping, tool=name)

        theirs = tenacity_options.pop("retry", None)

        def options(call: _Call) -> dict[str, Any]:
            # The caller's `retry=` may narrow what is retried, never widen it past the decision table.
            def both(state: RetryCallState) -> bool:
                return call.retry(state) and (theirs is None or bool(theirs(state)))

            return dict(
                stop=stop or tenacity.stop_after_attempt(3),
                wait=waiting,
                retry=both,
                before_sleep=call.before_sleep,
                reraise=True,
                **tenacity_options,
            )

        def start(args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Call:
            return _Call(name, current_run(), call_arguments(fn, args, kwargs), mapping, idempotent, policy, random)

        if inspect.iscoroutinefunction(fn):
            body_async = cast(Callable[..., Awaitable[Any]], fn)

            @functools.wraps(fn)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                call = start(args, kwargs)
                extra: dict[str, Any] = {"sleep": async_sleep} if async_sleep else {}

                async def attempt() -> Any:
                    call.begin()
                    try:
                        value = await body_async(*args, **kwargs)
                    except BaseException as exc:
                        call.failed(exc)
                        raise
                    call.succeeded()
                    return value

                try:
                    return await tenacity.AsyncRetrying(**options(call), **extra)(attempt)
                except BaseException as exc:
                    if is_cancellation(exc):
                        raise
                    error = call.stopped(exc)
                    if error is exc:
                        raise
                    raise error from exc

            return cast(Callable[P, R], run_async)

        @functools.wraps(fn)
        def run_sync(*args: Any, **kwargs: Any) -> Any:
            call = start(args, kwargs)
            extra: dict[str, Any] = {"sleep": sleep} if sleep else {}

            def attempt() -> Any:
                call.begin()
                try:
                    value = fn(*args, **kwargs)
                except BaseException as exc:
                    call.failed(exc)
                    raise
                call.succeeded()
                return value

            try:
                return tenacity.Retrying(**options(call), **extra)(attempt)
            except BaseException as exc:
                if is_cancellation(exc):
                    raise
                error = call.stopped(exc)
                if error is exc:
                    raise
                raise error from exc

        return cast(Callable[P, R], run_sync)

    return decorate
