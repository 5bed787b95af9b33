"""The project's wording set from Faultline, refreshed in the background (``experiments/remote-wordings.ts``).

:meth:`RemoteWordings.current` answers at once, from memory, on the error path, and never raises.
When the set is older than its TTL it starts one conditional request (``If-None-Match``) on a
daemon thread; the new set applies from the next error on, so promoting a winner in Faultline
changes what agents say within one TTL, without a deploy. A failed, slow or malformed answer keeps
what was there; after ``max_stale_ms`` without a confirmation the local map applies again, so a
stopped experiment does not run on forever on an agent that cannot reach Faultline.
"""

from __future__ import annotations

import json
import math
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from .run import Clock, system_clock
from .wording_set import WordingSet

DEFAULT_WORDINGS_TTL_MS: Final = 60_000
"""Default of ``ttl_ms``: the ``max-age`` Faultline's answer carries."""


@dataclass(frozen=True)
class WordingResponse:
    """What one GET of the wording endpoint answered."""

    status: int
    etag: str | None
    body: bytes


WordingFetch = Callable[[str, Mapping[str, str], float], WordingResponse]
"""GETs a URL with headers and a timeout in seconds; raises when nothing answers."""


def urllib_fetch(url: str, headers: Mapping[str, str], timeout: float) -> WordingResponse:
    """The default fetch: one GET with the standard library (a 304 or an error status is an answer, not an exception)."""
    request = urllib.request.Request(url, headers=dict(headers), method="GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 - the endpoint is configured
            return WordingResponse(answer.status, answer.headers.get("etag"), answer.read())
    except urllib.error.HTTPError as error:
        return WordingResponse(error.code, error.headers.get("etag"), error.read())


def _in_thread(job: Callable[[], None]) -> None:
    threading.Thread(target=job, name="faultline-wordings", daemon=True).start()


class RemoteWordings:
    """A :class:`~faultline.wording_set.WordingSource` that asks Faultline's ``/api/v1/wordings`` for the project's set.

    Pass it as ``wordings=`` to :class:`~faultline.ToolRunner` (or :class:`~faultline.Run`). Use a
    read key of the project (``npm run keys -- create --read``): an ingest key is refused.
    """

    def __init__(
        self,
        *,
        base_url: str,
        project: str,
        api_key: str,
        ttl_ms: float = DEFAULT_WORDINGS_TTL_MS,
        max_stale_ms: float | None = None,
        timeout_ms: float = 5_000,
        clock: Clock = system_clock,
        fetch: WordingFetch = urllib_fetch,
        on_error: Callable[[BaseException], None] | None = None,
        background: Callable[[Callable[[], None]], None] = _in_thread,
    ) -> None:
        for name, value in (("ttl_ms", ttl_ms), ("timeout_ms", timeout_ms), ("max_stale_ms", max_stale_ms)):
            if value is not None and (not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0):
                raise ValueError(f"{name} must be a finite number of milliseconds >= 0; got {value!r}")
        self.url: str = f"{base_url.rstrip('/')}/api/v1/wordings?project={urllib.parse.quote(project, safe='')}"
        """The endpoint asked."""
        self.ttl_ms = ttl_ms
        """How long a fetched set is used before it is asked for again."""
        self.max_stale_ms = max_stale_ms if max_stale_ms is not None else 10 * ttl_ms
        """How long the last set stays in use while Faultline cannot be reached; then the local map applies."""
        self.timeout_ms = timeout_ms
        """Longest wait for one request."""
        self._api_key = api_key
        self._clock = clock
        self._fetch = fetch
        self._on_error = on_error
        self._background = background
        self._lock = threading.Lock()
        self._set: WordingSet | None = None
        self._etag: str | None = None
        self._confirmed_at = -math.inf  # when Faultline last confirmed the set (200 or 304)
        self._asked_at = -math.inf  # when the last request started: a failed one waits a TTL
        self._in_flight: threading.Event | None = None

    def current(self) -> WordingSet | None:
        """The set to use now (``None``: the local map applies); starts a background refresh when it is older than the TTL."""
        now = self._clock()
        with self._lock:
            stale = self._in_flight is None and now - self._asked_at >= self.ttl_ms and now - self._confirmed_at >= self.ttl_ms
            # Marked in flight before the thread starts: a refresh() right after this joins it.
            started = self._start_locked() if stale else None
            answer = self._set if now - self._confirmed_at <= self.max_stale_ms else None
        if started is not None:
            done = started
            try:
                self._background(lambda: self._complete(done))
            except Exception as error:  # a thread that cannot start must not reach the agent
                self._report(error)
                self._finish(done)
        return answer

    def refresh(self) -> None:
        """Asks Faultline now (one request at a time: joins one in flight); returns when it is answered or has failed. Never raises."""
        with self._lock:
            joined = self._in_flight
            started = self._start_locked() if joined is None else None
        if started is None:
            assert joined is not None
            joined.wait(self.timeout_ms / 1000 + 1)
            return
        self._complete(started)

    def join(self, timeout_ms: float | None = None) -> bool:
        """Waits for the request in flight, if any (one :meth:`current` started in the background); ``True`` once none is."""
        with self._lock:
            pending = self._in_flight
        wait = self.timeout_ms + 1000 if timeout_ms is None else timeout_ms
        return pending is None or pending.wait(wait / 1000)

    def _start_locked(self) -> threading.Event:
        self._in_flight = threading.Event()
        self._asked_at = self._clock()
        return self._in_flight

    def _complete(self, done: threading.Event) -> None:
        try:
            self._ask()
        except Exception as error:
            self._report(error)
        finally:
            self._finish(done)

    def _finish(self, done: threading.Event) -> None:
        with self._lock:
            self._in_flight = None
        done.set()

    def _ask(self) -> None:
        headers = {"authorization": f"Bearer {self._api_key}", "accept": "application/json"}
        with self._lock:
            if self._etag is not None:
                headers["if-none-match"] = self._etag
        res = self._fetch_within(headers)
        with self._lock:
            if res.status == 304 and self._set is not None:
                self._confirmed_at = self._clock()
                return
        if res.status != 200:
            raise RuntimeError(f"GET {self.url} answered {res.status}")
        fresh = WordingSet.parse(json.loads(res.body.decode("utf-8")))
        with self._lock:
            self._set, self._etag, self._confirmed_at = fresh, res.etag, self._clock()

    def _fetch_within(self, headers: Mapping[str, str]) -> WordingResponse:
        """The fetch, given up after ``timeout_ms`` of real time whatever the transport does (its own timeout is per socket read)."""
        timeout = self.timeout_ms / 1000
        outcome: list[WordingResponse | BaseException] = []
        finished = threading.Event()

        def call() -> None:
            try:
                outcome.append(self._fetch(self.url, headers, timeout))
            except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                outcome.append(error)
            finally:
                finished.set()

        threading.Thread(target=call, name="faultline-wordings-fetch", daemon=True).start()
        if not finished.wait(timeout):
            raise TimeoutError(f"no answer within {self.timeout_ms:g} ms")
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result

    def _report(self, error: BaseException) -> None:
        if self._on_error is None:
            return
        try:
            self._on_error(error)
        except Exception:
            pass  # a raising listener must not turn a failed refresh into an agent failure
