"""The "Strength from the moves" page (``/strength``): a PGN pasted or uploaded, analysed live.

The form builds the request layer's :class:`~chessrate.service.strength.AnalyseInputs` and calls
:func:`~chessrate.service.strength.strength_file`, as ``chessrate strength`` does. With htmx the
form starts a job (``POST /strength/jobs``) that runs in a thread; the page asks for its progress
(``GET /strength/jobs/{id}``) until the result replaces it. Without JavaScript, ``POST /strength``
analyses and answers the whole page. Jobs live in memory and are forgotten once shown.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from chessrate.analysis.accuracy import capped_cp
from chessrate.analysis.engine import score_from_int
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
from chessrate.service.strength import (
    MAX_FILE,
    AnalyseInputs,
    StrengthResult,
    check_file,
    fide_range,
    strength_file,
)
from chessrate.service.tournament_file import FileInput
from chessrate.web.site import Site, error_messages, html_response, lang_links, site_of
from chessrate.web.uploads import Submitted, read_form_or_query

router = APIRouter()

#: Most games one web request may analyse (each takes about 0.1-0.5 s of a core).
MAX_WEB_GAMES = 40
#: Most jobs kept at once; the oldest finished one is dropped first.
MAX_JOBS = 8
#: A job not asked for in this many seconds is forgotten.
JOB_SECONDS = 600


@dataclass
class Job:
    language: str
    done: int = 0
    total: int = 0
    outcome: Outcome[StrengthResult] | None = None
    touched: float = field(default_factory=time.monotonic)


class Jobs:
    """The analyses running or finished, by id (in memory)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}

    def start(self, inputs: AnalyseInputs, problems: Problems, language: str) -> str | None:
        """A new job's id, or None when too many are running."""
        with self.lock:
            now = time.monotonic()
            for key in [k for k, j in self.jobs.items() if now - j.touched > JOB_SECONDS]:
                del self.jobs[key]
            if len(self.jobs) >= MAX_JOBS:
                return None
            key = secrets.token_urlsafe(12)
            job = self.jobs[key] = Job(language)

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        def run() -> None:
            job.outcome = strength_file(inputs, problems, progress=progress)

        threading.Thread(target=run, daemon=True, name=f"strength-{key}").start()
        return key

    def get(self, key: str) -> Job | None:
        with self.lock:
            job = self.jobs.get(key)
            if job is not None:
                job.touched = time.monotonic()
                if job.outcome is not None:
                    del self.jobs[key]
            return job


def jobs_of(request: Request) -> Jobs:
    state = request.app.state
    if not hasattr(state, "strength_jobs"):
        state.strength_jobs = Jobs()
    jobs: Jobs = state.strength_jobs
    return jobs


def strength_inputs(submitted: Submitted) -> AnalyseInputs:
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
    return AnalyseInputs(file=file, player=submitted.fields.get("player", ""), max_games=MAX_WEB_GAMES)


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
        "lang_links": lang_links("/strength", {}),
    }
    response = html_response(site.render(language, "strength.html", block, **context), language, request)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.api_route("/strength", methods=["GET", "POST"], response_class=HTMLResponse, include_in_schema=False)
async def strength_page(request: Request) -> Response:
    """The form; posted without JavaScript, the analysis under it (the whole page)."""
    site = site_of(request)
    submitted, unreadable = await _submitted(request)
    language = site.language(request, submitted.fields)
    if request.method != "POST":
        return _render(request, site, language, submitted.fields, None, block=None)
    inputs = strength_inputs(submitted)
    problems = _problems(site, language, unreadable, inputs)
    outcome = Outcome(None, problems) if problems else strength_file(inputs, problems)
    response = _render(request, site, language, submitted.fields, outcome, block=None)
    if outcome.result is None:
        response.status_code = 422
    return response


@router.post("/strength/jobs", response_class=HTMLResponse, include_in_schema=False)
async def start_job(request: Request) -> Response:
    """Start an analysis; the answer is the progress block, which asks again until it is done."""
    site = site_of(request)
    submitted, unreadable = await _submitted(request)
    language = site.language(request, submitted.fields)
    inputs = strength_inputs(submitted)
    problems = _problems(site, language, unreadable, inputs)
    if problems or not check_file(inputs, problems):  # a bad PGN is told at once, not by the job
        return _render(request, site, language, submitted.fields, Outcome(None, problems), block="result")
    key = jobs_of(request).start(inputs, problems, language)
    if key is None:
        problems.add(
            ("pgn",),
            "",
            "busy",
            message=problems.t.gettext("Too many analyses are running: try again in a minute."),
        )
        return _render(request, site, language, submitted.fields, Outcome(None, problems), block="result")
    return _render(
        request, site, language, submitted.fields, None, block="result", job=key, job_state=Job(language)
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
