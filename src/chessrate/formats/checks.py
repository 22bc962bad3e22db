"""Consistency checks of a TRF file: both sides of every pairing agree, and declared points add up.

A TRF writes each game twice, once in each player's line ([TRF16], [TRF26]): if A's
round-3 cell says ``B w 1``, B's round-3 cell must say ``A b 0``. Every disagreement is reported on
the line that makes the claim; a pairing the two sides disagree on gives no :class:`Game` (we do not
guess which side is right).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from chessrate.formats.model import Game, Kind, Player, ProblemLog, RoundCell

#: The two sides' codes that agree (first player, second player); blank/blank is a pending pairing.
AGREEING_CODES = frozenset(
    {
        ("1", "0"),
        ("0", "1"),
        ("=", "="),
        ("W", "L"),
        ("L", "W"),
        ("D", "D"),
        ("+", "-"),
        ("-", "+"),
        ("-", "-"),
        ("", ""),
    }
)

#: A game's score for the side with this code: TRF16/TRF26 result codes.
GAME_SCORE = {
    "1": Decimal(1), "W": Decimal(1), "+": Decimal(1),
    "=": Decimal("0.5"), "D": Decimal("0.5"),
    "0": Decimal(0), "L": Decimal(0), "-": Decimal(0),
}  # fmt: skip


def unique_players(players: list[Player], log: ProblemLog) -> list[Player]:
    """Players with distinct starting numbers; a repeated number is an error (the first is kept)."""
    seen: dict[int, Player] = {}
    for player in players:
        first = seen.get(player.number)
        if first is not None:
            log.error(
                player.line,
                "repeated-player",
                f"starting number {player.number} already used on line {first.line}",
                player=player.number,
                other_line=first.line,
            )
            continue
        seen[player.number] = player
    return list(seen.values())


def fit_cells(player: Player, rounds: int) -> Player:
    """The player with at most ``rounds`` cells: the cells after ``rounds`` (blank by construction,
    ``rounds`` being the last round with any content) dropped.

    A round after the end of a player's line has no cell: it is a blank one (not paired, scored as
    a zero-point bye: :func:`check_points`), never made, so that one line reaching round 99 does not
    give every other player 99 cells.
    """
    return replace(player, cells=player.cells[:rounds]) if len(player.cells) > rounds else player


def pair_games(
    players: list[Player], log: ProblemLog, round_dates: tuple[dt.date | None, ...] = ()
) -> list[Game]:
    """The games of the file by round, each built once from the two cells that describe it."""
    by_number = {p.number: p for p in players}
    games = []
    for player in players:
        for cell in player.cells:
            game = _pair(player, cell, by_number, log, round_dates)
            if game is not None:
                games.append(game)
    return sorted(games, key=lambda g: (g.round or 0, g.line))


def _pair(
    player: Player,
    cell: RoundCell,
    by_number: dict[int, Player],
    log: ProblemLog,
    round_dates: tuple[dt.date | None, ...],
) -> Game | None:
    """The game of a player's round cell, made from the side with the lower number; ``None`` for a
    cell with no opponent, the other side's cell, or a pairing the two lines disagree on (an error
    on the cell's line)."""
    if cell.opponent is None:
        return None
    at = {"round": cell.round, "player": player.number}
    where = f"round {cell.round}: player {player.number}"
    found = _opponent(player, cell, by_number, log, where, at)
    if found is None or cell.opponent < player.number:
        return None  # no game, or built from the other side
    opponent, other = found
    if (cell.code, other.code) not in AGREEING_CODES:
        log.error(
            cell.line,
            "result-mismatch",
            f"{where} has result {cell.code or 'blank'!r} against {cell.opponent}, "
            f"whose line {other.line} has {other.code or 'blank'!r}",
            opponent=cell.opponent,
            other_line=other.line,
            result=cell.code or "—",
            other_result=other.code or "—",
            **at,
        )
        return None
    colours_known = _colours_known(cell, other, log, where, at)
    first_white = cell.colour == "w" or (cell.colour is None and other.colour != "w")
    white, black = (player, opponent) if first_white else (opponent, player)
    white_cell, black_cell = (cell, other) if first_white else (other, cell)
    dated = cell.round <= len(round_dates)
    return Game(
        round=cell.round,
        white=white.number,
        black=black.number,
        white_score=GAME_SCORE.get(white_cell.code),
        black_score=GAME_SCORE.get(black_cell.code),
        kind=cell.kind,
        counts_for_rating=cell.kind is Kind.PLAYED,
        code=white_cell.code,
        line=cell.line,
        colours_known=colours_known,
        white_rating=white.rating,
        black_rating=black.rating,
        date=round_dates[cell.round - 1] if dated else None,
    )


