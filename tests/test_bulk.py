"""The bulk (numpy) engine: published values, and the scalar path's results on random periods."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessrate import bulk
from chessrate.errors import ConvergenceError, InvalidInputError
from chessrate.systems.elo.calculate import Event, Game, rate_period
from chessrate.systems.elo.presets import PLAIN_ELO, ciabe_rule_set, resolve_rule_set
from chessrate.systems.elo.ruleset import RuleSet, fide_rule_set
from chessrate.systems.fide.k_factor import PlayerProfile, fide_k_factor
from chessrate.systems.fide.policy import game_not_rated
from chessrate.systems.fide.regulations import FIDE_2024_03, FIDE_RB_RULES, FIDE_RULES, rules_in_force
from chessrate.systems.glicko.glicko2 import Glicko2Rating, PeriodGame, rate_whole_period
from chessrate.testing import synthetic

DAY_2024 = dt.date(2024, 6, 1)
DAY_2025 = dt.date(2025, 11, 1)


def fide(day: dt.date) -> RuleSet:
    return fide_rule_set(rules_in_force(day), day=day)


# FIDE online calculator outputs, [FIDE-CALC]: (id, own, opponent,
# score, K, change under the plain 400 cap for everyone, change under the 2025 rule).
CALCULATOR = [
    ("F-C01", 2000, 2000, 1, 10, "5", "5"),
    ("F-C03", 2004, 2000, 1, 10, "4.9", "4.9"),
    ("F-C05", 2011, 2000, 1, 10, "4.8", "4.8"),
    ("F-C07", 2207, 2000, 1, 10, "2.3", "2.3"),
    ("F-C09", 2392, 2000, 1, 10, "0.8", "0.8"),
    ("F-C10", 2000, 2003, 0, 10, "-5", "-5"),
    ("F-C13", 1655, 2000, 0, 10, "-1.1", "-1.1"),
    ("F-C15", 2649, 2149, 1, 10, "0.8", "0.8"),
    ("F-C16", 2650, 2150, 1, 10, "0.8", "0.4"),
    ("F-C17", 2700, 2200, 1, 10, "0.8", "0.4"),
    ("F-C18", 2200, 2700, 0, 20, "-1.6", "-1.6"),
    ("F-C20", 2700, 1964, 1, 10, "0.8", "0.0"),
    ("F-C21", 2700, 1900, 0, 10, "-9.2", "-10.0"),
    ("F-C22", 1500, 2000, 0.5, 20, "8.4", "8.4"),
    ("F-C23", 2092, 2000, 1, 15, "5.55", "5.55"),
    ("F-C24", 2000, 2092, 0.5, 30, "3.9", "3.9"),
]


@pytest.mark.parametrize(("day", "column"), [(DAY_2024, 5), (DAY_2025, 6)], ids=["2024-rules", "2025-rules"])
def test_fide_calculator_vectors_in_one_period(day: dt.date, column: int) -> None:
    """Every vector is a pair of players in one bulk period (FIDE calculator, [FIDE-CALC])."""
    count = len(CALCULATOR)
    ratings = np.array([value for row in CALCULATOR for value in (row[1], row[2])])
    k = np.array([row[4] for row in CALCULATOR for _ in range(2)])
    white = np.arange(0, 2 * count, 2)
    half = bulk.half_points([row[3] for row in CALCULATOR])
    period = bulk.rate_elo_period(white, white + 1, half, ratings, k, rules=fide(day))
    for i, row in enumerate(CALCULATOR):
        assert Decimal(str(period.change[2 * i])).quantize(Decimal("0.01")) == Decimal(row[column]), row[0]


@pytest.mark.parametrize(
    ("k", "games", "expected_k"),
    [(40, 18, 38), (40, 17, 40), (20, 35, 20), (20, 36, 19), (20, 39, 17), (10, 70, 10), (10, 71, 9)],
    ids=lambda value: str(value),
)
def test_700_rule_vectors(k: int, games: int, expected_k: int) -> None:
    """The 700 rule as the text states it (B.02 8.3.3)."""
    ratings = np.full(games + 1, 2000)
    white = np.zeros(games, dtype=np.intp)
    black = np.arange(1, games + 1)
    period = bulk.rate_elo_period(
        white, black, np.ones(games, dtype=np.int8), ratings, np.full(games + 1, k), rules=fide(DAY_2024)
    )
    assert period.k[0] == expected_k
    assert period.games[0] == games


@pytest.mark.parametrize(
    ("own", "opponent", "half", "rounded"),
    [(2189, 2000, 2, 3), (2000, 2189, 0, -3)],
    ids=["B02-8.3.4-plus-2.5-to-3", "B02-8.3.4-minus-2.5-to-minus-3"],
)
def test_period_rounding_half_away_from_zero(own: int, opponent: int, half: int, rounded: int) -> None:
    """B.02 8.3.4: 10 x (1 - .75) = +2.5 -> +3 and 10 x (0 - .25) = -2.5 -> -3 (table 8.1.2, D 189)."""
    period = bulk.rate_elo_period([0], [1], [half], [own, opponent], [10, 10], rules=fide(DAY_2024))
    assert period.rounded_change[0] == rounded
    assert period.new_rating[0] == own + rounded


def test_glickman_paper_example() -> None:
    """Glickman's Glicko-2 example, tau 0.5: exact doubles of [GLICKO2]'s example
    (as asserted by JSpeedie/glicko2-rust)."""
    period = bulk.rate_glicko2_period(
        [0, 0, 0],
        [1, 2, 3],
        bulk.half_points([1, 0, 0]),
        [1500, 1400, 1550, 1700],
        [200, 30, 100, 300],
        [0.06, 0.06, 0.06, 0.06],
        tau=0.5,
    )
    assert period.rating[0] == pytest.approx(1464.0506705393013, abs=1e-9)
    assert period.deviation[0] == pytest.approx(151.51652412385727, abs=1e-9)
    assert period.volatility[0] == pytest.approx(0.0599959842864885, abs=1e-12)
    assert period.iterations[0] == 2  # [GLICKO2]'s example: two Illinois iterations


def test_glicko2_bounded_iteration_fails_loudly() -> None:
    """The paper's example takes 2 Illinois iterations ([GLICKO2]): with 1 allowed, it fails."""
    with pytest.raises(ConvergenceError, match="player 0"):
        bulk.rate_glicko2_period(
            [0, 0, 0],
            [1, 2, 3],
            [2, 0, 0],
            [1500, 1400, 1550, 1700],
            [200, 30, 100, 300],
            [0.06, 0.06, 0.06, 0.06],
            tau=0.5,
            max_iterations=1,
        )


