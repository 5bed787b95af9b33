"""The exact text a model is told, and the untrusted-data envelope it is wrapped in (``loop/told.ts``, ``envelope/untrusted.ts``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Final

from .args_hash import js_number
from .errors import ToolArgumentValidationError, ToolError, round_half_up
from .limits import MAX_TEXT_LENGTH
from .policy import RetryPolicy, StopReason
from .scrub import scrub_text

MAX_RESULT_CHARS: Final = 8000
"""Longest tool output handed to a model; the rest is cut and the envelope says so."""


def _seconds(ms: float) -> str:
    return f"{js_number(round_half_up(ms / 100) / 10)}s"


def _suffix(stop: StopReason, attempts: int, policy: RetryPolicy, retry_after_ms: float | None) -> str:
    after = f" after {attempts} attempts" if attempts > 1 else ""
    if stop == "budget_capped":
        return f"{after}; the retry budget of this tool for the run is used up"
    if stop == "retry_after_over_cap":
        return (
            f"{after}; not retried: the upstream asked to wait {_seconds(retry_after_ms or 0)}, "
            f"more than the {_seconds(policy.max_retry_after_ms)} this run honours"
        )
    if stop == "past_deadline":
        return f"{after}; not retried: the next attempt could not start before the run's deadline"
    if stop == "not_idempotent":
        return f"{after}; not declared idempotent, so it was not tried again" if policy.max_attempts > 1 else after
    return after


def _retry_hint(error: ToolError, retry_after_ms: float | None) -> str:
    if not error.retryable:
        return "retryable: no (repeating the same call will not help)"
    wait = "" if retry_after_ms is None or retry_after_ms <= 0 else f", not before {_seconds(retry_after_ms)}"
    return f"retryable: yes (the same call may succeed later{wait})"


def wire_text(text: str) -> str:
    """Scrubs and bounds free text for the wire."""
    scrubbed = scrub_text(text)
    return f"{scrubbed[: MAX_TEXT_LENGTH - 1]}…" if len(scrubbed) > MAX_TEXT_LENGTH else scrubbed


def told_text(
    error: ToolError,
    *,
    stop: StopReason,
    attempts: int,
    policy: RetryPolicy | None = None,
    retry_after_ms: float | None = None,
    wording: str | None = None,
) -> str:
    """The exact (scrubbed) text the model is told for a failed call, as the TypeScript runtime words it.

    ``wording`` (an experiment's variant or a promoted winner) takes the place of the error's message.
    """
    policy = policy or RetryPolicy()
    message = wording if wording is not None else error.detail
    if error.error_class == "ToolRefusal":
        text = f"{error.code}: {message}" if message else error.code
    elif isinstance(error, ToolArgumentValidationError):
        text = error.feedback()
    else:
        detail = f": {message}" if message else ""
        text = f"error: {error.code}{detail}{_suffix(stop, attempts, policy, retry_after_ms)}\n{_retry_hint(error, retry_after_ms)}"
    return wire_text(text)


_SOURCE = re.compile(r"^[a-z0-9_-]+$")
_MARKER = re.compile(r"<(\s{0,8}/?\s{0,8}untrusted-data)(\s{0,8}>)?", re.IGNORECASE)


def escape_markers(content: str) -> str:
    """Escapes every look-alike of the envelope markers inside ``content``."""
    return _MARKER.sub(lambda m: f"&lt;{m.group(1)}{m.group(2).replace('>', '&gt;', 1) if m.group(2) else ''}", content)


def wrap_untrusted(content: str, source: str, attributes: Mapping[str, str] | None = None) -> str:
    """Wraps untrusted text so the model reads it as data: an opening line with the source, the escaped content, one closing line."""
    if not _SOURCE.match(source):
        raise ValueError(f"envelope source must match {_SOURCE.pattern}; got {source!r}")
    opening = f'<untrusted-data source="{source}"'
    for key, value in (attributes or {}).items():
        if _SOURCE.match(key):
            escaped = value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
            opening += f' {key}="{escaped}"'
    return f"{opening}>\n{escape_markers(content)}\n</untrusted-data>"


def serialise_result(value: object) -> tuple[bool, str]:
    """Text of a tool result: strings as they are, ``None`` as empty, everything else as JSON; ``(False, reason)`` when impossible."""
    if isinstance(value, str):
        return True, value
    if value is None:
        return True, ""
    try:
        dump = getattr(value, "model_dump", None)
        if callable(dump):
            value = dump(mode="json")
        return True, json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_fallback)
    except Exception as error:  # noqa: BLE001 - any failure is reported as data
        return False, (str(error) or "serialisation failed")[:200]


def _fallback(value: object) -> object:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"a {type(value).__name__} has no JSON form")


def missing_result_text() -> str:
    """The error text for a tool use of the turn that got no result (never dispatched)."""
    return wrap_untrusted(
        "error: never dispatched: no result was produced for this call\nretryable: yes (the same call may succeed later)", "tool_error"
    )
