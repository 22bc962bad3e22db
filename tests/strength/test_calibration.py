"""The calibration maths (chessrate.strength.fitting, model.Calibration) and the kind of game, by hand."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from chessrate.strength.calibration import NO_MOVE, decode_move, encode_move
from chessrate.strength.fitting import increasing, knots, player_share, ridge
from chessrate.strength.kind import game_kind, kind_and_reason
from chessrate.strength.model import Calibration, Estimate

Z = 1.2815515655446004  # the normal distribution's 90th percentile


def _calibration(
    prior: str = "flat", temper: float = 0.0, top: float = 3000.0, bottom: float = 0.0
) -> Calibration:
    # A score's middle is r / 2 at rating r (knots ``bottom`` and ``top``), one game's spread 100 points of
    # score: as a rating, a normal likelihood with sd 200. Grid 0-3000 by 5.
    grid = np.arange(0.0, 3005.0, 5.0)
    density = np.ones(len(grid)) if prior == "flat" else np.exp(-0.5 * ((grid - 1500) / 200) ** 2)
    data: dict[str, Any] = {
        "scale": "test scale",
        "inputs": ["prediction"],
        "weights": [1.0],
        "intercept": 0.0,
        "fill": [0.0],
        "rho": 0.25,
        "temper": temper,
        "tail": 0.1,
        "knots": {
            "rating": [bottom, top],
            "middle": [bottom / 2, top / 2],
            "low": [bottom / 2 - 100 * Z, top / 2 - 100 * Z],
            "high": [bottom / 2 + 100 * Z, top / 2 + 100 * Z],
        },
        "prior": {"start": 0.0, "step": 5.0, "density": (density / density.sum()).tolist()},
        "feature_ranges": {"acpl": [5.0, 200.0]},
    }
    return Calibration.from_json("online", data)


def test_with_a_flat_prior_the_interval_is_the_likelihoods():
    # Score 750: the likelihood of r is normal, mean 1500, sd 200; its 10th-90th percentiles are
    # 1500 -+ 200 Z = 1243.7 and 1756.3 (on a grid of 5 points).
    value, low, high = _calibration().estimate(750.0, 1)
    assert value == pytest.approx(1500, abs=5)
    assert low == pytest.approx(1500 - 200 * Z, abs=5)
    assert high == pytest.approx(1500 + 200 * Z, abs=5)


def test_the_estimate_follows_bayes_rule_and_the_interval_the_tempered_prior():
    # Likelihood N(1900, 200), prior N(1500, 200): the posterior is N(1700, 200 / sqrt 2).
    value, low, high = _calibration(prior="normal", temper=1.0).estimate(950.0, 1)
    assert value == pytest.approx(1700, abs=5)
    assert (low, high) == pytest.approx((1700 - 141.42 * Z, 1700 + 141.42 * Z), abs=5)
    # Temper 0: the interval is the likelihood's, the estimate still the posterior median.
    value, low, high = _calibration(prior="normal", temper=0.0).estimate(950.0, 1)
    assert value == pytest.approx(1700, abs=5)
    assert (low, high) == pytest.approx((1900 - 200 * Z, 1900 + 200 * Z), abs=5)


def test_an_end_beyond_the_last_knot_is_open():
    # Knots from 200 to 2800: beyond them the model has no evidence (the middle stays at 100 or 1400).
    c = _calibration(top=2800.0, bottom=200.0)
    value, low, high = c.estimate(1350.0, 1)  # the likelihood's middle at 2700
    assert high is None
    assert low is not None
    assert low < 2700 <= value + 100
    note = Estimate(value, low, None, 1, reach_low=200.0, reach_high=2800.0).reach
    assert note.startswith("open above")
    assert "2800" in note
    value, low, high = c.estimate(0.0, 1)
    assert low is None  # below the first knot
    assert Estimate(value, None, high, 1, reach_low=200.0).reach.startswith("open below")


def test_the_band_narrows_with_games_by_the_players_share():
    c = _calibration()
    # n games: the spread is one game's times sqrt(rho + (1 - rho) / n); rho 0.25, n 4: sqrt(0.4375).
    f = math.sqrt(0.25 + 0.75 / 4)
    assert c.noise(4) == pytest.approx(f)
    _, low, high = c.estimate(750.0, 4)
    assert (low, high) == pytest.approx((1500 - 200 * Z * f, 1500 + 200 * Z * f), abs=5)


def test_features_beyond_the_range_fitted_on_are_named():
    c = _calibration()
    assert c.beyond([{"acpl": 4.0}]) == ["acpl"]
    assert c.beyond([{"acpl": math.nan}, {"acpl": 200.0}]) == []
    assert "acpl" in Estimate(1500.0, 1300.0, 1700.0, 1, beyond=("acpl",)).reach
    assert Estimate(1500.0, 1300.0, 1700.0, 1).reach == ""


def test_the_players_share_of_the_variance():
    # Residuals: player a 1, -1; b 3, 5; c 0 (alone). Pooled within variance: (1 + 1 + 1 + 1) / 2 = 2;
    # total (population) variance of [1, -1, 3, 5, 0]: mean 1.6, squares 0.36 6.76 1.96 11.56 2.56 -> 4.64.
    share = player_share(np.array([1.0, -1.0, 3.0, 5.0, 0.0]), ["a", "a", "b", "b", "c"])
    assert share == pytest.approx(1 - 2 / 4.64)


def test_knots_are_bins_of_the_ratings():
    ratings = np.arange(80, dtype=float)  # two bins of 40: 0-39 and 40-79
    scores = ratings * 2
    k = knots(scores, ratings)
    assert k["rating"] == pytest.approx([19.5, 59.5 + 0.01])
    assert k["middle"] == pytest.approx([39.0, 119.0 + 0.01])
    # numpy's linear percentile of 0, 2, ..., 78: the 10th at 3.9 x 2, the 90th at 35.1 x 2.
    assert k["low"] == pytest.approx([7.8, 87.8 + 0.01])
    assert k["high"] == pytest.approx([70.2, 150.2 + 0.01])


def test_increasing_keeps_a_curve_rising():
    assert increasing(np.array([1.0, 0.0, 2.0])).tolist() == pytest.approx([1.0, 1.01, 2.02])


def test_ridge_without_a_penalty_is_least_squares():
    x = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 5.0], [4.0, 2.0]])
    y = 3 * x[:, 0] - 2 * x[:, 1] + 7
    weights, intercept = ridge(x, y, 0.0)
    assert weights == pytest.approx([3.0, -2.0])
    assert intercept == pytest.approx(7.0)


def test_moves_stored_as_integers():
    for uci in ("e2e4", "a7a8q", "h2h1n", "e1g1"):
        assert decode_move(encode_move(uci)) == uci
    # e2 is square 12, e4 28: 12 + 64 x 28.
    assert encode_move("e2e4") == 12 + 64 * 28
    assert encode_move("") == NO_MOVE
    assert decode_move(NO_MOVE) == ""


@pytest.mark.parametrize(
    ("tags", "kind"),
    [
        ({"Site": "https://lichess.org/abc", "TimeControl": "600+0"}, "online"),
        ({"Site": "https://lichess.org/abc", "TimeControl": "1800+20"}, "online"),  # web, classical
        ({"Site": "Madrid ESP", "TimeControl": "1499+0"}, "online"),  # under 1,500 s
        ({"Site": "Madrid ESP", "TimeControl": "900+15"}, "otb"),  # 900 + 40 x 15 = 1,500 s
        ({"Site": "Madrid ESP", "TimeControl": "40/7200:1800+30"}, "otb"),
        ({"Site": "Madrid ESP"}, "otb"),
        ({}, "otb"),
    ],
)
def test_the_kind_of_game_from_its_tags(tags: dict[str, str], kind: str):
    assert game_kind(tags) == kind
    assert kind_and_reason(tags)[1]
