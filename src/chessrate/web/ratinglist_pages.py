"""Rating-list pages on the web calculator: a period's list, a player's history, an event.

Read-only by default. With an admin password (``WebSettings.list_admin_password``) an admin page
signs in with it and can import files and run periods; its session lasts
``list_session_minutes`` and every form carries the session's token. The pages read and write
through :mod:`chessrate.ratinglist` only, and are rendered by the calculator's
:class:`~chessrate.web.site.Site`: in the user's language, with the locale's numbers and dates.
"""

from __future__ import annotations

import hmac
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import Engine

from chessrate.errors import RatingError
from chessrate.fide.k_factor import KFactor
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.queries import (
    EventView,
    ListRow,
    PlayerView,
    event_lines,
    event_view,
    list_view,
    player_view,
    published_periods,
)
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.store import StoreError, open_store
from chessrate.requests.explanations import k_reason, list_note
from chessrate.requests.language import Translator
from chessrate.web.site import html_response, lang_links, site_of

SESSION_COOKIE = "chessrate_list_session"
MAX_UPLOAD = 5_000_000
SORTS = ("rating", "name", "change", "games")


@dataclass
class Sessions:
    """Admin sessions in memory: token -> expiry (monotonic seconds)."""

    minutes: int
    tokens: dict[str, float] = field(default_factory=dict)

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        self.tokens[token] = time.monotonic() + self.minutes * 60
        return token

    def valid(self, token: str | None) -> bool:
        now = time.monotonic()
        for expired in [key for key, until in self.tokens.items() if until <= now]:
            del self.tokens[expired]
        return token is not None and token in self.tokens

    def close(self, token: str | None) -> None:
        self.tokens.pop(token or "", None)


def mount_rating_list(app: FastAPI, *, db: str, admin_password: str | None, session_minutes: int) -> None:
    """Add the rating-list pages (``/list...``) for the store ``db`` to ``app``."""
    pages = _Pages(db=db, admin_password=admin_password, sessions=Sessions(session_minutes))
    app.include_router(pages.router())


