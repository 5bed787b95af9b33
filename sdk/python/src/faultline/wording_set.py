"""A project's wording set as Faultline delivers it (``lib/contracts/wordings.ts``, ``experiments/wording-set.ts``).

``GET /api/v1/wordings?project=`` answers the project's running experiments and promoted winners,
per code and optionally per tool. :meth:`WordingSet.parse` checks an answer against the same
contract as the TypeScript runtime and refuses it whole when anything is off, so a caller keeps its
previous set. Every text is scrubbed and bounded like any told text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from .limits import MAX_CODE_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH
from .scrub import scrub_text

MAX_WORDING_LENGTH: Final = 1000
"""Longest told wording an experiment may carry (room for the ``error: <code>: `` prefix and the retry lines)."""
MAX_VARIANTS: Final = 4
"""Most variants one experiment compares: the control and up to three challengers."""

EntryState = Literal["running", "promoted"]
"""A running experiment (assigned per run) or a promoted winner (told to every run)."""


def bounded_wording(text: str) -> str:
    """A told wording as it may leave the process: trimmed, scrubbed like any told text, and cut to :data:`MAX_WORDING_LENGTH`."""
    scrubbed = scrub_text(text.strip())
    return f"{scrubbed[: MAX_WORDING_LENGTH - 1]}…" if len(scrubbed) > MAX_WORDING_LENGTH else scrubbed


@dataclass(frozen=True)
class WordingVariant:
    """One told wording of an experiment in Faultline, with its stable id and its share of the runs (whole percent)."""

    id: str
    text: str
    weight: float


@dataclass(frozen=True)
class WordingEntry:
    """One entry of a wording set: a running experiment or a promoted winner (its one variant)."""

    code: str
    tool: str | None
    """Only this tool's errors; ``None``: the code on every tool."""
    experiment: str
    state: EntryState
    variants: tuple[WordingVariant, ...]


class WordingSource(Protocol):
    """Where the run loop looks up Faultline's wordings when an error is surfaced; ``None`` means "use the local map"."""

    def current(self) -> WordingSet | None:
        """The set to use now. Must not raise and must not wait: it runs on the error path."""


class WordingSet:
    """An immutable wording set; a :class:`WordingSource` of itself, so a fixed set can stand in for a refreshing one."""

    def __init__(self, entries: Iterable[WordingEntry]) -> None:
        by_key: dict[tuple[str, str | None], WordingEntry] = {}
        for e in entries:
            variants = tuple(WordingVariant(v.id, bounded_wording(v.text), v.weight) for v in e.variants)
            by_key[(e.code, e.tool)] = WordingEntry(e.code, e.tool, e.experiment, e.state, variants)
        self._by_key = by_key

    @classmethod
    def parse(cls, answer: object) -> WordingSet:
        """Parses an answer of the wording endpoint; raises :class:`TypeError` naming the first problem when it is not one."""
        return cls(_parse_answer(answer))

    def current(self) -> WordingSet:
        """This set: a fixed set never changes."""
        return self

    def entry_for(self, code: str, tool: str) -> WordingEntry | None:
        """The entry for ``code`` raised by ``tool``: the tool's own entry first, then the code-wide one."""
        return self._by_key.get((code, tool)) or self._by_key.get((code, None))

    @property
    def entries(self) -> tuple[WordingEntry, ...]:
        """Every entry, in the order given (a later entry for the same code and tool replaced an earlier one)."""
        return tuple(self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)


# The contract's checks (lib/contracts/primitives.ts, wordings.ts), with zod's messages, so that a
# refusal names the same path and reason in both runtimes.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class _Refused(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"not a wording set: {path}: {message}")


def _string(value: object, path: str, *, max_length: int, trim: bool = False, control: bool = True) -> str:
    if not isinstance(value, str):
        raise _Refused(path, "expected string")
    text = value.strip() if trim else value
    if text == "":
        raise _Refused(path, "must not be empty")
    if len(text.encode("utf-16-le", "surrogatepass")) // 2 > max_length:  # JavaScript's length: UTF-16 units
        raise _Refused(path, f"must be at most {max_length} characters")
    if control and _CONTROL.search(text):
        raise _Refused(path, "must not contain control characters")
    return text


def _variant(value: object, path: str) -> WordingVariant:
    if not isinstance(value, Mapping):
        raise _Refused(path, "expected object")
    vid = _string(value.get("id"), f"{path}.id", max_length=min(64, MAX_ID_LENGTH))
    text = _string(value.get("text"), f"{path}.text", max_length=MAX_WORDING_LENGTH, trim=True, control=False)
    weight = value.get("weight")
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 <= weight <= 100 or weight != int(weight):
        raise _Refused(f"{path}.weight", "must be a whole number from 0 to 100")
    return WordingVariant(vid, text, int(weight))


def _entry(value: object, path: str) -> WordingEntry:
    if not isinstance(value, Mapping):
        raise _Refused(path, "expected object")
    code = _string(value.get("code"), f"{path}.code", max_length=MAX_CODE_LENGTH)
    if "tool" not in value:  # null says "every tool"; a missing key says nothing
        raise _Refused(f"{path}.tool", "expected string or null")
    raw_tool = value["tool"]
    tool = None if raw_tool is None else _string(raw_tool, f"{path}.tool", max_length=MAX_NAME_LENGTH, trim=True)
    experiment = _string(value.get("experiment"), f"{path}.experiment", max_length=min(64, MAX_ID_LENGTH))
    state = value.get("state")
    if state not in ("running", "promoted"):
        raise _Refused(f"{path}.state", 'expected one of "running"|"promoted"')
    variants = value.get("variants")
    if not isinstance(variants, list) or not 1 <= len(variants) <= MAX_VARIANTS:
        raise _Refused(f"{path}.variants", f"expected 1 to {MAX_VARIANTS} variants")
    return WordingEntry(code, tool, experiment, state, tuple(_variant(v, f"{path}.variants.{i}") for i, v in enumerate(variants)))


def _parse_answer(answer: object) -> list[WordingEntry]:
    try:
        if not isinstance(answer, Mapping):
            raise _Refused("", "expected object")
        if not isinstance(answer.get("project"), str):
            raise _Refused("project", "expected string")
        entries = answer.get("entries")
        if not isinstance(entries, list):
            raise _Refused("entries", "expected array")
        return [_entry(e, f"entries.{i}") for i, e in enumerate(entries)]
    except _Refused as refused:
        raise TypeError(str(refused)) from None
