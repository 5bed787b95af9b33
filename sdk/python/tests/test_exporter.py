"""The exporter against a real local HTTP server: batching, gzip, retries, Retry-After, drops, shutdown."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from faultline.exporter import Exporter, ExporterStats, parse_retry_after

from .fake_ingest import FakeIngest


def span(i: int, **extra: Any) -> dict[str, Any]:
    """A small valid span record."""
    return {"type": "tool_call_span", "id": f"s{i}", "run_id": "r1", "call_id": f"c{i}", "tool": "search", "attempt": 1,
            "started_at": 1_764_800_000_000, "ended_at": 1_764_800_000_001, "outcome": "ok", **extra}  # fmt: skip


def balanced(s: ExporterStats) -> bool:
    """The accounting invariant."""
    return s.produced == s.sent + s.queued + s.dropped_total + s.unconfirmed


@pytest.fixture
def server() -> Iterator[FakeIngest]:
    fake = FakeIngest()
    yield fake
    fake.close()


def test_batches_gzip_and_the_sdk_resource(server: FakeIngest) -> None:
    exporter = Exporter(server.url, "flk_test", max_batch_size=10, resource={"service": "support-agent", "release": "1.2.3"})
    for i in range(25):
        exporter.record(span(i))
    assert exporter.flush(timeout_ms=10_000)
    assert [len(r["body"]["records"]) for r in server.requests] == [10, 10, 5]
    first = server.requests[0]
    assert first["path"] == "/api/v1/ingest"
    assert first["headers"]["Content-Encoding"] == "gzip"
    assert first["headers"]["Authorization"] == "Bearer flk_test"
    assert first["body"]["resource"] == {"sdk": {"name": "faultline-python", "version": "0.1.0"}, "service": "support-agent", "release": "1.2.3"}
    assert [r["id"] for r in server.records] == [f"s{i}" for i in range(25)]
    stats = exporter.stats()
    assert (stats.produced, stats.sent, stats.queued, stats.dropped_total, stats.requests) == (25, 25, 0, 0, 3)
    exporter.shutdown()


def test_503_is_retried_after_the_retry_after_the_server_asked_for() -> None:
    server = FakeIngest(lambda i, records: (503, {"retry-after": "0.05"}, {}) if i < 2 else None)
    try:
        exporter = Exporter(server.url, "k", compression="none")
        exporter.record(span(1))
        assert exporter.flush(timeout_ms=10_000)
        stats = exporter.stats()
        assert (stats.sent, stats.requests, stats.retries, stats.dropped_total) == (1, 3, 2, 0)
        assert stats.last_error == "server answered 503"
    finally:
        server.close()


def test_a_retry_after_beyond_the_cap_drops_the_batch_and_says_why() -> None:
    server = FakeIngest(lambda i, records: (429, {"retry-after": "3600"}, {}))
    try:
        exporter = Exporter(server.url, "k", max_retry_after_ms=60_000)
        exporter.record(span(1))
        exporter.record(span(2))
        assert exporter.flush(timeout_ms=10_000)
        stats = exporter.stats()
        assert stats.dropped["retry_after_too_long"] == 2 and stats.sent == 0 and balanced(stats)
    finally:
        server.close()


def test_client_errors_and_per_record_rejections_are_counted_not_retried() -> None:
    answers = [(401, {}, {"error": {"code": "unauthorized"}}), (207, {}, {"accepted": 2, "duplicates": 1, "rejected": [{"index": 1}, {"index": 1}, {"index": 9}]})]
    server = FakeIngest(lambda i, records: answers[min(i, 1)])
    try:
        exporter = Exporter(server.url, "k", max_batch_size=3)
        for i in range(3):
            exporter.record(span(i))
        assert exporter.flush(timeout_ms=10_000)
        for i in range(3, 6):
            exporter.record(span(i))
        assert exporter.flush(timeout_ms=10_000)
        stats = exporter.stats()
        assert stats.dropped["client_error"] == 3
        assert stats.dropped["rejected"] == 1
        assert (stats.sent, stats.duplicates, stats.requests) == (2, 1, 2)
        assert balanced(stats)
    finally:
        server.close()


def test_413_splits_the_batch_in_halves() -> None:
    server = FakeIngest(lambda i, records: (413, {}, {}) if len(records) > 2 else None)
    try:
        exporter = Exporter(server.url, "k", max_batch_size=4)
        for i in range(4):
            exporter.record(span(i))
        assert exporter.flush(timeout_ms=10_000)
        assert [len(r["body"]["records"]) for r in server.requests] == [4, 2, 2]
        assert exporter.stats().sent == 4
    finally:
        server.close()


def test_a_full_queue_drops_and_counts_instead_of_growing() -> None:
    server = FakeIngest()
    server.release.clear()  # the server holds every answer
    try:
        exporter = Exporter(server.url, "k", max_queue_size=5, max_batch_size=2, flush_interval_ms=1)
        for i in range(20):
            exporter.record(span(i))
        stats = exporter.stats()
        assert stats.dropped["queue_overflow"] == 15 and stats.queued == 5 and balanced(stats)
        server.release.set()
        assert exporter.flush(timeout_ms=10_000)
        assert exporter.stats().sent == 5
    finally:
        server.close()


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_shutdown_settles_by_its_deadline_with_the_server_down() -> None:
    exporter = Exporter(closed_port(), "k", base_backoff_ms=20)
    for i in range(7):
        exporter.record(span(i))
    started = time.monotonic()
    exporter.shutdown(timeout_ms=300)
    assert time.monotonic() - started < 5
    stats = exporter.stats()
    assert stats.sent == 0 and stats.queued == 0 and stats.dropped_total == 7 and balanced(stats)
    assert stats.dropped["shutdown"] + stats.dropped["network_error"] == 7
    exporter.record(span(8))
    assert exporter.stats().dropped["shutdown"] >= 1


def test_a_request_the_server_never_answers_is_unconfirmed_at_shutdown() -> None:
    server = FakeIngest()
    server.release.clear()
    try:
        exporter = Exporter(server.url, "k", request_timeout_ms=30_000)
        exporter.record(span(1))
        exporter.flush(timeout_ms=0)
        deadline = time.monotonic() + 10
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.01)
        exporter.shutdown(timeout_ms=100)
        stats = exporter.stats()
        assert (stats.unconfirmed, stats.sent, stats.queued) == (1, 0, 0) and balanced(stats)
    finally:
        server.close()


def test_record_never_raises_and_counts_what_it_cannot_serialise(server: FakeIngest) -> None:
    exporter = Exporter(server.url, "k")
    exporter.record({"type": "run", "bad": object()})
    exporter.record({"type": "run", "nan": float("nan")})
    exporter.record(span(1, attachments=["x" * 70_000]))
    exporter.record(span(2, tool="t" * 300, message="m" * 20_000))
    stats = exporter.stats()
    assert stats.dropped["serialize_error"] == 2 and stats.dropped["record_too_large"] == 1 and balanced(stats)
    assert stats.clamped == 1
    assert exporter.flush(timeout_ms=10_000)
    sent = server.records[0]
    assert len(sent["tool"]) == 200 and len(sent["message"]) == 16 * 1024 and sent["tool"].endswith("~" + sent["tool"][-16:])
    exporter.shutdown()


def test_many_threads_and_asyncio_tasks_share_one_exporter(server: FakeIngest) -> None:
    exporter = Exporter(server.url, "k", max_batch_size=50, flush_interval_ms=10)

    def produce(base: int) -> None:
        for i in range(100):
            exporter.record(span(base + i))

    threads = [threading.Thread(target=produce, args=(t * 1000,)) for t in range(6)]
    for t in threads:
        t.start()

    async def tasks() -> None:
        async def one(base: int) -> None:
            for i in range(50):
                exporter.record(span(base + i))
                await asyncio.sleep(0)

        await asyncio.gather(*(one(100_000 + k * 1000) for k in range(4)))
        assert await exporter.aflush(timeout_ms=20_000)

    asyncio.run(tasks())
    for t in threads:
        t.join()
    assert exporter.flush(timeout_ms=20_000)
    ids = [r["id"] for r in server.records]
    assert len(ids) == 800 and len(set(ids)) == 800
    assert exporter.stats().sent == 800
    exporter.shutdown()


def test_records_left_at_exit_are_sent_by_the_atexit_flush(server: FakeIngest) -> None:
    script = (
        "from faultline.exporter import Exporter\n"
        f"e = Exporter({server.url!r}, 'k', flush_interval_ms=60_000)\n"
        "e.record({'type': 'run', 'id': 'r9', 'run_id': 'r9', 'agent': 'a', 'started_at': 1764800000000, 'state': 'completed'})\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert [r["id"] for r in server.records] == ["r9"]


def test_parse_retry_after() -> None:
    assert parse_retry_after("2", 0) == 2000
    assert parse_retry_after("0.25", 0) == 250
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", 1445412480000) == 10_000
    assert parse_retry_after("soon", 0) is None
    assert parse_retry_after(None, 0) is None
