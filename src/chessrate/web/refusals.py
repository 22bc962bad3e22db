"""Requests answered without a document (400, 404, 405, 413, 414, 422), in the negotiated language.

One answer for every refusal, whoever makes it (the router, FastAPI, :mod:`chessrate.web.limits`,
:mod:`chessrate.web.server`): a browser asking for a page (``Accept: text/html``, outside ``/api/``)
gets a page with the site's layout, its links and the language switcher; the API and every other
client get JSON ``{"detail": message}`` (:class:`~chessrate.web.error_documents.RefusalDocument`).
Both keep the status code and carry ``Content-Language`` and ``Vary``.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from chessrate.service.language import Translator
from chessrate.web.site import html_response, lang_links, site_of, size_text

#: Paths that answer JSON whatever the client accepts.
JSON_PATHS = ("/api/", "/openapi.json")
#: A path longer than this is not repeated in the language links of an error page.
LINK_PATH = 200


def wants_page(request: Request) -> bool:
    """Whether the client asks for a page: a browser's ``Accept`` outside the API."""
    if request.url.path.startswith(JSON_PATHS):
        return False
    return "text/html" in request.headers.get("accept", "")


def refusal_text(status: int, t: Translator, *, method: str = "", limit: int = 0) -> tuple[str, str]:
    """The heading and the sentence of a refusal with ``status``."""
    if status == 400:
        return t.gettext("Unreadable request"), t.gettext("The request’s body could not be read.")
    if status == 404:
        return t.gettext("Not found"), t.gettext("There is nothing at this address.")
    if status == 405:
        return t.gettext("Not allowed"), t.gettext(
            "This address does not take a %(method)s request.", method=method
        )
    if status == 413:
        return t.gettext("Too large"), t.gettext(
            "The request is larger than %(size)s, the most this address takes.", size=size_text(limit, t)
        )
    if status == 414:
        return t.gettext("Address too long"), t.gettext(
            "The address is longer than %(count)s characters, the most this site takes.", count=t.whole(limit)
        )
    if status == 422:
        return t.gettext("Unreadable request"), t.gettext("The values in the address could not be read.")
    return t.gettext("Error %(status)s", status=status), t.gettext(
        "The request could not be answered (error %(status)s).", status=status
    )


def refusal(
    request: Request, status: int, *, limit: int = 0, headers: Mapping[str, str] | None = None
) -> Response:
    """The answer to a refused request: a page for a browser, else JSON, in the negotiated language."""
    site = site_of(request)
    language = site.language(request)
    t = site.translator(language)
    heading, message = refusal_text(status, t, method=request.method, limit=limit)
    if wants_page(request):
        path = request.url.path if len(request.url.path) <= LINK_PATH else "/game"
        html = site.render(
            language,
            "refusal.html",
            page="refusal",
            heading=heading,
            message=message,
            lang_links=lang_links(path, {}),
        )
        response: Response = html_response(html, language, request)
        response.status_code = status
    else:
        response = JSONResponse(
            {"detail": message}, status_code=status, headers={"Content-Language": language}
        )
    response.headers["Vary"] = "Accept, Accept-Language, Cookie"
    response.headers["Cache-Control"] = "no-store"
    response.headers.update(headers or {})
    return response


async def http_refusal(request: Request, error: Exception) -> Response:
    """Starlette's and FastAPI's refusals (no route, a method not taken, a body not read) said so."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    headers = error.headers if isinstance(error, HTTPException) else None
    return refusal(request, status, limit=int(getattr(error, "limit", 0)), headers=headers)