def _opponent(
    player: Player,
    cell: RoundCell,
    by_number: dict[int, Player],
    log: ProblemLog,
    where: str,
    at: dict[str, int],
) -> tuple[Player, RoundCell] | None:
    """The opponent of a cell and their cell of the round, when their line gives the player back;
    else ``None``, with the error (a player paired with themselves, or with a number not in the
    file, or whose opponent's line says otherwise)."""
    number = cell.opponent
    assert number is not None
    if number == player.number:
        log.error(cell.line, "self-pairing", f"{where} is paired with themselves", **at)
        return None
    opponent = by_number.get(number)
    if opponent is None:
        log.error(
            cell.line,
            "unknown-opponent",
            f"{where} meets {number}, who is not in the file",
            opponent=number,
            **at,
        )
        return None
    # A round after the end of the opponent's line: a blank cell, no opponent (fit_cells).
    other = opponent.cells[cell.round - 1] if cell.round <= len(opponent.cells) else None
    if other is not None and other.opponent == player.number:
        return opponent, other
    other_opponent = other.opponent if other is not None else None
    other_line = other.line if other is not None else opponent.line
    says = "no opponent" if other_opponent is None else f"opponent {other_opponent}"
    log.error(
        cell.line,
        "asymmetric-pairing",
        f"{where} meets {number}, but line {other_line} gives {number} {says} in round {cell.round}",
        opponent=number,
        other_line=other_line,
        other_opponent=other_opponent or 0,
        **at,
    )
    return None


def _colours_known(
    cell: RoundCell, other: RoundCell, log: ProblemLog, where: str, at: dict[str, int]
) -> bool:
    """Whether both sides give their colour, and different ones (two alike are an error; a played
    game with a colour missing, a warning)."""
    colours_known = cell.colour is not None and other.colour is not None
    if colours_known and cell.colour == other.colour:
        log.error(
            cell.line,
            "colour-mismatch",
            f"{where} and {cell.opponent} both have colour {cell.colour!r}",
            opponent=cell.opponent,
            colour=cell.colour,
            **at,
        )
        return False
    if not colours_known and cell.kind is Kind.PLAYED:
        log.warning(
            cell.line,
            "colour-missing",
            f"{where}: the game with {cell.opponent} has no colour on one side",
            opponent=cell.opponent,
            **at,
        )
    return colours_known


def check_points(
    players: list[Player], log: ProblemLog, *, rounds: int = 0, blank: Decimal = Decimal(0)
) -> None:
    """Declared points (columns 81-84) against the sum of the cells under the file's scoring; each
    of the ``rounds`` after the end of a player's line is a blank cell worth ``blank`` (fit_cells)."""
    for player in players:
        if player.points is None:
            continue
        absent = max(0, rounds - len(player.cells))
        computed = sum((c.points for c in player.cells), blank * absent if absent else Decimal(0))
        if computed != player.points:
            log.error(
                player.line,
                "points-mismatch",
                f"player {player.number} declares {player.points} points; the rounds give {computed}",
                player=player.number,
                declared=player.points,
                computed=computed,
            )


def check_counts(
    players: list[Player],
    declared: tuple[int | None, int | None],
    declared_rated: tuple[int | None, int | None],
    log: ProblemLog,
) -> None:
    """Records 062 and 072 (players, rated players; each with its line) against the file."""
    count, line = declared
    if count is not None and count != len(players):
        log.warning(
            line,
            "player-count",
            f"record 062 announces {count} players; the file has {len(players)}",
            count=count,
            found=len(players),
        )
    rated = sum(1 for p in players if p.rating is not None)
    count, line = declared_rated
    if count is not None and count != rated:
        log.warning(
            line,
            "rated-count",
            f"record 072 announces {count} rated players; the file has {rated}",
            count=count,
            found=rated,
        )
