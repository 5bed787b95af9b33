"""RemoteWordings: TTL, If-None-Match, the stale bound, refusals and timeouts (scripted), then over real HTTP."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from faultline import (
    MemorySink,
    RemoteWordings,
    ToolFailure,
    ToolRunner,
    WordingResponse,
    WordingVariant,
    assign_variant,
    sequential_ids,
    tool,
)

from .conftest import FakeClock, vector


def answer(text: str) -> dict[str, Any]:
    variants = [{"id": "b", "text": text, "weight": 100}]
    return {"project": "p", "entries": [{"code": "fare_class_unavailable", "tool": None, "experiment": "fare", "state": "promoted", "variants": variants}]}


Reply = Callable[[], WordingResponse]


class Scripted:
    """A scripted Faultline: each request takes the next reply (the last one repeats) and its headers are kept."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.seen: list[dict[str, str]] = []

    def __call__(self, url: str, headers: Mapping[str, str], timeout: float) -> WordingResponse:
        self.seen.append(dict(headers))
        return self.replies[min(len(self.seen), len(self.replies)) - 1]()


def ok(body: object, etag: str | None = None) -> Reply:
    return lambda: WordingResponse(200, etag, json.dumps(body).encode())


def status(code: int) -> Reply:
    return lambda: WordingResponse(code, None, b"{}")


def text_of(w: RemoteWordings) -> str | None:
    current = w.current()
    entry = current.entry_for("fare_class_unavailable", "t") if current else None
    return entry.variants[0].text if entry else None


def test_asks_once_per_ttl_revalidates_with_the_etag_and_picks_up_a_change_after_the_ttl(clock: FakeClock) -> None:
    s = Scripted([ok(answer("one"), '"v1"'), status(304), ok(answer("two"), '"v2"')])
    w = RemoteWordings(base_url="http://f/", project="p q", api_key="k", ttl_ms=30_000, clock=clock, fetch=s)
    assert w.url == "http://f/api/v1/wordings?project=p%20q"
    assert w.current() is None  # before the first answer the local map applies; this look asked in the background
    assert w.join()
    assert text_of(w) == "one"
    assert len(s.seen) == 1
    clock.now += 29_999
    assert text_of(w) == "one"
    assert len(s.seen) == 1
    clock.now += 1
    w.current()
    w.join()
    assert s.seen[1] == {"authorization": "Bearer k", "accept": "application/json", "if-none-match": '"v1"'}
    assert text_of(w) == "one"
    clock.now += 30_000
    w.current()
    w.join()
    assert text_of(w) == "two"
    assert len(s.seen) == 3


def test_keeps_the_last_set_while_unreachable_then_gives_way_to_the_local_map_and_never_raises(clock: FakeClock) -> None:
    errors: list[BaseException] = []

    def unreachable() -> WordingResponse:
        raise ConnectionRefusedError("connection refused")

    s = Scripted([ok(answer("one")), unreachable])
    w = RemoteWordings(base_url="http://f", project="p", api_key="k", ttl_ms=10_000, max_stale_ms=50_000, clock=clock, fetch=s, on_error=errors.append)
    w.refresh()
    for _ in range(5):
        clock.now += 10_000
        assert text_of(w) == "one"  # a look past the TTL asks again, in the background
        w.join()
    clock.now += 1
    assert w.current() is None
    assert len(errors) == 5
    assert all(isinstance(e, ConnectionRefusedError) for e in errors)


def test_keeps_the_previous_set_when_an_answer_is_malformed_or_refused_and_says_why(clock: FakeClock) -> None:
    errors: list[str] = []
    jobs: list[Callable[[], None]] = []
    s = Scripted([ok(answer("one")), ok({"project": "p", "entries": [{"code": ""}]}), status(403), lambda: WordingResponse(200, None, b"<html>")])
    w = RemoteWordings(
        base_url="http://f", project="p", api_key="k", ttl_ms=1_000, clock=clock, fetch=s, on_error=lambda e: errors.append(str(e)), background=jobs.append
    )
    for _ in range(4):
        w.refresh()
        clock.now += 1_000
    assert text_of(w) == "one"
    assert errors[0] == "not a wording set: entries.0.code: must not be empty"
    assert errors[1] == "GET http://f/api/v1/wordings?project=p answered 403"
    assert errors[2].startswith("Expecting value")
    assert len(errors) == 3
    # That look was past the TTL: it handed one request to the background, and another look waits for it.
    assert len(jobs) == 1
    text_of(w)
    assert len(jobs) == 1
    jobs.pop()()
    assert len(errors) == 4 and len(s.seen) == 5


def test_gives_up_on_a_request_that_does_not_answer_within_the_timeout(clock: FakeClock) -> None:
    errors: list[str] = []
    release = threading.Event()

    def hanging(url: str, headers: Mapping[str, str], timeout: float) -> WordingResponse:
        release.wait(10)
        return WordingResponse(200, None, json.dumps(answer("late")).encode())

    w = RemoteWordings(base_url="http://f", project="p", api_key="k", timeout_ms=50, clock=clock, fetch=hanging, on_error=lambda e: errors.append(str(e)))
    w.refresh()
    release.set()
    assert errors == ["no answer within 50 ms"]
    assert w.current() is None


