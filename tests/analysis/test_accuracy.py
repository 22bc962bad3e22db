"""Lichess's formulas against its published constants, lila's own tests and python-chess's Lichess model."""

from __future__ import annotations

import math

import pytest
from chess.engine import Cp, Mate, MateGiven
from hypothesis import given
from hypothesis import strategies as st

from chessrate.analysis import accuracy as acc


def test_constants_are_lichess_published_ones():
    # lichess.org/page/accuracy and lila WinPercent.scala / AccuracyPercent.scala.
    assert acc.WIN_MULTIPLIER == 0.00368208
    assert (acc.ACCURACY_A, acc.ACCURACY_K, acc.ACCURACY_B) == (
        103.1668100711649,
        0.04354415386753951,
        -3.166924740191411,
    )
    assert (acc.CEILING, acc.INITIAL_CP) == (1000, 15)


@pytest.mark.parametrize("cp", [100, -100, 0, 250, -700])
def test_win_percent_matches_python_chess_lichess_model(cp):
    # python-chess rounds the Lichess model to wins per mille: 0.591 at +100 cp.
    expected = Cp(cp).wdl(model="lichess").expectation()
    assert acc.win_percent(Cp(cp)) / 100 == pytest.approx(expected, abs=0.0005)


def test_win_percent_at_100_cp_hand_computed():
    # 100 / (1 + e^-0.368208) = 59.102590 (bc -l)
    assert acc.win_percent(Cp(100)) == pytest.approx(59.102590, abs=1e-6)
    assert acc.win_percent(Cp(-100)) == pytest.approx(40.897410, abs=1e-6)


def test_mates_and_large_scores_are_capped_at_1000():
    assert acc.win_percent(Mate(3)) == acc.win_percent(Cp(1000)) == acc.win_percent(Cp(5000))
    assert acc.win_percent(Mate(-2)) == acc.win_percent(Cp(-1000))
    assert acc.win_percent(MateGiven) == acc.win_percent(Cp(1000))
    assert acc.win_percent(Cp(1000)) == pytest.approx(97.544744, abs=1e-6)  # 100 / (1 + e^-3.68208), bc -l


def test_move_accuracy_hand_computed():
    assert acc.move_accuracy(60.0, 60.0) == 100.0
    assert acc.move_accuracy(50.0, 70.0) == 100.0
    # drop 10: 103.1668100711649 * e^-0.4354415386753951 - 3.166924740191411 + 1 = 64.579828... (bc -l)
    assert acc.move_accuracy(60.0, 50.0) == pytest.approx(64.579828, abs=1e-6)
    # a drop of 100 points: the raw value is below 0, clamped
    assert acc.move_accuracy(100.0, 0.0) == 0.0


@given(st.floats(0, 100), st.floats(0, 100))
def test_move_accuracy_in_range_and_monotone(before, after):
    value = acc.move_accuracy(before, after)
    assert 0.0 <= value <= 100.0
    assert acc.move_accuracy(before, max(0.0, after - 1)) <= value


def test_judgement_thresholds_at_their_boundaries():
    # lila Advice.scala: a drop of winning chances >= 0.1, 0.2, 0.3. Winning chances w(cp) =
    # 2 / (1 + e^(-0.00368208 cp)) - 1; from 0 cp a drop of exactly d needs cp = -ln((1+d)/(1-d)) / k.
    def cp_for_drop(drop: float) -> float:
        return -math.log((1 + drop) / (1 - drop)) / acc.WIN_MULTIPLIER

    for drop, expected in [
        (0.1, acc.Judgement.INACCURACY),
        (0.2, acc.Judgement.MISTAKE),
        (0.3, acc.Judgement.BLUNDER),
    ]:
        at = cp_for_drop(drop)  # -54.50, -110.12 and -168.12 cp (bc -l)
        assert acc.judgement(Cp(0), Cp(math.floor(at))) == expected
        assert acc.judgement(Cp(0), Cp(math.ceil(at))) != expected
    assert acc.judgement(Cp(0), Cp(-54)) is None
    assert acc.judgement(Cp(0), Cp(-55)) == acc.Judgement.INACCURACY
    assert acc.judgement(Cp(0), Cp(-110)) == acc.Judgement.INACCURACY
    assert acc.judgement(Cp(0), Cp(-111)) == acc.Judgement.MISTAKE
    assert acc.judgement(Cp(0), Cp(-168)) == acc.Judgement.MISTAKE
    assert acc.judgement(Cp(0), Cp(-169)) == acc.Judgement.BLUNDER


