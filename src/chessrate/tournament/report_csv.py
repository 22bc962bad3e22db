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

#: The columns that are a player's fields as they are: who the player is, and the player's games.
PLAYER_COLUMNS = (
    "start_number", "name", "fide_id", "title", "federation", "rating", "rating_source", "birth_year",
)  # fmt: skip
GAMES_COLUMNS = (
    "games", "games_against_unrated", "score", "expected", "capped_games", "change", "rounded_change",
    "new_rating",
)  # fmt: skip

#: The columns of the CSV report, in order (:func:`report_rows` has these and ``k_params``).
CSV_COLUMNS = (
    *PLAYER_COLUMNS, "k", "k_reason", "k_source", *GAMES_COLUMNS,
    "performance", "initial_rating", "initial_reason",
)  # fmt: skip


def report_row(player: PlayerReport) -> dict[str, Any]:
    """One player's line as plain values (``None`` where there is nothing), unrounded numbers kept."""
    return {
        **{column: getattr(player, column) for column in PLAYER_COLUMNS},
        "k": player.k.k if player.k else None,
        "k_reason": player.k.code if player.k else None,
        "k_params": player.k.reason_params() if player.k else None,
        "k_source": str(player.k_source) if player.k_source else None,
        **{column: getattr(player, column) for column in GAMES_COLUMNS},
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
