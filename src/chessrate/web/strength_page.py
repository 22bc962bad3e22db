"""The "Strength from the moves" page (``/strength``): a PGN pasted or uploaded, analysed live.

The form builds the request layer's :class:`~chessrate.service.strength.AnalyseInputs` and calls
:func:`~chessrate.service.strength.strength_file`, as ``chessrate strength`` does, with the web's
caps (:class:`~chessrate.web.site.WebSettings`, docs/security.md). Every analysis runs on the
bounded pool of :mod:`chessrate.web.analyses`, never on the event loop; reading and checking the
PGN run on threads too. With htmx the form starts a job (``POST /strength/jobs``); the page asks
for its progress (``GET /strength/jobs/{id}``) until the result replaces it. Without JavaScript,
``POST /strength`` waits for its analysis and answers the whole page; a client that leaves stops
it. A full pool is answered 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from chessrate.analysis.accuracy import capped_cp
from chessrate.analysis.engine import score_from_int
from chessrate.analysis.runners import Progress, Stop
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
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
from chessrate.web.site import Site, WebSettings, error_messages, html_response, lang_links, site_of
from chessrate.web.uploads import Submitted, read_form_or_query

log = logging.getLogger("chessrate.web")

router = APIRouter()

#: Most games one web request may analyse (each takes about 0.1-0.5 s of a core).
MAX_WEB_GAMES = 40
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
        player=submitted.fields.get("player", ""),
        max_games=MAX_WEB_GAMES,
        cut_plies=settings.analysis_plies,
        max_positions=settings.analysis_positions,
        max_seconds=settings.analysis_seconds,
    )


async def _submitted(request: Request) -> tuple[Submitted, str | None]:
    return await read_form_or_query(request, file_limit=MAX_FILE, big_fields=frozenset({"pgn"}))


def _problems(site: Site, language: str, unreadable: str | None, inputs: AnalyseInputs) -> Problems:
    problems = Problems(site.translator(language))
    t = problems.t
    if unreadable is not None:
        problems.add(("pgn",), "", unreadable, message=t.gettext("The form could not be read."))
    elif inputs.file is None:
        problems.add(
            ("pgn",), "", "missing", message=t.gettext("Paste the games (PGN) or choose a PGN file.")
        )
    return problems


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
    site = site_of(request)
    submitted, unreadable = await _submitted(request)
    language = site.language(request, submitted.fields)
    if request.method != "POST":
        return _render(request, site, language, submitted.fields, None, block=None)
    inputs = strength_inputs(submitted, site.settings)
    problems = _problems(site, language, unreadable, inputs)
    outcome: Outcome[StrengthResult] | None = Outcome(None, problems)
    if not problems and await _checked(request, inputs, problems):
        stop = Stop(inputs.max_seconds)
        future = pool_of(request).submit(lambda: _analyse(inputs, problems, stop))
        if future is None:
            return _busy(request, site, language, submitted.fields, problems, None)
        outcome = await _wait(request, future, stop)
        if outcome is None:  # nobody to answer
            return Response(status_code=204)
    response = _render(request, site, language, submitted.fields, outcome, block=None)
    if outcome is None or outcome.result is None:
        response.status_code = 422
    return response


@router.post("/strength/jobs", response_class=HTMLResponse, include_in_schema=False)
async def start_job(request: Request) -> Response:
    """Start an analysis; the answer is the progress block, which asks again until it is done."""
    site = site_of(request)
    submitted, unreadable = await _submitted(request)
    language = site.language(request, submitted.fields)
    inputs = strength_inputs(submitted, site.settings)
    problems = _problems(site, language, unreadable, inputs)
    # A bad PGN, or one over the caps, is told at once, not by the job.
    if problems or not await _checked(request, inputs, problems):
        return _render(request, site, language, submitted.fields, Outcome(None, problems), block="result")

    def run(job: Job) -> Outcome[StrengthResult]:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        return _analyse(inputs, problems, job.stop, progress)

    key = jobs_of(request).start(language, inputs.max_seconds, run)
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
    return _render(request, site, language, {}, job.outcome, block="result")
