"""A scripted ingest server on 127.0.0.1 (stdlib ``http.server`` in a thread) for the exporter tests."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = tuple[int, dict[str, str], dict[str, Any]]
"""Status, headers and JSON body of one scripted answer."""


class FakeIngest:
    """Records every request; answers with ``script`` (called per request) or ``200 {accepted: n}``."""

    def __init__(self, script: Callable[[int, list[dict[str, Any]]], Answer | None] | None = None) -> None:
        self.requests: list[dict[str, Any]] = []
        self.script = script
        self.release = threading.Event()
        self.release.set()
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                raw = self.rfile.read(int(self.headers.get("content-length", "0")))
                if self.headers.get("content-encoding") == "gzip":
                    raw = gzip.decompress(raw)
                body = json.loads(raw)
                with outer.lock:
                    index = len(outer.requests)
                    outer.requests.append({"headers": dict(self.headers), "body": body, "path": self.path})
                outer.release.wait()
                answer = outer.script(index, body["records"]) if outer.script else None
                status, headers, payload = answer or (200, {}, {"accepted": len(body["records"]), "duplicates": 0, "rejected": []})
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every record received, in order."""
        with self.lock:
            return [r for req in self.requests for r in req["body"]["records"]]

    def close(self) -> None:
        """Stops the server (unblocking held requests first)."""
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
