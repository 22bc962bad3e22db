"""The games of a TRF file, out of its round cells (:mod:`.trf_cells`), and the checks of both sides.

A TRF writes each game twice, once in each player's line ([TRF16], [TRF26]): if A's round-3 cell
says ``B w 1``, B's round-3 cell must say ``A b 0``. Every disagreement is reported on the line
that makes the claim; a pairing the two sides disagree on gives no game (we do not guess which
side is right). The declared points of each player are checked against their cells.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from chessrate.formats.checks import AGREEING_CODES, GAME_SCORE
from chessrate.formats.model import Game, GameColumns, Player, ProblemLog
from chessrate.formats.trf_cells import BLANK, KINDS, PLAYED, POINT_UNITS, Cells

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class Lineup(NamedTuple):
    """The players of a file (a repeated starting number left out), each with the place of their
    ``001`` line among those read (the cells' :attr:`.Cells.row`), and the rounds their cells fill."""

    players: Sequence[Player]
    rows: NDArray[np.int64]
    rounds: int
    """The last round with a cell that has an opponent or a result: each line's cells past it (blank
    ones) are left out, and a line that ends before it has blank cells there (no cell is made)."""
    start: NDArray[np.int64]
    """Where each player's cells start among the cells."""
    kept: NDArray[np.int64]
    """How many of each player's cells are kept (up to :attr:`rounds`)."""


def lineup(players: Sequence[Player], rows: Sequence[int], cells: Cells) -> Lineup:
    """The players' :class:`Lineup`: the rounds their cells fill."""
    import numpy as np

    used = (cells.code != BLANK) | (cells.opponent > 0)
    if len(rows) < len(cells.start) - 1:  # a repeated starting number: that line's cells do not count
        kept = np.zeros(len(cells.start), dtype=bool)
        kept[list(rows)] = True
        used &= kept[cells.row]
    rounds = int(cells.round[used].max()) + 1 if used.any() else 0
    places = np.array(rows, dtype=np.int64)
    start = cells.start[places]
    return Lineup(players, places, rounds, start, np.minimum(cells.start[places + 1] - start, rounds))


class Games(NamedTuple):
    """The games of a file, by round and then line, each made from the side with the lower number:
    its cell, that side's place among the players and the opponent's, and which is White."""

    players: Sequence[Player]
    round: NDArray[np.int64]
    """From 1."""
    own: NDArray[np.int64]
    other: NDArray[np.int64]
    own_white: NDArray[np.bool_]
    white_code: NDArray[np.uint8]
    black_code: NDArray[np.uint8]
    kind: NDArray[np.int8]
    colours_known: NDArray[np.bool_]

    def columns(self) -> GameColumns:
        """The games as the columns an import stores."""
        import numpy as np

        table = _tables()
        numbers = np.array([player.number for player in self.players], dtype=np.int64)
        white = numbers[np.where(self.own_white, self.own, self.other)]
        black = numbers[np.where(self.own_white, self.other, self.own)]
        players = self.players
        return GameColumns(
            round=self.round.tolist(),
            white=white.tolist(),
            black=black.tolist(),
            white_score=table.score[self.white_code].tolist(),
            black_score=table.score[self.black_code].tolist(),
            rated=(self.kind == PLAYED).tolist(),
            code=table.text[self.white_code].tolist(),
            line=list(map([player.line or 0 for player in players].__getitem__, self.own.tolist())),
        )

    def games(self, round_dates: Sequence[dt.date | None]) -> tuple[Game, ...]:
        """The :class:`.Game` objects, each with its side's ratings and its round's date."""
        import numpy as np

        columns = self.columns()
        ratings = np.array([player.rating for player in self.players] + [None], dtype=object)
        dated = len(round_dates)
        dates = [round_dates[number - 1] if number <= dated else None for number in self.round.tolist()]
        return Game.of_columns(
            round=columns.round,
            white=columns.white,
            black=columns.black,
            white_score=columns.white_score,
            black_score=columns.black_score,
            kind=[KINDS[number] for number in self.kind.tolist()],
            counts_for_rating=columns.rated,
            code=columns.code,
            line=columns.line,
            colours_known=self.colours_known.tolist(),
            white_rating=ratings[np.where(self.own_white, self.own, self.other)].tolist(),
            black_rating=ratings[np.where(self.own_white, self.other, self.own)].tolist(),
            date=dates,
        )


def pair_games(cells: Cells, lineup: Lineup, log: ProblemLog) -> Games:
    """The games of the pairings, each made once, from the side with the lower number, out of the
    two cells that describe it; each problem of a pairing reported on the line of the cell that
    claims it, line after line and round after round."""
    import numpy as np

    players = lineup.players
    table = _tables()
    numbers = np.array([player.number for player in players], dtype=np.int64)
    index = (cells.opponent > 0).nonzero()[0]  # the cells with an opponent, line after line
    own = cells.row[index]
    if len(players) < len(cells.start) - 1:  # a repeated starting number: that line's cells do not count
        place = np.full(len(cells.start), -1, dtype=np.int64)
        place[lineup.rows] = np.arange(len(players))
        own = place[own]
        index, own = index[own >= 0], own[own >= 0]
    start, kept = lineup.start, lineup.kept
    opponent, round_index = cells.opponent[index], cells.round[index]
    own_number = numbers[own]
    seat = np.full(max(int(numbers.max(initial=0)), int(opponent.max(initial=0))) + 1, -1, dtype=np.int64)
    seat[numbers] = np.arange(len(players))
    other = seat[opponent]  # -1: not in the file
    reach = (other >= 0) & (round_index < kept[other])  # the opponent's line has a cell that round
    other_index = np.where(reach, start[other] + round_index, 0)
    back = reach & (cells.opponent[other_index] == own_number)  # the opponent gives the player back
    unpaired = ~back | (opponent == own_number)
    made = (back & (own_number < opponent)).nonzero()[0]  # each game from the lower number's side
    own_cell, other_cell = index[made], other_index[made]
    own_code, other_code = cells.code[own_cell], cells.code[other_cell]
    colour, other_colour = cells.colour[own_cell], cells.colour[other_cell]
    kind = cells.kind[own_cell]
    both_known = (colour > 0) & (other_colour > 0)
    mismatch = ~table.agreeing[own_code, other_code]
    colour_mismatch = ~mismatch & both_known & (colour == other_colour)
    colour_missing = ~mismatch & ~both_known & (kind == PLAYED)
    flagged = mismatch | colour_mismatch | colour_missing
    if unpaired.any() or flagged.any():
        problems = sorted([*unpaired.nonzero()[0].tolist(), *made[flagged].tolist()])
        which = dict(zip(made.tolist(), range(len(made)), strict=True))
        for at in problems:
            cell = _Pairing(
                players[own[at]],
                int(round_index[at]) + 1,
                int(opponent[at]),
                players[other[at]].line or 0 if other[at] >= 0 else 0,
            )
            game = which.get(at)
            if game is None:
                other_opponent = int(cells.opponent[other_index[at]]) if reach[at] else 0
                cell.unpaired(other_opponent or None, log, in_file=bool(other[at] >= 0))
            elif mismatch[game]:
                cell.result_mismatch(table.text[own_code[game]], table.text[other_code[game]], log)
            elif colour_mismatch[game]:
                cell.colour_mismatch(str(_COLOURS[colour[game]]), log)
            else:
                cell.colour_missing(log)
        kept_games = ~mismatch
        made, own_code, other_code = made[kept_games], own_code[kept_games], other_code[kept_games]
        colour, other_colour, kind = colour[kept_games], other_colour[kept_games], kind[kept_games]
    order = np.argsort(round_index[made], kind="stable")  # by round, then line
    made, own_code, other_code = made[order], own_code[order], other_code[order]
    colour, other_colour, kind = colour[order], other_colour[order], kind[order]
    own_white = (colour == 1) | ((colour == 0) & (other_colour != 1))
    return Games(
        players=players,
        round=round_index[made] + 1,
        own=own[made],
        other=other[made],
        own_white=own_white,
        white_code=np.where(own_white, own_code, other_code),
        black_code=np.where(own_white, other_code, own_code),
        kind=kind,
        colours_known=(colour > 0) & (other_colour > 0) & (colour != other_colour),
    )


_COLOURS = (None, "w", "b")


@dataclass(frozen=True)
class _Pairing:
    """A player's cell with an opponent, for the words of its problem: the player, the round, the
    opponent's number and, when the opponent is in the file, their line."""

    player: Player
    round: int
    opponent: int
    other_line: int

    def _at(self) -> dict[str, object]:
        return {"round": self.round, "player": self.player.number}

    def _where(self) -> str:
        return f"round {self.round}: player {self.player.number}"

    def unpaired(self, other_opponent: int | None, log: ProblemLog, *, in_file: bool) -> None:
        """The player's opponent is the player, or not ``in_file``, or their line gives in that round
        ``other_opponent`` (``None``: no opponent, or no cell) rather than the player."""
        if self.opponent == self.player.number:
            self.self_pairing(log)
        elif not in_file:
            self.unknown_opponent(log)
        else:
            self.asymmetric(other_opponent, log)

    def self_pairing(self, log: ProblemLog) -> None:
        log.error(
            self.player.line, "self-pairing", f"{self._where()} is paired with themselves", **self._at()
        )

    def unknown_opponent(self, log: ProblemLog) -> None:
        log.error(
            self.player.line,
            "unknown-opponent",
            f"{self._where()} meets {self.opponent}, who is not in the file",
            opponent=self.opponent,
            **self._at(),
        )

    def asymmetric(self, other_opponent: int | None, log: ProblemLog) -> None:
        says = "no opponent" if other_opponent is None else f"opponent {other_opponent}"
        number = self.opponent
        log.error(
            self.player.line,
            "asymmetric-pairing",
            f"{self._where()} meets {number}, but line {self.other_line} gives {number} {says} in round "
            f"{self.round}",
            opponent=number,
            other_line=self.other_line,
            other_opponent=other_opponent or 0,
            **self._at(),
        )

    def result_mismatch(self, code: str, other_code: str, log: ProblemLog) -> None:
        log.error(
            self.player.line,
            "result-mismatch",
            f"{self._where()} has result {code or 'blank'!r} against {self.opponent}, "
            f"whose line {self.other_line} has {other_code or 'blank'!r}",
            opponent=self.opponent,
            other_line=self.other_line,
            result=code or "—",
            other_result=other_code or "—",
            **self._at(),
        )

    def colour_mismatch(self, colour: str, log: ProblemLog) -> None:
        log.error(
            self.player.line,
            "colour-mismatch",
            f"{self._where()} and {self.opponent} both have colour {colour!r}",
            opponent=self.opponent,
            colour=colour,
            **self._at(),
        )

    def colour_missing(self, log: ProblemLog) -> None:
        log.warning(
            self.player.line,
            "colour-missing",
            f"{self._where()}: the game with {self.opponent} has no colour on one side",
            opponent=self.opponent,
            **self._at(),
        )


def check_points(cells: Cells, lineup: Lineup, blank: Decimal, log: ProblemLog) -> None:
    """Declared points (columns 81-84) against the sum of the player's cells under the file's
    scoring; each of the rounds after the end of a player's line is a blank cell worth ``blank``.
    Added in whole :data:`.POINT_UNITS`; the sum said in a mismatch is added as :class:`Decimal`."""
    import numpy as np

    start, kept = lineup.start, lineup.kept
    added = np.concatenate(([0], np.cumsum(cells.units)))
    blank_units = int(blank / POINT_UNITS)
    rows = zip(
        lineup.players,
        (added[start + kept] - added[start]).tolist(),
        start.tolist(),
        kept.tolist(),
        strict=True,
    )
    for player, units, first, count in rows:
        absent = lineup.rounds - count
        if player.points is None or player.points / POINT_UNITS == units + blank_units * absent:
            continue
        computed = sum(cells.points[first : first + count], blank * absent if absent else Decimal(0))
        log.error(
            player.line,
            "points-mismatch",
            f"player {player.number} declares {player.points} points; the rounds give {computed}",
            player=player.number,
            declared=player.points,
            computed=computed,
        )


@dataclass(frozen=True)
class _Tables:
    """What each result byte means for a game, as tables indexed by it (numpy arrays)."""

    agreeing: NDArray[np.bool_]
    """:data:`.checks.AGREEING_CODES` by the two sides' result bytes."""
    score: NDArray[np.object_]
    """The side's score (:data:`.checks.GAME_SCORE`), ``None`` for a blank."""
    text: NDArray[np.object_]
    """The code as a :class:`.RoundCell` holds it: ``""`` for a blank."""


@functools.cache
def _tables() -> _Tables:
    import numpy as np

    text = [chr(byte).strip() if byte < 128 else "" for byte in range(256)]
    agreeing = np.zeros((256, 256), dtype=bool)
    for first, second in AGREEING_CODES:
        agreeing[ord(first or " "), ord(second or " ")] = True
    score = [GAME_SCORE.get(code) if code else None for code in text]
    return _Tables(agreeing, np.array(score, dtype=object), np.array(text, dtype=object))
