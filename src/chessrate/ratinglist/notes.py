"""A list line's note as the store keeps it: clauses, each a code and its values, never words.

``list_entries.note`` holds a compact JSON list (docs/codes.md)::

    [{"code":"initial-working","params":{"rating":1712,"sum":"1650.00 + 62 = 1712.00"}},
     {"code":"pooled","params":{"dropped":false,"first":"2024-01","last":"2024-06","n":9,
      "source":"FIDE B.02 7.1.4, 8.2, FIDE 2024-10-01"}}]

The faces say each clause from the catalogs (:func:`chessrate.service.explanations.list_note`).
Stores made before kept English clauses; migration 0006 turned them into these.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from chessrate.systems.fide.performance import InitialRating
from chessrate.systems.fide.regulations import FideRules
from chessrate.systems.rounding import round_half_away_from_zero

Clause = tuple[str, dict[str, object]]

#: B.02 7.1.4: the months over which a first rating's games may be pooled.
POOLED_MONTHS = 26


def note_text(clauses: Sequence[Clause]) -> str:
    """``clauses`` as the store keeps them."""
    stored = [{"code": code, "params": params} for code, params in clauses]
    return json.dumps(stored, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def note_clauses(text: str) -> list[Clause]:
    """The clauses of a stored note (:func:`note_text`)."""
    return [(str(clause["code"]), dict(clause.get("params", {}))) for clause in json.loads(text)]


def initial_clauses(result: InitialRating, rules: FideRules) -> list[Clause]:
    """Why a first rating is what it is (B.02 7.1.4, 8.2), from the working the core returns."""
    if result.games == 0:
        return [("initial-no-games", {})]
    if result.unrounded is None or result.average_opponent is None:
        return [("initial-zero-score", {"article": "8.2.1"})]  # B.02 8.2.1
    rounded = round_half_away_from_zero(result.unrounded)
    if result.rating is None and result.games < rules.initial_rating_min_games:
        return [
            ("initial-games", {"n": result.games}),
            ("initial-needs", {"n": rules.initial_rating_min_games, "article": "7.1.4"}),
            ("initial-pooled-months", {"n": POOLED_MONTHS}),
        ]
    if result.rating is None:
        return [("initial-below-lowest", {"rating": rounded, "floor": rules.rating_floor})]
    working = f"{result.average_opponent:.2f} + {result.dp} = {result.unrounded:.2f}"
    clauses: list[Clause] = [("initial-working", {"sum": working, "rating": result.rating})]
    if rounded != result.rating:  # B.02 8.2.4 (from 2024): a first rating is at most the maximum
        clauses.append(("initial-capped", {"rating": rounded, "limit": result.rating}))
    return clauses
