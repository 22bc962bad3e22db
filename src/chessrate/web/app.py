"""The FastAPI application: pages that recompute as the user types, and the JSON API.

:func:`create_app` builds everything from a :class:`WebSettings`; nothing is configured at import
time. Each calculator is a page with its own URL (``/game``, ``/average``, ``/tournament``,
``/period``, ``/k-factor``, ``/performance``). The form posts to its own URL: with JavaScript, htmx
posts it on every keystroke and swaps in the result fragment (the ``result`` block of the same
template); without, the browser submits it and gets the whole page.
"""

from __future__ import annotations

import datetime as dt
import gettext
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from jinja2_fragments import render_block
from starlette.datastructures import UploadFile

from chessrate.fide.tables import DP_TABLE_UPPER_HALF, PD_TABLE
from chessrate.web import calculations, forms, words
from chessrate.web.assets import INSTALL_HINT, missing_assets, static_dir
from chessrate.web.charts import chart_marks
from chessrate.web.i18n import (
    LANG_COOKIE,
    LANGUAGE_NAMES,
    LANGUAGES,
    Translator,
    load_catalogs,
    negotiate,
)
from chessrate.web.problems import Problems

log = logging.getLogger("chessrate.web")

#: Largest uploaded club rules file read.
MAX_UPLOAD = 64_000
#: A state longer than this is not put in the URL (a long pasted rules file).
MAX_URL_VALUE = 1500


@dataclass(frozen=True, kw_only=True)
class WebSettings:
    """How the web calculator runs."""

    #: The language when neither ``?lang=``, the cookie nor Accept-Language chooses one.
    default_language: str = "en"
    #: Today's date, for the FIDE rules in force (a test may fix it).
    today: Callable[[], dt.date] = dt.date.today
    #: Where the static files are (default: the package's ``static/``).
    static: Path = field(default_factory=static_dir)
    #: A rating-list store (URL or SQLite path) to show at ``/list``; None: no list pages.
    list_db: str | None = None
    #: With a password, ``/list/admin`` can import files and run periods; None: read-only.
    list_admin_password: str | None = None
    list_session_minutes: int = 30


@dataclass(frozen=True)
class Mode:
    """One calculator: its URL, template, form reader and calculation."""

    key: str
    path: str
    read: Callable[[forms.Form], Any]
    compute: Callable[..., calculations.Outcome[Any]]
    chart: bool


MODES: tuple[Mode, ...] = (
    Mode("game", "/game", forms.game, calculations.one_game, chart=True),
    Mode("average", "/average", forms.average, calculations.against_average, chart=True),
    Mode("tournament", "/tournament", forms.tournament, calculations.tournament, chart=True),
    Mode("period", "/period", forms.period, calculations.period, chart=True),
    Mode("k_factor", "/k-factor", forms.k_factor, calculations.k_factor, chart=False),
    Mode("performance", "/performance", forms.performance, calculations.performance, chart=False),
    Mode("glicko", "/glicko", forms.glicko, calculations.glicko, chart=False),
)


