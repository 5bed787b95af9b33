"""The tool-error taxonomy: seven exception classes with stable codes, as the TypeScript runtime has them.

Every member carries the tool name, a stable ``code``, ``retryable`` and an optional
``retry_after_ms``. Raise them from a tool; the run loop decides what happens next.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, ClassVar, Final, Literal

from .limits import MAX_CODE_LENGTH

if TYPE_CHECKING:
    from .experiments import Experiment

ErrorClass = Literal[
    "ToolFailure",
    "ToolRefusal",
    "ToolTimedOutError",
    "ToolNotPermittedError",
    "ToolNotFoundError",
    "ToolArgumentValidationError",
    "ToolResultError",
]
"""A taxonomy class name as recorded on the wire."""

Outcome = Literal[
    "ok", "failed", "declined", "refused", "not_found", "timed_out", "invalid_arguments", "result_rejected", "cancelled"
]
"""How one attempt ended."""


class DefaultCodes:
    """Codes the library assigns itself; each may be overridden where the error is built."""

    UNMAPPED: Final = "unmapped_failure"
    TIMED_OUT: Final = "tool_timed_out"
    NOT_PERMITTED: Final = "tool_not_permitted"
    NOT_FOUND: Final = "tool_not_found"
    INVALID_ARGUMENTS: Final = "invalid_arguments"
    RESULT_REJECTED: Final = "result_rejected"
    RESULT_UNSERIALISABLE: Final = "result_unserialisable"


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def check_code(code: object) -> str:
    """Returns ``code`` when it is a usable stable code; raises :class:`TypeError` (mentioning "code") otherwise."""
    if not isinstance(code, str) or code.strip() == "":
        raise TypeError(f"a tool error needs a non-empty code; got {code!r}")
    if len(code) > MAX_CODE_LENGTH or _CONTROL.search(code):
        raise TypeError(f"code must be at most {MAX_CODE_LENGTH} characters without control characters")
    return code


def check_delay_ms(ms: object, name: str = "retry_after_ms") -> float | None:
    """Returns ``ms`` when absent or a finite number of milliseconds >= 0; raises :class:`TypeError` otherwise."""
    if ms is None:
        return None
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or ms != ms or ms in (float("inf"),) or ms < 0:
        raise TypeError(f"{name} must be a finite number of milliseconds >= 0; got {ms!r}")
    return float(ms)


class ToolError(Exception):
    """Base of the taxonomy. Raise a subclass; the base itself is abstract."""

    error_class: ClassVar[ErrorClass]
    """Taxonomy class name, as recorded on the wire."""
    outcome: ClassVar[Outcome]
    """Per-attempt outcome this error produces."""

    def __init__(
        self,
        tool: str,
        code: str,
        *,
        message: str | None = None,
        retryable: bool,
        retry_after_ms: float | None = None,
        experiment: Experiment | None = None,
    ) -> None:
        if type(self) is ToolError:
            raise TypeError("ToolError is abstract: raise one of its subclasses")
        check_code(code)
        if not isinstance(tool, str) or tool.strip() == "":
            raise TypeError("a tool error needs the tool name")
        check_delay_ms(retry_after_ms)
        detail = message or ""
        super().__init__(f"{tool}: {code} — {detail}" if detail else f"{tool}: {code}")
        self.tool: str = tool
        """Name of the tool that raised (or was refused)."""
        self.code: str = code
        """Stable, machine-readable code; public API."""
        self.detail: str = detail
        """Author or upstream text, without the tool/code prefix. May be empty."""
        self.retryable: bool = retryable
        """The error's own claim that repeating the call is safe and could succeed."""
        self.retry_after_ms: float | None = retry_after_ms
        """Milliseconds the tool or upstream asked to wait; carried, never invented."""
        self.unmapped: bool = False
        """True when the library built this from an exception no rule matched (retried only for idempotent tools)."""
        self.experiment: Experiment | None = experiment
        """Several told wordings of this code to compare (:func:`~faultline.define_experiment`): one replaces the
        message in what the model is told, per run. Never changes the code, class, retryable flag or decision."""


class ToolFailure(ToolError):
    """The tool tried and could not finish. Retried only when ``transient``."""

    error_class: ClassVar[ErrorClass] = "ToolFailure"
    outcome: ClassVar[Outcome] = "failed"

    def __init__(
        self,
        tool: str,
        code: str,
        *,
        message: str | None = None,
        transient: bool = False,
        retry_after_ms: float | None = None,
        experiment: Experiment | None = None,
    ) -> None:
        super().__init__(tool, code, message=message, retryable=transient is True, retry_after_ms=retry_after_ms, experiment=experiment)


class ToolRefusal(ToolError):
    """The tool worked and declined: an answer, not a fault. Delivered to the model once as data, never retried."""

    error_class: ClassVar[ErrorClass] = "ToolRefusal"
    outcome: ClassVar[Outcome] = "declined"

    def __init__(self, tool: str, code: str, message: str, *, experiment: Experiment | None = None) -> None:
        super().__init__(tool, code, message=message, retryable=False, experiment=experiment)


