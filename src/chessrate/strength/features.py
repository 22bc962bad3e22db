"""What the estimator sees of one player in one game: measures of the moves, never a rating.

The features are read from a ``GameAnalysis`` (both players' moves) and the game's
``TimeControl`` tag; ``WhiteElo``/``BlackElo`` are never read. A feature that a game cannot give
(no engine best move when the evaluations came from the PGN, no time control) is NaN, which the
model treats as missing.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

import chess

from chessrate.analysis.accuracy import Judgement
from chessrate.analysis.games import GameAnalysis, MoveAnalysis

#: The features, in the model's order.
FEATURES: tuple[str, ...] = (
    "accuracy",
    "weighted_accuracy",
    "harmonic_accuracy",
    "mean_move_accuracy",
    "acpl",
    "median_cp_loss",
    "mean_win_drop",
    "inaccuracy_rate",
    "mistake_rate",
    "blunder_rate",
    "best_move_rate",
    "near_perfect_share",
    "balanced_acpl",
    "opening_accuracy",
    "later_accuracy",
    "moves",
    "clock_base",
    "clock_increment",
    "white",
    "opponent_accuracy",
    "opponent_acpl",
    "opponent_blunder_rate",
    "middlegame_acpl",
    "endgame_acpl",
    "score",
    "mate",
)
#: A move losing at most this many centipawns counts as near-perfect.
NEAR_PERFECT_CP = 10
#: Opening accuracy: the player's first this many moves.
OPENING_MOVES = 10
#: A position is "balanced" while the mover's win% is within 50 +- this.
BALANCED_WIN = 25.0
#: A position is an endgame when at most this many queens, rooks, bishops and knights are on the
#: board (scalachess ``Divider``: ``majorsAndMinors <= 6``).
ENDGAME_PIECES = 6
#: The player's score by the ``Result`` tag, White's first.
SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}

NAN = float("nan")


def time_control(tag: str | None) -> tuple[float, float]:
    """``TimeControl`` ``"600+5"`` as (600, 5) seconds; NaN for what is absent or not that form."""
    if not tag or "+" not in tag:
        return NAN, NAN
    base, _, increment = tag.partition("+")
    if not (base.isascii() and base.isdigit() and increment.isascii() and increment.isdigit()):
        return NAN, NAN
    return float(base), float(increment)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else NAN


def _rate(moves: Sequence[MoveAnalysis], judged: Judgement) -> float:
    return sum(m.judgement == judged for m in moves) / len(moves) if moves else NAN


def endgame_flags(analysis: GameAnalysis) -> list[bool]:
    """Per move of the game: whether the position before it is an endgame (``ENDGAME_PIECES``)."""
    fen = analysis.headers.get("FEN")
    board = chess.Board(fen) if fen and analysis.headers.get("SetUp") == "1" else chess.Board()
    flags = []
    for move in analysis.moves:
        pieces = board.occupied & ~board.pawns & ~board.kings
        flags.append(chess.popcount(pieces) <= ENDGAME_PIECES)
        board.push(chess.Move.from_uci(move.uci))  # the moves of an analysis are legal
    return flags


def _phase_acpl(moves: Sequence[MoveAnalysis], flags: dict[int, bool], *, endgame: bool) -> float:
    chosen = [float(m.cp_loss) for m in moves[OPENING_MOVES:] if flags[m.ply] == endgame]
    return _mean(chosen)


def game_features(analysis: GameAnalysis) -> tuple[dict[str, float], dict[str, float]]:
    """(White's, Black's) features, the board replayed once."""
    flags = endgame_flags(analysis)
    return player_features(analysis, chess.WHITE, flags), player_features(analysis, chess.BLACK, flags)


def player_features(
    analysis: GameAnalysis, white: chess.Color, endgames: Sequence[bool] | None = None
) -> dict[str, float]:
    """The features of the player of ``white``'s colour in ``analysis``, by name.

    ``endgames``: ``endgame_flags(analysis)`` when already known.
    """
    own = analysis.player_moves(white)
    other = analysis.player_moves(not white)
    player, opponent = analysis.player(white), analysis.player(not white)
    base, increment = time_control(analysis.headers.get("TimeControl"))
    with_best = [m for m in own if m.best]
    balanced = [m for m in own if abs(m.win_before - 50) <= BALANCED_WIN]
    if endgames is None:
        endgames = endgame_flags(analysis)
    flags = dict(zip((m.ply for m in analysis.moves), endgames, strict=True))
    result = SCORES.get(analysis.headers.get("Result", "*"))
    last = analysis.moves[-1] if analysis.moves else None
    mate = 0.0 if last is None or not last.san.endswith("#") else (1.0 if last.white == white else -1.0)
    values = {
        "accuracy": player.accuracy,
        "weighted_accuracy": player.weighted_accuracy,
        "harmonic_accuracy": player.harmonic_accuracy,
        "mean_move_accuracy": _mean([m.accuracy for m in own]),
        "acpl": player.acpl,
        "median_cp_loss": statistics.median(m.cp_loss for m in own) if own else NAN,
        "mean_win_drop": _mean([max(0.0, m.win_before - m.win_after) for m in own]),
        "inaccuracy_rate": _rate(own, Judgement.INACCURACY),
        "mistake_rate": _rate(own, Judgement.MISTAKE),
        "blunder_rate": _rate(own, Judgement.BLUNDER),
        "best_move_rate": _mean([float(m.uci == m.best) for m in with_best]),
        "near_perfect_share": _mean([float(m.cp_loss <= NEAR_PERFECT_CP) for m in own]),
        "balanced_acpl": _mean([float(m.cp_loss) for m in balanced]),
        "opening_accuracy": _mean([m.accuracy for m in own[:OPENING_MOVES]]),
        "later_accuracy": _mean([m.accuracy for m in own[OPENING_MOVES:]]),
        "moves": float(len(own)),
        "clock_base": base,
        "clock_increment": increment,
        "white": float(white),
        "opponent_accuracy": opponent.accuracy,
        "opponent_acpl": opponent.acpl,
        "opponent_blunder_rate": _rate(other, Judgement.BLUNDER),
        "middlegame_acpl": _phase_acpl(own, flags, endgame=False),
        "endgame_acpl": _phase_acpl(own, flags, endgame=True),
        "score": NAN if result is None else result[0 if white else 1],
        "mate": mate,
    }
    return {name: NAN if values[name] is None else float(values[name]) for name in FEATURES}  # type: ignore[arg-type]


def feature_row(analysis: GameAnalysis, white: chess.Color) -> list[float]:
    """``player_features`` in the model's order."""
    features = player_features(analysis, white)
    return [features[name] for name in FEATURES]


def is_missing(value: float) -> bool:
    return math.isnan(value)
