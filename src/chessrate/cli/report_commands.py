"""``chessrate report FILE``: every player's rating change from a TRF, PGN or CSV file."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Annotated

import jinja2
import typer

from chessrate.cli.app import app
from chessrate.cli.output import fmt, print_json, print_table
from chessrate.errors import InvalidInputError
from chessrate.formats import read_tournament
from chessrate.parse import parse_date
from chessrate.presets import resolve_rule_set
from chessrate.report import (
    CSV_COLUMNS,
    TournamentReport,
    read_k_file,
    report_csv,
    report_row,
    report_rows,
    report_tournament,
)

FORMATS = ("table", "csv", "json", "html")


@app.command()
def report(
    file: Annotated[Path, typer.Argument(help="A TRF, PGN or CSV file.", show_default=False)],
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Rules of this day; default: the tournament's start.")
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="fide (default), elo, ciabe or FILE.toml.")
    ] = None,
    k_file: Annotated[
        Path | None, typer.Option("--k-file", help="CSV 'player,k': a K per FIDE id or start number.")
    ] = None,
    output: Annotated[str, typer.Option("--format", help="table, csv, json or html.")] = "table",
    strict: Annotated[bool, typer.Option("--strict", help="Refuse a file with any error.")] = False,
) -> None:
    """Every player's rating change from a tournament file, with the file's problems listed."""
    if output not in FORMATS:
        raise InvalidInputError("format", output, "use table, csv, json or html")
    read = read_tournament(file, strict=strict)  # strict: the first error raises FileFormatError
    day = parse_date(as_of, field="as_of") if as_of else read.tournament.start_date or dt.date.today()
    k_by_player = None
    if k_file is not None:
        try:
            k_text = k_file.read_text(encoding="utf-8-sig")
        except OSError as error:
            raise InvalidInputError("k_file", str(k_file), error.strerror or "cannot be read") from None
        k_by_player = read_k_file(k_text, origin=str(k_file))
    result = report_tournament(
        read, rules=resolve_rule_set(rules, as_of=day), as_of=day, k_by_player=k_by_player
    )
    {"table": _print_table, "csv": _print_csv, "json": _print_json, "html": _print_html}[output](result)


def _title(result: TournamentReport) -> str:
    name = result.tournament.name or "Tournament"
    return f"{name} — {result.rules.title}, rules of {result.as_of.isoformat()}"


def _print_json(result: TournamentReport) -> None:
    tournament = result.tournament
    print_json(
        {
            "tournament": {
                "name": tournament.name,
                "format": tournament.source_format,
                "start_date": tournament.start_date.isoformat() if tournament.start_date else None,
                "end_date": tournament.end_date.isoformat() if tournament.end_date else None,
                "rounds": tournament.rounds,
            },
            "rules": result.rules.title,
            "as_of": result.as_of.isoformat(),
            "players": report_rows(result),
            "warnings": list(result.warnings),
        }
    )


def _print_csv(result: TournamentReport) -> None:
    sys.stdout.write(report_csv(result))


def _print_table(result: TournamentReport) -> None:
    rows = []
    for player in result.players:
        row = report_row(player)
        outcome = f"initial {fmt(row['initial_rating'])}" if player.rating is None else fmt(row["new_rating"])
        rows.append(
            [
                str(player.start_number), player.name[:28], fmt(player.rating), fmt(row["k"]),
                str(player.games), fmt(player.score), fmt(player.expected),
                fmt(player.change, signed=True, places=2) if player.change is not None else "—",
                fmt(player.rounded_change, signed=True), outcome, fmt(row["performance"]),
            ]
        )  # fmt: skip
    columns = [
        "no",
        "name",
        "rating",
        "K",
        "games",
        "score",
        "expected",
        "change",
        "rounded",
        "new",
        "perf",
    ]
    print_table(_title(result), columns, rows)
    for warning in result.warnings:
        sys.stderr.write(f"warning: {warning}\n")


_HTML = jinja2.Environment(autoescape=True).from_string(
    """<!doctype html>
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
)


def _print_html(result: TournamentReport) -> None:
    rows = report_rows(result)
    sys.stdout.write(
        _HTML.render(title=_title(result), columns=CSV_COLUMNS, rows=rows, warnings=result.warnings) + "\n"
    )
