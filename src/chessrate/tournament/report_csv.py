"""A report's lines as plain values and as CSV text: the columns the command line, the web page's
CSV and the JSON document share."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from chessrate.formats.spreadsheet import neutralise
from chessrate.systems.fide.k_factor import KFactor
from chessrate.tournament.report import PlayerReport, TournamentReport

#: The columns of the CSV report, in order (:func:`report_rows` has these and a few more).
CSV_COLUMNS = (
    "start_number", "name", "fide_id", "title", "federation", "rating", "rating_source", "birth_year",
    "k", "k_reason", "k_source", "games",
    "games_against_unrated", "score", "expected", "capped_games", "change", "rounded_change",
    "new_rating", "performance", "initial_rating", "initial_reason",
)  # fmt: skip


def report_row(player: PlayerReport) -> dict[str, Any]:
    """One player's line as plain values (``None`` where there is nothing), unrounded numbers kept."""
    return {
        "start_number": player.start_number,
        "name": player.name,
        "fide_id": player.fide_id,
        "title": player.title,
        "federation": player.federation,
        "rating": player.rating,
        "rating_source": player.rating_source,
        "birth_year": player.birth_year,
        "k": player.k.k if player.k else None,
        "k_reason": player.k.code if player.k else None,
        "k_params": player.k.reason_params() if player.k else None,
        "k_source": str(player.k_source) if player.k_source else None,
        "games": player.games,
        "games_against_unrated": player.games_against_unrated,
        "score": player.score,
        "expected": player.expected,
        "capped_games": player.capped_games,
        "change": player.change,
        "rounded_change": player.rounded_change,
        "new_rating": player.new_rating,
        "performance": player.performance.rating if player.performance else None,
        "initial_rating": player.initial.rating if player.initial else None,
        "initial_reason": player.initial.outcome.value if player.initial else None,
    }


def report_rows(report: TournamentReport) -> list[dict[str, Any]]:
    """Every player's line (:func:`report_row`), in the tournament's order."""
    return [report_row(player) for player in report.players]


def report_csv(report: TournamentReport, k_words: Callable[[KFactor], str] | None = None) -> str:
    """The report as CSV text: a header of ``CSV_COLUMNS``, one line per player, blank for none.

    ``k_reason`` is the reason's code, or its words by ``k_words`` (a face's, from the catalogs).
    Text that a spreadsheet would run as a formula is quoted (:mod:`chessrate.formats.spreadsheet`).
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for player, row in zip(report.players, report_rows(report), strict=True):
        if k_words is not None and player.k is not None:
            row["k_reason"] = k_words(player.k)
        writer.writerow({key: "" if value is None else neutralise(value) for key, value in row.items()})
    return buffer.getvalue()