class ToolTimedOutError(ToolError):
    """The call outran its ceiling; whether its effect landed is unknown. Retried when ``retryable`` or the tool is idempotent."""

    error_class: ClassVar[ErrorClass] = "ToolTimedOutError"
    outcome: ClassVar[Outcome] = "timed_out"

    def __init__(
        self,
        tool: str,
        *,
        timeout_ms: float | None = None,
        code: str = DefaultCodes.TIMED_OUT,
        message: str | None = None,
        retryable: bool = False,
        retry_after_ms: float | None = None,
    ) -> None:
        check_delay_ms(timeout_ms, "timeout_ms")
        if message is None:
            message = "" if timeout_ms is None else f"did not return within {round_half_up(timeout_ms)} ms"
        super().__init__(tool, code, message=message, retryable=retryable is True, retry_after_ms=retry_after_ms)
        self.timeout_ms: float | None = timeout_ms
        """The ceiling that elapsed, in milliseconds, when known."""


class ToolNotPermittedError(ToolError):
    """The permission layer said no; the tool never ran. Never retried."""

    error_class: ClassVar[ErrorClass] = "ToolNotPermittedError"
    outcome: ClassVar[Outcome] = "refused"

    def __init__(
        self,
        tool: str,
        *,
        agent: str | None = None,
        permitted: Iterable[str] = (),
        code: str = DefaultCodes.NOT_PERMITTED,
        message: str | None = None,
    ) -> None:
        allowed_list = list(permitted)
        who = f"{agent}'s" if agent else "this agent's"
        allowed = f"; it may call {', '.join(allowed_list)}" if allowed_list else ""
        super().__init__(
            tool, code, message=message or f"'{tool}' is outside {who} allowlist and was not called{allowed}", retryable=False
        )
        self.agent: str | None = agent
        """The agent whose allowlist refused the call."""
        self.permitted: tuple[str, ...] = tuple(allowed_list)
        """Tools the agent may call."""


_MAX_QUOTED = 120


class ToolNotFoundError(ToolError):
    """Nothing is registered under the requested name: a deployment mistake. Never retried."""

    error_class: ClassVar[ErrorClass] = "ToolNotFoundError"
    outcome: ClassVar[Outcome] = "not_found"

    def __init__(
        self, tool: str, *, known: Iterable[str] = (), code: str = DefaultCodes.NOT_FOUND, message: str | None = None
    ) -> None:
        known_list = list(known)
        listed = f"; registered tools: {', '.join(known_list)}" if known_list else ""
        shown = f"{tool[:_MAX_QUOTED]}…" if len(tool) > _MAX_QUOTED else tool
        super().__init__(tool, code, message=message or f"no tool is registered as '{shown}'{listed}", retryable=False)
        self.known: tuple[str, ...] = tuple(known_list)
        """Registered tool names."""


class ToolArgumentValidationError(ToolError):
    """The model's arguments did not fit the tool's schema; nothing ran. Repaired by the model, not retried."""

    error_class: ClassVar[ErrorClass] = "ToolArgumentValidationError"
    outcome: ClassVar[Outcome] = "invalid_arguments"

    def __init__(
        self,
        tool: str,
        *,
        problems: Mapping[str, str] | None = None,
        code: str = DefaultCodes.INVALID_ARGUMENTS,
        message: str | None = None,
    ) -> None:
        found = dict(problems or {})
        paths = sorted(found, key=utf16_key)
        default = f"rejected arguments at {', '.join(paths)}" if paths else "rejected the arguments"
        super().__init__(tool, code, message=message or default, retryable=False)
        self.problems: dict[str, str] = found
        """What is wrong, by argument path. Never contains the values."""

    def feedback(self) -> str:
        """Text for the model: which paths are wrong and why, sorted, and a request for corrected arguments."""
        paths = sorted(self.problems, key=utf16_key)
        lines = [f"{self.code}: {self.tool} did not run because its arguments were rejected."]
        if not paths:
            lines.append("- (arguments): could not be used as a whole")
        lines.extend(f"- {path}: {self.problems[path]}" for path in paths)
        lines.append("Call the tool again with corrected arguments. The values you sent are not repeated here.")
        return "\n".join(lines)


class ToolResultError(ToolError):
    """The tool returned, but the result may not enter the run. Never retried: the call already happened."""

    error_class: ClassVar[ErrorClass] = "ToolResultError"
    outcome: ClassVar[Outcome] = "result_rejected"

    def __init__(
        self, tool: str, *, violation: str | None = None, code: str = DefaultCodes.RESULT_REJECTED, message: str | None = None
    ) -> None:
        rule = violation or "the result broke a result rule"
        super().__init__(tool, code, message=message or f"the result may not enter the run: {rule}", retryable=False)
        self.violation: str = rule
        """Which rule the result broke."""


def utf16_key(text: str) -> bytes:
    """Sort key giving JavaScript's string order (UTF-16 code units), so sorted output matches the TypeScript runtime."""
    return text.encode("utf-16-be", "surrogatepass")


def round_half_up(x: float) -> int:
    """JavaScript's ``Math.round``: halves round towards positive infinity."""
    import math

    return math.floor(x + 0.5)
