"""Lichess's win%, move accuracy, game accuracy and move judgements, as lila computes them.

Sources (docs/sources.md): [LICHESS-ACCURACY] for the win% and accuracy formulas;
[LILA-WINPERCENT] (the multiplier), [LILA-ACCURACY] (move accuracy with its +1, game accuracy),
[LILA-MATHS] (population standard deviation, harmonic mean over max(1, v)), [LILA-ADVICE]
(judgement thresholds 0.1 / 0.2 / 0.3 of winning chances; mate thresholds 700 / 999 cp) and
[SCALACHESS-EVAL] (``CEILING = 1000``, ``initial = 15``).

Scores here are python-chess ``chess.engine.Score`` values from the point of view of the side the
caller asks about; the functions know nothing of engines or files.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from chess.engine import Cp, Score

#: scalachess ``Eval.Cp.CEILING``: centipawns are capped at +-1000, a mate counts as the cap.
CEILING = 1000
#: scalachess ``Eval.Cp.initial``: the evaluation lila gives the standard starting position.
INITIAL_CP = 15
#: lila ``WinPercent.winningChances``: ``MULTIPLIER = -0.00368208`` (lila PR #11148).
WIN_MULTIPLIER = 0.00368208
#: lila ``AccuracyPercent.fromWinPercents`` (also on lichess.org/page/accuracy).
ACCURACY_A = 103.1668100711649
ACCURACY_K = 0.04354415386753951
ACCURACY_B = -3.166924740191411
#: lila ``AccuracyPercent.fromWinPercents``: ``raw + 1 // uncertainty bonus`` (not on the page).
UNCERTAINTY_BONUS = 1.0
#: lila ``AccuracyPercent.gameAccuracy``: window = plies / 10 within 2..8, weights within 0.5..12.
WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0


class Judgement(enum.Enum):
    """lila ``Advice.Judgement``, with its PGN glyph."""

    INACCURACY = "?!"
    MISTAKE = "?"
    BLUNDER = "??"


#: lila ``Advice.scala`` ``winningChanceJudgements``: a drop of winning chances (scale -1..+1) of at
#: least the threshold, the largest first.
JUDGEMENT_THRESHOLDS: tuple[tuple[float, Judgement], ...] = (
    (0.3, Judgement.BLUNDER),
    (0.2, Judgement.MISTAKE),
    (0.1, Judgement.INACCURACY),
)
#: lila ``Advice.scala`` ``MateAdvice``: centipawn limits when a mate appears or is lost.
MATE_INACCURACY_CP = 999
MATE_MISTAKE_CP = 700


def capped_cp(score: Score) -> int:
    """Centipawns within +-``CEILING``; a mate (or a position already mated) is the cap with its sign."""
    if score.is_mate():
        return CEILING if score > Cp(0) else -CEILING
    cp = score.score()
    assert cp is not None
    return max(-CEILING, min(CEILING, cp))


def winning_chances(score: Score, *, cap: bool = True) -> float:
    """lila ``WinPercent.winningChances``: 2 / (1 + e^(-0.00368208 cp)) - 1, in -1..+1.

    Win% caps the centipawns first (``fromCentiPawns(cp.ceiled)``); lila's ``CpAdvice`` does not.
    """
    cp = capped_cp(score) if cap or score.is_mate() else score.score()
    assert cp is not None
    return 2 / (1 + math.exp(max(-700.0, min(700.0, -WIN_MULTIPLIER * cp)))) - 1


def win_percent(score: Score) -> float:
    """lila ``WinPercent.fromCentiPawns``: 50 + 50 * winning chances, in 0..100."""
    return 50 + 50 * winning_chances(score)


def move_accuracy(win_before: float, win_after: float) -> float:
    """lila ``AccuracyPercent.fromWinPercents``: the mover's win% before and after the move."""
    if win_after >= win_before:
        return 100.0
    drop = win_before - win_after
    raw = ACCURACY_A * math.exp(-ACCURACY_K * drop) + ACCURACY_B + UNCERTAINTY_BONUS
    return max(0.0, min(100.0, raw))


