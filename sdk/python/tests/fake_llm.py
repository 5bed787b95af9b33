"""A scripted model API on 127.0.0.1 (stdlib ``http.server``): answers Anthropic and OpenAI requests in order.

The real ``anthropic`` and ``openai`` clients talk to it over HTTP; it keeps every request body so a
test can check exactly what the client sent back (the tool results).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeLLM:
    """Answers each POST with the next scripted JSON body and remembers the requests."""

    def __init__(self, answers: list[dict[str, Any]]) -> None:
        self.answers = list(answers)
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))) or b"{}")
                with lock:
                    outer.requests.append(body)
                    outer.paths.append(self.path)
                    answer = outer.answers.pop(0) if outer.answers else {"error": {"type": "invalid_request_error", "message": "script exhausted"}}
                status = 400 if answer.get("error") else 200
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self) -> None:
        """Stops the server."""
        self.server.shutdown()
        self.server.server_close()


def anthropic_message(content: list[dict[str, Any]], stop_reason: str = "tool_use") -> dict[str, Any]:
    """An Anthropic Messages API response body."""
    return {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake", "content": content,
        "stop_reason": stop_reason, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 5},
    }  # fmt: skip


def chat_completion(tool_calls: list[dict[str, Any]] | None, content: str | None = None) -> dict[str, Any]:
    """An OpenAI Chat Completions response body."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 1764800000, "model": "gpt-fake",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop", "logprobs": None}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }  # fmt: skip


def response(output: list[dict[str, Any]]) -> dict[str, Any]:
    """An OpenAI Responses API response body."""
    return {
        "id": "resp_fake", "object": "response", "created_at": 1764800000, "model": "gpt-fake", "status": "completed",
        "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "error": None,
        "incomplete_details": None, "instructions": None, "metadata": {}, "temperature": 1.0, "top_p": 1.0,
        "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
                  "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
    }  # fmt: skip
