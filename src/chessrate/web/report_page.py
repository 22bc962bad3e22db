"""The tournament-file page (``/report``), its CSV download (``/report.csv``) and ``POST /api/report``.

All three read the multipart form into memory (:func:`chessrate.web.uploads.read_form`), build the
same :class:`~chessrate.service.tournament_file.ReportInputs` (:mod:`chessrate.web.report_form`)
and call :func:`~chessrate.service.tournament_file.tournament_file`, as ``chessrate report`` does.
The page works without JavaScript (the form submits and the whole page comes back); with htmx,
choosing a file or changing an option posts the form and swaps in the ``result`` block. The
download form carries the file's text back, so the CSV is made again from the same file and
nothing is kept on the server.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import PurePath
from typing import Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from chessrate.service import explanations
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
from chessrate.service.report_csv import csv_headers as csv_headers  # the page's CSV columns, shared
from chessrate.service.report_csv import localized_csv
from chessrate.service.tournament_file import (
    MAX_FILE,
    MAX_LIST_FILE,
    ReportDocument,
    ReportInputs,
    ReportResult,
    line_label,
    report_document,
    tournament_file,
)
from chessrate.tournament.report_csv import report_csv
from chessrate.web.error_documents import ERROR_RESPONSES
from chessrate.web.report_form import TEXT_FIELDS, effective_fields, report_inputs, rules_file_too_large
from chessrate.web.site import Site, error_messages, html_response, lang_links, site_of, unprocessable
from chessrate.web.uploads import PageForm, Submitted, read_form_or_query, read_page_form, refuse_rules_file

router = APIRouter()

#: The API's multipart body, for its documentation (the body is read by ``read_form``).
_API_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {
                        "file": {
                            "type": "string",
                            "format": "binary",
                            "description": f"A TRF, PGN or CSV file, up to {MAX_FILE // 1_000_000} MB.",
                        },
                        "rules": {
                            "type": "string",
                            "enum": ["fide", "elo", "ciabe", "custom"],
                            "default": "fide",
                        },
                        "as_of": {
                            "type": "string",
                            "format": "date",
                            "description": "The day of the FIDE rules (default: the tournament's start).",
                        },
                        "rules_toml": {
                            "type": "string",
                            "description": "A club's rules as TOML (rules=custom).",
                        },
                        "expected": {
                            "type": "string",
                            "enum": ["rules", "table", "formula"],
                            "default": "rules",
                        },
                        "cap": {"type": "string", "enum": ["auto", "on", "off"], "default": "auto"},
                        "k": {
                            "type": "string",
                            "description": "One K for every player (default: the rules).",
                        },
                        "k_file": {
                            "type": "string",
                            "format": "binary",
                            "description": "CSV 'player,k': a K per FIDE id or start number.",
                        },
                        "players_list": {
                            "type": "string",
                            "format": "binary",
                            "description": "FIDE's rating list (TXT or XML, or its zip, up to 64 MB): "
                            "FIDE's K, birth year and missing ratings of the players found by FIDE id.",
                        },
                        "list_type": {
                            "type": "string",
                            "enum": ["standard", "rapid", "blitz"],
                            "default": "standard",
                        },
                        "strict": {
                            "type": "boolean",
                            "default": False,
                            "description": "Refuse a file with errors.",
                        },
                    },
                }
            }
        },
    }
}


#: The body's limit for a file; each file is then held to its own (report_form): the FIDE list may be
#: the largest.
FILE_LIMIT = max(MAX_FILE, MAX_LIST_FILE)


async def _page_form(request: Request) -> PageForm:
    """The request's form in memory (or the query alone and why the body could not be read)."""
    return await read_page_form(request, file_limit=FILE_LIMIT, big_fields=TEXT_FIELDS)


def _start(
    request: Request, site: Site, language: str, unreadable: str | None, submitted: Submitted
) -> Problems:
    """The problems of a request, with the body's own if it was not a form, and a rules file too large."""
    problems = Problems(site.translator(language))
    if unreadable is not None:
        problems.add(("file",), "", unreadable, message=problems.t.gettext("The form could not be read."))
    too_large = rules_file_too_large(submitted)
    if too_large is not None:
        refuse_rules_file(problems, too_large)
    return problems


#: Reports computed at once; the others wait their turn. A report of the largest file the upload
#: cap lets through holds about a gigabyte while it is made (docs/security.md).
REPORTS = 2


async def _computed(
    request: Request, inputs: ReportInputs, problems: Problems, site: Site
) -> Outcome[ReportResult]:
    """The report, computed on a thread (at most :data:`REPORTS` at once): the event loop keeps
    answering other requests."""
    state = request.app.state
    if not hasattr(state, "report_makers"):  # made on first use, inside the event loop
        state.report_makers = anyio.CapacityLimiter(REPORTS)
    return await anyio.to_thread.run_sync(
        lambda: tournament_file(inputs, problems, today=site.today()), limiter=state.report_makers
    )


