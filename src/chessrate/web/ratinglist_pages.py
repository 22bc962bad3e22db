"""Rating-list pages on the web calculator: a period's list, a player's history, an event.

Read-only by default. With an admin password (``WebSettings.list_admin_password``) an admin page
signs in with it and can import files and run periods; its session lasts
``list_session_minutes`` and every form carries the session's token. The pages read and write
through :mod:`chessrate.ratinglist` only, and are rendered by the calculator's
:class:`~chessrate.web.site.Site`: in the user's language, with the locale's numbers and dates
(the admin page's too: a refused value's reason through its code, else the store's English inside a
sentence in that language, :func:`store_error`).
"""

from __future__ import annotations

import hmac
import math
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from chessrate.errors import InvalidInputError, RatingError
from chessrate.parse import is_digits
from chessrate.ratinglist.importer import MAX_ERRORS_SHOWN, ImportedEvent, RefusedFile
from chessrate.ratinglist.list_page import SORTS, list_page
from chessrate.ratinglist.loading import published_versions
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.queries import (
    MAX_ID_DIGITS,
    EventView,
    ListView,
    event_lines,
    event_view,
    player_view,
    published_periods,
)
from chessrate.ratinglist.refusals import refusal_text
from chessrate.ratinglist.runner import GLICKO2, rule_set_for
from chessrate.ratinglist.store import StoreBusyError, open_store, store_rules
from chessrate.service.explanations import file_problem, list_note, rule_set_title
from chessrate.service.language import Translator, said_word
from chessrate.service.list_writes import import_events, run_list
from chessrate.service.problems import VALUE_SHOWN, input_reason
from chessrate.service.tournament_file import MAX_FILE, line_label
from chessrate.systems.elo.ruleset import FIDE_LISTS, RuleSet
from chessrate.web.ratinglist_views import (
    FIELD_LABELS,
    history_chart,
    k_text,
    latest_with_games,
    status_word,
)
from chessrate.web.site import html_response, lang_links, site_of
from chessrate.web.uploads import MAX_FIELD, Submitted, Upload, UploadError, read_form, safe_file_name

SESSION_COOKIE = "chessrate_list_session"
#: The sign-in form's own token, also in this cookie (a double-submitted token).
LOGIN_COOKIE = "chessrate_list_login"
#: Shortest admin password accepted.
MIN_PASSWORD = 12


@dataclass(frozen=True)
class Session:
    #: Monotonic seconds when it ends.
    until: float
    #: The token every admin form carries (not the session's id, which only the cookie holds).
    csrf: str


@dataclass
class Sessions:
    """Admin sessions in memory: id (the cookie) -> :class:`Session`."""

    minutes: int
    sessions: dict[str, Session] = field(default_factory=dict)

    def open(self) -> tuple[str, Session]:
        session_id = secrets.token_urlsafe(32)
        session = Session(time.monotonic() + self.minutes * 60, secrets.token_urlsafe(32))
        self.sessions[session_id] = session
        return session_id, session

    def get(self, session_id: str | None) -> Session | None:
        now = time.monotonic()
        for expired in [key for key, session in self.sessions.items() if session.until <= now]:
            del self.sessions[expired]
        return self.sessions.get(session_id or "")

    def close(self, session_id: str | None) -> None:
        self.sessions.pop(session_id or "", None)


@dataclass
class LoginThrottle:
    """Wrong passwords per client: :attr:`free` of them are heard at once; after that each next try
    waits, twice as long each time.

    The first wait is one second, then 2, 4, 8... up to :attr:`longest`; a right password clears
    the client's count. Clients are told apart by their address (behind a proxy, the address the
    proxy passes on: ``serve --forwarded-allow-ips``).
    """

    free: int = 3
    longest: float = 900.0
    #: Client -> (wrong passwords, monotonic seconds before which no try is heard).
    failures: dict[str, tuple[int, float]] = field(default_factory=dict)

    def wait_left(self, client: str) -> float:
        not_before = self.failures.get(client, (0, 0.0))[1]
        return max(0.0, not_before - time.monotonic())

    def failed(self, client: str) -> None:
        if len(self.failures) > 10_000:  # forget the oldest clients first
            for key in sorted(self.failures, key=lambda k: self.failures[k][1])[:5_000]:
                del self.failures[key]
        count = self.failures.get(client, (0, 0.0))[0] + 1
        delay = 0.0 if count < self.free else min(self.longest, 2.0 ** (count - self.free))
        self.failures[client] = (count, time.monotonic() + delay)

    def succeeded(self, client: str) -> None:
        self.failures.pop(client, None)


