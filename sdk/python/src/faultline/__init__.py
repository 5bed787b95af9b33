"""Faultline for Python agents: typed tool errors, the error map, retry accounting and an exporter.

The same contract as the TypeScript runtime (``@faultline/runtime``): seven error classes with
stable codes, declarative translation of library exceptions, the decision table, the exact text
the model is told, ``args_hash`` and ``after_error`` links, and the native wire records.
"""

from .args_hash import args_hash, canonical_args
from .error_map import ErrorRule, ToolErrorMap, describe_exception, permanent, read_status, refusal, transient
from .errors import (
    DefaultCodes,
    ToolArgumentValidationError,
    ToolError,
    ToolFailure,
    ToolNotFoundError,
    ToolNotPermittedError,
    ToolRefusal,
    ToolResultError,
    ToolTimedOutError,
)
from .experiments import (
    ASSIGNMENT_BUCKETS,
    ChosenWording,
    Experiment,
    Variant,
    assign_variant,
    assignment_bucket,
    choose_wording,
    define_experiment,
    fnv1a32,
)
from .policy import RetryPolicy, Verdict, backoff_window, decide, full_jitter_delay
from .records import FanOut, MemorySink, Record, RecordSink, Resource, random_ids, sequential_ids
from .remote_wordings import DEFAULT_WORDINGS_TTL_MS, RemoteWordings, WordingResponse
from .retry import retry
from .run import Run, current_run
from .runner import RunSession, ToolRunner
from .scrub import scrub_text
from .told import escape_markers, told_text, wrap_untrusted
from .tools import ToolCallResult, ToolDefinition, tool
from .version import SDK_NAME, SDK_VERSION
from .wording_set import WordingEntry, WordingSet, WordingSource, WordingVariant, bounded_wording

__all__ = [
    "ASSIGNMENT_BUCKETS",
    "DEFAULT_WORDINGS_TTL_MS",
    "SDK_NAME",
    "SDK_VERSION",
    "ChosenWording",
    "DefaultCodes",
    "ErrorRule",
    "Experiment",
    "FanOut",
    "MemorySink",
    "Record",
    "RecordSink",
    "RemoteWordings",
    "Resource",
    "RetryPolicy",
    "Run",
    "RunSession",
    "ToolArgumentValidationError",
    "ToolCallResult",
    "ToolDefinition",
    "ToolError",
    "ToolErrorMap",
    "ToolFailure",
    "ToolNotFoundError",
    "ToolNotPermittedError",
    "ToolRefusal",
    "ToolResultError",
    "ToolRunner",
    "ToolTimedOutError",
    "Variant",
    "Verdict",
    "WordingEntry",
    "WordingResponse",
    "WordingSet",
    "WordingSource",
    "WordingVariant",
    "args_hash",
    "assign_variant",
    "assignment_bucket",
    "backoff_window",
    "bounded_wording",
    "canonical_args",
    "choose_wording",
    "current_run",
    "decide",
    "define_experiment",
    "describe_exception",
    "escape_markers",
    "fnv1a32",
    "full_jitter_delay",
    "permanent",
    "random_ids",
    "read_status",
    "refusal",
    "retry",
    "scrub_text",
    "sequential_ids",
    "told_text",
    "tool",
    "transient",
    "wrap_untrusted",
]
