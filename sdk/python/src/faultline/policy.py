"""Retry settings, full-jitter backoff and the decision table (``lib/runtime/loop/decide.ts``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .errors import ToolError, round_half_up

Decision = Literal["retried", "surfaced", "delivered", "failed_run", "failed_closed", "exhausted", "budget_capped", "cancelled"]
"""What the loop did with an error."""

StopReason = Literal[
    "refusal",
    "never_retried",
    "not_retryable",
    "not_idempotent",
    "exhausted",
    "budget_capped",
    "retry_after_over_cap",
    "past_deadline",
]
"""Why a call stopped being retried; shapes the told text."""

FailurePolicy = Literal["surface_to_model", "fail_run"]
"""What a failed call does to the run."""

Random = Callable[[], float]
"""A source of floats in [0, 1)."""


@dataclass(frozen=True)
class RetryPolicy:
    """Per-call retry settings; all durations in milliseconds. The defaults are the TypeScript runtime's."""

    max_attempts: int = 3
    """Total attempts per call, first included. ``1`` disables retries."""
    base_delay_ms: float = 500
    """Backoff window of the first retry."""
    multiplier: float = 2
    """Growth of the window per retry; at least 1."""
    max_delay_ms: float = 30_000
    """Largest backoff window."""
    max_retry_after_ms: float = 60_000
    """Longest ``retry_after_ms`` honoured; a longer one fails the call closed at once."""

    def __post_init__(self) -> None:
        if not isinstance(self.max_attempts, int) or not 1 <= self.max_attempts <= 1000:
            raise ValueError("invalid retry option: max_attempts must be an integer in 1..1000")
        for name in ("base_delay_ms", "max_delay_ms", "max_retry_after_ms"):
            value = getattr(self, name)
            if not math.isfinite(value) or value < 0:
                raise ValueError(f"invalid retry option: {name} must be a finite number >= 0")
        if not math.isfinite(self.multiplier) or self.multiplier < 1:
            raise ValueError("invalid retry option: multiplier must be >= 1")


def backoff_window(policy: RetryPolicy, attempt: int) -> float:
    """The backoff window after failed attempt ``attempt`` (1-based): base × multiplier^(attempt−1), capped."""
    try:
        raw = policy.base_delay_ms * policy.multiplier ** max(0, attempt - 1)
    except OverflowError:
        raw = math.inf
    return min(raw if math.isfinite(raw) else policy.max_delay_ms, policy.max_delay_ms)


_EPSILON = 2.0**-52


def full_jitter_delay(policy: RetryPolicy, attempt: int, random: Random) -> int:
    """Full jitter: a whole number of milliseconds drawn uniformly from [0, window]."""
    window = math.floor(backoff_window(policy, attempt))
    r = random()
    unit = min(max(r, 0.0), 1 - _EPSILON) if math.isfinite(r) else 0.0
    return min(window, math.floor(unit * (window + 1)))


@dataclass(frozen=True)
class Verdict:
    """The verdict for one failed attempt: retry after ``backoff_ms``, or stop with ``decision`` for ``stop``."""

    decision: Decision
    """``retried``, or the final decision."""
    retry_after_ms: int | None
    """The wait the error claimed (typed errors only), rounded."""
    backoff_ms: int | None = None
    """The wait before the next attempt, when retried."""
    stop: StopReason | None = None
    """Why it stopped, when it stopped."""


def _eligibility(error: ToolError, idempotent: bool) -> StopReason | None:
    cls = error.error_class
    if cls == "ToolRefusal":
        return "refusal"
    if cls in ("ToolNotFoundError", "ToolNotPermittedError", "ToolArgumentValidationError", "ToolResultError"):
        return "never_retried"
    if cls == "ToolTimedOutError":
        return None if error.retryable or idempotent else "not_retryable"
    if error.unmapped:
        return None if idempotent else "not_idempotent"
    return None if error.retryable else "not_retryable"


def decide(
    error: ToolError,
    *,
    attempt: int,
    policy: RetryPolicy,
    random: Random,
    now: float,
    idempotent: bool = False,
    tool_retries_used: int = 0,
    max_tool_attempts: int = 12,
    deadline_at: float | None = None,
    on_failure: FailurePolicy = "surface_to_model",
) -> Verdict:
    """The decision table. Gates in order: eligibility, per-tool run budget, attempts, retry-after cap, deadline."""
    claimed = None if error.unmapped or error.retry_after_ms is None else round_half_up(error.retry_after_ms)

    def stop(reason: StopReason, decision: Decision | None = None) -> Verdict:
        final: Decision = decision or ("failed_run" if on_failure == "fail_run" else "surfaced")
        return Verdict(final, claimed, None, reason)

    eligible = _eligibility(error, idempotent)
    if eligible == "refusal":
        return stop("refusal", "delivered")
    if eligible is not None:
        return stop(eligible)
    if tool_retries_used >= max_tool_attempts:
        return stop("budget_capped", "budget_capped")
    if attempt >= policy.max_attempts:
        return stop("exhausted", "exhausted")
    if claimed is not None:
        if claimed > policy.max_retry_after_ms:
            return stop("retry_after_over_cap", "failed_closed")
        delay = claimed
    else:
        delay = full_jitter_delay(policy, attempt, random)
    if deadline_at is not None and now + delay >= deadline_at:
        return stop("past_deadline", "failed_closed")
    return Verdict("retried", claimed, delay)