def _sign_class(value: Decimal | int | None) -> str:
    return "up" if value is not None and value > 0 else "down" if value is not None and value < 0 else ""


def _render(
    request: Request, site: Site, language: str, submitted: Submitted, outcome: Outcome[ReportResult]
) -> HTMLResponse:
    problems = outcome.problems
    result = outcome.result
    context = {
        "page": "report",
        "form": effective_fields(submitted),
        "outcome": outcome,
        "errors": error_messages(problems),
        "submitted": request.method == "POST",
        "focus": "",
        "names": {player.number: player.name for player in result.read.tournament.players} if result else {},
        "sign_class": _sign_class,
        "line_label": line_label,
        "max_megabytes": MAX_FILE // 1_000_000,
        "list_megabytes": MAX_LIST_FILE // 1_000_000,
        "lang_links": lang_links("/report", {}),
    }
    block = "result" if request.headers.get("hx-request") == "true" else None
    response = html_response(site.render(language, "report.html", block, **context), language, request)
    response.headers["Cache-Control"] = "no-store"  # the page may hold the file's text
    return response


@router.api_route("/report", methods=["GET", "POST"], response_class=HTMLResponse, include_in_schema=False)
async def report_page(request: Request) -> Response:
    """The upload form; posted, the report of the file under it."""
    site, submitted, unreadable, language = await _page_form(request)
    problems = _start(request, site, language, unreadable, submitted)
    if request.method == "POST":
        outcome = await _computed(request, report_inputs(submitted), problems, site)
    else:
        outcome = Outcome(None, problems)
    response = _render(request, site, language, submitted, outcome)
    # A refused file: the page and its field message with 422, as /report.csv and /api/report (issue 29).
    # htmx's live update of the result keeps 200, as the strength page's job does: a 4xx would be a
    # console error in the browser for what is a message to show.
    live = request.headers.get("hx-request") == "true"
    if request.method == "POST" and outcome.result is None and problems and not live:
        response.status_code = 422
    return response


@router.post("/report.csv", include_in_schema=False)
async def report_download(request: Request) -> Response:
    """The report as CSV (UTF-8 with a byte-order mark, for spreadsheets); bad input: the page, 422."""
    site, submitted, unreadable, language = await _page_form(request)
    problems = _start(request, site, language, unreadable, submitted)
    outcome = await _computed(request, report_inputs(submitted), problems, site)
    if outcome.result is None:
        response = _render(request, site, language, submitted, outcome)
        response.status_code = 422
        return response
    # In Spanish and Catalan a spreadsheet reads ";" and decimal commas: the CSV in the visitor's words,
    # unless the plain one (commas, points, the column names of the command line's CSV) is asked for.
    plain = language == "en" or submitted.fields.get("csv") == "plain"
    text = (
        report_csv(outcome.result.report, lambda k: explanations.k_reason(k, site.translator("en")))
        if plain
        else localized_csv(outcome.result.report, site.translator(language))
    )
    return Response(
        "\ufeff" + text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{csv_filename(outcome.result.filename)}"',
            "Cache-Control": "no-store",
        },
    )


def csv_filename(uploaded: str) -> str:
    """``candidates-2022.pgn`` → ``candidates-2022-ratings.csv``; only ASCII letters, digits, ``.-_``."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", PurePath(uploaded.replace("\\", "/")).stem).strip("-.")
    return f"{stem or 'tournament'}-ratings.csv"


@router.post(
    "/api/report",
    tags=["calculations"],
    summary="A whole tournament from its file",
    openapi_extra=_API_BODY,
    response_model=ReportDocument,
    responses=ERROR_RESPONSES,
)
async def api_report(request: Request) -> Any:
    """Every player's rating change from a TRF, PGN or CSV file sent as `multipart/form-data`.

    The answer has the tournament, the rules, each player's line (the CSV's columns) with the
    working of every game, and the file's problems with their line numbers. Bad input: 422 with
    the field in `loc` (`["body", "file"]`).
    """
    site = site_of(request)
    language = site.language(request)
    submitted, unreadable = await read_form_or_query(request, file_limit=FILE_LIMIT, big_fields=TEXT_FIELDS)
    problems = _start(request, site, language, unreadable, submitted)
    if problems:
        return unprocessable(problems)
    outcome = await _computed(request, report_inputs(submitted, api=True), problems, site)
    if outcome.result is None:
        return unprocessable(problems)
    return report_document(outcome.result, problems.t)
