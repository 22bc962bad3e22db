"""Limits on what a request may send, checked before the application reads it (docs/security.md).

:class:`RequestLimits` is ASGI middleware, outside every router:

- a URL (path and query) longer than :data:`MAX_URL` is answered 414;
- a body is refused with 413 when its ``Content-Length`` is over the route's limit, before any
  of it is read, and when more than the limit arrives without a ``Content-Length`` (chunked),
  as soon as it does. A body is never written to disk by the routes that read it, so these
  limits bound the memory a request can take.

Each refusal is said by :func:`chessrate.web.refusals.refusal`: a page in the negotiated language for a
browser, JSON for the API.

The tournament-file routes take :data:`UPLOAD_BODY` (the 20 MB file, a FIDE list, a K file and
the fields);
every other route :data:`DEFAULT_BODY`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from chessrate.service.tournament_file import MAX_FILE, MAX_LIST_FILE, MAX_SMALL_FILE
from chessrate.web.refusals import refusal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class HttpMiddleware:
    """ASGI middleware for HTTP requests: :meth:`http` handles each; anything else (the server's
    lifespan events) passes through as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


#: Longest URL (path and query string, in bytes). Browsers and proxies keep to about 8 KB.
MAX_URL = 8192
#: The path :class:`chessrate.web.server.LongUrlProtocol` puts in place of a URL too long to read, so
#: that the 414 is answered here, with the request's headers (its language, what it accepts).
TOO_LONG_PATH = "/.url-too-long"
#: Body of a JSON request or a calculator form (the longest: a club's rules, 20 kB, pasted and as a file).
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
        self.limit = limit


def body_limit(path: str) -> int:
    """The most bytes of body ``path`` accepts."""
    return UPLOAD_BODY if path in UPLOAD_ROUTES else DEFAULT_BODY


class RequestLimits(HttpMiddleware):
    """ASGI middleware: 414 for a long URL, 413 for a large body (declared or streamed)."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        url = len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"])
        if url > MAX_URL or scope["path"] == TOO_LONG_PATH:
            await refuse(scope, send, 414, MAX_URL)
            return
        limit = body_limit(scope["path"])
        declared = _content_length(scope)
        if declared == -1:  # the Content-Length header is not a number
            await refuse(scope, send, 400, limit)
            return
        if declared is not None and declared > limit:
            await refuse(scope, send, 413, limit)
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
            await refuse(scope, send, 413, error.limit)


def _content_length(scope: Scope) -> int | None:
    """The declared body size; None when not declared, -1 when not a number."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else -1
    return None


async def refuse(scope: Scope, send: Send, status: int, limit: int) -> None:
    """The refusal (:func:`chessrate.web.refusals.refusal`); the connection is closed after it."""
    response = refusal(Request(scope), status, limit=limit, headers={"Connection": "close"})

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    await response(scope, nothing, send)