# --- the scalar path, player for player, on random periods -------------------------------------


@st.composite
def periods(draw: st.DrawFn) -> dict[str, object]:
    players = draw(st.integers(2, 8))
    games = draw(st.integers(0, 30))
    white = draw(st.lists(st.integers(0, players - 1), min_size=games, max_size=games))
    shift = draw(st.lists(st.integers(1, players - 1), min_size=games, max_size=games))
    black = [(w + d) % players for w, d in zip(white, shift, strict=True)]
    # Ratings spread so that the 400-point rule and the 2650 limit both come into play.
    rating_values = st.one_of(st.integers(1000, 2900), st.sampled_from([2649, 2650, 2651, 0, 4000]))
    ratings = draw(st.lists(rating_values, min_size=players, max_size=players))
    return {
        "white": np.array(white, dtype=np.intp),
        "black": np.array(black, dtype=np.intp),
        "half": np.array(draw(st.lists(st.integers(0, 2), min_size=games, max_size=games)), dtype=np.int8),
        "ratings": np.array(ratings, dtype=np.int64),
        "k": np.array(draw(st.lists(st.integers(1, 60), min_size=players, max_size=players))),
        "event": np.array(draw(st.lists(st.integers(0, 2), min_size=games, max_size=games)), dtype=np.intp),
        # Each player's rating at the start of each tournament, for per-event start ratings.
        "event_ratings": np.array(draw(st.lists(rating_values, min_size=3 * players, max_size=3 * players))),
    }


