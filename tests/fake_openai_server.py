"""A local OpenAI-compatible chat server for tests, so litellm's real HTTP path runs without a provider.

    with FakeOpenAIServer(lambda req: '{"answer": "42"}') as server:
        settings = LLMSettings(model="openai/test-model", api_base=server.url, ...)

The responder is a function of the recorded request returning the reply text or a `Fault`:

    Fault("timeout", delay=2.0)          sleep past the client timeout, then answer
    Fault("429", retry_after=0.2)        rate limited, with a Retry-After header
    Fault("500")                         internal server error
    Fault("malformed")                   200 with a body that is not JSON
    Fault("truncated", text='{"a": "b') finish_reason "length" with the given (cut) text
    Fault("hang")                        never answer until the server stops
    Fault("401")                         credentials rejected

``reject_formats={"json_schema": 500}`` makes the server turn down requests whose ``response_format`` has that
type with that status before the responder sees them, as llama.cpp's server answers json_schema (HTTP 500)
while it takes ``{"type": "json_object"}``; ``"json_object": 400`` plays a server with neither.

Every request is logged (method, path, headers, parsed body, arrival time) in `server.requests`, faults and
rejections included, so a test can compare a client's request counts with what the server received;
`max_in_flight` is the most requests handled at once.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

FaultKind = Literal["timeout", "429", "500", "malformed", "truncated", "hang", "401"]


@dataclass
class Fault:
    """A scripted failure for one request."""

    kind: FaultKind
    retry_after: float | None = None
    delay: float = 0.0
    text: str = ""


@dataclass
class RecordedRequest:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] = field(default_factory=dict)
    received_at: float = field(default_factory=time.monotonic)

    @property
    def response_format(self) -> str:
        """The ``response_format`` type asked for (``json_schema``, ``json_object``), or ``none``."""
        fmt = self.body.get("response_format")
        return str(fmt.get("type", "none")) if isinstance(fmt, dict) else "none"

    @property
    def last_user_text(self) -> str:
        """Content of the last user message (what tests usually key their scripts on)."""
        for message in reversed(self.body.get("messages", [])):
            if message.get("role") == "user":
                content = message.get("content", "")
                return content if isinstance(content, str) else json.dumps(content)
        return ""


Responder = Callable[[RecordedRequest], "str | Fault"]


def _count_tokens(text: str) -> int:
    return max(1, len(text.split()))


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # silence the default stderr access log
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        request = RecordedRequest("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        owner = self.server.owner
        with owner.lock:
            owner.requests.append(request)
            owner.in_flight += 1
            owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
        try:
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            rejected = owner.reject_formats.get(request.response_format)
            if rejected is not None:
                message = f"response_format type {request.response_format!r} is not supported here"
                self._send(rejected, {"error": {"message": message, "type": "server_error", "code": rejected}})
                return
            try:
                reply = owner.responder(request)
            except Exception as exc:  # a script bug (or an exhausted script) shows up as a 500 and in `errors`
                owner.errors.append(f"{type(exc).__name__}: {exc}")
                reply = Fault("500")
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (timeout, cancel)
                self._answer(request, reply)
        finally:
            with owner.lock:
                owner.in_flight -= 1

    def _answer(self, request: RecordedRequest, reply: str | Fault) -> None:
        stop = self.server.owner.stopping
        if isinstance(reply, str):
            self._send(200, _completion(request, reply, "stop"))
            return
        if reply.kind == "hang":
            stop.wait(60)
            return
        if reply.kind == "timeout":
            if stop.wait(reply.delay):
                return
            self._send(200, _completion(request, reply.text or "{}", "stop"))
        elif reply.kind == "429":
            headers = {} if reply.retry_after is None else {"Retry-After": f"{reply.retry_after:g}"}
            self._send(429, {"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}, headers)
        elif reply.kind == "500":
            self._send(500, {"error": {"message": "internal error", "type": "server_error"}})
        elif reply.kind == "401":
            self._send(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
        elif reply.kind == "malformed":
            self._send_raw(200, b'{"id": "chatcmpl-x", "choices": [ {"message": ', {})
        elif reply.kind == "truncated":
            self._send(200, _completion(request, reply.text, "length"))

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers or {})

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


def _completion(request: RecordedRequest, text: str, finish_reason: str) -> dict[str, Any]:
    prompt = " ".join(str(m.get("content", "")) for m in request.body.get("messages", []))
    prompt_tokens, completion_tokens = _count_tokens(prompt), _count_tokens(text)
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1700000000,
        "model": request.body.get("model", "test-model"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128  # the default backlog of 5 refuses connections under a concurrent batch
    owner: FakeOpenAIServer


class FakeOpenAIServer:
    """A threaded OpenAI-compatible server on 127.0.0.1 with an ephemeral port; use it as a context manager."""

    def __init__(self, responder: Responder | None = None, *, reject_formats: dict[str, int] | None = None) -> None:
        self.responder: Responder = responder or (lambda request: '{"ok": true}')
        self.reject_formats: dict[str, int] = dict(reject_formats or {})
        """response_format type → the HTTP status it is turned down with."""
        self.requests: list[RecordedRequest] = []
        self.lock = threading.Lock()
        self.errors: list[str] = []
        """Exceptions raised by the responder (each answered with a 500)."""
        self.in_flight = 0
        self.max_in_flight = 0
        """Most requests being handled at the same moment (counts a timed-out request until the server is done)."""
        self.stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """Base URL to pass as ``api_base`` (ends in ``/v1``)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def chat_requests(self) -> list[RecordedRequest]:
        """The logged POSTs to the chat-completions route."""
        with self.lock:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    def formats(self) -> list[str]:
        """The response_format type of each logged chat request, in arrival order."""
        return [r.response_format for r in self.chat_requests()]

    def __enter__(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)