@dataclass
class _Pages:
    db: str
    admin_password: str | None
    sessions: Sessions
    _engine: Engine | None = None

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = open_store(self.db)
        return self._engine

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A list page in the visitor's language; ``?lang=`` links keep the page's query."""
        site = site_of(request)
        language = site.language(request)
        state = {key: value for key, value in request.query_params.items() if key != "lang"}
        context.setdefault("admin_enabled", self.admin_password is not None)
        context.setdefault("page", "list")
        context.setdefault("lang_links", lang_links(request.url.path, state))
        t = site.translator(language)
        context.setdefault("k_text", _k_text(t))
        context.setdefault("notes", lambda note: list_note(note, t))
        html = site.render(language, template, **context)
        response = html_response(html, language, request)
        response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    def problem(self, request: Request, message: str, status: int = 404) -> HTMLResponse:
        return self.render(request, "list_problem.html", status=status, message=message)

    def _t(self, request: Request) -> Translator:
        site = site_of(request)
        return site.translator(site.language(request))

    def router(self) -> APIRouter:
        router = APIRouter(include_in_schema=False)
        router.add_api_route("/list", self.list_page, methods=["GET"])
        router.add_api_route("/list/player/{player}", self.player_page, methods=["GET"])
        router.add_api_route("/list/event/{event_id}", self.event_page, methods=["GET"])
        router.add_api_route("/list/events", self.events_page, methods=["GET"])
        router.add_api_route("/list/admin", self.admin_page, methods=["GET"])
        router.add_api_route("/list/admin/login", self.login, methods=["POST"])
        router.add_api_route("/list/admin/logout", self.logout, methods=["POST"])
        router.add_api_route("/list/admin/import", self.import_file, methods=["POST"])
        router.add_api_route("/list/admin/run", self.run, methods=["POST"])
        return router

    # Read-only pages.

    async def list_page(
        self, request: Request, period: str | None = None, q: str = "", sort: str = "rating", all: str = ""
    ) -> Response:
        t = self._t(request)
        try:
            with self.engine.connect() as connection:
                periods = published_periods(connection)
            view = (
                list_view(self.engine, period or None)
                if period or not periods
                else _latest_with_games(self.engine, periods)
            )
        except RatingError:
            if not periods:
                return self.problem(request, t.gettext("No list has been published yet."))
            return self.problem(request, t.gettext("Period %(period)s has no published list.", period=period))
        sort = sort if sort in SORTS else "rating"
        rows = [row for row in view.rows if all or row.rating is not None]
        if q.strip():
            needle = q.strip().casefold()
            rows = [row for row in rows if needle in row.name.casefold() or needle == str(row.fide_id or "")]
        rows = sorted(rows, key=_sort_key(sort))
        return self.render(
            request, "list.html", view=view, rows=rows, periods=periods, q=q, sort=sort, all=all
        )

    async def player_page(self, request: Request, player: str) -> Response:
        try:
            view = player_view(self.engine, player)
        except RatingError:
            t = self._t(request)
            return self.problem(
                request, t.gettext("No player has the FIDE id or number %(player)s.", player=player)
            )
        return self.render(request, "list_player.html", player=view, chart=_history_chart(view))

    async def event_page(self, request: Request, event_id: int) -> Response:
        try:
            view: EventView = event_view(self.engine, event_id)
        except RatingError:
            t = self._t(request)
            return self.problem(request, t.gettext("There is no event %(event)s.", event=event_id))
        return self.render(request, "list_event.html", view=view)

    async def events_page(self, request: Request) -> Response:
        try:
            lines = event_lines(self.engine)
        except RatingError as error:
            return self.problem(request, str(error))
        return self.render(request, "list_events.html", events=lines)

    # Admin: only with a password, only within a session.

    def _session(self, request: Request) -> str | None:
        token = request.cookies.get(SESSION_COOKIE)
        return token if self.sessions.valid(token) else None

    async def admin_page(self, request: Request, message: str = "") -> Response:
        if self.admin_password is None:
            return self.render(
                request, "list_problem.html", status=404, message="Administration is not enabled."
            )
        return self.render(request, "list_admin.html", token=self._session(request), message=message)

    async def login(self, request: Request) -> Response:
        if self.admin_password is None:
            return self.render(
                request, "list_problem.html", status=404, message="Administration is not enabled."
            )
        form = await request.form()
        given = str(form.get("password", ""))
        if not hmac.compare_digest(given.encode(), self.admin_password.encode()):
            return self.render(request, "list_admin.html", status=403, token=None, message="Wrong password.")
        token = self.sessions.open()
        response = RedirectResponse("/list/admin", status_code=303)
        response.set_cookie(
            SESSION_COOKIE, token, max_age=self.sessions.minutes * 60, httponly=True, samesite="strict"
        )
        return response

    async def logout(self, request: Request) -> Response:
        self.sessions.close(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse("/list", status_code=303)
        response.delete_cookie(SESSION_COOKIE)
        return response

    async def _authorised(self, request: Request) -> tuple[bool, Any]:
        form = await request.form()
        token = self._session(request)
        ok = (
            self.admin_password is not None
            and token is not None
            and hmac.compare_digest(str(form.get("token", "")), token)
        )
        return ok, form

    async def import_file(self, request: Request) -> Response:
        ok, form = await self._authorised(request)
        if not ok:
            return self.render(request, "list_admin.html", status=403, token=None, message="Sign in first.")
        upload = form.get("file")
        if upload is None or not hasattr(upload, "read"):
            return self.render(
                request, "list_admin.html", status=422, token=self._session(request), message="No file."
            )
        data = await upload.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            return self.render(
                request,
                "list_admin.html",
                status=422,
                token=self._session(request),
                message="The file is too large.",
            )
        name = Path(str(upload.filename or "upload")).name
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / name
            path.write_bytes(data)
            try:
                (event,) = import_files(self.engine, [path])
            except RatingError as error:
                return self.render(
                    request, "list_admin.html", status=422, token=self._session(request), message=str(error)
                )
        message = (
            f"Imported event {event.id} '{event.name}' ({event.players} players), period {event.period}."
        )
        return self.render(request, "list_admin.html", token=self._session(request), message=message)

    async def run(self, request: Request) -> Response:
        ok, form = await self._authorised(request)
        if not ok:
            return self.render(request, "list_admin.html", status=403, token=None, message="Sign in first.")
        try:
            period = Period.parse(str(form.get("period", "")))
            report = run_period(self.engine, period, republish=form.get("republish") == "on")
        except (RatingError, StoreError) as error:
            return self.render(
                request, "list_admin.html", status=422, token=self._session(request), message=str(error)
            )
        parts = [
            f"{run.period}: {run.status} (revision {run.revision}, {len(run.changes)} changed)"
            for run in report.periods
        ]
        return self.render(request, "list_admin.html", token=self._session(request), message="; ".join(parts))


def _sort_key(sort: str) -> Any:
    def key(row: ListRow) -> tuple[Any, ...]:
        if sort == "name":
            return (row.name.casefold(),)
        if sort == "change":
            return (-(row.change or 0), row.name.casefold())
        if sort == "games":
            return (-row.games, row.name.casefold())
        return (row.rating is None, -(row.rating or 0), row.name.casefold())

    return key


def _latest_with_games(engine: Engine, periods: list[str]) -> Any:
    """The newest published list on which someone played (an empty month shows nothing new)."""
    view = None
    for period in reversed(periods):
        view = list_view(engine, period)
        if any(row.games for row in view.rows):
            return view
    return view if view is not None else list_view(engine, None)


def _k_text(t: Translator) -> Any:
    """Why K was what it was, from the reason the list stored (in the core's words), in ``t``'s language."""

    def text(k: int | None, reason: str | None) -> str:
        if not reason:
            return ""
        return k_reason(KFactor(k=k or 0, reason=reason, article=""), t)

    return text


def _history_chart(player: PlayerView) -> dict[str, Any] | None:
    """The player's published ratings by list date, for the chart (app.js draws it with uPlot)."""
    points = [(line.list_date, line.rating) for line in player.history if line.rating is not None]
    if not points:
        return None
    return {
        "days": [day.isoformat() for day, _ in points],
        "ratings": [rating for _, rating in points],
        "first": points[0][0],
        "last": points[-1][0],
    }