def judgement(before: Score, after: Score) -> Judgement | None:
    """lila ``Advice``: the class of a move from the mover's scores before and after it, or None.

    ``CpAdvice`` applies when both scores are centipawns; ``MateAdvice`` when a mate is created
    against the mover or a mate the mover had is lost (a slower mate is no judgement).
    """
    if not before.is_mate() and not after.is_mate():
        drop = winning_chances(before, cap=False) - winning_chances(after, cap=False)
        for threshold, judged in JUDGEMENT_THRESHOLDS:
            if drop >= threshold:
                return judged
        return None
    mate_created = not before.is_mate() and after.is_mate() and after < Cp(0)
    mate_lost = before.is_mate() and before > Cp(0) and (not after.is_mate() or after < Cp(0))
    if mate_created:
        cp_before = before.score()
        assert cp_before is not None
        if cp_before < -MATE_INACCURACY_CP:
            return Judgement.INACCURACY
        return Judgement.MISTAKE if cp_before < -MATE_MISTAKE_CP else Judgement.BLUNDER
    if mate_lost:
        # lila takes the new centipawns, or 0 when the new score is itself a mate.
        cp_after = 0 if after.is_mate() else after.score()
        assert cp_after is not None
        if cp_after > MATE_INACCURACY_CP:
            return Judgement.INACCURACY
        return Judgement.MISTAKE if cp_after > MATE_MISTAKE_CP else Judgement.BLUNDER
    return None


def population_sd(values: Sequence[float]) -> float:
    """lila ``Maths.standardDeviation`` (population variance)."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((x - mean) ** 2 for x in values) / len(values))


def harmonic_mean(values: Sequence[float]) -> float:
    """lila ``Maths.harmonicMean``: each value taken as at least 1."""
    return len(values) / sum(1 / max(1.0, v) for v in values)


def weighted_mean(pairs: Sequence[tuple[float, float]]) -> float:
    """lila ``Maths.weightedMean`` of (value, weight) pairs."""
    total = sum(w for _, w in pairs)
    return sum(v * w for v, w in pairs) / total


@dataclass(frozen=True)
class GameAccuracy:
    """One player's game accuracy: the mean of the volatility-weighted and the harmonic means."""

    weighted: float
    harmonic: float

    @property
    def accuracy(self) -> float:
        return (self.weighted + self.harmonic) / 2


def volatility_weights(white_win_percents: Sequence[float]) -> list[float]:
    """lila ``gameAccuracy``: one weight per move, the SD of win% over a window, within 0.5..12.

    ``white_win_percents`` holds White's win% of the start position and after every ply. The first
    windows repeat the opening window so that there is one window per move.
    """
    moves = len(white_win_percents) - 1
    size = max(WINDOW_MIN, min(WINDOW_MAX, moves // 10))
    values = list(white_win_percents)
    if len(values) <= size:
        windows = [values] * max(0, min(size, len(values)) - 2) + [values]
    else:
        windows = [values[:size]] * (size - 2)
        windows += [values[i : i + size] for i in range(len(values) - size + 1)]
    return [max(WEIGHT_MIN, min(WEIGHT_MAX, population_sd(w))) for w in windows[:moves]]


def game_accuracy(
    white_win_percents: Sequence[float], *, white_moves_first: bool = True
) -> tuple[GameAccuracy | None, GameAccuracy | None]:
    """lila ``AccuracyPercent.gameAccuracy``: (White's, Black's) accuracy, None for a side with no move."""
    weights = volatility_weights(white_win_percents)
    per_side: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for i, weight in enumerate(weights):
        before, after = white_win_percents[i], white_win_percents[i + 1]
        white = (i % 2 == 0) == white_moves_first
        accuracy = move_accuracy(before, after) if white else move_accuracy(100 - before, 100 - after)
        per_side[white].append((accuracy, weight))

    def side(pairs: list[tuple[float, float]]) -> GameAccuracy | None:
        if not pairs:
            return None
        return GameAccuracy(weighted_mean(pairs), harmonic_mean([a for a, _ in pairs]))

    return side(per_side[True]), side(per_side[False])
