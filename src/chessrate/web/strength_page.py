"""The "Strength from the moves" page (``/strength``): a PGN pasted or uploaded, analysed live.

The form builds the request layer's :class:`~chessrate.service.strength.AnalyseInputs` and calls
:func:`~chessrate.service.strength.strength_file`, as ``chessrate strength`` does, with the web's
caps (:class:`~chessrate.web.site.WebSettings`, docs/security.md). Every analysis runs on the
bounded pool of :mod:`chessrate.web.analyses`, never on the event loop; reading and checking the
PGN run on threads too. With htmx the form starts a job (``POST /strength/jobs``); the page asks
for its progress (``GET /strength/jobs/{id}``) until the result replaces it. Without JavaScript,
``POST /strength`` waits for its analysis and answers the whole page; a client that leaves stops
it. A full pool is answered 503 with ``Retry-After``.

Instead of a PGN, a Lichess or Chess.com username (issue 31): the server fetches the user's newest
games through :mod:`chessrate.web.fetches` (per-client limit, a deadline, off the loop, stopped when
the client leaves), estimates that user, and links each game to its page on the platform.
``serve --no-fetch`` turns it off.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from concurrent.futures import Future

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from chessrate.analysis.accuracy import capped_cp
from chessrate.analysis.engine import score_from_int
from chessrate.analysis.runners import Progress, Stop
from chessrate.errors import InvalidInputError
from chessrate.service.fetch import HOSTS, PLATFORMS, FetchInputs, fetch_query
from chessrate.service.fetch_refusals import fetch_text, notice_text
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems, input_reason
from chessrate.service.strength import (
    MAX_FILE,
    AnalyseInputs,
    StrengthResult,
    analysis_notes,
    check_file,
    fide_range,
    strength_file,
)
from chessrate.service.tournament_file import FileInput
from chessrate.web.analyses import READERS, RETRY_AFTER, AnalysisPool, Job, Jobs
from chessrate.web.fetches import Fetched, fetch_games, sentence
from chessrate.web.site import Site, WebSettings, error_messages, html_response, lang_links, site_of
from chessrate.web.uploads import PageForm, Submitted, read_page_form

log = logging.getLogger("chessrate.web")

router = APIRouter()

#: Most games one web request may analyse (each takes about 0.1-0.5 s of a core).
MAX_WEB_GAMES = 40
#: Games fetched by username when the form does not say how many (the command line's default).
DEFAULT_WEB_FETCH = 20
#: How often the no-JavaScript form looks whether its client is still there, in seconds.
DISCONNECT_POLL = 0.5


def start_analyses(state: object, settings: WebSettings) -> None:
    """The pool and the jobs of an application (``app.state``)."""
    pool = AnalysisPool(settings.analysis_workers, settings.analysis_queue)
    state.analysis_pool = pool  # type: ignore[attr-defined]
    state.strength_jobs = Jobs(pool, settings.analysis_abandon_seconds)  # type: ignore[attr-defined]


def jobs_of(request: Request) -> Jobs:
    jobs: Jobs = request.app.state.strength_jobs
    return jobs


def pool_of(request: Request) -> AnalysisPool:
    pool: AnalysisPool = request.app.state.analysis_pool
    return pool


def _readers(request: Request) -> anyio.CapacityLimiter:
    """The threads that read and check PGNs (made on first use, inside the event loop)."""
    state = request.app.state
    if not hasattr(state, "pgn_readers"):
        state.pgn_readers = anyio.CapacityLimiter(READERS)
    limiter: anyio.CapacityLimiter = state.pgn_readers
    return limiter


def strength_inputs(submitted: Submitted, settings: WebSettings | None = None) -> AnalyseInputs:
    """The form as the request layer's inputs: the uploaded file, else the pasted text."""
    upload = submitted.files.get("file")
    file: FileInput | None
    if upload is not None and upload.data.strip():
        file = FileInput(
            name=upload.filename or "games.pgn",
            data=upload.data,
            size=upload.size,
            too_large=upload.too_large,
        )
    else:
        text = submitted.fields.get("pgn", "")
        data = text.encode("utf-8")
        file = FileInput(name="games.pgn", data=data, size=len(data)) if text.strip() else None
    settings = settings or WebSettings()
    return AnalyseInputs(
        file=file,
        player=submitted.fields.get("player", "") or by_user_name(submitted),
        max_games=MAX_WEB_GAMES,
        cut_plies=settings.analysis_plies,
        max_positions=settings.analysis_positions,
        max_seconds=settings.analysis_seconds,
    )