def mount_rating_list(
    app: FastAPI,
    *,
    db: str,
    admin_password: str | None,
    session_minutes: int,
    secure_cookies: bool = False,
) -> None:
    """Add the rating-list pages (``/list...``) for the store ``db`` to ``app``."""
    if admin_password is not None and len(admin_password) < MIN_PASSWORD:
        raise InvalidInputError(
            "admin-password",
            "(not shown)",
            f"an admin password has at least {MIN_PASSWORD} characters",
            code="admin-password-short",
            params={"minimum": MIN_PASSWORD},
        )
    pages = _Pages(
        db=db,
        admin_password=admin_password,
        sessions=Sessions(session_minutes),
        secure_cookies=secure_cookies,
    )
    app.include_router(pages.router())


@dataclass
class _Pages:
    db: str
    admin_password: str | None
    sessions: Sessions
    secure_cookies: bool = False
    throttle: LoginThrottle = field(default_factory=LoginThrottle)
    _engine: Engine | None = None
    #: A club's rule set by its ``--rules`` (its TOML file read once); None: it cannot be read here.
    _clubs: dict[str, RuleSet | None] = field(default_factory=dict)

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
        context.setdefault("login_token", "")
        context.setdefault("page", "list")
        context.setdefault("lang_links", lang_links(request.url.path, state))
        t = site.translator(language)
        context.setdefault("k_text", k_text(t))
        context.setdefault("notes", lambda note: list_note(note, t))
        html = site.render(language, template, **context)
        response = html_response(html, language, request)
        response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    def rule_set(self, spec: str, period: Period) -> RuleSet | None:
        """The Elo rule set ``spec`` of a list; None for Glicko-2, or a club's file that this server
        cannot read (a path relative to where the list was run): the stored English title stands."""
        if spec.strip().lower() in {*FIDE_LISTS, GLICKO2}:  # dated: each period its own
            return rule_set_for(spec, period)
        club_file = spec.strip().lower().endswith(".toml")
        if club_file and spec not in self._clubs and not Path(spec.strip()).expanduser().is_absolute():
            self._clubs[spec] = None  # relative to where the list was run: not looked for here
        if spec not in self._clubs:
            try:
                self._clubs[spec] = rule_set_for(spec, period)
            except RatingError:
                self._clubs[spec] = None
        return self._clubs[spec]

    def rule_sets(self) -> tuple[RuleSet, ...]:
        """The rule sets of the store's default and of its published lists: their sources, which the
        stored K reasons cite in English, are said in the visitor's language."""
        try:
            with self.engine.connect() as connection:
                specs = {row.rules: period for period, row in sorted(published_versions(connection).items())}
                if specs:
                    specs.setdefault(store_rules(connection), max(specs.values()))
        except RatingError:  # a store that cannot be read now: the sources as stored
            return ()
        found = (self.rule_set(spec, period) for spec, period in specs.items())
        return tuple(rules for rules in found if rules is not None)

    def rules_words(self, view: ListView, t: Translator) -> tuple[str, str]:
        """The title and the source of a list's rule set in ``t``'s language (the source: "" if none)."""
        if view.rules.strip().lower() == GLICKO2:
            return t.gettext("Glicko-2 (Glickman’s paper)"), ""
        rules = self.rule_set(view.rules, Period.parse(view.period))
        if rules is None:
            return view.rules_title, ""
        # A club's source, in the visitor's language where its file gives one; FIDE's and plain
        # Elo's titles say what they are (their sources are article numbers, in English).
        club = rules.fide is None and rules.name != "elo"
        return rule_set_title(rules, t), rules.source_in(t.language) if club else ""

    def problem(self, request: Request, message: str, status: int = 404) -> HTMLResponse:
        return self.render(request, "list_problem.html", status=status, message=message)

    def unopened(self, request: Request) -> HTMLResponse | None:
        """The page saying why the store cannot be opened (not a store, damaged, missing), or None."""
        try:
            self.engine  # noqa: B018 - opened here, once, so that a page says why it cannot be
        except RatingError as error:
            return self.problem(request, store_error(error, self._t(request)), status=503)
        return None

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

    # Read-only pages: plain functions, which FastAPI runs in its threadpool (the database is
    # synchronous; the event loop stays free for other requests).

    def list_page(
        self,
        request: Request,
        period: str | None = None,
        q: str = "",
        sort: str = "rating",
        all: str = "",
        page: str = "1",
    ) -> Response:
        t = self._t(request)
        if (unopened := self.unopened(request)) is not None:
            return unopened
        periods: list[str] = []
        # A page number that is not one is the first page; past the last, the last.
        number = int(page) if is_digits(page.strip()) and len(page.strip()) <= MAX_ID_DIGITS else 1
        sort = sort if sort in SORTS else "rating"
        try:
            with self.engine.connect() as connection:
                periods = published_periods(connection)
            shown = period or (latest_with_games(self.engine, periods) if periods else None)
            found = list_page(self.engine, shown, sort=sort, query=q, unrated=bool(all), page=number)
        except StoreBusyError as error:  # not "no list": the store could not be read just now
            return self.problem(request, store_error(error, t), status=503)
        except RatingError:
            if not periods:
                return self.problem(request, t.gettext("No list has been published yet."))
            return self.problem(request, t.gettext("Period %(period)s has no published list.", period=period))
        rules_title, rules_source = self.rules_words(found.view, t)
        return self.render(
            request,
            "list.html",
            view=found.view,
            rows=found.view.rows,
            page=found.page,
            pages=found.pages,
            count=found.count,
            periods=periods,
            q=q,
            sort=sort,
            all=all,
            rules_title=rules_title,
            rules_source=rules_source,
        )

    def player_page(self, request: Request, player: str) -> Response:
        if (unopened := self.unopened(request)) is not None:
            return unopened
        try:
            view = player_view(self.engine, player)
        except RatingError:
            t = self._t(request)
            if not is_digits(player.strip()) or len(player.strip()) > MAX_ID_DIGITS:
                return self.problem(
                    request,
                    t.gettext(
                        "Give the player’s FIDE id or number: up to %(digits)s digits.", digits=MAX_ID_DIGITS
                    ),
                )
            return self.problem(
                request, t.gettext("No player has the FIDE id or number %(player)s.", player=player)
            )
        k_words = k_text(self._t(request), self.rule_sets())
        return self.render(
            request, "list_player.html", player=view, chart=history_chart(view), k_text=k_words
        )

    def event_page(self, request: Request, event_id: str) -> Response:
        if (unopened := self.unopened(request)) is not None:
            return unopened
        try:
            if not is_digits(event_id) or len(event_id) > MAX_ID_DIGITS:  # not an id: as none found
                raise RatingError(event_id)
            view: EventView = event_view(self.engine, int(event_id))
        except RatingError:
            t = self._t(request)
            return self.problem(request, t.gettext("There is no event %(event)s.", event=event_id))
        return self.render(request, "list_event.html", view=view)

    def events_page(self, request: Request) -> Response:
        if (unopened := self.unopened(request)) is not None:
            return unopened
        try:
            lines = event_lines(self.engine)
        except RatingError as error:
            return self.problem(request, store_error(error, self._t(request)))
        return self.render(request, "list_events.html", events=lines)

    # Admin: only with a password, only within a session; the session is checked from its
    # cookie before a body is read, and every form carries the session's CSRF token.

    def _session(self, request: Request) -> tuple[str, Session] | None:
        session_id = request.cookies.get(SESSION_COOKIE)
        session = self.sessions.get(session_id)
        return (session_id, session) if session_id and session else None

    def _secure(self, request: Request) -> bool:
        """Cookies only over https: served so (behind a trusted proxy, as it says), or told to."""
        return self.secure_cookies or request.url.scheme == "https"

    def _disabled(self, request: Request) -> HTMLResponse:
        t = self._t(request)
        return self.render(
            request, "list_problem.html", status=404, message=t.gettext("Administration is not enabled.")
        )

    def _admin(
        self,
        request: Request,
        session: Session | None,
        status: int = 200,
        message: str = "",
        *,
        field: str = "",
    ) -> HTMLResponse:
        """The admin page; a status of 400 or more makes ``message`` an alert, marking ``field`` invalid."""
        said = {"message": message, "failed": status >= 400, "invalid_field": field}
        if session is not None:
            return self.render(request, "list_admin.html", status=status, token=session.csrf, **said)
        login_token = request.cookies.get(LOGIN_COOKIE) or secrets.token_urlsafe(32)
        response = self.render(
            request, "list_admin.html", status=status, token=None, login_token=login_token, **said
        )
        response.set_cookie(
            LOGIN_COOKIE, login_token, httponly=True, samesite="strict", secure=self._secure(request)
        )
        return response

    async def admin_page(self, request: Request, message: str = "") -> Response:
        if self.admin_password is None:
            return self._disabled(request)
        found = self._session(request)
        return self._admin(request, found[1] if found else None, message=message[:200])

    async def login(self, request: Request) -> Response:
        if self.admin_password is None:
            return self._disabled(request)
        client = request.client.host if request.client else "?"
        wait = self.throttle.wait_left(client)
        t = self._t(request)
        if wait > 0:
            waiting = self._admin(
                request,
                None,
                429,
                t.gettext(
                    "Too many wrong passwords: wait %(seconds)s s and try again.", seconds=math.ceil(wait)
                ),
            )
            waiting.headers["Retry-After"] = str(math.ceil(wait))
            return waiting
        form = await _fields(request)
        cookie = request.cookies.get(LOGIN_COOKIE, "")
        if not cookie or not hmac.compare_digest(form.get("token", "").encode(), cookie.encode()):
            return self._admin(request, None, 403, t.gettext("The sign-in form has expired: sign in again."))
        if not hmac.compare_digest(form.get("password", "").encode(), self.admin_password.encode()):
            self.throttle.failed(client)
            return self._admin(request, None, 403, t.gettext("Wrong password."), field="password")
        self.throttle.succeeded(client)
        session_id, _ = self.sessions.open()
        response = RedirectResponse("/list/admin", status_code=303)
        response.set_cookie(
            SESSION_COOKIE,
            session_id,
            max_age=self.sessions.minutes * 60,
            httponly=True,
            samesite="strict",
            secure=self._secure(request),
        )
        response.delete_cookie(LOGIN_COOKIE)
        return response

    async def _authorised(self, request: Request, *, file_limit: int = MAX_FIELD) -> Submitted | None:
        """The form of a signed-in admin with the session's token; None (body unread) otherwise."""
        found = self._session(request)
        if self.admin_password is None or found is None:
            return None
        try:
            submitted = await read_form(request, file_limit=file_limit)
        except UploadError:
            return None
        if not hmac.compare_digest(submitted.fields.get("token", "").encode(), found[1].csrf.encode()):
            return None
        return submitted

    def _refused(self, request: Request) -> HTMLResponse:
        found = self._session(request)
        t = self._t(request)
        return self._admin(request, found[1] if found else None, 403, t.gettext("Sign in first."))

    async def logout(self, request: Request) -> Response:
        if await self._authorised(request) is None:
            return self._refused(request)
        self.sessions.close(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse("/list", status_code=303)
        response.delete_cookie(SESSION_COOKIE)
        return response

    async def import_file(self, request: Request) -> Response:
        submitted = await self._authorised(request, file_limit=MAX_FILE)
        if submitted is None:
            return self._refused(request)
        session = self._session(request)
        csrf = session[1] if session else None
        upload = submitted.files.get("file")
        t = self._t(request)
        if upload is None:
            return self._admin(request, csrf, 422, t.gettext("No file."), field="file")
        if upload.too_large:
            too_large = t.gettext("The file is larger than %(mb)s MB.", mb=MAX_FILE // 1_000_000)
            return self._admin(request, csrf, 422, too_large, field="file")
        try:
            (event,) = await run_in_threadpool(self._import, upload)
        except RefusedFile as refused:
            return self._admin(request, csrf, 422, _refused_file(refused, t), field="file")
        except RatingError as error:
            return self._store_refusal(request, csrf, error, t, field="file")
        message = t.gettext(
            "Imported event %(id)s “%(name)s” (%(players)s players), period %(period)s.",
            id=event.id,
            name=event.name,
            players=event.players,
            period=event.period,
        )
        return self._admin(request, csrf, message=message)

    def _store_refusal(
        self, request: Request, csrf: Session | None, error: RatingError, t: Translator, *, field: str
    ) -> HTMLResponse:
        """The store refused a form: 409 when it is busy, else 422; a bad value marks its field."""
        if isinstance(error, StoreBusyError):
            return self._admin(request, csrf, 409, store_error(error, t))
        return self._admin(request, csrf, 422, store_error(error, t), field=field)

    def _import(self, upload: Upload) -> tuple[ImportedEvent, ...]:
        # The client's file name is never a path: only a safe name is written, in a folder of ours.
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / safe_file_name(upload.filename)
            path.write_bytes(upload.data)
            return import_events(self.engine, [path], wait=0)

    async def run(self, request: Request) -> Response:
        submitted = await self._authorised(request)
        if submitted is None:
            return self._refused(request)
        session = self._session(request)
        csrf = session[1] if session else None
        form = submitted.fields
        try:
            period = Period.parse(form.get("period", ""))
            report = await run_in_threadpool(
                run_list, self.engine, period, republish=form.get("republish") == "on", wait=0, server=True
            )
        except RatingError as error:
            return self._store_refusal(request, csrf, error, self._t(request), field="period")
        t = self._t(request)
        parts = [
            t.gettext(
                "%(period)s: %(status)s (revision %(revision)s, %(changed)s changed)",
                period=run.period,
                status=status_word(t, run.status),
                revision=run.revision,
                changed=len(run.changes),
            )
            for run in report.periods
        ]
        return self._admin(request, csrf, message="; ".join(parts))


def _refused_file(refused: RefusedFile, t: Translator) -> str:
    """A file refused for its reading errors, in the page's language: the first errors, each with its line."""
    shown = "; ".join(
        f"{line_label(problem.line, t)}: {file_problem(problem.code, problem.params, problem.message, t)}"
        for problem in refused.errors[:MAX_ERRORS_SHOWN]
    )
    return refusal_text(
        "import-refused-file", {"file": refused.file_name, "count": len(refused.errors), "errors": shown}, t
    )


def store_error(error: RatingError, t: Translator) -> str:
    """A rating-list error in ``t``'s language: a coded reason through
    :func:`~chessrate.service.problems.input_reason`; without a code, the store's English inside a
    sentence in that language."""
    if isinstance(error, StoreBusyError):
        return t.gettext("Another import or run is using the rating list: try again when it ends.")
    code = str(getattr(error, "code", "") or "")
    params = dict(getattr(error, "params", None) or {})
    translated = input_reason(code, params, "", t) if code else ""
    if isinstance(error, InvalidInputError) and (error.value not in (None, "") or not translated):
        label = said_word(FIELD_LABELS, error.field, t)
        value = str(error.value if error.value is not None else "")
        value = value if len(value) <= VALUE_SHOWN else value[: VALUE_SHOWN - 1] + "…"
        if translated:
            return t.gettext("%(field)s “%(value)s”: %(reason)s", field=label, value=value, reason=translated)
        return t.gettext(
            "%(field)s “%(value)s” was refused (the rating list says, in English: %(reason)s).",
            field=label,
            value=value,
            reason=error.reason,
        )
    if translated:
        return t.gettext("The rating list refused it: %(reason)s", reason=translated)
    return t.gettext("The rating list refused it (it says, in English: %(reason)s).", reason=str(error))


async def _fields(request: Request) -> dict[str, str]:
    """A small form's text fields (the body is bounded by :mod:`chessrate.web.limits`)."""
    try:
        return (await read_form(request, file_limit=MAX_FIELD)).fields
    except UploadError:
        return {}
