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
from chessrate.strength.book import BOOK_FEATURES, Book, opening_plies

#: What one player's own moves give (the same measures of the opponent's moves follow, prefixed
#: ``opponent_``: the opponent's play is evidence too, without the opponent's rating).
MOVE_FEATURES: tuple[str, ...] = (
    "accuracy",
    "weighted_accuracy",
    "harmonic_accuracy",
    "mean_move_accuracy",
    "acpl",
    "median_cp_loss",
    "cp_loss_p75",
    "cp_loss_p90",
    "mean_win_drop",
    "win_drop_std",
    "inaccuracy_rate",
    "mistake_rate",
    "blunder_rate",
    "best_move_rate",
    "near_perfect_share",
    "balanced_acpl",
    "opening_accuracy",
    "later_accuracy",
    "opening_best_move_rate",
    "later_best_move_rate",
    "opening_win_drop",
    "opening_error_rate",
    "middlegame_acpl",
    "endgame_acpl",
    "middlegame_win_drop",
    "endgame_win_drop",
    "middlegame_blunder_rate",
    "endgame_blunder_rate",
    "endgame_share",
    "first_error_move",
    "first_error_share",
    "mean_abs_eval",
    "max_eval",
    "min_eval",
    "castling_move",
    "castled",
    "opening_queen_share",
    "opening_pawn_share",
    "opening_piece_kinds",
    "early_king_move",
    "queen_move_share",
    "check_share",
    "capture_share",
)
#: What the game gives: its length, clock, the player's colour, result and a mate on the board.
GAME_FEATURES: tuple[str, ...] = (
    "moves",
    "clock_base",
    "clock_increment",
    "white",
    "score",
    "mate",
    "final_eval",
)
#: The features, in the model's order.
FEATURES: tuple[str, ...] = (
    *MOVE_FEATURES,
    *GAME_FEATURES,
    *(f"opponent_{name}" for name in MOVE_FEATURES),
    *BOOK_FEATURES,
    *(f"opponent_{name}" for name in BOOK_FEATURES),
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
#: A king move other than castling within the player's first this many moves is "early".
EARLY_KING_MOVES = 15
#: Scores are capped at this many centipawns for the evaluation features (lila's cap, as for the
#: centipawn loss: ``analysis.accuracy``).
EVAL_CAP = 1000
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


def _win_drop(moves: Sequence[MoveAnalysis]) -> float:
    return _mean([max(0.0, m.win_before - m.win_after) for m in moves])


def _errors(moves: Sequence[MoveAnalysis]) -> list[bool]:
    return [m.judgement in (Judgement.MISTAKE, Judgement.BLUNDER) for m in moves]


def _best_rate(moves: Sequence[MoveAnalysis]) -> float:
    return _mean([float(m.uci == m.best) for m in moves if m.best])


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile with linear interpolation (numpy's default), NaN when empty."""
    if not values:
        return NAN
    ordered = sorted(values)
    place = (len(ordered) - 1) * q / 100
    low = math.floor(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def move_features(
    analysis: GameAnalysis, white: chess.Color, flags: dict[int, bool]
) -> dict[str, float | None]:
    """``MOVE_FEATURES`` of one player's own moves (``flags``: ply -> the position is an endgame)."""
    own = analysis.player_moves(white)
    player = analysis.player(white)
    balanced = [m for m in own if abs(m.win_before - 50) <= BALANCED_WIN]
    opening, later = own[:OPENING_MOVES], own[OPENING_MOVES:]
    middlegame = [m for m in later if not flags[m.ply]]
    endgame = [m for m in later if flags[m.ply]]
    losses = [float(m.cp_loss) for m in own]
    drops = [max(0.0, m.win_before - m.win_after) for m in own]
    sign = 1 if white else -1
    evals = [float(max(-EVAL_CAP, min(EVAL_CAP, sign * m.before))) for m in own]
    first_error = next((i for i, bad in enumerate(_errors(own)) if bad), len(own))
    castling = next((float(i) for i, m in enumerate(own) if m.san.startswith("O-O")), NAN)
    return {
        "accuracy": player.accuracy,
        "weighted_accuracy": player.weighted_accuracy,
        "harmonic_accuracy": player.harmonic_accuracy,
        "mean_move_accuracy": _mean([m.accuracy for m in own]),
        "acpl": player.acpl,
        "median_cp_loss": statistics.median(losses) if own else NAN,
        "cp_loss_p75": _percentile(losses, 75),
        "cp_loss_p90": _percentile(losses, 90),
        "mean_win_drop": _mean(drops),
        "win_drop_std": statistics.pstdev(drops) if drops else NAN,
        "inaccuracy_rate": _rate(own, Judgement.INACCURACY),
        "mistake_rate": _rate(own, Judgement.MISTAKE),
        "blunder_rate": _rate(own, Judgement.BLUNDER),
        "best_move_rate": _best_rate(own),
        "near_perfect_share": _mean([float(m.cp_loss <= NEAR_PERFECT_CP) for m in own]),
        "balanced_acpl": _mean([float(m.cp_loss) for m in balanced]),
        "opening_accuracy": _mean([m.accuracy for m in opening]),
        "later_accuracy": _mean([m.accuracy for m in later]),
        "opening_best_move_rate": _best_rate(opening),
        "later_best_move_rate": _best_rate(later),
        "opening_win_drop": _win_drop(opening),
        "opening_error_rate": _mean([float(bad) for bad in _errors(opening)]),
        "middlegame_acpl": _mean([float(m.cp_loss) for m in middlegame]),
        "endgame_acpl": _mean([float(m.cp_loss) for m in endgame]),
        "middlegame_win_drop": _win_drop(middlegame),
        "endgame_win_drop": _win_drop(endgame),
        "middlegame_blunder_rate": _rate(middlegame, Judgement.BLUNDER),
        "endgame_blunder_rate": _rate(endgame, Judgement.BLUNDER),
        "endgame_share": _mean([float(flags[m.ply]) for m in own]),
        "first_error_move": float(first_error),
        "first_error_share": first_error / len(own) if own else NAN,
        "mean_abs_eval": _mean([abs(v) for v in evals]),
        "max_eval": max(evals) if evals else NAN,
        "min_eval": min(evals) if evals else NAN,
        **style_features(own, castling),
    }


def style_features(own: Sequence[MoveAnalysis], castling: float) -> dict[str, float]:
    """How one player's moves look in SAN: castling, the pieces moved in the opening, an early king
    walk, checks and captures (the style of the moves, not their quality)."""
    opening = own[:OPENING_MOVES]
    return {
        "castling_move": castling,
        "castled": 0.0 if math.isnan(castling) else 1.0,
        "opening_queen_share": _mean([float(m.san.startswith("Q")) for m in opening]),
        "opening_pawn_share": _mean([float(m.san[0].islower()) for m in opening]),
        "opening_piece_kinds": float(len({m.san[0] for m in opening if m.san[0] in "NBRQK"})),
        "early_king_move": float(any(m.san.startswith("K") for m in own[:EARLY_KING_MOVES])),
        "queen_move_share": _mean([float(m.san.startswith("Q")) for m in own]),
        "check_share": _mean([float("+" in m.san or "#" in m.san) for m in own]),
        "capture_share": _mean([float("x" in m.san) for m in own]),
    }


def game_features(
    analysis: GameAnalysis, book: Book | None = None
) -> tuple[dict[str, float], dict[str, float]]:
    """(White's, Black's) features, the board replayed once; the book's features NaN without ``book``."""
    flags = dict(zip((m.ply for m in analysis.moves), endgame_flags(analysis), strict=True))
    moves = {colour: move_features(analysis, colour, flags) for colour in (chess.WHITE, chess.BLACK)}
    plies = opening_plies(analysis) if book is not None else ()
    for colour in (chess.WHITE, chess.BLACK):
        if book is None:
            moves[colour].update(dict.fromkeys(BOOK_FEATURES, NAN))
        else:
            moves[colour].update(book.features(plies, white=colour))
    return _player(analysis, chess.WHITE, moves), _player(analysis, chess.BLACK, moves)


def player_features(analysis: GameAnalysis, white: chess.Color, book: Book | None = None) -> dict[str, float]:
    """The features of the player of ``white``'s colour in ``analysis``, by name."""
    return game_features(analysis, book)[0 if white else 1]


def _player(
    analysis: GameAnalysis, white: chess.Color, moves: dict[chess.Color, dict[str, float | None]]
) -> dict[str, float]:
    base, increment = time_control(analysis.headers.get("TimeControl"))
    result = SCORES.get(analysis.headers.get("Result", "*"))
    last = analysis.moves[-1] if analysis.moves else None
    mate = 0.0 if last is None or not last.san.endswith("#") else (1.0 if last.white == white else -1.0)
    sign = 1 if white else -1
    values: dict[str, float | None] = {
        **moves[white],
        "moves": float(len(analysis.player_moves(white))),
        "clock_base": base,
        "clock_increment": increment,
        "white": float(white),
        "score": NAN if result is None else result[0 if white else 1],
        "mate": mate,
        "final_eval": NAN if last is None else float(max(-EVAL_CAP, min(EVAL_CAP, sign * last.after))),
        **{f"opponent_{name}": value for name, value in moves[not white].items()},
    }
    return {name: NAN if values[name] is None else float(values[name]) for name in FEATURES}  # type: ignore[arg-type]


def feature_row(analysis: GameAnalysis, white: chess.Color, book: Book | None = None) -> list[float]:
    """``player_features`` in the model's order."""
    features = player_features(analysis, white, book)
    return [features[name] for name in FEATURES]


def is_missing(value: float) -> bool:
    return math.isnan(value)
