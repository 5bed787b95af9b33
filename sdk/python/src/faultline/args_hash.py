"""The arguments hash, byte-identical to ``lib/contracts/args-hash.ts``.

The canonical text is JSON with object keys sorted in JavaScript's order (UTF-16 code units),
numbers in JavaScript's shortest form (``-0`` is ``0``, ``1.0`` is ``1``, ``1e21`` is ``1e+21``),
strings in Unicode NFC, callables left out (as JavaScript leaves out ``undefined`` and functions),
and no insignificant whitespace. The hash is the first 16 hex characters of its SHA-256.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Mapping, Set
from typing import Any, Final

from .errors import utf16_key

ARGS_HASH_HEX: Final = 16
"""Hex characters of an arguments hash."""

_MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_SAFE = 2**53


def js_number(n: float) -> str:
    """A number as JavaScript's ``String(n)`` writes it (shortest round-trip digits, JS exponent rules)."""
    if math.isnan(n):
        return "NaN"
    if math.isinf(n):
        return "Infinity" if n > 0 else "-Infinity"
    if n == 0:
        return "0"
    sign = "-" if n < 0 else ""
    text = repr(abs(float(n)))
    mantissa, _, exp_text = text.partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    if frac_part == "0":
        frac_part = ""
    digits = (int_part + frac_part).lstrip("0")
    # Position of the decimal point relative to the first significant digit (JS's "n").
    point = len(int_part.lstrip("0")) if int_part.strip("0") else -(len(frac_part) - len(frac_part.lstrip("0")))
    point += int(exp_text or 0)
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= point <= 21:
        body = digits + "0" * (point - k)
    elif 0 < point <= 21:
        body = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        body = "0." + "0" * (-point) + digits
    else:
        e = point - 1
        exp = f"e+{e}" if e >= 0 else f"e-{-e}"
        body = (digits[0] + ("." + digits[1:] if k > 1 else "")) + exp
    return sign + body


_encode = json.encoder.encode_basestring  # the C encoder: JSON.stringify's escapes for text with no lone surrogates


def _string(value: str) -> str:
    if not value.isascii() and not unicodedata.is_normalized("NFC", value):
        value = unicodedata.normalize("NFC", value)
    text = _encode(value)
    if value.isascii():
        return text
    # JavaScript's JSON.stringify escapes lone surrogates rather than emitting them.
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _key(key: object) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (int, float)):
        return _number(key)
    return str(key)


def _number(n: int | float) -> str:
    if isinstance(n, int) and abs(n) < _MAX_SAFE:
        return str(n)
    try:
        return js_number(float(n))
    except OverflowError:
        return "Infinity" if n > 0 else "-Infinity"


def _canonical(value: Any, seen: set[int], depth: int) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if callable(value) and not isinstance(value, (Mapping, type)):
        return None
    if depth >= _MAX_DEPTH:
        return '"[deep]"'
    if id(value) in seen:
        return '"[cycle]"'
    seen.add(id(value))
    try:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            items: Any = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
            return _canonical(items, seen, depth + 1)
        dump = getattr(value, "model_dump", None)  # pydantic models, as their toJSON
        if callable(dump):
            return _canonical(dump(mode="json"), seen, depth + 1)
        if isinstance(value, (list, tuple)):
            return "[" + ",".join(_canonical(v, seen, depth + 1) or "null" for v in value) + "]"
        if isinstance(value, (Set, frozenset)):
            # A set has no order; sorted by canonical text so the hash is the same in every process.
            texts = sorted((_canonical(v, seen, depth + 1) or "null" for v in value), key=utf16_key)
            return "[" + ",".join(texts) + "]"
        if isinstance(value, Mapping):
            entries = [(_key(k), v) for k, v in value.items()]
        elif hasattr(value, "__dict__"):
            entries = [(k, v) for k, v in vars(value).items() if not k.startswith("_")]
        else:
            return _string(str(value))
        parts: list[str] = []
        for key, item in sorted(entries, key=lambda e: utf16_key(e[0])):
            text = _canonical(item, seen, depth + 1)
            if text is not None:
                parts.append(f"{_string(key)}:{text}")
        return "{" + ",".join(parts) + "}"
    finally:
        seen.discard(id(value))


def canonical_args(args: object) -> str:
    """The canonical text of a tool call's arguments. Never raises: unreadable arguments become a placeholder."""
    try:
        return _canonical(args, set(), 0) or "null"
    except Exception:
        return '"[unreadable]"'


def args_hash(args: object) -> str:
    """A stable hash of a tool call's arguments: the first 16 hex characters of the SHA-256 of :func:`canonical_args`."""
    text = _SURROGATE.sub("\ufffd", canonical_args(args))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ARGS_HASH_HEX]
