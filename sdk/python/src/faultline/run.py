"""One agent run: its records, its retry budgets, and the calls that report into it.

A :class:`Run` is what the run loop (:mod:`faultline.runner`), the retry decorator and the
``tenacity`` integration all report to: it turns attempts into ``tool_call_span`` records, final
errors into ``tool_error`` records with the exact told text, and itself into the ``run`` record.
It is a context manager (sync and async); inside it, :func:`current_run` returns it.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar

from .args_hash import args_hash
from .error_map import describe_exception, is_cancellation
from .errors import ToolError
from .experiments import told_wording
from .links import ToldLinks
from .policy import Decision, FailurePolicy, RetryPolicy, StopReason, Verdict
from .records import IdSource, Record, RecordSink, RunState, Scope, random_ids, run_record, safe_record, span_record, tool_error_record
from .told import told_text
from .wording_set import WordingSource

Clock = Callable[[], float]
"""Milliseconds since the epoch."""


def system_clock() -> float:
    """The wall clock in epoch milliseconds."""
    return time.time() * 1000


_current: contextvars.ContextVar[Run | None] = contextvars.ContextVar("faultline_run", default=None)

_R = TypeVar("_R", bound="Run")

UNSET: Any = object()
"""Marks "the agent did not say" for ``after_error`` (``None`` means it said: this call answers no error)."""


def current_run() -> Run | None:
    """The run entered (``with``/``async with``) in this thread or task, if any."""
    return _current.get()


@dataclass
class CallHandle:
    """One tool call of a run, as the code driving its attempts reports it."""

    run: Run
    """The run it belongs to."""
    call_id: str
    """The provider's tool-use id, or a generated one."""
    tool: str
    """The tool's name."""
    tool_version: str | None
    """Recorded as ``tool_version``."""
    args_hash: str | None
    """Hash of the arguments; ``None`` when they could not be decoded."""
    after_error: str | None
    """The surfaced error this call answers."""

    def attempt(
        self,
        attempt: int,
        started_at: float,
        *,
        error: ToolError | None = None,
        verdict: Verdict | None = None,
        outcome: str | None = None,
        message: str | None = None,
        permitted: bool | None = None,
        ended_at: float | None = None,
        abandoned: bool | None = False,
    ) -> None:
        """Records one attempt's span. A retried attempt counts against the tool's run budget.

        ``abandoned`` says whether the tool body was left running (``None``: no body ran).
        """
        decision: Decision | None = verdict.decision if verdict else None
        if outcome == "cancelled":
            decision = "cancelled"
        run = self.run
        safe_record(
            run.sink,
            span_record(
                run.scope,
                id=run.ids("span"),
                call_id=self.call_id,
                tool=self.tool,
                tool_version=self.tool_version,
                attempt=attempt,
                started_at=started_at,
                ended_at=run.clock() if ended_at is None else ended_at,
                outcome=outcome or (error.outcome if error else "ok"),
                error=error,
                decision=decision,
                retry_after_ms=verdict.retry_after_ms if verdict else None,
                backoff_ms=verdict.backoff_ms if verdict and verdict.decision == "retried" else None,
                permitted=permitted,
                abandoned=abandoned,
                message=message,
                args_hash=self.args_hash,
                after_error=self.after_error,
            ),
        )
        if verdict is not None and verdict.decision == "retried":
            with run._lock:
                run._retries[self.tool] = run.retries_used(self.tool) + 1

    def gave_up(self, error: ToolError, attempts: int, verdict: Verdict, policy: RetryPolicy) -> str:
        """Records the final ``tool_error`` and returns the exact text the model is told."""
        run = self.run
        stop: StopReason = verdict.stop or "not_retryable"
        fails_run = verdict.decision != "delivered" and run.on_tool_error == "fail_run"
        # Only a text the model reads takes part in an experiment: under fail_run nobody is told.
        wording = None if fails_run else told_wording(run.wordings, tool=self.tool, run_id=run.run_id, error=error)
        told = told_text(
            error, stop=stop, attempts=attempts, policy=policy, retry_after_ms=verdict.retry_after_ms, wording=wording.text if wording else None
        )
        safe_record(
            run.sink,
            tool_error_record(
                run.scope,
                id=run.ids("record"),
                call_id=self.call_id,
                tool=self.tool,
                tool_version=self.tool_version,
                error=error,
                attempts=attempts,
                decision=verdict.decision,
                # Under fail_run the model never reads the text: the record says so with null.
                told=None if fails_run else told,
                occurred_at=run.clock(),
                experiment=wording.experiment if wording else None,
                variant=wording.variant if wording else None,
            ),
        )
        if fails_run:
            run.end("failed", f"tool '{self.tool}' failed: {told}")
        else:
            run._links.surfaced(self.call_id, self.tool)
        return told


