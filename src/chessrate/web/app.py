"""The FastAPI application, assembled from its routers; nothing is configured at import time.

:func:`create_app` builds the :class:`~chessrate.web.site.Site` (catalogs, templates, settings)
from a :class:`~chessrate.web.site.WebSettings`, keeps it in ``app.state.site``, and includes one
router per page group: the calculator's pages, the tournament-file page, the JSON API and, when
a store is given, the rating list.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp

import chessrate
from chessrate.web import api, calculator_pages, report_page, strength_page
from chessrate.web.error_documents import validation_problems
from chessrate.web.headers import ApiLanguage, SecurityHeaders
from chessrate.web.limits import RequestLimits
from chessrate.web.refusals import http_refusal
from chessrate.web.site import Site, WebSettings


class App(FastAPI):
    """FastAPI with the security headers outside everything, Starlette's 500 answer included."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web calculator and its API."""
    settings = settings or WebSettings()
    app = App(
        title="chessrate",
        summary="Chess rating calculations: FIDE Elo on any date, plain Elo, club rules.",
        description=(
            "Every calculation of the web calculator as JSON. Numbers may be sent as JSON numbers "
            "or as text (`0,5`, `½`, `tablas` are accepted where a result is expected); bad input "
            "is answered with 422 and the field at fault in `loc`."
        ),
        version=chessrate.__version__,  # pyproject.toml's, from the package metadata
        docs_url=None,
        redoc_url=None,
    )
    app.state.site = Site(settings)
    strength_page.start_analyses(app.state, settings)
    app.add_exception_handler(RequestValidationError, validation_problems)
    app.add_exception_handler(HTTPException, http_refusal)  # 404, 405, 400...: a page or JSON, translated
    # Outermost last: the limits act before anything reads the request; every answer, a 500 too,
    # gets the security headers (App).
    app.add_middleware(ApiLanguage)
    app.add_middleware(RequestLimits)
    app.mount("/static", StaticFiles(directory=settings.static), name="static")
    app.include_router(calculator_pages.router)
    app.include_router(report_page.router)
    app.include_router(strength_page.router)
    app.include_router(api.router)
    app.include_router(api.docs_router)
    if settings.list_db is not None:
        from chessrate.web.ratinglist_pages import mount_rating_list  # needs SQLAlchemy

        mount_rating_list(
            app,
            db=settings.list_db,
            admin_password=settings.list_admin_password,
            session_minutes=settings.list_session_minutes,
            secure_cookies=settings.secure_cookies,
        )
    return app