# The standard and the rapid and blitz versions (the latter with the 600-point games not rated).
RULE_SETS = [fide_rule_set(rules, day=rules.effective_from) for rules in FIDE_RULES + FIDE_RB_RULES] + [
    PLAIN_ELO,
    ciabe_rule_set(),
]


def scalar_period(
    data: dict[str, np.ndarray], player: int, rules: RuleSet, *, per_event_start: bool
) -> object | None:
    white, black, half, event = data["white"], data["black"], data["half"], data["event"]
    ratings, event_ratings = data["ratings"], data["event_ratings"]
    players = len(ratings)

    def start(who: int, tournament: int) -> int:
        return int(event_ratings[tournament * players + who]) if per_event_start else int(ratings[who])

    events = []
    for tournament in range(3):
        games = []
        for i in np.flatnonzero(event == tournament):
            if white[i] == player:
                opponent, score = int(black[i]), Decimal(int(half[i])) / 2
            elif black[i] == player:
                opponent, score = int(white[i]), Decimal(2 - int(half[i])) / 2
            else:
                continue
            games.append(Game(Decimal(start(opponent, tournament)), score))
        if games:
            events.append(Event(tuple(games), start_rating=Decimal(start(player, tournament))))
    if not events:
        return None
    try:
        return rate_period(Decimal(int(ratings[player])), events, rules=rules, k=int(data["k"][player]))
    except InvalidInputError as refused:  # every game of the player not rated (rapid and blitz 8.3.1)
        if refused.code != "not-rated-game":
            raise
        return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=periods(), rules=st.sampled_from(RULE_SETS), per_event_start=st.booleans())
def test_elo_period_equals_scalar_path(
    data: dict[str, np.ndarray], rules: RuleSet, per_event_start: bool
) -> None:
    extra = {}
    if per_event_start:
        players = len(data["ratings"])
        rating_at = data["event_ratings"]
        extra = {
            "white_rating": rating_at[data["event"] * players + data["white"]],
            "black_rating": rating_at[data["event"] * players + data["black"]],
        }
    period = bulk.rate_elo_period(
        data["white"],
        data["black"],
        data["half"],
        data["ratings"],
        data["k"],
        rules=rules,
        event=data["event"],
        totals=True,
        **extra,
    )
    for player in range(len(data["ratings"])):
        scalar = scalar_period(data, player, rules, per_event_start=per_event_start)
        if scalar is None:
            assert period.games[player] == 0
            assert period.change[player] == 0
            assert period.new_rating[player] == data["ratings"][player]
            continue
        assert period.games[player] == scalar.games  # type: ignore[attr-defined]
        assert period.k[player] == scalar.k.k  # type: ignore[attr-defined]
        assert period.change[player] == pytest.approx(float(scalar.change), abs=1e-9)  # type: ignore[attr-defined]
        assert period.rounded_change[player] == scalar.rounded_change  # type: ignore[attr-defined]
        assert period.new_rating[player] == scalar.new_rating  # type: ignore[attr-defined]
        assert period.score is not None
        assert period.expected is not None
        assert period.score[player] == float(scalar.score)  # type: ignore[attr-defined]
        assert period.expected[player] == pytest.approx(float(scalar.expected), abs=1e-9)  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None)
