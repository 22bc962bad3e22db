"""What ``chessrate list player`` prints: a player's history (``--json``: its document), and a
list line's note in words and codes (``list show``, ``list run``)."""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING, Any

from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.output import fmt, print_table
from chessrate.identity import identity_fields

if TYPE_CHECKING:
    from chessrate.ratinglist.queries import HistoryLine, PlayerView
    from chessrate.systems.fide.k_factor import KFactor


def player_document(view: PlayerView) -> dict[str, Any]:
    """The player and every line of their history, as ``--json`` prints them."""
    return {
        "id": view.id,
        **identity_fields(view),  # name, FIDE id, title, federation, birth year, sex
        "fide_ratings": [
            {
                "list_type": line.list_type,
                "month": line.month.isoformat()[:7],
                "rating": line.rating,
                "games": line.games,
                "k": line.k,
                "flag": line.flag,
                "file": line.file_name,
            }
            for line in view.fide_lines
        ],
        "history": [
            {
                "period": line.period,
                "list_date": line.list_date.isoformat(),
                "status": line.status,
                "rating_before": line.rating_before,
                "rating": line.rating,
                "k": line.k,
                "k_reason": _k_of(line).code if line.k_reason else None,
                "k_params": _k_of(line).reason_params() if line.k_reason else None,
                "games": line.games,
                "score": line.score,
                "expected": line.expected,
                "change": line.change,
                "rounded_change": line.rounded_change,
                "adjustment": line.adjustment,
                "deviation": line.deviation,
                "note": note_words(line.note),
                "note_codes": note_codes(line.note),
                "games_rated": [
                    {
                        "event_id": g.event_id,
                        "event": g.event,
                        "opponent": g.opponent,
                        "own_rating": g.own_rating,
                        "opponent_rating": g.opponent_rating,
                        "difference": g.difference,
                        "capped": g.capped,
                        "expected": g.expected,
                        "score": g.score,
                        "change": g.change,
                    }
                    for g in line.game_lines
                ],
            }
            for line in view.history
        ],
    }


def print_player(view: PlayerView) -> None:
    """The history as a table, FIDE's lines, then each list's games."""
    from chessrate.service import explanations

    rows = [
        [
            line.period, line.list_date.isoformat(), fmt(line.rating_before), fmt(line.rating),
            fmt(line.rounded_change, signed=True), fmt(line.adjustment, signed=True), fmt(line.k),
            str(line.games), _(line.status),
        ]
        for line in view.history
    ]  # fmt: skip
    columns = [
        N_("period"),
        N_("list of"),
        N_("before"),
        N_("rating"),
        N_("change"),
        N_("adjust"),
        "K",
        N_("games"),
        N_("status"),
    ]
    title = _(
        "%(name)s (FIDE id %(fide_id)s, store id %(id)s)",
        name=view.name,
        fide_id=fmt(view.fide_id),
        id=view.id,
    )
    print_table(title, columns, rows)
    for fide in view.fide_lines:
        said = _(
            "FIDE %(list)s list of %(month)s: rating %(rating)s, K %(k)s, games %(games)s",
            list=_(fide.list_type),
            month=fide.month.isoformat()[:7],
            rating=fmt(fide.rating),
            k=fmt(fide.k),
            games=fmt(fide.games),
        )
        sys.stdout.write(said + "\n")
    for line in view.history:
        if line.game_lines:
            why = (
                explanations.k_reason(_k_of(line), words(), source=True)
                if line.k_reason
                else note_words(line.note)
            )
            sys.stdout.write(f"{line.period}: {why or ''}\n")
            for g in line.game_lines:
                said = _(
                    "%(event)s: vs %(opponent)s (%(rating)s) score %(score)s expected %(expected)s "
                    "change %(change)s",
                    event=g.event,
                    opponent=g.opponent,
                    rating=fmt(g.opponent_rating),
                    score=fmt(g.score),
                    expected=fmt(g.expected),
                    change=fmt(g.change, signed=True),
                )
                sys.stdout.write(f"  {said}\n")


def _k_of(line: HistoryLine) -> KFactor:
    """The line's K and its stored reason (code and values: chessrate.ratinglist.k_reasons)."""
    from chessrate.ratinglist.k_reasons import stored_k

    return stored_k(line.k or 0, line.k_reason or "")


@functools.cache
def note_words(note: str | None) -> str | None:
    """A line's note in English words, from the catalog (its clauses: chessrate.ratinglist.notes)."""
    from chessrate.service import explanations

    return explanations.list_note(note, words()) if note else None


def note_codes(note: str | None) -> list[dict[str, object]] | None:
    """A line's note as its clauses' codes and values (docs/codes.md)."""
    from chessrate.ratinglist.notes import note_clauses

    return [{"code": code, "params": params} for code, params in note_clauses(note)] if note else None