def by_user_name(submitted: Submitted) -> str:
    """The username typed, if any ("" when the games are pasted or uploaded)."""
    return submitted.fields.get("user", "").strip()


def fetch_inputs(submitted: Submitted) -> FetchInputs:
    """The username fields as the request layer's inputs, capped at the web's game limit."""
    return FetchInputs(
        platform=submitted.fields.get("platform", "lichess"),
        user=by_user_name(submitted),
        max_games=submitted.fields.get("max", ""),
        speeds=submitted.fields.get("speed", ""),
        cap=MAX_WEB_GAMES,
    )


async def _page_form(request: Request) -> PageForm:
    return await read_page_form(request, file_limit=MAX_FILE, big_fields=frozenset({"pgn"}))


def _problems(
    site: Site, language: str, unreadable: str | None, inputs: AnalyseInputs, user: str = ""
) -> Problems:
    problems = Problems(site.translator(language))
    t = problems.t
    if unreadable is not None:
        problems.add(("pgn",), "", unreadable, message=t.gettext("The form could not be read."))
    elif user and inputs.file is not None:
        problems.add(
            ("user",), user, "both", message=t.gettext("Give a username or the games (PGN), not both.")
        )
    elif user and not site.settings.fetch_games:
        problems.add(("user",), user, "fetch-off", message=_fetch_off(problems))
    elif inputs.file is None and not user:
        problems.add(
            ("pgn",), "", "missing", message=t.gettext("Paste the games (PGN) or choose a PGN file.")
        )
    return problems


def _fetch_off(problems: Problems) -> str:
    return problems.t.gettext(
        "Fetching games by username is turned off on this server (chessrate serve --no-fetch): paste "
        "the games or choose a PGN file."
    )


def _checked_query(inputs: FetchInputs, problems: Problems) -> bool:
    """The username (by its platform's rules), the number of games and the speed, before any request."""
    try:
        fetch_query(inputs)
    except InvalidInputError as error:
        path = ("user",) if error.field in PLATFORMS else (error.field,)
        said = input_reason(error.code, error.params, error.reason, problems.t)
        problems.add(path, error.value, error, message=sentence(said))
        return False
    return True


@dataclasses.dataclass
class ByUser:
    """What a fetch gave the page: the inputs with the games, their links, what was said."""

    inputs: AnalyseInputs
    links: list[str]
    lines: list[str]
    host: str


async def _by_user(
    request: Request, site: Site, submitted: Submitted, inputs: AnalyseInputs, problems: Problems
) -> ByUser | Fetched:
    """The user's games as the analysis's file; else how the fetch ended (refused, or the client left)."""
    wanted = fetch_inputs(submitted)
    if not _checked_query(wanted, problems):
        return Fetched(status=422)
    fetched = await fetch_games(request, wanted, problems, site.settings.fetch_seconds)
    if fetched.games is None:
        return fetched
    games = fetched.games.games
    lines = [
        fetch_text(
            "fetched", {"count": games.count, "user": wanted.user, "host": HOSTS[wanted.platform]}, problems.t
        )
    ]
    if games.note is not None:
        lines.append(notice_text(games.note, problems.t))
    host = HOSTS[wanted.platform]
    return ByUser(dataclasses.replace(inputs, file=fetched.games.file), games.links, lines, host)


async def _asked(
    request: Request,
    site: Site,
    language: str,
    submitted: Submitted,
    unreadable: str | None,
    block: str | None,
) -> tuple[ByUser, Problems] | Response:
    """What the form asks to analyse and its problems: the inputs, with the games fetched by
    username if it names one (their links, what was said); or the answer refusing the fetch."""
    inputs = strength_inputs(submitted, site.settings)
    user = by_user_name(submitted)
    problems = _problems(site, language, unreadable, inputs, user)
    if not user or problems:
        return ByUser(inputs, [], [], ""), problems
    by_user = await _by_user(request, site, submitted, inputs, problems)
    if isinstance(by_user, Fetched):
        return _refused(request, site, language, submitted.fields, problems, by_user, block)
    return by_user, problems


