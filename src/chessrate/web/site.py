"""What every page needs: the catalogs, one Jinja environment per language, the HTML response, and
the API's answer to bad input (422).

Below the routers (:mod:`chessrate.web.calculator_pages`, :mod:`chessrate.web.report_page`,
:mod:`chessrate.web.api`); :mod:`chessrate.web.app` builds one :class:`Site` and keeps it in
``app.state.site``, where :func:`site_of` finds it.
"""

from __future__ import annotations

import datetime as dt
import gettext
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import Environment, PackageLoader, StrictUndefined, nodes, select_autoescape
from markupsafe import Markup

import chessrate
from chessrate.service import explanations
from chessrate.service.language import Translator
from chessrate.service.problems import Problems, field_id, field_name
from chessrate.systems.fide.tables import DP_TABLE_UPPER_HALF, PD_TABLE
from chessrate.web.assets import INSTALL_HINT, missing_assets, static_dir
from chessrate.web.i18n import LANG_COOKIE, LANGUAGE_NAMES, LANGUAGES, load_catalogs, negotiate

log = logging.getLogger("chessrate.web")

Form = dict[str, str]


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
    #: Mark cookies Secure even when the request is not seen as https (a proxy not trusted).
    secure_cookies: bool = False
    # The caps of one analysis ("Strength from the moves"): docs/security.md lists them.
    #: Analyses running at once, each with one engine process.
    analysis_workers: int = 2
    #: Analyses waiting for a worker; one more is refused ("busy", Retry-After).
    analysis_queue: int = 4
    #: Plies analysed of each game: its first ones.
    analysis_plies: int = 300
    #: Distinct positions one request may have searched.
    analysis_positions: int = 4_000
    #: Seconds of engine time one request may take.
    analysis_seconds: float = 180.0
    #: A job whose page has not asked for it in this many seconds stops and frees its engine.
    analysis_abandon_seconds: float = 15.0
    # Games by username (issue 31, chessrate.web.fetches): docs/security.md lists the caps.
    #: Whether the strength page may fetch a user's games from Lichess or Chess.com (serve --no-fetch).
    fetch_games: bool = True
    #: Fetches one client address may start in any minute.
    fetch_per_minute: int = 5
    #: Seconds one fetch may take, from its first request to its last game.
    fetch_seconds: float = 30.0


class Site:
    """What every request needs: the catalogs, one Jinja environment per language, the settings."""

    def __init__(self, settings: WebSettings) -> None:
        self.settings = settings
        self.catalogs = load_catalogs()
        self.environments = {language: self._environment(language) for language in LANGUAGES}
        self.missing = missing_assets(settings.static)
        #: The templates each page extends, nearest first (see :meth:`bases`).
        self.extends: dict[str, tuple[str, ...]] = {}
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
            # The templates are the package's files: compiled once, never looked at on disk again
            # (without this, every render stats each template it uses, on the event loop).
            auto_reload=False,
        )
        catalog: gettext.NullTranslations = self.catalogs[language]
        environment.install_gettext_translations(catalog, newstyle=True)  # type: ignore[attr-defined]
        environment.globals.update(
            t=self.translator(language),
            words=explanations,
            field_id=lambda *parts: field_id(parts),
            language_names=LANGUAGE_NAMES,
            pd_table=PD_TABLE,
            dp_table=[(Decimal(p), dp) for p, dp in DP_TABLE_UPPER_HALF],
            missing_labels=missing_labels,
            rating_list=self.settings.list_db is not None,
            english=lambda text: english_words(text, language),
            version=chessrate.__version__,
            fetch_games=self.settings.fetch_games,
        )
        # FIDE's tables 8.1.1 and 8.1.2 never change: rendered once per language, not on every page
        # (their 150 numbers formatted by Babel were half of a calculator page's time).
        environment.globals["fide_tables"] = Markup(environment.get_template("_tables.html").render())
        return environment

    def language(self, request: Request, form: Form | None = None) -> str:
        return negotiate(
            query=request.query_params.get("lang") or (form or {}).get("lang"),
            cookie=request.cookies.get(LANG_COOKIE),
            accept_language=request.headers.get("accept-language"),
            default=self.settings.default_language,
        )

    def today(self) -> dt.date:
        return self.settings.today()

    def render(self, language: str, template: str, block: str | None = None, **context: Any) -> str:
        environment = self.environments[language]
        context.setdefault("missing_assets", self.missing)
        if block is None:
            return environment.get_template(template).render(**context)
        return render_block(environment, template, block, context, self.bases(environment, template))

    def bases(self, environment: Environment, template: str) -> tuple[str, ...]:
        """The templates ``template`` extends, nearest first (read once)."""
        if template not in self.extends:
            bases: list[str] = []
            name = template
            while (base := _extended(environment, name)) is not None:
                bases.append(base)
                name = base
            self.extends[template] = tuple(bases)
        return self.extends[template]


