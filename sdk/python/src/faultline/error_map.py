"""Declarative translation of library exceptions into the taxonomy (``ToolErrorMap`` of the TypeScript runtime).

The most specific class on the exception's MRO wins; status rules (for exceptions carrying
``status_code`` / ``status`` / ``response.status``) apply only when no class rule matched;
anything else becomes a permanent ``unmapped_failure``, because guessing that a repeat is safe is
how a booking is paid twice. Upstream text is scrubbed as it is translated.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .errors import DefaultCodes, ToolError, ToolFailure, ToolRefusal, check_code, check_delay_ms, round_half_up
from .scrub import scrub_text

if TYPE_CHECKING:
    from .experiments import Experiment

RetryAfterSource = float | Callable[[BaseException], "float | None"]
"""A wait in milliseconds, fixed or read from the exception being translated (e.g. its ``Retry-After``)."""

_MAX_DETAIL = 2000


@dataclass(frozen=True)
class ErrorRule:
    """How one family of library exceptions translates. Build with :func:`transient`, :func:`permanent` or :func:`refusal`."""

    kind: Literal["failure", "refusal"]
    """A failure, or a refusal (the upstream's answer is "no")."""
    code: str
    """The stable code the translated error carries."""
    transient: bool
    """Whether a repeat could succeed (failures only)."""
    retry_after_ms: RetryAfterSource | None = None
    """Milliseconds to wait, fixed or read from the exception."""
    message: str | None = None
    """What the model may be told; replaces the upstream text entirely when set."""
    experiment: Experiment | None = None
    """Several wordings to compare in place of ``message``, one per run (docs/experiments.md)."""


def transient(
    code: str, *, retry_after_ms: RetryAfterSource | None = None, message: str | None = None, experiment: Experiment | None = None
) -> ErrorRule:
    """A failure worth retrying, optionally with the wait the upstream usually asks for."""
    check_code(code)
    if not callable(retry_after_ms):
        check_delay_ms(retry_after_ms)
    return ErrorRule("failure", code, True, retry_after_ms, message, experiment)


def permanent(code: str, *, message: str | None = None, experiment: Experiment | None = None) -> ErrorRule:
    """A failure that a repeat will not fix (or might repeat a side effect)."""
    return ErrorRule("failure", check_code(code), False, None, message, experiment)


def refusal(code: str, message: str, *, experiment: Experiment | None = None) -> ErrorRule:
    """The upstream's answer is "no": translated into a :class:`ToolRefusal` carrying ``message``."""
    return ErrorRule("refusal", check_code(code), False, None, message, experiment)


def describe_exception(error: BaseException) -> str:
    """Text of an exception, scrubbed and bounded. Never raises, whatever the exception does."""
    try:
        text = str(error)
        if text == "":
            text = type(error).__name__
    except Exception:
        try:
            text = type(error).__name__
        except Exception:
            text = "an exception that cannot be described"
    scrubbed = scrub_text(text)
    return f"{scrubbed[:_MAX_DETAIL]}…" if len(scrubbed) > _MAX_DETAIL else scrubbed


def read_status(error: object) -> int | None:
    """The first integer among ``status_code``, ``status``, ``response.status_code``, ``response.status``; others read as absent."""

    def read(obj: object, name: str) -> object:
        try:
            return getattr(obj, name, None)
        except Exception:
            return None

    response = read(error, "response")
    for value in (read(error, "status_code"), read(error, "status"), read(response, "status_code"), read(response, "status")):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def unmapped_failure(tool: str, error: BaseException) -> ToolFailure:
    """The permanent ``unmapped_failure`` for an exception no rule matched."""
    failure = ToolFailure(tool, DefaultCodes.UNMAPPED, message=describe_exception(error))
    failure.unmapped = True
    failure.__cause__ = error
    return failure


def is_cancellation(error: BaseException) -> bool:
    """True for the exceptions that mean "stop", which are re-raised rather than translated."""
    return isinstance(error, (asyncio.CancelledError, KeyboardInterrupt, SystemExit, GeneratorExit))


class ToolErrorMap:
    """Maps exception classes (and HTTP statuses) to rules. Translation never raises for a hostile exception."""

    def __init__(
        self,
        rules: Mapping[type[BaseException], ErrorRule] | Iterable[tuple[type[BaseException], ErrorRule]] = (),
        *,
        statuses: Mapping[int, ErrorRule] | None = None,
    ) -> None:
        pairs = rules.items() if isinstance(rules, Mapping) else rules
        self._by_class: dict[type[BaseException], ErrorRule] = dict(pairs)
        self._by_status: dict[int, ErrorRule] = dict(statuses or {})

    def rule_for(self, error: BaseException) -> ErrorRule | None:
        """The rule that would apply to ``error``: the first class on its MRO with a rule, else its status's rule."""
        try:
            for cls in type(error).__mro__:
                rule = self._by_class.get(cls)
                if rule is not None:
                    return rule
        except Exception:
            pass
        if not self._by_status:
            return None
        status = read_status(error)
        return None if status is None else self._by_status.get(status)

    def classify(self, error: BaseException, tool: str) -> ToolError:
        """Translates ``error`` raised by ``tool``. Re-raises cancellations; returns taxonomy errors as they are."""
        if isinstance(error, ToolError):
            return error
        if is_cancellation(error):
            raise error
        rule = self.rule_for(error)
        if rule is None:
            return unmapped_failure(tool, error)
        detail = describe_exception(error)
        translated: ToolError
        if rule.kind == "refusal":
            translated = ToolRefusal(tool, rule.code, rule.message or "", experiment=rule.experiment)
        else:
            wait = _retry_after(rule.retry_after_ms, error) if rule.transient else None
            translated = ToolFailure(
                tool, rule.code, message=rule.message or detail, transient=rule.transient, retry_after_ms=wait, experiment=rule.experiment
            )
        translated.__cause__ = error
        return translated


def _retry_after(source: RetryAfterSource | None, error: BaseException) -> float | None:
    if source is None or not callable(source):
        return source
    try:
        value = source(error)
    except Exception:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return None
    return float(round_half_up(value))