def _refused(
    request: Request,
    site: Site,
    language: str,
    fields: dict[str, str],
    problems: Problems,
    fetched: Fetched,
    block: str | None,
) -> Response:
    """A fetch that ended without games: the field error (429 with Retry-After at the client's limit)."""
    if fetched.gone:
        return Response(status_code=204)
    response = _render(request, site, language, fields, Outcome(None, problems), block=block)
    # htmx's block is answered 200, as a bad PGN's is; the client's limit is 429 either way.
    response.status_code = 200 if block is not None and fetched.status == 422 else fetched.status
    if fetched.retry_after is not None:
        response.headers["Retry-After"] = str(fetched.retry_after)
    return response


def chart_data(result: StrengthResult) -> list[dict[str, object]]:
    """Per game: White's win% and evaluation (pawns, capped at +-10) after each ply, for uPlot."""
    games = []
    for analysis in result.analysis.analyses:
        pawns = [capped_cp(score_from_int(m.after)) / 100 for m in analysis.moves]
        games.append(
            {
                "plies": [m.ply for m in analysis.moves],
                "win": [round(m.win_after if m.white else 100 - m.win_after, 2) for m in analysis.moves],
                "pawns": pawns,
            }
        )
    return games


def _render(
    request: Request,
    site: Site,
    language: str,
    fields: dict[str, str],
    outcome: Outcome[StrengthResult] | None,
    *,
    block: str | None,
    job: str = "",
    job_state: Job | None = None,
    links: list[str] | None = None,
    fetch_lines: list[str] | None = None,
    link_host: str = "",
) -> HTMLResponse:
    problems = outcome.problems if outcome is not None else Problems(site.translator(language))
    result = outcome.result if outcome is not None else None
    context = {
        "page": "strength",
        "form": fields,
        "outcome": outcome,
        "result": result,
        "errors": error_messages(problems),
        "charts": chart_data(result) if result else [],
        "fide": [fide_range(p.estimate) for p in result.players] if result else [],
        "job": job,
        "job_state": job_state,
        "max_games": MAX_WEB_GAMES,
        "caps": site.settings,
        "notes": analysis_notes(result.analysis, problems.t) if result else [],
        "lang_links": lang_links("/strength", {}),
        "links": links or [],
        "link_host": link_host,
        "fetch_lines": fetch_lines or [],
        "fetch_off": not site.settings.fetch_games,
        "fetch_max": min(MAX_WEB_GAMES, DEFAULT_WEB_FETCH),
        "platforms": HOSTS,
    }
    response = html_response(site.render(language, "strength.html", block, **context), language, request)
    response.headers["Cache-Control"] = "no-store"
    return response


def _analyse(
    inputs: AnalyseInputs, problems: Problems, stop: Stop, progress: Progress | None = None
) -> Outcome[StrengthResult]:
    """The analysis, on a worker; whatever goes wrong is the request's problem, never a 500."""
    try:
        return strength_file(inputs, problems, progress=progress, stop=stop)
    except Exception:
        log.exception("the analysis failed")
        problems.add(
            ("pgn",),
            "",
            "the analysis failed",
            message=problems.t.gettext("The analysis failed: try again, or with fewer games."),
        )
        return Outcome(None, problems)


async def _checked(request: Request, inputs: AnalyseInputs, problems: Problems) -> bool:
    """The PGN read and checked (caps included) on a reader thread."""
    return await anyio.to_thread.run_sync(check_file, inputs, problems, limiter=_readers(request))


def _busy(
    request: Request, site: Site, language: str, fields: dict[str, str], problems: Problems, block: str | None
) -> HTMLResponse:
    """503 with ``Retry-After``: every worker busy and the queue full."""
    problems.add(
        ("pgn",),
        "",
        "busy",
        message=problems.t.gettext("Too many analyses are running: try again in a minute."),
    )
    response = _render(request, site, language, fields, Outcome(None, problems), block=block)
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


