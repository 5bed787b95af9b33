"""What the model was told and what it did next: ``after_error`` links and unanswered tool uses (``loop/told-links.ts``)."""

from __future__ import annotations

from dataclasses import dataclass

_MAX_PENDING = 256


@dataclass
class _Pending:
    call_id: str
    tool: str
    started_before: int


class ToldLinks:
    """A run's bookkeeping: surfaced errors no call has answered yet, and tool uses of its turns with no result."""

    def __init__(self) -> None:
        self._pending: list[_Pending] = []
        self._started = 0
        self._declared: dict[str, None] = {}
        self._answered: set[str] = set()
        self._turns = 0

    def link(self, tool: str, explicit: str | None, given: bool) -> str | None:
        """The call id of the surfaced error a starting call answers, or ``None``.

        The agent's own link wins (``given`` with ``None``: it answers no error); else the oldest
        unanswered error of the same tool; else the latest unanswered error of another tool when no
        call has started since it was surfaced. An error is answered once.
        """
        before = self._started
        self._started += 1
        if given and explicit is None:
            return None
        at = next(
            (i for i, p in enumerate(self._pending) if (p.call_id == explicit if given else p.tool == tool)),
            -1,
        )
        if not given and at < 0 and self._pending and self._pending[-1].started_before == before:
            at = len(self._pending) - 1
        if at < 0:
            return explicit if given else None
        return self._pending.pop(at).call_id

    def surfaced(self, call_id: str, tool: str) -> None:
        """A call's error was told to the model: the next calls may answer it."""
        self._pending.append(_Pending(call_id, tool, self._started))
        if len(self._pending) > _MAX_PENDING:
            self._pending.pop(0)

    def declare_turn(self, tool_use_ids: list[str]) -> None:
        """The model asked for these tool uses in one turn."""
        self._turns += 1
        for i in tool_use_ids:
            if isinstance(i, str) and i:
                self._declared[i] = None

    def answer(self, call_id: str) -> None:
        """A call with this id ran (or was answered as not dispatched)."""
        self._answered.add(call_id)

    def unanswered(self) -> int | None:
        """Declared tool uses without a result; ``None`` when no turn was declared."""
        if self._turns == 0:
            return None
        return sum(1 for i in self._declared if i not in self._answered)
