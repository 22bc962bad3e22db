"""A report's lines as plain values and as CSV text: the columns the command line, the web page's
CSV and the JSON document share."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from chessrate.formats.spreadsheet import neutralise
from chessrate.tournament.report import PlayerReport, TournamentReport

#: The columns of the CSV report, in order: the keys of :func:`report_row`.
CSV_COLUMNS = (
    "start_number", "name", "fide_id", "title", "federation", "rating", "rating_source", "birth_year",
    "k", "k_reason", "k_source", "games",
    "games_against_unrated", "score", "expected", "capped_games", "change", "rounded_change",
    "new_rating", "performance", "initial_rating", "initial_reason",
)  # fmt: skip


#: The columns that are not a field of :class:`PlayerReport` as it is, and how each is read.
_READ: dict[str, Callable[[PlayerReport], Any]] = {
    "k": lambda player: player.k.k if player.k else None,
    "k_reason": lambda player: player.k.reason if player.k else None,
    "k_source": lambda player: str(player.k_source) if player.k_source else None,
    "performance": lambda player: player.performance.rating if player.performance else None,
    "initial_rating": lambda player: player.initial.rating if player.initial else None,
    "initial_reason": lambda player: player.initial.reason if player.initial else None,
}


def report_row(player: PlayerReport) -> dict[str, Any]:
    """One player's line as plain values (``None`` where there is nothing), unrounded numbers kept,
    in the order of :data:`CSV_COLUMNS`."""
    return {
        column: read(player) if (read := _READ.get(column)) else getattr(player, column)
        for column in CSV_COLUMNS
    }


def report_rows(report: TournamentReport) -> list[dict[str, Any]]:
    """Every player's line (:func:`report_row`), in the tournament's order."""
    return [report_row(player) for player in report.players]


def report_csv(report: TournamentReport) -> str:
    """The report as CSV text: a header of ``CSV_COLUMNS``, one line per player, blank for none.

    Text that a spreadsheet would run as a formula is quoted (:mod:`chessrate.formats.spreadsheet`).
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in report_rows(report):
        writer.writerow({key: "" if value is None else neutralise(value) for key, value in row.items()})
    return buffer.getvalue()
