"""The background exporter: batches records and posts them to Faultline's ``/api/v1/ingest``.

``record()`` never raises and never blocks: a full queue drops (and counts) instead of growing.
A daemon thread sends batches (gzip by default); network errors, 429 and 5xx are retried with
jittered backoff or the server's ``Retry-After``; every other answer is final. Counters account
for every record: ``produced == sent + queued + dropped_total + unconfirmed`` at every moment.
``flush()`` and ``shutdown()`` return by their deadline even with the server down, and the
exporter registers an ``atexit`` flush. Safe to share between threads and asyncio tasks.
"""

from __future__ import annotations

import asyncio
import atexit
import email.utils
import gzip
import json
import math
import random as _random
import re
import threading
import time
import urllib.error
import urllib.request
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .clamp import clamp_record
from .limits import MAX_BODY_BYTES, MAX_RECORD_BYTES, MAX_RECORDS
from .records import Record, Resource
from .version import SDK_NAME, SDK_VERSION

DropReason = Literal[
    "queue_overflow",
    "record_too_large",
    "serialize_error",
    "rejected",
    "payload_too_large",
    "client_error",
    "network_error",
    "server_error",
    "retry_after_too_long",
    "shutdown",
]
"""Why a record never reached the server (or was refused by it for good)."""

DROP_REASONS: Final[tuple[DropReason, ...]] = (
    "queue_overflow", "record_too_large", "serialize_error", "rejected", "payload_too_large",
    "client_error", "network_error", "server_error", "retry_after_too_long", "shutdown",
)  # fmt: skip
"""Every drop reason, in the TypeScript exporter's order."""

_UNDELIVERABLE: Final = frozenset({"network_error", "server_error", "shutdown", "retry_after_too_long"})


@dataclass(frozen=True)
class Response:
    """What a transport returns for one POST."""

    status: int
    """The HTTP status."""
    headers: dict[str, str]
    """Response headers, lower-case names."""
    body: bytes
    """The response body."""


class TransportError(Exception):
    """A POST got no answer. ``maybe_delivered`` when the request may have reached the server (a timeout mid-request)."""

    def __init__(self, message: str, *, maybe_delivered: bool) -> None:
        super().__init__(message)
        self.maybe_delivered = maybe_delivered
        """Whether the server may have stored what was sent."""


Transport = Callable[[str, dict[str, str], bytes, float], Response]
"""Posts ``body`` to a URL with headers and a timeout in seconds; raises :class:`TransportError` without an answer."""


def urllib_transport(url: str, headers: dict[str, str], body: bytes, timeout: float) -> Response:
    """The default transport: one POST with the standard library."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 - the endpoint is configured
            return Response(answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read())
    except urllib.error.HTTPError as error:
        return Response(error.code, {k.lower(): v for k, v in error.headers.items()}, error.read())
    except (TimeoutError, ConnectionResetError) as error:
        raise TransportError(f"{type(error).__name__}: {error}", maybe_delivered=True) from error
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        in_flight = isinstance(reason, (TimeoutError, ConnectionResetError))
        raise TransportError(f"{type(reason).__name__}: {reason}", maybe_delivered=in_flight) from error


@dataclass
class ExporterStats:
    """The exporter's counters. ``produced == sent + queued + dropped_total + unconfirmed`` always holds."""

    produced: int = 0
    """Records handed to ``record()``."""
    sent: int = 0
    """Records the server accepted (duplicates included)."""
    duplicates: int = 0
    """Of ``sent``, those the server reported as duplicates."""
    queued: int = 0
    """Waiting or in a request not answered yet."""
    queued_bytes: int = 0
    """Bytes of the queued records' JSON."""
    dropped: dict[str, int] = field(default_factory=lambda: dict.fromkeys(DROP_REASONS, 0))
    """Dropped records by reason."""
    dropped_total: int = 0
    """All dropped records."""
    unconfirmed: int = 0
    """Given up on with delivery unknown: the server may have stored them but its answer was lost."""
    clamped: int = 0
    """Records sent with a field cut or hashed to fit the wire contract's bounds."""
    requests: int = 0
    """HTTP requests made, retries included."""
    retries: int = 0
    """Requests that were retries."""
    last_error: str | None = None
    """Last problem seen, for diagnostics (never raised)."""