@given(data=periods(), tau=st.floats(0.3, 1.2), seed=st.integers(0, 2**32 - 1))
def test_glicko2_period_equals_scalar_path(data: dict[str, np.ndarray], tau: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    players = len(data["ratings"])
    rating = np.clip(data["ratings"] + rng.normal(0, 0.5, players), 0, 4000)
    deviation = rng.uniform(30, 350, players)
    volatility = rng.uniform(0.03, 0.1, players)
    period = bulk.rate_glicko2_period(
        data["white"], data["black"], data["half"], rating, deviation, volatility, tau=tau
    )
    start = {
        i: Glicko2Rating(float(rating[i]), float(deviation[i]), float(volatility[i])) for i in range(players)
    }
    games = [
        PeriodGame(int(w), int(b), int(h) / 2)
        for w, b, h in zip(data["white"], data["black"], data["half"], strict=True)
    ]
    scalar = rate_whole_period(start, games, tau=tau)
    # The agreement docs/bulk.md promises, with its reason (bulk.SCALAR_AGREEMENT): relative, since
    # extreme periods (a 1700-point upset 27 times) drive the volatility, and so the rating, far up.
    close = {"rel": bulk.SCALAR_AGREEMENT, "abs": bulk.SCALAR_AGREEMENT}
    for i in range(players):
        assert period.rating[i] == pytest.approx(scalar[i].rating, **close)
        assert period.deviation[i] == pytest.approx(scalar[i].deviation, **close)
        assert period.volatility[i] == pytest.approx(scalar[i].volatility, **close)


profile_values = st.one_of(st.just(-1), st.integers(0, 2000))


@settings(max_examples=60, deadline=None)
@given(
    ratings=st.lists(st.integers(1000, 2800), min_size=1, max_size=6),
    birth=st.lists(st.one_of(st.just(-1), st.integers(1990, 2020)), min_size=6, max_size=6),
    played=st.lists(st.one_of(st.just(-1), st.integers(0, 60)), min_size=6, max_size=6),
    highest=st.lists(st.one_of(st.just(-1), st.integers(1000, 2800)), min_size=6, max_size=6),
    rules=st.sampled_from(FIDE_RULES + FIDE_RB_RULES),
)
def test_k_factors_equal_scalar_rule(
    ratings: list[int], birth: list[int], played: list[int], highest: list[int], rules: object
) -> None:
    n = len(ratings)
    rule_set = fide_rule_set(rules, day=dt.date(2026, 1, 1))  # type: ignore[arg-type]
    k = bulk.k_factors(
        np.array(ratings),
        rules=rule_set,
        birth_year=np.array(birth[:n]),
        rated_games=np.array(played[:n]),
        highest_rating=np.array(highest[:n]),
    )
    for i in range(n):
        profile = PlayerProfile(
            birth_year=None if birth[i] < 0 else birth[i],
            rated_games=None if played[i] < 0 else played[i],
            highest_rating=None if highest[i] < 0 else highest[i],
        )
        scalar = fide_k_factor(ratings[i], profile, rules=rule_set.fide, day=dt.date(2026, 1, 1))  # type: ignore[arg-type]
        assert k[i] == scalar.k


def test_rapid_k_20_for_everyone_before_october_2022_and_700_over_35_games() -> None:
    # [SCAC]: rapid and blitz before 1 October 2022, "K=20 per tutti"; beyond n = 35 games, K the
    # largest whole number with n x K <= 700 (B.02 8.3.3): 36 games, K 19 (19 x 36 = 684).
    rules = resolve_rule_set("fide-rapid", as_of=dt.date(2022, 6, 1))
    ratings = np.array([1500, 2450, 2000, 1800])
    profile = {"birth_year": np.array([2010, 1980, -1, -1]), "highest_rating": np.array([-1, 2500, -1, -1])}
    assert bulk.k_factors(ratings, rules=rules, **profile).tolist() == [20, 20, 20, 20]
    assert bulk.k_factors(ratings, rules=rules).tolist() == [20, 20, 20, 20]
    # Player 2 plays 35 games, player 3 plays 36 (against players 0 and 1).
    white = np.array([2] * 35 + [3] * 36)
    black = np.array([0, 1] * 17 + [0] + [0, 1] * 18)
    period = bulk.rate_elo_period(white, black, np.ones(len(white), dtype=np.int8), ratings, rules=rules)
    assert (int(period.k[2]), int(period.k[3])) == (20, 19)  # 20 x 35 = 700 is not cut


@pytest.mark.parametrize(
    ("own", "opponent", "rated"),
    [(2601, 2001, False), (2001, 2601, False), (2601, 2002, True), (2600, 2000, True), (2800, 1900, False)],
)
def test_600_point_games_are_left_out_by_the_bulk_engine(own: int, opponent: int, rated: bool) -> None:
    # B02RBRegulations2024 8.3.1, from 1 December 2024: "Games played between players with a rating
    # difference of 600 points or more shall not be rated if at least one of the players is rated
    # above 2600 on the relevant list."
    rules = resolve_rule_set("fide-blitz", as_of=dt.date(2024, 12, 1))
    period = bulk.rate_elo_period([0, 0], [1, 2], [2, 2], [own, opponent, own], [10, 10, 10], rules=rules)
    assert period.games.tolist() == ([2, 1, 1] if rated else [1, 0, 1])
    day_before = resolve_rule_set("fide-blitz", as_of=dt.date(2024, 11, 30))
    before = bulk.rate_elo_period(
        [0, 0], [1, 2], [2, 2], [own, opponent, own], [10, 10, 10], rules=day_before
    )
    assert before.games.tolist() == [2, 1, 1]


def test_k_factors_without_profile_are_the_scalar_ones() -> None:
    ratings = np.array([1500, 2399, 2400, 2700])
    rules = fide_rule_set(FIDE_2024_03, day=DAY_2024)
    expected = [rules.k_for(Decimal(int(r)), None).k for r in ratings]
    assert bulk.k_factors(ratings, rules=rules).tolist() == expected
    ciabe = ciabe_rule_set()
    # Ciabe's K by category [CIABE]: 25 below 1580, 20 to 1699, 15 to 1824, 10 from 1825.
    assert bulk.k_factors(np.array([1500, 1580, 1700, 1825]), rules=ciabe).tolist() == [25, 20, 15, 10]


# --- bad input names the field --------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"white": [0, 5]}, "white"),
        ({"black": [1, -1]}, "black"),
        ({"black": [0, 0]}, "black"),  # a player against themself
        ({"half": [0, 3]}, "white_half_points"),
        ({"ratings": [1500.5, 1600, 1700]}, "ratings"),
        ({"ratings": [1500, 4001, 1700]}, "ratings"),
        ({"k": [20, 0, 20]}, "k"),
        ({"event": [0, -2]}, "event"),
    ],
    ids=lambda value: str(value),
)
def test_bad_input_names_the_field(change: dict[str, object], field: str) -> None:
    arguments: dict[str, object] = {
        "white": [0, 1],
        "black": [1, 2],
        "half": [2, 1],
        "ratings": [1500, 1600, 1700],
        "k": [20, 20, 20],
        "event": [0, 0],
    }
    arguments.update(change)
    with pytest.raises(InvalidInputError) as error:
        bulk.rate_elo_period(
            arguments["white"],  # type: ignore[arg-type]
            arguments["black"],  # type: ignore[arg-type]
            arguments["half"],  # type: ignore[arg-type]
            arguments["ratings"],  # type: ignore[arg-type]
            arguments["k"],  # type: ignore[arg-type]
            rules=fide(DAY_2024),
            event=arguments["event"],  # type: ignore[arg-type]
        )
    assert error.value.field == field


