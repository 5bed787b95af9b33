"""Tool definitions, call requests and results of the run loop."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, overload

from .error_map import ToolErrorMap
from .errors import ToolError
from .policy import Decision, RetryPolicy
from .told import MAX_RESULT_CHARS, serialise_result, wrap_untrusted

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ToolDefinition(Generic[F]):
    """A tool the run loop can call: the function plus what the loop needs to know about it."""

    name: str
    """Unique name, as the model calls it."""
    fn: F
    """The tool body; called with the model's arguments as keyword arguments (a non-dict is passed as one positional)."""
    idempotent: bool = False
    """A repeat has no extra effect: untyped exceptions and timeouts may then be retried."""
    version: str | None = None
    """Recorded as ``tool_version``."""
    description: str = ""
    """Shown to the model by the provider integrations."""
    input_schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "object"})
    """JSON Schema of the arguments, for the provider integrations."""
    error_map: ToolErrorMap | None = None
    """Translation of this tool's exceptions; default: the runner's."""
    retry: RetryPolicy | None = None
    """This tool's retry settings; default: the runner's."""
    timeout_ms: float | None = None
    """Ceiling of one attempt (async tools only: a sync body cannot be interrupted)."""
    validate: Callable[[Any], Mapping[str, str] | None] | None = None
    """Checks the arguments; returns problems by path (never values) or nothing."""
    check_result: Callable[[Any], str | None] | None = None
    """Checks the result; returns the broken rule, or nothing."""

    @property
    def is_async(self) -> bool:
        """True when the body is a coroutine function."""
        return _is_async(self.fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the body directly, outside any run (no records, no retries)."""
        return self.fn(*args, **kwargs)


@functools.lru_cache(maxsize=4096)
def _is_async(fn: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(fn)


@functools.lru_cache(maxsize=4096)
def signature_of(fn: Callable[..., Any]) -> inspect.Signature | None:
    """The function's signature, computed once per function (it costs more than a whole call otherwise); ``None`` without one."""
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


@overload
def tool(fn: F, /) -> ToolDefinition[F]: ...
@overload
def tool(
    *,
    name: str | None = ...,
    idempotent: bool = ...,
    version: str | None = ...,
    description: str | None = ...,
    input_schema: Mapping[str, Any] | None = ...,
    error_map: ToolErrorMap | None = ...,
    retry: RetryPolicy | None = ...,
    timeout_ms: float | None = ...,
    validate: Callable[[Any], Mapping[str, str] | None] | None = ...,
    check_result: Callable[[Any], str | None] | None = ...,
) -> Callable[[F], ToolDefinition[F]]: ...
def tool(fn: Any = None, /, **options: Any) -> Any:
    """Decorator: turns a function (sync or async) into a :class:`ToolDefinition`. The docstring is its description."""

    def make(body: F) -> ToolDefinition[F]:
        opts = dict(options)
        opts["name"] = opts.get("name") or body.__name__
        opts["description"] = opts.get("description") or inspect.getdoc(body) or ""
        if opts.get("input_schema") is None:
            opts.pop("input_schema", None)
        definition = ToolDefinition(fn=body, **opts)
        return definition

    return make(fn) if fn is not None else make


CallStatus = Literal["ok", "declined", "error", "cancelled"]
"""How a call finished: a value, a refusal (data), an error, or cancelled."""


@dataclass(frozen=True)
class ToolCallResult:
    """How one tool call finished. Never an exception: every ending is a result."""

    status: CallStatus
    """``ok``, ``declined`` (a refusal, delivered as data), ``error`` or ``cancelled``."""
    run_id: str
    """The run's id."""
    call_id: str
    """The provider's tool-use id (or a generated one)."""
    tool: str
    """The tool the model asked for."""
    attempts: int
    """Attempts made (0 when never dispatched)."""
    value: Any = None
    """The tool's return value, when ``ok``."""
    error: ToolError | None = None
    """The final taxonomy error, when declined or an error."""
    decision: Decision | None = None
    """The loop's final decision, when not ``ok``."""
    told: str | None = None
    """Exactly what the model is told (the envelope's content), scrubbed; ``None`` when ``ok``."""

    @property
    def is_error(self) -> bool:
        """Whether a provider should flag the result as an error. A refusal is not; an unserialisable value is."""
        if self.status == "ok":
            return not serialise_result(self.value)[0]
        return self.status in ("error", "cancelled")

    def model_text(self, max_chars: int = MAX_RESULT_CHARS) -> str:
        """The text the model receives, always inside the untrusted-data envelope."""
        if self.status == "ok":
            ok, text = serialise_result(self.value)
            if not ok:
                told = (
                    "error: result_unserialisable: the tool returned a value that could not be turned into text "
                    f"({text})\nretryable: no (repeating the same call will not help)"
                )
                return wrap_untrusted(told, "tool_error")
            if len(text) > max_chars:
                return wrap_untrusted(text[:max_chars], "tool_result", {"truncated": "true"})
            return wrap_untrusted(text, "tool_result")
        if self.status == "declined":
            return wrap_untrusted(self.told or "", "tool_refusal")
        return wrap_untrusted(self.told or "", "tool_error")
