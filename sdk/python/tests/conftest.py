"""Shared fixtures: where the repository's shared vectors live, and a fixed clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[3]
VECTORS = REPO / "test" / "vectors"


def vector(name: str) -> Any:
    """One shared vector file (test/vectors/<name>), as written by the TypeScript generator."""
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


class FakeClock:
    """A clock tests advance by hand; ``sleep`` advances it instead of sleeping and remembers each wait."""

    def __init__(self, start: float = 1_764_800_000_000) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, ms: float) -> None:
        self.slept.append(ms)
        self.now += ms

    async def async_sleep(self, ms: float) -> None:
        self.sleep(ms)


@pytest.fixture
def clock() -> FakeClock:
    """A fresh fake clock."""
    return FakeClock()