class Site:
    """What every request needs: the catalogs, one Jinja environment per language, the settings."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.catalogs = load_catalogs()
        self.environments = {language: self._environment(language) for language in LANGUAGES}
        self.missing = missing_assets(settings.static)
        for name in self.missing:
            log.warning("web asset %s is missing from %s: %s", name, settings.static / "vendor", INSTALL_HINT)

    def translator(self, language: str) -> Translator:
        return Translator(language, self.catalogs[language])

    def _environment(self, language: str) -> Environment:
        environment = Environment(
            loader=PackageLoader("chessrate.web", "templates"),
            autoescape=select_autoescape(["html"]),
            undefined=StrictUndefined,
            extensions=["jinja2.ext.i18n"],
            trim_blocks=True,
            lstrip_blocks=True,
        )
        catalog: gettext.NullTranslations = self.catalogs[language]
        environment.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
        t = self.translator(language)
        environment.globals.update(
            t=t,
            words=words,
            field_id=lambda *parts: "-".join(str(part) for part in parts),
            language_names=LANGUAGE_NAMES,
            pd_table=PD_TABLE,
            dp_table=[(Decimal(p), dp) for p, dp in DP_TABLE_UPPER_HALF],
            missing_labels=_missing_labels,
            rating_list=self.settings.list_db is not None,
        )
        return environment

    def language(self, request: Request, form: forms.Form | None = None) -> str:
        return negotiate(
            query=request.query_params.get("lang") or (form or {}).get("lang"),
            cookie=request.cookies.get(LANG_COOKIE),
            accept_language=request.headers.get("accept-language"),
            default=self.settings.default_language,
        )

    def render(self, language: str, template: str, block: str | None = None, **context: Any) -> str:
        environment = self.environments[language]
        context.setdefault("missing_assets", self.missing)
        if block is None:
            return environment.get_template(template).render(**context)
        return render_block(environment, template, block, **context)


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """The web calculator and its API."""
    settings = settings or WebSettings()
    site = Site(settings)
    app = FastAPI(
        title="chessrate",
        summary="Chess rating calculations: FIDE Elo on any date, plain Elo, club rules.",
        description=(
            "Every calculation of the web calculator as JSON. Numbers may be sent as JSON numbers "
            "or as text (`0,5`, `½`, `tablas` are accepted where a result is expected); bad input "
            "is answered with 422 and the field at fault in `loc`."
        ),
        version="0.1.0",
        docs_url=None,
        redoc_url=None,
    )
    app.state.site = site
    app.mount("/static", StaticFiles(directory=settings.static), name="static")

    from chessrate.web.api import router  # the API needs the site only through app.state
    from chessrate.web.report_page import router as report_router

    app.include_router(router)
    app.include_router(report_router)
    if settings.list_db is not None:
        from chessrate.web.ratinglist_pages import mount_rating_list

        mount_rating_list(
            app,
            db=settings.list_db,
            admin_password=settings.list_admin_password,
            session_minutes=settings.list_session_minutes,
        )

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> Response:
        target = "/game" + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(target, status_code=307)

    for mode in MODES:
        _add_mode(app, site, mode)

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> Response:
        # FastAPI's Swagger UI page, with its script and style served from here, not a CDN.
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="chessrate API",
            swagger_js_url="/static/vendor/swagger-ui-bundle.js",
            swagger_css_url="/static/vendor/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},  # no badge from validator.swagger.io
        )

    @app.get("/help", response_class=HTMLResponse, include_in_schema=False)
    async def help_page(request: Request) -> Response:
        language = site.language(request)
        html = site.render(
            language,
            "help.html",
            page="help",
            lang_links=_lang_links("/help", {}),
        )
        return _html(html, language, request)

    return app


def _add_mode(app: FastAPI, site: Site, mode: Mode) -> None:
    async def page(request: Request) -> Response:
        form = await _form(request)
        language = site.language(request, form)
        t = site.translator(language)
        action = form.get("action", "")
        inputs = mode.read(form)
        problems = Problems(t)
        submitted = bool(form) and any(key not in {"lang"} for key in form)
        outcome = mode.compute(inputs, problems, today=site.settings.today())
        errors = {
            "-".join(str(p) for p in path): problem.message for path, problem in problems.errors.items()
        }
        state = _state(form)
        context = {
            "page": mode.key,
            "mode": mode,
            "form": form,
            "inputs": inputs,
            "outcome": outcome,
            "errors": errors,
            "submitted": submitted,
            "focus": action,
            "marks": json.dumps(chart_marks(outcome.result)) if mode.chart else "[]",
            "lang_links": _lang_links(mode.path, state),
            "state_url": mode.path + ("?" + urlencode(state) if state else ""),
        }
        htmx = request.headers.get("hx-request") == "true"
        context["live"] = htmx and not action
        if htmx and not action:
            html = site.render(language, f"{mode.key}.html", "live", **context)
            response = _html(html, language, request)
            response.headers["HX-Replace-Url"] = context["state_url"]
            return response
        if htmx:
            html = site.render(language, f"{mode.key}.html", "calculator", **context)
            return _html(html, language, request)
        return _html(site.render(language, f"{mode.key}.html", **context), language, request)

    app.add_api_route(
        mode.path,
        page,
        methods=["GET", "POST"],
        response_class=HTMLResponse,
        include_in_schema=False,
        name=mode.key,
    )


async def _form(request: Request) -> dict[str, str]:
    """The submitted values (query on GET, form body on POST); an uploaded rules file as text."""
    values: dict[str, str] = dict(request.query_params.items())
    if request.method == "POST":
        body = await request.form()
        for key, value in body.multi_items():
            if isinstance(value, UploadFile):
                if key == "rules_file" and value.filename:
                    content = await value.read(MAX_UPLOAD + 1)
                    text = content[:MAX_UPLOAD].decode("utf-8", errors="replace")
                    if not values.get("rules_toml", "").strip():
                        values["rules_toml"] = text
                continue
            if key == "rules_toml" and not value.strip() and values.get("rules_toml"):
                continue
            values[key] = value
    return values


def _state(form: forms.Form) -> dict[str, str]:
    """The values worth keeping in the URL: what was typed, not buttons or the language."""
    return {
        key: value
        for key, value in form.items()
        if key not in {"action", "lang", "rules_file"} and value != "" and len(value) <= MAX_URL_VALUE
    }


def _missing_labels(problems: Problems, labels: dict[str, str]) -> str:
    """The labels of the missing fields, each once, in order."""
    names: list[str] = []
    for path in problems.missing:
        name = next((str(part) for part in reversed(path) if isinstance(part, str)), "")
        label = labels.get(name, name.replace("_", " "))
        if label not in names:
            names.append(label)
    return ", ".join(names)


def _lang_links(path: str, state: dict[str, str]) -> dict[str, str]:
    return {language: path + "?" + urlencode({**state, "lang": language}) for language in LANGUAGES}


def _html(html: str, language: str, request: Request) -> HTMLResponse:
    response = HTMLResponse(html, headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"})
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, language, max_age=365 * 24 * 3600, samesite="lax")
    return response