def test_a_raising_listener_or_background_starter_never_reaches_the_agent(clock: FakeClock) -> None:
    def no_threads(job: Callable[[], None]) -> None:
        raise RuntimeError("can't start new thread")

    def listener(error: BaseException) -> None:
        raise ValueError("listener broke")

    w = RemoteWordings(base_url="http://f", project="p", api_key="k", clock=clock, fetch=Scripted([status(500)]), on_error=listener, background=no_threads)
    assert w.current() is None
    w.refresh()  # the failed start left nothing in flight: this request runs, fails, and is reported to the raising listener
    assert w.current() is None


def test_refuses_nonsense_settings() -> None:
    with pytest.raises(ValueError, match="ttl_ms"):
        RemoteWordings(base_url="http://f", project="p", api_key="k", ttl_ms=-1)


class FakeFaultline:
    """The wording endpoint over real HTTP (stdlib server in a thread): the answers of test/vectors/wording-set.json
    as the TypeScript contract keeps them, a strong ETag per body, 304 on If-None-Match, 401 without the read key."""

    def __init__(self, key: str) -> None:
        self.body: bytes = b""
        self.requests: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                outer.requests.append({"path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
                etag = f'"{abs(hash(outer.body)):x}"'
                if self.headers.get("authorization") != f"Bearer {key}":
                    code, body, headers = 401, b'{"error":{"code":"unauthorized","message":"no key","issues":[]}}', {}
                elif self.headers.get("if-none-match") == etag:
                    code, body, headers = 304, b"", {"etag": etag}
                else:
                    code, body, headers = 200, outer.body, {"etag": etag, "content-type": "application/json", "cache-control": "private, max-age=60"}
                self.send_response(code)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def serve(self, answer: object) -> None:
        self.body = json.dumps(answer).encode()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_over_http_a_promoted_winner_reaches_a_running_runtime_exactly_when_its_ttl_runs_out(clock: FakeClock) -> None:
    by_name = {c["name"]: c for c in vector("wording-set.json")}
    experiment = by_name["a running experiment"]["answer"]
    winner = {"project": "default", "entries": [{**experiment["entries"][0], "state": "promoted", "variants": [{"id": "pick-another", "text": "pick another fare class from the search_flights results", "weight": 100}]}]}  # fmt: skip
    server = FakeFaultline("flk_read")
    try:
        server.serve(experiment)
        errors: list[BaseException] = []
        wordings = RemoteWordings(base_url=server.url, project="default", api_key="flk_read", ttl_ms=60_000, clock=clock, on_error=errors.append)
        wordings.refresh()
        assert errors == []

        @tool(name="book_flight")
        def book(**_: Any) -> str:
            raise ToolFailure("book_flight", "fare_class_unavailable", message="HTTP 422")

        sink = MemorySink()
        runner = ToolRunner(agent="booking", tools=[book], sink=sink, clock=clock, ids=sequential_ids(), wordings=wordings)

        def tell(run_id: str) -> dict[str, Any]:
            with runner.run(run_id=run_id) as run:
                run.call("book_flight", {}, call_id="c1")
            return next(e for e in sink.of_type("tool_error") if e["run_id"] == run_id)

        variants = [WordingVariant(v["id"], v["text"], v["weight"]) for v in experiment["entries"][0]["variants"]]
        on_control = [f"late-{i}" for i in range(50) if getattr(assign_variant(f"late-{i}", "fare-wording", variants), "id", None) == "control"]
        before = tell(on_control[0])
        assert (before["experiment"], before["variant"]) == ("fare-wording", "control")
        assert before["told"].startswith("error: fare_class_unavailable: fare class no longer sold\n")

        server.serve(winner)  # an admin promotes pick-another
        clock.now += 59_999
        assert tell(on_control[1])["variant"] == "control"
        clock.now += 1
        wordings.current()  # the first look after the TTL asks in the background...
        assert wordings.join()  # ...and this waits for that request
        after = tell(on_control[2])
        assert "experiment" not in after
        assert after["told"].startswith("error: fare_class_unavailable: pick another fare class from the search_flights results\n")

        # Unchanged since: the next refresh is a 304 that keeps the winner.
        clock.now += 60_000
        wordings.current()
        assert wordings.join()
        assert "experiment" not in tell(on_control[3])
        assert [r.get("if-none-match") is not None for r in server.requests] == [False, True, True]
        assert [r["path"] for r in server.requests] == ["/api/v1/wordings?project=default"] * 3
        assert errors == []
    finally:
        server.close()


def test_over_http_a_wrong_key_keeps_the_local_map(clock: FakeClock) -> None:
    server = FakeFaultline("flk_read")
    try:
        server.serve(answer("remote"))
        errors: list[str] = []
        w = RemoteWordings(base_url=server.url, project="p", api_key="flk_ingest", clock=clock, on_error=lambda e: errors.append(str(e)))
        w.refresh()
        assert w.current() is None
        assert errors == [f"GET {server.url}/api/v1/wordings?project=p answered 401"]
    finally:
        server.close()