class Run:
    """One agent run. Use as a context manager, or call :meth:`end` yourself; ``end`` writes the run record once."""

    def __init__(
        self,
        *,
        agent: str,
        sink: RecordSink | None = None,
        agent_version: str | None = None,
        release: str | None = None,
        environment: str | None = None,
        run_id: str | None = None,
        deadline_at: float | None = None,
        timeout_ms: float | None = None,
        max_tool_attempts: int = 12,
        on_tool_error: FailurePolicy = "surface_to_model",
        clock: Clock = system_clock,
        ids: IdSource = random_ids,
        wordings: WordingSource | None = None,
    ) -> None:
        self.agent = agent
        """Agent name (``agent`` on the run record)."""
        self.agent_version = agent_version
        """Agent version."""
        self.sink = sink
        """Where records go."""
        self.clock = clock
        """Time source, epoch ms."""
        self.ids = ids
        """Id generator."""
        self.max_tool_attempts = max_tool_attempts
        """Retries one tool may consume across the run."""
        self.on_tool_error: FailurePolicy = on_tool_error
        """What a failed call does to the run."""
        self.wordings = wordings
        """Faultline's wordings (running experiments, promoted winners); ``None``: only code-side experiments apply."""
        self.run_id: str = run_id or ids("run")
        """The run's id."""
        self.started_at: float = clock()
        """Start, epoch ms."""
        self.deadline_at: float | None = deadline_at if deadline_at is not None else (
            self.started_at + timeout_ms if timeout_ms is not None else None
        )
        """Absolute deadline, epoch ms."""
        self.scope = Scope(self.run_id, ids("trace"), release, environment)
        """Fields the run's records share."""
        self.state: RunState = "running"
        """``running`` until the run ends."""
        self.record: Record | None = None
        """The run record, once ended."""
        self._retries: dict[str, int] = {}
        self._links = ToldLinks()
        self._lock = threading.Lock()
        self._tokens: list[contextvars.Token[Run | None]] = []

    def retries_used(self, tool: str) -> int:
        """Retries ``tool`` has consumed in this run (the ``max_tool_attempts`` budget)."""
        return self._retries.get(tool, 0)

    def model_turn(self, tool_use_ids: list[str]) -> None:
        """Declares the tool uses of one model turn, so those never answered are counted on the run record."""
        self._links.declare_turn(tool_use_ids)

    @property
    def unanswered_tool_uses(self) -> int | None:
        """Declared tool uses without a result so far; ``None`` until :meth:`model_turn` is called."""
        return self._links.unanswered()

    def begin_call(
        self,
        tool: str,
        args: object = None,
        *,
        call_id: str | None = None,
        tool_version: str | None = None,
        after_error: str | None = UNSET,
        hash_args: bool = True,
    ) -> CallHandle:
        """Starts a call: links it to the error it answers and hashes its arguments (never storing them)."""
        cid = call_id or self.ids("call")
        self._links.answer(cid)
        given = after_error is not UNSET
        link = self._links.link(tool, after_error if given else None, given)
        return CallHandle(self, cid, tool, tool_version, args_hash(args) if hash_args else None, link)

    def answer(self, call_id: str) -> None:
        """Marks a declared tool use as answered without a call (an integration answered it itself)."""
        self._links.answer(call_id)

    def end(self, state: RunState = "completed", error: str | None = None) -> Record:
        """Ends the run and records it. Idempotent: the first ending wins."""
        with self._lock:
            if self.record is not None:
                return self.record
            self.state = state
            self.record = run_record(
                self.scope,
                agent=self.agent,
                agent_version=self.agent_version,
                started_at=self.started_at,
                ended_at=max(self.started_at, self.clock()),
                state=state,
                deadline_at=self.deadline_at,
                max_tool_attempts=self.max_tool_attempts if self.max_tool_attempts >= 1 else None,
                error=error,
                unanswered_tool_uses=self._links.unanswered(),
            )
        safe_record(self.sink, self.record)
        return self.record

    def _exit(self, exc: BaseException | None) -> None:
        if self._tokens:
            _current.reset(self._tokens.pop())
        if exc is None:
            self.end("completed")
        elif is_cancellation(exc):
            self.end("cancelled", "cancelled by the caller")
        else:
            self.end("failed", describe_exception(exc))

    def __enter__(self: _R) -> _R:
        self._tokens.append(_current.set(self))
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._exit(exc)

    async def __aenter__(self: _R) -> _R:
        return self.__enter__()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._exit(exc)
