"""A tournament report as CSV in the reader's language, for a spreadsheet: the web's download
(``/report.csv``) and ``chessrate report --format csv`` in Spanish and Catalan.

The plain CSV (commas, points, the JSON's column names) is :func:`chessrate.tournament.report_csv.report_csv`;
this one is what a spreadsheet in Spanish or Catalan opens as columns and numbers: ``;`` between
columns, the locale's decimal comma, the columns and the reasons in the language.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from chessrate.formats.spreadsheet import neutralise
from chessrate.service import explanations
from chessrate.service.language import Template, Translator, said, said_word
from chessrate.tournament.report import TournamentReport
from chessrate.tournament.report_csv import CSV_COLUMNS, report_row

#: The CSV's column names (the plain CSV keeps ``CSV_COLUMNS``).
CSV_HEADERS: dict[str, Template] = {
    "start_number": said("No."),
    "name": said("Name"),
    "fide_id": said("FIDE id"),
    "title": said("Title"),
    "federation": said("Fed."),
    "rating": lambda t, _: t.catalog.pgettext("Elo rating", "Rating"),
    "rating_source": said("Rating from"),
    "birth_year": said("Birth year"),
    "k": lambda t, _: "K",
    "k_source": said("K from"),
    "k_reason": said("Why this K"),
    "games": said("Games"),
    "games_against_unrated": said("Games against unrated players"),
    "score": said("Score"),
    "expected": said("Expected"),
    "capped_games": said("Capped games"),
    "change": said("Change (unrounded)"),
    "rounded_change": said("Change"),
    "new_rating": said("New rating"),
    "performance": said("Performance"),
    "initial_rating": said("Initial rating"),
    "initial_reason": said("Why this initial rating"),
}

#: Where a rating or a K came from (``report.KSource`` and ``rating_source``).
SOURCES: dict[str, Template] = {
    "file": said("the file"),
    "fide-list": said("FIDE rating list"),
    "k-file": said("the K file"),
    "given": said("given by you"),
    "profile": said("the rules, from the rating and the birth year"),
    "rating only": said("the rules, from the rating alone"),
}


def csv_headers(t: Translator) -> dict[str, str]:
    """The CSV's column names in ``t``'s language."""
    return {column: say(t, {}) for column, say in CSV_HEADERS.items()}


def localized_csv(report: TournamentReport, t: Translator) -> str:
    """The report as a spreadsheet in ``t``'s language opens it: ``;`` between columns, the locale's
    decimal comma, translated column names and reasons."""
    headers = csv_headers(t)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\n")
    writer.writerow([headers.get(column, column) for column in CSV_COLUMNS])
    for player in report.players:
        row = report_row(player)
        if player.k is not None:
            row["k_reason"] = explanations.k_reason(player.k, t)
        for column in ("rating_source", "k_source"):
            if row[column]:
                row[column] = said_word(SOURCES, str(row[column]), t)
        if player.initial is not None and report.rules.fide is not None:
            row["initial_reason"] = explanations.initial_reason(player.initial, report.rules.fide, t)
        writer.writerow([_cell(row[column], t) for column in CSV_COLUMNS])
    return buffer.getvalue()


def _cell(value: object, t: Translator) -> str:
    """A cell in ``t``'s language; text a spreadsheet would run as a formula quoted, as in the plain CSV."""
    if value is None:
        return ""
    if isinstance(value, Decimal | float) and not isinstance(value, bool):
        return t.number(value, 4)
    return str(neutralise(value))