def _extended(environment: Environment, template: str) -> str | None:
    """The template that ``template`` extends, if any."""
    assert environment.loader is not None
    source = environment.loader.get_source(environment, template)[0]
    extends = environment.parse(source).find(nodes.Extends)
    if extends is None or not isinstance(extends.template, nodes.Const):
        return None
    return str(extends.template.value)


def render_block(
    environment: Environment, template: str, block: str, context: dict[str, Any], bases: tuple[str, ...]
) -> str:
    """One block of a page alone (an htmx answer), as the whole page renders it: with the blocks of
    the templates it extends (``bases``), so that a block a page inherits (a calculator's form and
    result panel, from mode_base.html) holds the page's own blocks."""
    page = environment.get_template(template).new_context(context)
    for base in bases:
        for name, render in environment.get_template(base).blocks.items():
            page.blocks.setdefault(name, []).append(render)
    try:
        return environment.concat(page.blocks[block][0](page))
    except Exception:
        environment.handle_exception()


def english_words(text: str, language: str) -> Markup:
    """English words (a title) inside a page in ``language``, marked ``lang="en"`` (WCAG 3.1.2)."""
    if language == "en":
        return Markup.escape(text)
    return Markup('<span lang="en">%s</span>') % text


def site_of(request: Request) -> Site:
    """The :class:`Site` the application keeps in its state."""
    site: Site = request.app.state.site
    return site


def error_messages(problems: Problems) -> dict[str, str]:
    """Each bad field's message by its id (``games-2-opponent``), for the template."""
    return {field_id(path): problem.message for path, problem in problems.errors.items()}


def missing_labels(problems: Problems, labels: dict[str, str]) -> str:
    """The labels of the missing fields, each once, in order."""
    names: list[str] = []
    for path in problems.missing:
        name = field_name(path)
        label = labels.get(name, name.replace("_", " "))
        if label not in names:
            names.append(label)
    return ", ".join(names)


def lang_links(path: str, state: dict[str, str]) -> dict[str, str]:
    """The same page in each language, with the state of its form."""
    return {language: path + "?" + urlencode({**state, "lang": language}) for language in LANGUAGES}


def html_response(html: str, language: str, request: Request) -> HTMLResponse:
    """A page in ``language``; a ``?lang=`` choice is remembered in a cookie."""
    response = HTMLResponse(html, headers={"Content-Language": language, "Vary": "Accept-Language, Cookie"})
    if request.query_params.get("lang") in LANGUAGES:
        secure = request.url.scheme == "https" or site_of(request).settings.secure_cookies
        response.set_cookie(LANG_COOKIE, language, max_age=365 * 24 * 3600, samesite="lax", secure=secure)
    return response


def size_text(size: int, t: Translator) -> str:
    """A size in bytes as a reader says it: 64 kB, 87.3 MB (decimal units, as the limits are set)."""
    if size >= 1_000_000:
        return f"{t.number(size / 1_000_000, 1)} MB"
    return f"{t.number(size / 1_000, 1)} kB"


def missing_message(t: Translator) -> str:
    """A value left out, as every 422 says it (the request layer's and pydantic's ``missing``)."""
    return t.gettext("this value is missing")


def unprocessable(problems: Problems) -> JSONResponse:
    """422 with each problem: its ``loc``, the message in the user's language, the library's reason."""
    detail: list[dict[str, Any]] = [
        {
            "type": "value_error",
            "loc": ["body", *path],
            "msg": problem.message,
            "input": problem.value,
            "ctx": {"reason": problem.reason},
        }
        for path, problem in problems.errors.items()
    ]
    detail += [
        {
            "type": "missing",
            "loc": ["body", *path],
            "msg": missing_message(problems.t),
            "input": None,
        }
        for path in problems.missing
    ]
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail}))