async def _wait(
    request: Request, future: Future[Outcome[StrengthResult]], stop: Stop
) -> Outcome[StrengthResult] | None:
    """The analysis's outcome; None when the client left first (the analysis is then stopped)."""
    waiting = asyncio.wrap_future(future)
    while True:
        done, _ = await asyncio.wait({waiting}, timeout=DISCONNECT_POLL)
        if done:
            return waiting.result()
        if await request.is_disconnected():
            stop.cancel()
            return None


@router.api_route("/strength", methods=["GET", "POST"], response_class=HTMLResponse, include_in_schema=False)
async def strength_page(request: Request) -> Response:
    """The form; posted without JavaScript, the analysis under it (the whole page)."""
    site, submitted, unreadable, language = await _page_form(request)
    if request.method != "POST":
        return _render(request, site, language, submitted.fields, None, block=None)
    asked = await _asked(request, site, language, submitted, unreadable, None)
    if isinstance(asked, Response):
        return asked
    by_user, problems = asked
    inputs = by_user.inputs
    outcome: Outcome[StrengthResult] | None = Outcome(None, problems)
    if not problems and await _checked(request, inputs, problems):
        stop = Stop(inputs.max_seconds)
        future = pool_of(request).submit(lambda: _analyse(inputs, problems, stop))
        if future is None:
            return _busy(request, site, language, submitted.fields, problems, None)
        outcome = await _wait(request, future, stop)
        if outcome is None:  # nobody to answer
            return Response(status_code=204)
    response = _render(
        request, site, language, submitted.fields, outcome, block=None, links=by_user.links,
        fetch_lines=by_user.lines, link_host=by_user.host,
    )  # fmt: skip
    if outcome is None or outcome.result is None:
        response.status_code = 422
    return response


@router.post("/strength/jobs", response_class=HTMLResponse, include_in_schema=False)
async def start_job(request: Request) -> Response:
    """Start an analysis; the answer is the progress block, which asks again until it is done."""
    site, submitted, unreadable, language = await _page_form(request)
    # The games by username are fetched before the job starts.
    asked = await _asked(request, site, language, submitted, unreadable, "result")
    if isinstance(asked, Response):
        return asked
    by_user, problems = asked
    inputs = by_user.inputs
    # A bad PGN, or one over the caps, is told at once, not by the job.
    if problems or not await _checked(request, inputs, problems):
        return _render(
            request, site, language, submitted.fields, Outcome(None, problems), block="result",
            fetch_lines=by_user.lines,
        )  # fmt: skip

    def run(job: Job) -> Outcome[StrengthResult]:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        return _analyse(inputs, problems, job.stop, progress)

    key = jobs_of(request).start(
        language,
        inputs.max_seconds,
        run,
        links=by_user.links,
        fetch_lines=by_user.lines,
        link_host=by_user.host,
    )
    if key is None:
        return _busy(request, site, language, submitted.fields, problems, "result")
    return _render(
        request,
        site,
        language,
        submitted.fields,
        None,
        block="result",
        job=key,
        job_state=Job(language, Stop()),
    )


@router.get("/strength/jobs/{key}", response_class=HTMLResponse, include_in_schema=False)
async def job_state(request: Request, key: str) -> Response:
    """The job's progress, or its result once done (then the job is forgotten)."""
    site = site_of(request)
    language = site.language(request)
    job = jobs_of(request).get(key)
    if job is None:
        problems = Problems(site.translator(language))
        problems.add(
            ("pgn",),
            key,
            "unknown job",
            message=problems.t.gettext("This analysis is no longer kept: run it again."),
        )
        return _render(request, site, language, {}, Outcome(None, problems), block="result")
    if job.outcome is None:
        return _render(request, site, language, {}, None, block="result", job=key, job_state=job)
    return _render(
        request, site, language, {}, job.outcome, block="result", links=job.links,
        fetch_lines=job.fetch_lines, link_host=job.link_host,
    )  # fmt: skip
