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
from chessrate.service.language import Translator
from chessrate.tournament.report import TournamentReport
from chessrate.tournament.report_csv import CSV_COLUMNS, report_row


def csv_headers(t: Translator) -> dict[str, str]:
    """The CSV's column names in ``t``'s language (the plain CSV keeps ``CSV_COLUMNS``)."""
    return {
        "start_number": t.gettext("No."),
        "name": t.gettext("Name"),
        "fide_id": t.gettext("FIDE id"),
        "title": t.gettext("Title"),
        "federation": t.gettext("Fed."),
        "rating": t.catalog.pgettext("Elo rating", "Rating"),
        "rating_source": t.gettext("Rating from"),
        "birth_year": t.gettext("Birth year"),
        "k": "K",
        "k_source": t.gettext("K from"),
        "k_reason": t.gettext("Why this K"),
        "games": t.gettext("Games"),
        "games_against_unrated": t.gettext("Games against unrated players"),
        "score": t.gettext("Score"),
        "expected": t.gettext("Expected"),
        "capped_games": t.gettext("Capped games"),
        "change": t.gettext("Change (unrounded)"),
        "rounded_change": t.gettext("Change"),
        "new_rating": t.gettext("New rating"),
        "performance": t.gettext("Performance"),
        "initial_rating": t.gettext("Initial rating"),
        "initial_reason": t.gettext("Why this initial rating"),
    }


def csv_sources(t: Translator) -> dict[str, str]:
    """Where a rating or a K came from (``report.KSource`` and ``rating_source``), in ``t``'s language."""
    return {
        "file": t.gettext("the file"),
        "fide-list": t.gettext("FIDE rating list"),
        "k-file": t.gettext("the K file"),
        "given": t.gettext("given by you"),
        "profile": t.gettext("the rules, from the rating and the birth year"),
        "rating only": t.gettext("the rules, from the rating alone"),
    }


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
        sources = csv_sources(t)
        for column in ("rating_source", "k_source"):
            row[column] = sources.get(str(row[column]), row[column]) if row[column] else row[column]
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