def test_half_points_refuses_other_scores() -> None:
    assert bulk.half_points([1, 0.5, 0]).tolist() == [2, 1, 0]
    with pytest.raises(InvalidInputError, match="game 1"):
        bulk.half_points([1, 0.7])


def test_glicko2_bad_input_names_the_field() -> None:
    with pytest.raises(InvalidInputError) as error:
        bulk.rate_glicko2_period([0], [1], [2], [1500, 1500], [200, 0], [0.06, 0.06])
    assert error.value.field == "deviation"
    with pytest.raises(InvalidInputError) as error:
        bulk.rate_glicko2_period([0], [1], [2], [1500, 1500], [200, 200], [0.06, 0.06], tau=0)
    assert error.value.field == "tau"


# --- the synthetic generator -------------------------------------------------------------------


def test_synthetic_games_are_reproducible_and_monthly() -> None:
    first = synthetic.generate(games=5000, months=4, seed=7)
    again = synthetic.generate(games=5000, months=4, seed=7)
    other = synthetic.generate(games=5000, months=4, seed=8)
    assert np.array_equal(first.white, again.white)
    assert np.array_equal(first.white_half_points, again.white_half_points)
    assert not np.array_equal(first.white, other.white)
    assert (first.white != first.black).all()
    periods = first.periods()
    assert len(periods) == 4
    assert sum(p.stop - p.start for p in periods) == 5000
    for index, period in enumerate(periods):
        assert (first.month[period] == index).all()
    assert set(np.unique(first.white_half_points).tolist()) == {0, 1, 2}
    # The stronger player scores more: the hidden strengths drive the results.
    stronger_white = first.players.strength[first.white] > first.players.strength[first.black]
    assert first.white_half_points[stronger_white].mean() > first.white_half_points[~stronger_white].mean()


