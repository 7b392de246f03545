"""Request-size limit for the API: a body larger than the limit is refused with 413 before it is read whole."""

from __future__ import annotations

import json
from typing import Any

#: Default largest request body (bytes): a few thousand test questions fit; a 20 MB paste does not.
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024

Scope = dict[str, Any]
Message = dict[str, Any]


class BodyLimit:
    """ASGI middleware: HTTP requests whose body exceeds `max_bytes` (by Content-Length, or counted as it streams
    in) get ``413 {"detail": ...}``; nothing of them reaches the app's handlers."""

    def __init__(self, app: Any, max_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        too_large = False

        async def counted() -> Message:
            nonlocal seen, too_large
            message: Message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    too_large = True
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send: Any) -> None:
        detail = f"request body larger than {self.max_bytes:,} bytes (the server's --max-body-mb)"
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    """A streamed body passed the limit."""
