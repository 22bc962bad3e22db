"""Security headers on every response (docs/security.md).

Scripts and styles are all served from ``/static`` (htmx, uPlot and Swagger UI included), so the
Content-Security-Policy allows no inline script, no inline style and nothing from another site.
A response that sets its own policy (the API's ``/docs`` page) keeps it.

The API's answers say their language (:class:`ApiLanguage`): every message in them follows
``?lang=``, the language cookie and ``Accept-Language``, so they carry ``Content-Language`` and
``Vary`` as the pages do.
"""

from __future__ import annotations

from starlette.requests import Request

from chessrate.web.limits import HttpMiddleware, Message, Receive, Scope, Send

#: The pages' policy: everything from this site, nothing inline, no frames, forms post here only.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
#: Over https: browsers keep to https for a year (RFC 6797).
STRICT_TRANSPORT_SECURITY = b"max-age=31536000"


class SecurityHeaders(HttpMiddleware):
    """ASGI middleware: CSP, frame, referrer and sniffing headers; HSTS over https."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        https = scope.get("scheme") == "https"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in HEADERS if name not in present]
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                if https:
                    headers.append((b"strict-transport-security", STRICT_TRANSPORT_SECURITY))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


#: What the API's language is chosen by (:func:`chessrate.web.i18n.negotiate`).
API_VARY = ("Accept-Language", "Cookie")


class ApiLanguage(HttpMiddleware):
    """ASGI middleware: ``Content-Language`` and ``Vary: Accept-Language, Cookie`` on ``/api/`` answers."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        site = scope["app"].state.site
        language = site.language(Request(scope)).encode()

        async def with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value) for name, value in message.get("headers", []) if name.lower() != b"vary"
                ]
                said = [
                    value.decode("latin-1")
                    for name, value in message.get("headers", [])
                    if name.lower() == b"vary"
                ]
                vary = [part.strip() for value in said for part in value.split(",") if part.strip()]
                vary += [name for name in API_VARY if name.lower() not in {part.lower() for part in vary}]
                if not any(name.lower() == b"content-language" for name, _ in headers):
                    headers.append((b"content-language", language))
                headers.append((b"vary", ", ".join(vary).encode("latin-1")))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_language)
