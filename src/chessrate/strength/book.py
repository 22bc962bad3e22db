"""The opening moves of the calibration games and the ratings of the players who chose them.

Players of different strength choose different moves in the same opening position: this is what
Maia (McIlroy-Young et al., 2020, "Aligning Superhuman AI with Human Behavior: Chess as a Model
System", KDD) learns with a network; here it is a plain table. For every position of the first
``BOOK_PLIES`` plies of the fit's games: how many players had to move there and their mean rating,
and for every move played there at least ``LEAST`` times, how many chose it and their mean rating.
A player's features are read off the player's own moves while they stay in the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import chess

from chessrate.analysis.games import GameAnalysis

#: The opening is the first this many plies (our choice: 10 moves each, the features' opening).
BOOK_PLIES = 20
#: A move is in the table when at least this many players of the fit chose it (our choice: fewer
#: players give a mean rating too noisy to be evidence).
LEAST = 5
#: The features, for one player.
BOOK_FEATURES: tuple[str, ...] = ("book_rating", "book_edge", "book_edge_sum", "book_depth", "book_moves")

NAN = float("nan")

#: One ply of the opening: (position key, the move in UCI, White to move).
Ply = tuple[str, str, bool]


def opening_plies(analysis: GameAnalysis, known: dict[str, str] | None = None) -> tuple[Ply, ...]:
    """The first ``BOOK_PLIES`` plies of a game from the standard start (none from a set-up position).

    ``known``, when given, keeps each position's key by the moves that led to it from the start and
    is read before the board is: a fit reads thousands of games that share their first moves, and
    writing a position's key costs more than the rest of the ply."""
    if (
        analysis.headers.get("SetUp") == "1"
        and analysis.headers.get("FEN", chess.STARTING_FEN) != chess.STARTING_FEN
    ):
        return ()
    board = chess.Board()
    plies = []
    path = ""
    for move in analysis.moves[:BOOK_PLIES]:
        key = None if known is None else known.get(path)
        if key is None:
            key = board.epd()
            if known is not None:
                known[path] = key
        plies.append((key, move.uci, board.turn == chess.WHITE))
        board.push(chess.Move.from_uci(move.uci))
        path += " " + move.uci
    return tuple(plies)


@dataclass(frozen=True)
class Book:
    """Per position and per (position, move): (players, their mean rating)."""

    positions: dict[str, tuple[int, float]]
    moves: dict[str, tuple[int, float]]

    @classmethod
    def fit(cls, games: Iterable[tuple[Sequence[Ply], bool, float]]) -> Book:
        """From (the game's opening plies, the player is White, the player's rating) per player-game."""
        positions: dict[str, list[float]] = {}
        moves: dict[str, list[float]] = {}
        for plies, white, rating in games:
            for key, uci, to_move in plies:
                if to_move != white:
                    continue
                for table, name in ((positions, key), (moves, f"{key} {uci}")):
                    entry = table.setdefault(name, [0, 0.0])
                    entry[0] += 1
                    entry[1] += rating
        kept = {name: (int(n), total / n) for name, (n, total) in moves.items() if n >= LEAST}
        used = {name.rsplit(" ", 1)[0] for name in kept}
        return cls(
            {name: (int(n), total / n) for name, (n, total) in positions.items() if name in used},
            kept,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "plies": BOOK_PLIES,
            "least": LEAST,
            "positions": {k: [n, round(v, 1)] for k, (n, v) in sorted(self.positions.items())},
            "moves": {k: [n, round(v, 1)] for k, (n, v) in sorted(self.moves.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Book:
        return cls(
            {k: (int(v[0]), float(v[1])) for k, v in data["positions"].items()},
            {k: (int(v[0]), float(v[1])) for k, v in data["moves"].items()},
        )

    def features(self, plies: Sequence[Ply], *, white: bool) -> dict[str, float]:
        """``BOOK_FEATURES`` of one player: the mean rating of those who chose the player's moves, how
        much above the position's players that is (mean and sum), how many moves the player stayed in
        the table from the start, and how many of the player's moves it holds."""
        ratings, edges = [], []
        depth, left = 0, False
        for key, uci, to_move in plies:
            if to_move != white:
                continue
            found = self.moves.get(f"{key} {uci}")
            if found is None:
                left = True
                continue
            ratings.append(found[1])
            edges.append(found[1] - self.positions[key][1])
            depth += 0 if left else 1
        if not ratings:
            return {
                "book_rating": NAN,
                "book_edge": NAN,
                "book_edge_sum": 0.0,
                "book_depth": 0.0,
                "book_moves": 0.0,
            }
        return {
            "book_rating": sum(ratings) / len(ratings),
            "book_edge": sum(edges) / len(edges),
            "book_edge_sum": sum(edges),
            "book_depth": float(depth),
            "book_moves": float(len(ratings)),
        }
