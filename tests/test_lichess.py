"""The Lichess preset against lila's own tests and constants.

Sources ([LILA], [SCALACHESS], [LICHESS-DB] in docs/sources.md): lila
``modules/rating/src/test/RatingCalculatorTest.scala`` @57a97098 (its asserted values, and the
exact doubles recomputed from the published formulas, all within lila's tolerances); lila
``Glicko.scala`` @39329bfd (constants, live deviation); lila ``PerfsUpdater.scala`` @b81e1d63 and
lichess-org/database ``PgnDump.scala`` @0301e005 (rating diffs); lila ``RatingRegulator.scala``.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.systems.glicko.lichess import (
    NEW_PLAYER,
    LichessRating,
    OpponentGame,
    after_idle,
    format_rating_diff,
    live_deviation,
    rate_game,
    rate_games,
    rating_diff,
)

W, B = "white", "black"

# lila RatingCalculatorTest, exact doubles: (white r, RD, sigma), (black ...), white score,
# white after (r, RD, sigma), black after (r, RD, sigma).
# fmt: off
EXACT = [
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 1.0, (1741.4758661119163, 396.6898168302284, 0.08999830049062012), (1258.5241338880837, 396.6898168302284, 0.08999830049062012), id="lila-RatingCalculatorTest-default-white-wins"),  # noqa: E501
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 0.0, (1258.5241338880837, 396.6898168302284, 0.08999830049062012), (1741.4758661119163, 396.6898168302284, 0.08999830049062012), id="lila-RatingCalculatorTest-default-black-wins"),  # noqa: E501
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 0.5, (1500.0, 396.6898168302284, 0.08999541663374973), (1500.0, 396.6898168302284, 0.08999541663374973), id="lila-RatingCalculatorTest-default-draw"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 1.0, (1517.0071033769325, 78.07913831621872, 0.059999672649652315), (1482.9928966230675, 78.07913831621872, 0.059999672649652315), id="lila-RatingCalculatorTest-low-white-wins"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 0.0, (1482.9928966230675, 78.07913831621872, 0.059999672649652315), (1517.0071033769325, 78.07913831621872, 0.059999672649652315), id="lila-RatingCalculatorTest-low-black-wins"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 0.5, (1500.0, 78.07913831621872, 0.0599932115235999), (1500.0, 78.07913831621872, 0.0599932115235999), id="lila-RatingCalculatorTest-low-draw"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 1.0, (1422.6260395691206, 77.49557658161979, 0.06000649679525476), (1506.3191074494703, 105.87064543397246, 0.06500807683984054), id="lila-RatingCalculatorTest-mixed-white-wins"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 0.0, (1389.9870221713334, 77.49557658161979, 0.05999681962652355), (1568.9038391085505, 105.87064543397246, 0.06499575050137654), id="lila-RatingCalculatorTest-mixed-black-wins"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 0.5, (1406.3065308702269, 77.49557658161979, 0.05999539833279988), (1537.6114732790104, 105.87064543397246, 0.06499413059005121), id="lila-RatingCalculatorTest-mixed-draw"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 1.0, (1216.7279535434843, 59.900563069821736, 0.05301306615462759), (1635.9906520673983, 196.98729572326965, 0.06202822262071657), id="lila-RatingCalculatorTest-more-mixed-white-wins"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 0.0, (1199.2896286688756, 59.900563069821736, 0.05299944343027432), (1855.4214669428577, 196.98729572326965, 0.06199926262820204), id="lila-RatingCalculatorTest-more-mixed-black-wins"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 0.5, (1208.0087911061798, 59.900563069821736, 0.053002545495149524), (1745.706059505128, 196.98729572326965, 0.062006120170920276), id="lila-RatingCalculatorTest-more-mixed-draw"),  # noqa: E501
]
# fmt: on

# lila RatingCalculatorTest (also @07ef4ee7), as lila asserts them: white (r, RD, sigma), black (...),
# and lila's assertCloseTo tolerances for white and for black.
# fmt: off
LILA_ASSERTED = [
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 1.0, (1741, 396, 0.0899983), (1258, 396, 0.0899983), (1, 1, 1e-8), (1, 1, 1e-7), id="lila-asserted-default-white-wins"),  # noqa: E501
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 0.0, (1258, 396, 0.0899983), (1741, 396, 0.0899983), (1, 1, 1e-8), (1, 1, 1e-7), id="lila-asserted-default-black-wins"),  # noqa: E501
    pytest.param((1500, 500, 0.09), (1500, 500, 0.09), 0.5, (1500, 396, 0.0899954), (1500, 396, 0.0899954), (1, 1, 1e-7), (1, 1, 1e-7), id="lila-asserted-default-draw"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 1.0, (1517, 78, 0.06), (1482, 78, 0.06), (1, 1, 1e-5), (1, 1, 1e-5), id="lila-asserted-low-white-wins"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 0.0, (1482, 78, 0.06), (1517, 78, 0.06), (1, 1, 1e-5), (1, 1, 1e-5), id="lila-asserted-low-black-wins"),  # noqa: E501
    pytest.param((1500, 80, 0.06), (1500, 80, 0.06), 0.5, (1500, 78, 0.06), (1500, 78, 0.06), (1, 1, 1e-5), (1, 1, 1e-5), id="lila-asserted-low-draw"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 1.0, (1422, 77, 0.06), (1506, 105, 0.065), (1, 1, 1e-5), (1, 1, 1e-5), id="lila-asserted-mixed-white-wins"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 0.0, (1389, 78, 0.06), (1568, 105, 0.065), (1, 1, 1e-5), (1, 1, 1e-5), id="lila-asserted-mixed-black-wins"),  # noqa: E501
    pytest.param((1400, 79, 0.06), (1550, 110, 0.065), 0.5, (1406, 78, 0.06), (1537, 105.87, 0.065), (1, 1, 1e-5), (1, 0.01, 1e-5), id="lila-asserted-mixed-draw"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 1.0, (1216.7, 59.9, 0.053013), (1636, 196.9, 0.062028), (0.1, 0.1, 1e-6), (0.1, 0.1, 1e-6), id="lila-asserted-more-mixed-white-wins"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 0.0, (1199.3, 59.9, 0.052999), (1855.4, 196.9, 0.061999), (0.1, 0.1, 1e-6), (0.1, 0.1, 1e-6), id="lila-asserted-more-mixed-black-wins"),  # noqa: E501
    pytest.param((1200, 60, 0.053), (1850, 200, 0.062), 0.5, (1208.0, 59.90056, 0.053002), (1745.7, 196.98729, 0.062006), (0.1, 0.1, 1e-6), (0.1, 0.1, 1e-6), id="lila-asserted-more-mixed-draw"),  # noqa: E501
]
# fmt: on

Triple = tuple[float, float, float]


def _assert_close(got: LichessRating, expected: Triple, tolerance: Triple) -> None:
    assert got.rating == pytest.approx(expected[0], abs=tolerance[0])
    assert got.deviation == pytest.approx(expected[1], abs=tolerance[1])
    assert got.volatility == pytest.approx(expected[2], abs=tolerance[2])


@pytest.mark.parametrize(("white", "black", "score", "white_after", "black_after"), EXACT)
def test_lila_rating_calculator_exact(
    white: Triple, black: Triple, score: float, white_after: Triple, black_after: Triple
) -> None:
    game = rate_game(LichessRating(*white), LichessRating(*black), score)
    _assert_close(game.white.after, white_after, (1e-6, 1e-6, 1e-9))
    _assert_close(game.black.after, black_after, (1e-6, 1e-6, 1e-9))


@pytest.mark.parametrize(
    ("white", "black", "score", "white_after", "black_after", "white_tolerance", "black_tolerance"),
    LILA_ASSERTED,
)
def test_lila_rating_calculator_as_lila_asserts(
    white: Triple,
    black: Triple,
    score: float,
    white_after: Triple,
    black_after: Triple,
    white_tolerance: Triple,
    black_tolerance: Triple,
) -> None:
    game = rate_game(LichessRating(*white), LichessRating(*black), score)
    _assert_close(game.white.after, white_after, white_tolerance)
    _assert_close(game.black.after, black_after, black_tolerance)


# lila Glicko.liveDeviation: clamp(173.7178 sqrt(phi^2 + days 0.21436 sigma^2), 45, 500).
LIVE = [
    pytest.param(60, 0.06, 0, 60.00000000000001, id="lila-liveDeviation-60-0.06-0d"),
    pytest.param(60, 0.06, 1, 60.19375503059045, id="lila-liveDeviation-60-0.06-1d"),
    pytest.param(60, 0.06, 7, 61.343434960712244, id="lila-liveDeviation-60-0.06-7d"),
    pytest.param(60, 0.06, 30, 65.56404762125351, id="lila-liveDeviation-60-0.06-30d"),
    pytest.param(60, 0.06, 90, 75.47140532311556, id="lila-liveDeviation-60-0.06-90d"),
    pytest.param(60, 0.06, 180, 88.27154718759601, id="lila-liveDeviation-60-0.06-180d"),
    pytest.param(60, 0.06, 365, 110.00078549354839, id="lila-liveDeviation-60-0.06-365d-60-to-110-in-a-year"),
    pytest.param(60, 0.06, 730, 143.5282049577549, id="lila-liveDeviation-60-0.06-730d"),
    pytest.param(45, 0.06, 0, 45.0, id="lila-liveDeviation-45-0.06-0d"),
    pytest.param(45, 0.06, 1, 45.25801746301679, id="lila-liveDeviation-45-0.06-1d"),
    pytest.param(45, 0.06, 7, 46.776244107229616, id="lila-liveDeviation-45-0.06-7d"),
    pytest.param(45, 0.06, 30, 52.18854606599036, id="lila-liveDeviation-45-0.06-30d"),
    pytest.param(45, 0.06, 90, 64.1944937003634, id="lila-liveDeviation-45-0.06-90d"),
    pytest.param(45, 0.06, 180, 78.84710548201494, id="lila-liveDeviation-45-0.06-180d"),
    pytest.param(45, 0.06, 365, 102.5922648604545, id="lila-liveDeviation-45-0.06-365d"),
    pytest.param(45, 0.06, 730, 137.93239510135135, id="lila-liveDeviation-45-0.06-730d"),
    pytest.param(45, 0.09, 0, 45.0, id="lila-liveDeviation-45-0.09-0d"),
    pytest.param(45, 0.09, 1, 45.578485336133646, id="lila-liveDeviation-45-0.09-1d"),
    pytest.param(45, 0.09, 7, 48.90591251324373, id="lila-liveDeviation-45-0.09-7d"),
    pytest.param(45, 0.09, 30, 59.974575997538295, id="lila-liveDeviation-45-0.09-30d"),
    pytest.param(45, 0.09, 90, 82.10267534163238, id="lila-liveDeviation-45-0.09-90d"),
    pytest.param(45, 0.09, 180, 107.0359687044826, id="lila-liveDeviation-45-0.09-180d"),
    pytest.param(45, 0.09, 365, 145.43173250943107, id="lila-liveDeviation-45-0.09-365d"),
    pytest.param(45, 0.09, 730, 200.68825984942274, id="lila-liveDeviation-45-0.09-730d"),
]


@pytest.mark.parametrize(("deviation", "volatility", "days", "expected"), LIVE)
def test_live_deviation(deviation: float, volatility: float, days: float, expected: float) -> None:
    player = LichessRating(1500, deviation, volatility)
    assert live_deviation(player, days) == pytest.approx(expected, abs=1e-9)
    assert after_idle(player, days).deviation == pytest.approx(expected, abs=1e-9)


def test_live_deviation_is_clamped_to_500() -> None:
    """lila Glicko.liveDeviation clamps to maxDeviation = 500."""
    assert live_deviation(LichessRating(1500, 450, 0.09), 10_000) == 500


def test_two_new_players_white_wins() -> None:
    """[LILA], [LICHESS-DB]: 1500/500/0.09 each, 1-0 -> 1741.476 / 1258.524, PGN "+241" / "-242"."""
    game = rate_game(NEW_PLAYER, NEW_PLAYER, 1)
    assert game.white.after.rating == pytest.approx(1741.4758661119163, abs=1e-6)
    assert game.black.after.rating == pytest.approx(1258.5241338880837, abs=1e-6)
    assert (game.white.rating_diff_text, game.black.rating_diff_text) == ("+241", "-242")
    assert (game.white.rating_diff, game.black.rating_diff) == (241, -242)


@pytest.mark.parametrize(
    ("before", "after", "text"),
    [
        pytest.param(1500.0, 1741.48, "+241", id="PerfsUpdater-trunc-new-minus-trunc-old-gain"),
        pytest.param(1500.0, 1258.52, "-242", id="PerfsUpdater-trunc-not-round-loss"),
        pytest.param(2775.9, 2775.95, "+0", id="PgnDump-zero-prints-plus-0"),
        pytest.param(1500.9, 1501.1, "+1", id="PerfsUpdater-0.2-points-across-an-integer"),
    ],
)
def test_rating_diff_as_the_pgn_prints_it(before: float, after: float, text: str) -> None:
    diff = rating_diff(LichessRating(before), LichessRating(after))
    assert format_rating_diff(diff) == text


@pytest.mark.parametrize(
    ("deviation", "provisional", "display"),
    [
        pytest.param(110.0, True, "1741?", id="scalachess-provisional-at-110"),
        pytest.param(109.99, False, "1741", id="scalachess-established-below-110"),
        pytest.param(500.0, True, "1741?", id="scalachess-new-player-provisional"),
    ],
)
def test_provisional_mark(deviation: float, provisional: bool, display: str) -> None:
    player = LichessRating(1741.9, deviation, 0.09)
    assert player.provisional is provisional
    assert player.display == display


def test_rating_floor_400() -> None:
    """lila Glicko.minRating = 400: a 400 player who loses stays at 400."""
    side = rate_game(LichessRating(400, 200, 0.06), LichessRating(1500, 60, 0.06), 0).white
    assert side.after.rating == 400


def test_deviation_floor_45() -> None:
    """lila Glicko.minDeviation = 45: many games never push RD below 45."""
    sides = rate_games(LichessRating(1500, 46, 0.06), [OpponentGame(1500, 45, 0.5)] * 50)
    assert min(s.after.deviation for s in sides) == 45


def test_volatility_cap() -> None:
    """lila Glicko.maxVolatility = 0.1: a stored 0.15 is capped before and after the game."""
    side = rate_game(LichessRating(1500, 100, 0.15), LichessRating(1500, 100, 0.06), 1).white
    assert side.after.volatility <= 0.1


def test_at_most_700_per_game() -> None:
    """lila Glicko.maxRatingDelta = 700: a new player beating 3000/45 gains exactly 700."""
    side = rate_game(NEW_PLAYER, LichessRating(3000, 45, 0.06), 1).white
    assert side.after.rating == 2200


def test_sanity_check_resets_to_a_new_player() -> None:
    """lila Perf.addOrReset: a result at or above 4000 fails sanityCheck and resets to 1500/500/0.09."""
    side = rate_game(LichessRating(3950, 300, 0.09), LichessRating(3900, 300, 0.09), 1).white
    assert side.reset
    assert side.after == NEW_PLAYER


def test_a_game_adds_no_deviation_inside_the_game() -> None:
    """scalachess: skipDeviationIncrease -> 0 elapsed periods: a draw between equals only lowers RD."""
    side = rate_game(LichessRating(1500, 45, 0.1), LichessRating(1500, 500, 0.1), 0.5).white
    assert side.after.deviation == 45


def test_days_idle_grow_the_rd_before_the_first_game() -> None:
    """lila liveDeviation: 365 days idle take a 60/0.06 player to RD 110.0008 before the game."""
    sides = rate_games(LichessRating(1500, 60, 0.06), [OpponentGame(1500, 60, 0.5)], days_idle=365)
    assert sides[0].before.deviation == pytest.approx(110.00078549354839, abs=1e-9)


def test_series_is_game_after_game() -> None:
    """Each game its own rating period: the second game starts from the first game's result."""
    sides = rate_games(NEW_PLAYER, [OpponentGame(1500, 500, 1), OpponentGame(1500, 500, 1)])
    assert sides[0].rating_diff_text == "+241"
    assert sides[1].before == sides[0].after
    assert sides[1].after == rate_game(sides[0].after, NEW_PLAYER, 1).white.after


