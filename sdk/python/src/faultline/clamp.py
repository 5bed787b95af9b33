"""Fields cut to the wire contract's bounds before export (``lib/runtime/export/clamp.ts``), byte for byte.

Identifiers, names, codes and versions keep a readable prefix and end in a hash of the whole value,
so two long ids stay distinct and every record of one call carries the same clamped id; free text
is cut and ends in ``…``. A record that fits is returned as it is.
"""

from __future__ import annotations

import re
from typing import Literal

from .limits import MAX_CODE_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, MAX_VERSION_LENGTH
from .records import Record

Kind = Literal["id", "name", "code", "version", "text"]

_MAX: dict[Kind, int] = {"id": MAX_ID_LENGTH, "name": MAX_NAME_LENGTH, "code": MAX_CODE_LENGTH, "version": MAX_VERSION_LENGTH, "text": MAX_TEXT_LENGTH}
_FIELDS: dict[str, Kind] = {
    "id": "id", "run_id": "id", "call_id": "id", "trace_id": "id", "parent_span_id": "id", "after_error": "id",
    "tool": "name", "agent": "name", "service": "name", "environment": "name", "code": "code",
    "tool_version": "version", "agent_version": "version", "release": "version", "message": "text", "told": "text", "error": "text",
}  # fmt: skip
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _fnv(units: list[int], seed: int) -> str:
    h = (0x811C9DC5 ^ (seed % 2**32)) & 0xFFFFFFFF
    for unit in units:
        h ^= unit
        h = (h * 0x01000193) & 0xFFFFFFFF
    return f"{h:08x}"


def hex_id(value: str, hex_chars: int) -> str:
    """``value`` as ``hex_chars`` lowercase hex: kept when it already is, else an FNV-1a hash of its UTF-16 units (as the TS runtime)."""
    lower = value.lower()
    if len(lower) == hex_chars and re.fullmatch(r"[0-9a-f]+", lower) and not re.fullmatch(r"0+", lower):
        return lower
    data = value.encode("utf-16-le", "surrogatepass")
    units = [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]
    out = ""
    seed = 0
    while len(out) < hex_chars:
        out += _fnv(units, seed * 0x9E3779B9)
        seed += 1
    return out[:hex_chars]


def _fits(value: str, kind: Kind) -> bool:
    if len(value) > _MAX[kind]:
        return False
    if kind == "text":
        return True
    if value == "" or _CONTROL.search(value):
        return False
    return kind != "name" or value.strip() != ""


def _clamp(value: str, kind: Kind) -> str:
    if kind == "text":
        return f"{value[: _MAX['text'] - 1]}…"
    digest = hex_id(value, 16)
    clean = _CONTROL.sub("\ufffd", value).strip()
    prefix = clean[: _MAX[kind] - len(digest) - 1]
    return f"{prefix}~{digest}" if prefix else digest


def clamp_record(record: Record) -> tuple[Record, bool]:
    """The record with its bounded fields fitted, and whether anything changed. The original is never mutated."""
    copy: Record | None = None
    for key, kind in _FIELDS.items():
        value = record.get(key)
        if isinstance(value, str) and not _fits(value, kind):
            copy = copy if copy is not None else dict(record)
            copy[key] = _clamp(value, kind)
    return (copy, True) if copy is not None else (record, False)
