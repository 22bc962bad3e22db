"""``chessrate report FILE``: every player's rating change from a TRF, PGN or CSV file.

The file is read into the request layer's :class:`~chessrate.service.tournament_file.ReportInputs`,
as the web's ``/report`` page and ``POST /api/report`` do; ``--format json`` prints the API's document.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Annotated

import typer

from chessrate.cli.app import app
from chessrate.cli.files import checked_file, read_checked
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.options import result_of, rule_options
from chessrate.cli.output import fmt, print_big_document, print_table
from chessrate.errors import InvalidInputError
from chessrate.formats import ReadResult
from chessrate.runtime.gc_pause import cycle_collector_paused
from chessrate.service import explanations
from chessrate.service.problems import Problems
from chessrate.service.report_csv import localized_csv
from chessrate.service.tournament_file import (
    MAX_FILE,
    MAX_SMALL_FILE,
    FileInput,
    ReportInputs,
    report_document,
    tournament_file,
    warning_lines,
)
from chessrate.tournament.report import TournamentReport
from chessrate.tournament.report_csv import CSV_COLUMNS, report_csv, report_row, report_rows

FORMATS = ("table", "csv", "json", "html")
#: Where a player's K came from (``report.KSource``), as the table says it.
K_SOURCES = {
    "file": N_("file"),
    "fide-list": N_("fide-list"),
    "k-file": N_("k-file"),
    "given": N_("given"),
    "profile": N_("profile"),
    "rating only": N_("rating only"),
}


def _file(path: Path, field: str, limit: int = MAX_FILE) -> FileInput:
    data = read_checked(path, field, limit)
    return FileInput(name=str(path), data=data, size=len(data))


@app.command(help=N_("Every player's rating change from a tournament file, with the file's problems listed."))
def report(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help=N_("A TRF, PGN or CSV file."), show_default=False)
    ],
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of", metavar="YYYY-MM-DD", help=N_("Rules of this day; default: the tournament's start.")
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", metavar="NAME|FILE.toml", help=N_("fide (default), elo, ciabe or FILE.toml.")
        ),
    ] = None,
    k_file: Annotated[
        Path | None,
        typer.Option("--k-file", metavar="FILE", help=N_("CSV 'player,k': a K per FIDE id or start number.")),
    ] = None,
    k: Annotated[
        str | None,
        typer.Option(
            "--k", metavar="K", help=N_("One K for every player (rule sets without a K rule need it).")
        ),
    ] = None,
    players_list: Annotated[
        Path | None,
        typer.Option(
            "--players-list",
            metavar="FILE",
            help=N_("FIDE's rating list (TXT or XML, or its zip): FIDE's K, birth year and missing ratings."),
        ),
    ] = None,
    list_type: Annotated[
        str,
        typer.Option(
            "--list-type",
            metavar="standard|rapid|blitz",
            help=N_("Which list of it, and so which FIDE rules: standard (default), rapid or blitz."),
        ),
    ] = "standard",
    output: Annotated[
        str, typer.Option("--format", metavar="table|csv|json|html", help=N_("table, csv, json or html."))
    ] = "table",
    strict: Annotated[bool, typer.Option("--strict", help=N_("Refuse a file with any error."))] = False,
) -> None:
    if output not in FORMATS:
        raise InvalidInputError("--format", output, _("use table, csv, json or html"))
    with cycle_collector_paused():
        _report(file, as_of, rules, k_file, k, players_list, list_type, output, strict)


def _report(
    file: Path,
    as_of: str | None,
    rules: str | None,
    k_file: Path | None,
    k: str | None,
    players_list: Path | None,
    list_type: str,
    output: str,
    strict: bool,
) -> None:
    if players_list is not None:
        checked_file(players_list, "--players-list")
    inputs = ReportInputs(
        file=_file(file, "file"),
        k_file=_file(k_file, "--k-file", MAX_SMALL_FILE) if k_file is not None else None,
        players_list=players_list,
        list_type=list_type,
        strict="true" if strict else "",
        options=rule_options(rules=rules, as_of=as_of, k=k),
    )
    result = result_of(tournament_file(inputs, Problems(words()), today=dt.date.today()))
    if output == "json":
        print_big_document(report_document(result, words()))
    elif output == "csv":
        if words().language == "en":  # the plain CSV: commas, points, the column names of the JSON
            sys.stdout.write(report_csv(result.report, lambda k: explanations.k_reason(k, words())))
        else:  # as the web's download in Spanish and Catalan: ";" and decimal commas, for a spreadsheet
            sys.stdout.write(localized_csv(result.report, words()))
    elif output == "html":
        _print_html(result.report)
    else:
        _print_table(result.report, result.read)


def _title(result: TournamentReport) -> str:
    name = result.tournament.name or _("Tournament")
    return _(
        "%(name)s — %(rules)s, rules of %(day)s",
        name=name,
        rules=explanations.report_rules_title(result.rules, result.as_of, words()),
        day=result.as_of.isoformat(),
    )


def _print_table(result: TournamentReport, read: ReadResult) -> None:
    rows = []
    for player in result.players:
        row = report_row(player)
        outcome = (
            _("initial %(rating)s", rating=fmt(row["initial_rating"]))
            if player.rating is None
            else fmt(row["new_rating"])
        )
        rows.append(
            [
                str(player.start_number), player.name[:28], fmt(player.rating), fmt(row["k"]),
                _(K_SOURCES.get(row["k_source"], row["k_source"])) if row["k_source"] else "—",
                str(player.games), fmt(player.score, places=1), fmt(player.expected),
                fmt(player.change, signed=True, places=2) if player.change is not None else "—",
                fmt(player.rounded_change, signed=True), outcome, fmt(row["performance"]),
            ]
        )  # fmt: skip
    columns = [
        N_("no"),
        N_("name"),
        N_("rating"),
        "K",
        N_("K from"),
        N_("rated\ngames"),
        N_("rated\nscore"),
        N_("expected"),
    ]
    columns += [N_("change"), N_("rounded"), N_("new"), N_("perf")]
    caption = _("rated games and score: the games played against rated opponents (FIDE B.02 8.3.1)")
    print_table(_title(result), columns, rows, caption=caption)
    if words().language != "en":  # the report's notes and problems, as the API's warnings say them
        sys.stderr.writelines(line + "\n" for line in warning_lines(result, words()))
        return
    problems = {str(problem): problem for problem in read.problems}
    for warning in result.warnings:  # each once: "warning: game at line 1: …", "error: line 17: …"
        problem = problems.get(warning)
        line = f"warning: {warning}" if problem is None else f"{problem.severity}: {problem.located()}"
        sys.stderr.write(line + "\n")


_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}td.name{text-align:left}</style>
</head><body><h1>{{ title }}</h1>
<table><thead><tr>{% for c in columns %}<th>{{ c }}</th>{% endfor %}</tr></thead><tbody>
{% for row in rows %}<tr>{% for c in columns %}<td{% if c == "name" %} class="name"{% endif %}>{{
 row[c] if row[c] is not none else "" }}</td>{% endfor %}</tr>
{% endfor %}</tbody></table>
{% if warnings %}<h2>Warnings</h2><ul>{% for w in warnings %}<li>{{ w }}</li>{% endfor %}</ul>{% endif %}
</body></html>
"""


def _print_html(result: TournamentReport) -> None:
    import jinja2  # only for this format

    page = jinja2.Environment(autoescape=True).from_string(_HTML)
    rows = report_rows(result)
    sys.stdout.write(
        page.render(title=_title(result), columns=CSV_COLUMNS, rows=rows, warnings=result.warnings) + "\n"
    )
