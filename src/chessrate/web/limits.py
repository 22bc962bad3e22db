"""Limits on what a request may send, checked before the application reads it (docs/security.md).

:class:`RequestLimits` is ASGI middleware, outside every router:

- a URL (path and query) longer than :data:`MAX_URL` is answered 414;
- a body is refused with 413 when its ``Content-Length`` is over the route's limit, before any
  of it is read, and when more than the limit arrives without a ``Content-Length`` (chunked),
  as soon as it does. A body is never written to disk by the routes that read it, so these
  limits bound the memory a request can take.

The tournament-file routes take :data:`UPLOAD_BODY` (the 20 MB file, a FIDE list, a K file and
the fields);
every other route :data:`DEFAULT_BODY`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

from chessrate.requests.tournament_file import MAX_FILE, MAX_LIST_FILE, MAX_SMALL_FILE

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Longest URL (path and query string, in bytes). Browsers and proxies keep to about 8 KB.
MAX_URL = 8192
#: Body of a JSON request or a calculator form (the longest: a club's rules file of 64 KB).
DEFAULT_BODY = 256_000
#: Body of a tournament-file form: the file (20 MB), a FIDE list (20 MB), a K file (1 MB) and the
#: other fields (a list's Latin-1 text sent back grows a little in UTF-8).
UPLOAD_BODY = MAX_FILE + MAX_LIST_FILE + MAX_SMALL_FILE + 2_000_000
#: Routes that take a tournament file (or games to analyse, ``/strength``).
UPLOAD_ROUTES = frozenset(
    {"/report", "/report.csv", "/api/report", "/list/admin/import", "/strength", "/strength/jobs"}
)


class BodyTooLarge(HTTPException):
    """More of the body arrived than the route's limit (an HTTPException: FastAPI passes it on)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is larger than {limit} bytes.")


def body_limit(path: str) -> int:
    """The most bytes of body ``path`` accepts."""
    return UPLOAD_BODY if path in UPLOAD_ROUTES else DEFAULT_BODY


class RequestLimits:
    """ASGI middleware: 414 for a long URL, 413 for a large body (declared or streamed)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"]) > MAX_URL:
            await refuse(send, 414, f"The URL is longer than {MAX_URL} bytes.")
            return
        limit = body_limit(scope["path"])
        declared = _content_length(scope)
        if declared == -1:
            await refuse(send, 400, "The Content-Length header is not a number.")
            return
        if declared is not None and declared > limit:
            await refuse(send, 413, f"The request body is larger than {limit} bytes.")
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as error:
            if started:
                raise
            await refuse(send, 413, str(error.detail))


def _content_length(scope: Scope) -> int | None:
    """The declared body size; None when not declared, -1 when not a number."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else -1
    return None


async def refuse(send: Send, status: int, message: str) -> None:
    """A short JSON answer ``{"detail": message}``; the connection is closed after it."""
    body = json.dumps({"detail": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