@pytest.mark.parametrize(
    ("first_opponent", "first_half", "second_opponent", "second_half", "change"),
    [(2500, 0, 1500, 2, -0.8), (1500, 2, 2500, 0, 0.8)],
    ids=["B.02-2022-8.3.1-tie-first-game-loss", "B.02-2022-8.3.1-tie-first-game-win"],
)
def test_2022_rule_caps_the_first_of_equal_greatest_differences(
    first_opponent: int, first_half: int, second_opponent: int, second_half: int, change: float
) -> None:
    """2022-2024: one upgrade per tournament, "for the game in which the rating difference is
    greatest"; of two games at |D| = 500, the first. By table 8.1.2 with K 20: capped loss at
    -400 is 0 - .08, uncapped win at +500 is 1 - .96 (and the other way round)."""
    day = dt.date(2023, 1, 1)
    period = bulk.rate_elo_period(
        [0, 0],
        [1, 2],
        [first_half, second_half],
        [2000, first_opponent, second_opponent],
        [20, 20, 20],
        rules=fide(day),
        event=[0, 0],
    )
    assert period.change[0] == pytest.approx(change, abs=1e-12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=periods(), rules=st.sampled_from(RULE_SETS))
def test_elo_game_working_equals_scalar_path(data: dict[str, np.ndarray], rules: RuleSet) -> None:
    """Per game and side: the difference used, the cap and the expected score of ``rate_period``'s
    working (``GameWorking``), with per-event start ratings and the 2022 one-game scope."""
    players = len(data["ratings"])
    rating_at = data["event_ratings"]
    white_rating = rating_at[data["event"] * players + data["white"]]
    black_rating = rating_at[data["event"] * players + data["black"]]
    working = bulk.elo_game_working(
        data["white"], data["black"], white_rating, black_rating, rules=rules, event=data["event"]
    )
    # The games rated: the scalar path leaves out those rapid and blitz 8.3.1 does not rate (from
    # 1 December 2024); elo_game_working gives every game's figures, as it is given them.
    rated = np.ones(len(white_rating), dtype=np.bool_)
    if rules.fide is not None and rules.fide.not_rated_difference is not None:
        rated = ~np.asarray(game_not_rated(white_rating, black_rating, rules.fide), dtype=np.bool_)
    for player in range(players):
        scalar = scalar_period(data, player, rules, per_event_start=True)
        if scalar is None:
            continue
        games = [
            (i, "white" if data["white"][i] == player else "black")
            for tournament in range(3)
            for i in np.flatnonzero(data["event"] == tournament)
            if player in (data["white"][i], data["black"][i]) and rated[i]
        ]
        scalar_games = [game for event in scalar.events for game in event.games]  # type: ignore[attr-defined]
        assert len(games) == len(scalar_games)
        for (i, side), game in zip(games, scalar_games, strict=True):
            assert getattr(working, f"{side}_difference")[i] == game.difference
            assert getattr(working, f"{side}_capped")[i] == game.capped
            assert getattr(working, f"{side}_expected")[i] == pytest.approx(float(game.expected), abs=1e-12)