def test_gain_factor_multiplies_gains_only() -> None:
    """lila RatingRegulator.regulate: after + (after - before)(factor - 1), gains only."""
    plain = rate_game(NEW_PLAYER, NEW_PLAYER, 1)
    regulated = rate_game(NEW_PLAYER, NEW_PLAYER, 1, gain_factor=1.015)
    assert regulated.white.after.rating - 1500 == pytest.approx(1.015 * (plain.white.after.rating - 1500))
    assert regulated.black.after == plain.black.after


def test_against_a_bot_the_change_is_halved() -> None:
    """lila RatingRegulator.apply: a human against a bot gets glicko.average(before)."""
    human, bot = LichessRating(1500, 80, 0.06), LichessRating(1500, 80, 0.06)
    plain = rate_game(human, bot, 1).white.after
    halved = rate_game(human, bot, 1, black_is_bot=True)
    assert halved.white.after.rating == pytest.approx((plain.rating + 1500) / 2)
    assert halved.white.after.deviation == pytest.approx((plain.deviation + 80) / 2)
    assert halved.black.after == rate_game(human, bot, 1).black.after  # the bot's own change is not


ratings = st.floats(min_value=0, max_value=4000)


@settings(max_examples=60, deadline=None)
@given(
    player=st.builds(LichessRating, ratings, st.floats(1, 1000), st.floats(0.001, 0.2)),
    games=st.lists(
        st.builds(OpponentGame, ratings, st.floats(1, 1000), st.sampled_from([0.0, 0.5, 1.0])),
        max_size=20,
    ),
    days=st.floats(0, 5000),
)
def test_preset_results_are_always_within_lichess_bounds(
    player: LichessRating, games: list[OpponentGame], days: float
) -> None:
    for side in rate_games(player, games, days_idle=days):
        after = side.after
        assert math.isfinite(after.rating)
        assert 400 <= after.rating < 4000
        assert 45 <= after.deviation <= 500
        assert 0 < after.volatility <= 0.1
        assert side.reset or abs(after.rating - max(side.before.rating, 400)) <= 700 + 1e-9
