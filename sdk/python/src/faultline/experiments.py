"""Wording experiments: several told wordings for one code, one per run (``lib/runtime/experiments``).

A run is assigned one variant per experiment, deterministically and exactly as the TypeScript
runtime assigns it (docs/experiments.md, the shared vector test/vectors/assignment.json)::

    bucket  = FNV-1a-32(utf8(experiment_id + "\\n" + run_id)) mod 10000
    variant = the first variant whose cumulative weight w satisfies bucket * total < w * 10000

The wording replaces only the error's message in the told text; the code, class, ``retryable``
and the loop's decision never change. Off unless an experiment is declared (on a rule or a raised
error) or a wording set is configured.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol, TypeVar

from .wording_set import MAX_VARIANTS, WordingSet, WordingSource, bounded_wording

if TYPE_CHECKING:
    from .errors import ToolError

ASSIGNMENT_BUCKETS: Final = 10_000
"""Buckets a run can fall in: splits are whole percent, so each percent holds 100 of them."""


def fnv1a32(text: str) -> int:
    """FNV-1a (32-bit) of the UTF-8 bytes of ``text``: cheap, and the same number in every language."""
    h = 0x811C9DC5
    for byte in text.encode("utf-8", "surrogatepass"):
        h ^= byte
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def assignment_bucket(run_id: str, experiment: str) -> int:
    """The bucket of run ``run_id`` in ``experiment``; the experiment id is part of the key so assignments in two experiments are independent."""
    return fnv1a32(f"{experiment}\n{run_id}") % ASSIGNMENT_BUCKETS


class Weighted(Protocol):
    """Anything with a traffic share (whole percent, or any non-negative weights)."""

    @property
    def weight(self) -> float:
        """The share."""


_W = TypeVar("_W", bound=Weighted)


def assign_variant(run_id: str, experiment: str, variants: Sequence[_W]) -> _W | None:
    """The variant run ``run_id`` is assigned in ``experiment``; ``None`` when every weight is zero.

    Variants are laid end to end over the buckets in their order, each over a span proportional to
    its weight. The sums run left to right as in JavaScript (not ``sum()``, which compensates
    rounding on floats), so fractional weights assign the same run to the same variant.
    """
    total = 0.0
    for v in variants:
        total += _share(v.weight)
    if not total > 0:  # NaN included, as in the TypeScript runtime
        return None
    bucket = assignment_bucket(run_id, experiment)
    up_to = 0.0
    for v in variants:
        up_to += _share(v.weight)
        # bucket / BUCKETS < up_to / total, multiplied out: no rounding decides an assignment.
        if v.weight > 0 and bucket * total < up_to * ASSIGNMENT_BUCKETS:
            return v
    return None


def _share(weight: float) -> float:
    # JavaScript's Math.max(0, w): a NaN stays NaN (and then assigns nothing).
    return weight if math.isnan(weight) else max(0.0, weight)


@dataclass(frozen=True)
class Variant:
    """One told wording of a code-side experiment. ``weight`` is its traffic share (default: an equal share)."""

    id: str
    text: str
    weight: float = 1


@dataclass(frozen=True)
class Experiment:
    """An experiment declared in code, on an error-map rule or a raised error. Build it with :func:`define_experiment`."""

    id: str
    variants: tuple[Variant, ...]


_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def define_experiment(id: str, variants: Sequence[Variant]) -> Experiment:
    """Declares a code-side experiment; texts are scrubbed and bounded.

    Raises :class:`TypeError` for an id that is not 1-64 letters, digits, ``.``, ``_`` or ``-``, for
    fewer than two or more than four variants, repeated variant ids, an empty text, or a weight that
    is not a finite number >= 0 (all zero included): a mistake here would otherwise show up as an
    experiment that silently never runs.
    """
    if not isinstance(id, str) or not _ID.fullmatch(id):
        raise TypeError(f"experiment id must be 1-64 letters, digits, '.', '_' or '-'; got {id!r}")
    if not 2 <= len(variants) <= MAX_VARIANTS:
        raise TypeError(f"experiment {id} needs 2 to {MAX_VARIANTS} variants; got {len(variants)}")
    seen: set[str] = set()
    out: list[Variant] = []
    for v in variants:
        if not isinstance(v.id, str) or not _ID.fullmatch(v.id):
            raise TypeError(f"variant id must be 1-64 letters, digits, '.', '_' or '-'; got {v.id!r}")
        if v.id in seen:
            raise TypeError(f"experiment {id} repeats variant {v.id}")
        seen.add(v.id)
        if not isinstance(v.text, str) or v.text.strip() == "":
            raise TypeError(f"variant {v.id} of {id} needs a text")
        w = v.weight
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
            raise TypeError(f"variant {v.id} of {id}: weight must be a finite number >= 0")
        out.append(Variant(v.id, bounded_wording(v.text), w))
    if all(v.weight == 0 for v in out):
        raise TypeError(f"experiment {id}: every weight is 0")
    return Experiment(id, tuple(out))


@dataclass(frozen=True)
class ChosenWording:
    """The wording chosen for one surfaced error, and the arm to record (``None`` for a promoted winner)."""

    text: str
    experiment: str | None = None
    variant: str | None = None


def choose_wording(
    wording_set: WordingSet | None, *, code: str, tool: str, run_id: str, local: Experiment | None = None
) -> ChosenWording | None:
    """The wording to tell for one surfaced error, or ``None`` to keep the error's own message.

    Faultline's entry wins over the code-side experiment (that is how a promoted winner reaches a
    running agent). A running experiment's variant is assigned from (run id, experiment id) and
    recorded; a promoted winner is told to every run and recorded as no experiment.
    """
    entry = wording_set.entry_for(code, tool) if wording_set is not None else None
    if entry is not None:
        if entry.state == "promoted":
            return ChosenWording(entry.variants[0].text) if entry.variants else None
        chosen = assign_variant(run_id, entry.experiment, entry.variants)
        return ChosenWording(chosen.text, entry.experiment, chosen.id) if chosen else None
    if local is None:
        return None
    picked = assign_variant(run_id, local.id, local.variants)
    return ChosenWording(picked.text, local.id, picked.id) if picked else None


def told_wording(source: WordingSource | None, *, tool: str, run_id: str, error: ToolError) -> ChosenWording | None:
    """The wording a run tells for ``error`` raised by ``tool``, if an experiment or a promoted winner has one.

    Argument errors keep their repair feedback: it is generated from the problems, not worded. The
    source may be the caller's code: whatever it raises, the code-side experiment (or the error's
    own message) applies.
    """
    if error.error_class == "ToolArgumentValidationError":
        return None
    try:
        current = source.current() if source is not None else None
    except Exception:
        current = None
    return choose_wording(current, code=error.code, tool=tool, run_id=run_id, local=error.experiment)