def test_mate_judgements():
    # lila MateAdvice: mate created with the mover already below -999 / -700 / else.
    assert acc.judgement(Cp(-1000), Mate(-3)) == acc.Judgement.INACCURACY
    assert acc.judgement(Cp(-800), Mate(-3)) == acc.Judgement.MISTAKE
    assert acc.judgement(Cp(0), Mate(-3)) == acc.Judgement.BLUNDER
    # a mate lost: by the new score
    assert acc.judgement(Mate(2), Cp(1200)) == acc.Judgement.INACCURACY
    assert acc.judgement(Mate(2), Cp(800)) == acc.Judgement.MISTAKE
    assert acc.judgement(Mate(2), Cp(100)) == acc.Judgement.BLUNDER
    assert acc.judgement(Mate(2), Mate(-4)) == acc.Judgement.BLUNDER
    # a slower mate is no judgement
    assert acc.judgement(Mate(2), Mate(5)) is None


def _accuracy(cps: list[int], white_first: bool = True):
    win = [acc.win_percent(Cp(c)) for c in [acc.INITIAL_CP, *cps]]
    return acc.game_accuracy(win, white_moves_first=white_first)


def _close(value, target, tolerance):
    assert value is not None
    assert abs(value.accuracy - target) <= tolerance


# lila modules/analyse/src/test/AccuracyPercentTest.scala (@8dae10ff): the evaluations after each
# ply from White's view, the expected accuracies and lila's tolerance (isCloseTo).
LILA_CASES = [
    ([15, 15], (100, 1), (100, 1)),
    ([-900, -900], (10, 5), (100, 1)),
    ([15, 900], (100, 1), (10, 5)),
    ([-900, 0], (10, 5), (10, 5)),
    ([15] * 20, (100, 1), (100, 1)),
    ([15] * 20 + [-900], (50, 5), (100, 1)),
    ([15] * 21 + [900], (100, 1), (50, 5)),
    ([-50, 15] * 5, (76, 8), (76, 8)),
    ([-50, 15] * 50, (76, 8), (76, 8)),
    ([-135, 15] * 50, (54, 8), (54, 8)),
    ([-435, 15] * 50, (20, 8), (20, 8)),
]


@pytest.mark.parametrize(("cps", "white", "black"), LILA_CASES)
def test_game_accuracy_lila_cases(cps, white, black):
    w, b = _accuracy(cps)
    _close(w, *white)
    _close(b, *black)


@pytest.mark.parametrize(
    ("cps", "black", "white"),
    [
        ([15, 15], (100, 1), (100, 1)),
        ([900, 900], (10, 5), (100, 1)),
        ([15, -900], (100, 1), (10, 5)),
        ([900, 0], (10, 5), (10, 5)),
    ],
)
def test_game_accuracy_black_moves_first_lila_cases(cps, black, white):
    w, b = _accuracy(cps, white_first=False)
    _close(w, *white)
    _close(b, *black)


def test_a_side_without_moves_has_no_accuracy():
    white, black = _accuracy([15])
    assert white is not None
    assert black is None
    assert _accuracy([]) == (None, None)


def test_harmonic_mean_takes_values_below_one_as_one():
    # lila Maths.harmonicMean: 1 / max(1, v)
    assert acc.harmonic_mean([0.0, 100.0]) == pytest.approx(2 / (1 + 0.01))


def test_judgements_use_uncapped_centipawns_as_lila_cp_advice():
    # lila CpAdvice takes WinPercent.winningChances(cp) without the ceiling: from +3000 to +1000 the
    # winning chances drop by about 0.025, no judgement; win% itself is capped.
    assert acc.judgement(Cp(3000), Cp(1000)) is None
    assert acc.win_percent(Cp(3000)) == acc.win_percent(Cp(1000))
    assert acc.judgement(Cp(400), Cp(-400)) == acc.Judgement.BLUNDER