@dataclass
class _Batch:
    entries: list[bytes]
    maybe_stored: bool = False
    requesting: bool = False
    settled: bool = False
    split: bool = False


def parse_retry_after(value: str | None, now_ms: float) -> float | None:
    """An HTTP ``Retry-After`` value (delta seconds or an HTTP-date) in milliseconds from ``now_ms``; ``None`` when unusable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(round(float(text) * 1000))
    if not text.upper().endswith("GMT"):
        return None
    try:
        at = email.utils.parsedate_to_datetime(text).timestamp() * 1000
    except (TypeError, ValueError):
        return None
    return max(0.0, at - now_ms)


_live: weakref.WeakSet[Exporter] = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    for exporter in list(_live):
        exporter.shutdown(timeout_ms=exporter.exit_timeout_ms)


class Exporter:
    """Batches records and sends them to Faultline from a daemon thread. A :class:`~faultline.RecordSink`."""

    def __init__(
        self,
        endpoint: str,
        api_key: str,
        *,
        resource: Resource | None = None,
        compression: Literal["gzip", "none"] = "gzip",
        max_queue_size: int = 2048,
        max_queue_bytes: int = 8 * 1024 * 1024,
        max_batch_size: int = 100,
        max_batch_bytes: int = 1024 * 1024,
        flush_interval_ms: float = 5000,
        request_timeout_ms: float = 10_000,
        max_attempts: int = 5,
        base_backoff_ms: float = 1000,
        max_backoff_ms: float = 30_000,
        max_retry_after_ms: float = 300_000,
        exit_timeout_ms: float = 2000,
        transport: Transport = urllib_transport,
        clock: Callable[[], float] = lambda: time.time() * 1000,
        random: Callable[[], float] = _random.random,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.url = endpoint.rstrip("/") + "/api/v1/ingest"
        """Where batches go."""
        self.exit_timeout_ms = exit_timeout_ms
        """How long the ``atexit`` flush may take."""
        self._headers = {"content-type": "application/json", "authorization": f"Bearer {api_key}"}
        self._gzip = compression == "gzip"
        self._resource = json.dumps({"sdk": {"name": SDK_NAME, "version": SDK_VERSION}, **(resource or {})}, separators=(",", ":"))
        self._max_queue, self._max_queue_bytes = max_queue_size, max_queue_bytes
        self._max_batch, self._max_batch_bytes = min(max_batch_size, MAX_RECORDS), min(max_batch_bytes, MAX_BODY_BYTES)
        self._interval = flush_interval_ms / 1000
        self._timeout = request_timeout_ms / 1000
        self._max_attempts, self._base, self._cap, self._max_retry_after = max_attempts, base_backoff_ms, max_backoff_ms, max_retry_after_ms
        self._transport, self._clock, self._random, self._on_error = transport, clock, random, on_error
        self._stats = ExporterStats()
        self._queue: deque[bytes] = deque()
        self._queue_bytes = 0
        self._inflight: _Batch | None = None
        self._inflight_bytes = 0
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._idle = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._flush_wanted = False
        self._split_sizes: deque[int] = deque()
        self._closed = False
        self._thread: threading.Thread | None = None
        _live.add(self)

    # --- the agent's side: never raises, never blocks on the network -------------------------------

    def record(self, record: Record) -> None:
        """Queues one record. Never raises."""
        try:
            with self._lock:
                self._stats.produced += 1
                if self._closed:
                    return self._drop(1, "shutdown")
                try:
                    record, clamped = clamp_record(record)
                    if clamped:
                        self._stats.clamped += 1
                    data = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
                except (TypeError, ValueError):
                    return self._drop(1, "serialize_error")
                size = len(data)
                if size > MAX_RECORD_BYTES or size > self._max_batch_bytes:
                    return self._drop(1, "record_too_large")
                held = len(self._queue) + (len(self._inflight.entries) if self._inflight else 0)
                if held >= self._max_queue or self._queue_bytes + self._inflight_bytes + size > self._max_queue_bytes:
                    return self._drop(1, "queue_overflow")
                self._queue.append(data)
                self._queue_bytes += size
                self._ensure_thread()
                if self._full():
                    self._wake.notify_all()
        except Exception:
            pass  # telemetry never breaks the agent

    def stats(self) -> ExporterStats:
        """A snapshot of the counters."""
        with self._lock:
            s = self._stats
            held = len(self._queue) + (len(self._inflight.entries) if self._inflight else 0)
            return ExporterStats(
                s.produced, s.sent, s.duplicates, held, self._queue_bytes + self._inflight_bytes, dict(s.dropped),
                s.dropped_total, s.unconfirmed, s.clamped, s.requests, s.retries, s.last_error,
            )  # fmt: skip

    def flush(self, timeout_ms: float | None = None) -> bool:
        """Sends everything queued now; returns True once empty, False at ``timeout_ms`` (the rest stays queued). Never raises."""
        try:
            deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
            with self._lock:
                self._flush_wanted = True
                self._ensure_thread()
                self._wake.notify_all()
                while self._queue or self._inflight:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    if self._thread is None or not self._thread.is_alive():
                        return False
                    self._idle.wait(left if left is not None else 0.5)
                return True
        except Exception:
            return False

    def shutdown(self, timeout_ms: float = 5000) -> None:
        """Stops accepting records, flushes within ``timeout_ms``, then accounts for the rest. Idempotent; never raises.

        Queued records are dropped as ``shutdown``; a request still unanswered is abandoned and its
        records counted as ``unconfirmed`` (the server may have stored them).
        """
        try:
            with self._lock:
                if self._closed and not (self._queue or self._inflight):
                    return
                self._closed = True
            self.flush(timeout_ms)
            self._stop.set()
            with self._lock:
                self._wake.notify_all()
                self._drop(len(self._queue), "shutdown")
                self._queue.clear()
                self._queue_bytes = 0
                batch = self._inflight
                if batch is not None:
                    if batch.requesting:
                        batch.maybe_stored = True
                    self._settle(batch, len(batch.entries), "shutdown")
            _live.discard(self)
        except Exception:
            pass

    async def aflush(self, timeout_ms: float | None = None) -> bool:
        """:meth:`flush` without blocking the event loop."""
        return await asyncio.to_thread(self.flush, timeout_ms)

    async def ashutdown(self, timeout_ms: float = 5000) -> None:
        """:meth:`shutdown` without blocking the event loop."""
        await asyncio.to_thread(self.shutdown, timeout_ms)

    # --- the sending thread ------------------------------------------------------------------------

    def _ensure_thread(self) -> None:
        if self._thread is None and not self._stop.is_set():
            self._thread = threading.Thread(target=self._loop, name="faultline-exporter", daemon=True)
            self._thread.start()

    def _full(self) -> bool:
        return len(self._queue) >= self._max_batch or self._queue_bytes >= self._max_batch_bytes

    def _loop(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if not self._queue:
                    self._flush_wanted = False
                    self._idle.notify_all()
                    self._wake.wait(self._interval)
                    if not self._queue:
                        continue
                elif not (self._full() or self._flush_wanted):
                    self._wake.wait(self._interval)
                batch = self._take()
            if batch is not None:
                try:
                    self._send(batch)
                except Exception as error:  # a bug here must not kill the thread silently
                    with self._lock:
                        self._settle(batch, len(batch.entries), "network_error")
                        self._report(f"exporter error: {error}")
            with self._lock:
                self._idle.notify_all()

    def _take(self) -> _Batch | None:
        if not self._queue or self._stop.is_set():
            return None
        entries: list[bytes] = []
        size = 0
        from_split = bool(self._split_sizes)
        limit = self._split_sizes.popleft() if from_split else self._max_batch
        while self._queue and len(entries) < limit and (not entries or size + len(self._queue[0]) <= self._max_batch_bytes):
            item = self._queue.popleft()
            entries.append(item)
            size += len(item)
        self._queue_bytes -= size
        self._inflight_bytes = size
        self._inflight = _Batch(entries, split=from_split)
        return self._inflight

    def _body(self, entries: list[bytes]) -> bytes:
        return b'{"resource":' + self._resource.encode() + b',"records":[' + b",".join(entries) + b"]}"

    def _send(self, batch: _Batch) -> None:
        body = self._body(batch.entries)
        headers = dict(self._headers)
        if self._gzip:
            body = gzip.compress(body, compresslevel=6)
            headers["content-encoding"] = "gzip"
        attempt = 0
        while True:
            attempt += 1
            if self._stop.is_set():
                return
            with self._lock:
                self._stats.requests += 1
                batch.requesting = True
            try:
                answer: Response | TransportError = self._transport(self.url, headers, body, self._timeout)
            except TransportError as error:
                answer = error
            except Exception as error:  # a transport that breaks its contract still counts as a network failure
                answer = TransportError(str(error), maybe_delivered=False)
            with self._lock:
                batch.requesting = False
                if batch.settled:
                    return  # shutdown gave up on it; its late answer changes nothing
                if isinstance(answer, TransportError):
                    batch.maybe_stored = batch.maybe_stored or answer.maybe_delivered
                    reason: DropReason = "network_error"
                    self._report(f"network error: {answer}")
                elif answer.status == 413:
                    self._split(batch, batch.split)
                    return
                elif 200 <= answer.status < 300:
                    rejected, duplicates = _read_result(answer.body, len(batch.entries))
                    self._settle(batch, rejected, "rejected", duplicates)
                    return
                elif answer.status == 429 or answer.status >= 500:
                    reason = "server_error"
                    self._report(f"server answered {answer.status}")
                else:
                    hint = " (check the ingest key)" if answer.status == 401 else ""
                    self._report(f"server answered {answer.status}{hint}")
                    self._settle(batch, len(batch.entries), "client_error")
                    return
                if attempt >= self._max_attempts:
                    self._settle(batch, len(batch.entries), reason)
                    return
                asked = parse_retry_after(answer.headers.get("retry-after"), self._clock()) if isinstance(answer, Response) else None
                if asked is not None and asked > self._max_retry_after:
                    self._settle(batch, len(batch.entries), "retry_after_too_long")
                    return
                window = min(self._base * 1.5 ** (attempt - 1), self._cap)
                wait = asked if asked is not None else round(window * (0.8 + 0.4 * self._random()))
                self._stats.retries += 1
            if self._stop.wait(wait / 1000):
                with self._lock:
                    self._settle(batch, len(batch.entries), "shutdown")
                return

    def _split(self, batch: _Batch, already: bool) -> None:
        """A 413: the batch goes back to the front of the queue, to be sent as two halves (a half that is still too large is dropped)."""
        if already or len(batch.entries) < 2:
            self._settle(batch, len(batch.entries), "payload_too_large")
            return
        batch.settled = True  # its records are queued again: the halves account for them
        self._inflight = None
        self._inflight_bytes = 0
        self._queue.extendleft(reversed(batch.entries))
        self._queue_bytes += sum(map(len, batch.entries))
        half = math.ceil(len(batch.entries) / 2)
        self._split_sizes.extend([half, len(batch.entries) - half])
        self._flush_wanted = True

    def _settle(self, batch: _Batch, rejected: int, reason: DropReason, duplicates: int = 0) -> None:
        """Accounts for a batch once: accepted records are sent, the rest dropped (or unconfirmed)."""
        if batch.settled:
            return
        batch.settled = True
        n = len(batch.entries)
        if self._inflight is batch:
            self._inflight = None
            self._inflight_bytes = 0
        k = min(max(0, rejected), n)
        self._stats.sent += n - k
        self._stats.duplicates += min(max(0, duplicates), n - k)
        if k == 0:
            return
        if batch.maybe_stored and reason in _UNDELIVERABLE:
            self._stats.unconfirmed += k
            self._report(f"{k} record(s) unconfirmed: the server may have stored them but its answer was lost")
        else:
            self._drop(k, reason)

    def _drop(self, n: int, reason: DropReason) -> None:
        if n <= 0:
            return
        self._stats.dropped[reason] += n
        self._stats.dropped_total += n
        if reason != "queue_overflow":
            self._report(f"{n} record(s) dropped: {reason}")

    def _report(self, message: str) -> None:
        self._stats.last_error = message
        if self._on_error is not None:
            try:
                self._on_error(message)
            except Exception:
                pass


def _read_result(body: bytes, n: int) -> tuple[int, int]:
    """Rejected records (unique in-range indices) and duplicates of a 2xx ingest answer."""
    try:
        parsed: Any = json.loads(body or b"{}")
    except ValueError:
        return 0, 0
    if not isinstance(parsed, dict):
        return 0, 0
    rejected = parsed.get("rejected")
    indices = {r.get("index") for r in rejected if isinstance(r, dict)} if isinstance(rejected, list) else set()
    count = sum(1 for i in indices if isinstance(i, int) and 0 <= i < n)
    duplicates = parsed.get("duplicates")
    return count, duplicates if isinstance(duplicates, int) else 0
