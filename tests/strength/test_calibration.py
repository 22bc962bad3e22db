"""The calibration maths (chessrate.strength.fitting, model.Calibration) and the kind of game, by hand."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from chessrate.strength.calibration import NO_MOVE, decode_move, encode_move
from chessrate.strength.fitting import increasing, knots, player_share, ridge
from chessrate.strength.kind import game_kind, kind_and_reason
from chessrate.strength.model import Calibration, reach_note


def _calibration(**changes: Any) -> Calibration:
    # Bands straight in the rating: middle 1000 + 0.5 (r - 1000), 100 either side, fitted on 1000-2000.
    data: dict[str, Any] = {
        "scale": "test scale",
        "inputs": ["prediction"],
        "weights": [1.0],
        "intercept": 0.0,
        "fill": [0.0],
        "rating_mean": 1500.0,
        "rating_var": 40000.0,
        "score_mean": 1250.0,
        "slope": 0.5,
        "spread": 100.0,
        "rho": 0.25,
        "knots": {
            "rating": [1000.0, 2000.0],
            "middle": [1000.0, 1500.0],
            "low": [900.0, 1400.0],
            "high": [1100.0, 1600.0],
        },
        "feature_ranges": {"acpl": [5.0, 200.0]},
    }
    data.update(changes)
    return Calibration.from_json("online", data)


def test_the_interval_inverts_the_bands():
    c = _calibration()
    # 1250 is the top of the band at r with 1100 + 0.5 (r - 1000) = 1250 (r = 1300) and its bottom at
    # 900 + 0.5 (r - 1000) = 1250 (r = 1700).
    assert c.interval(1250.0, 1) == pytest.approx((1300.0, 1700.0))


def test_an_interval_is_open_where_the_last_band_still_holds_the_score():
    c = _calibration()
    # 1550: the band at 2000 (1400-1600) holds it, so no rating fitted on is too high.
    low, high = c.interval(1550.0, 1)
    assert high is None
    assert low == pytest.approx(1900.0)  # 1100 + 0.5 (r - 1000) = 1550
    low, high = c.interval(950.0, 1)
    assert low is None
    assert high == pytest.approx(1100.0)  # 900 + 0.5 (r - 1000) = 950
    note = reach_note(c, None, 1100.0, [{"acpl": 10.0}])
    assert note.startswith("open below")
    assert "1000" in note


def test_the_band_narrows_with_games_by_the_players_share():
    c = _calibration()
    # n games: the spread is one game's times sqrt(rho + (1 - rho) / n); rho 0.25, n 4: sqrt(0.4375).
    f = math.sqrt(0.25 + 0.75 / 4)
    assert c.noise(4) == pytest.approx(f)
    low, high = c.interval(1250.0, 4)
    # The band's top at r: middle(r) + 100 f = 1250, middle(r) = 1000 + 0.5 (r - 1000).
    assert low == pytest.approx(1000 + (1250 - 100 * f - 1000) / 0.5)
    assert high == pytest.approx(1000 + (1250 + 100 * f - 1000) / 0.5)


def test_the_shrinkage_is_the_best_linear_predictor():
    c = _calibration()
    # k_n = b V / (b^2 V + s_n^2): b 0.5, V 40000, s_4^2 = 100^2 x 0.4375 = 4375.
    assert c.shrink(4) == pytest.approx(20000 / (10000 + 4375))
    assert c.shrink(1) == pytest.approx(20000 / (10000 + 10000))


def test_features_beyond_the_range_fitted_on_are_named():
    c = _calibration()
    assert c.beyond([{"acpl": 4.0}]) == ["acpl"]
    assert c.beyond([{"acpl": math.nan}, {"acpl": 200.0}]) == []
    assert "acpl" in reach_note(c, 1300.0, 1700.0, [{"acpl": 250.0}])
    assert reach_note(c, 1300.0, 1700.0, [{"acpl": 20.0}]) == ""


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
