"""US Chess against Glickman's published texts and US Chess's announcements of B."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrate.errors import InvalidInputError
from chessrate.systems.uscf import rating as uscf

DAY = dt.date(2024, 6, 1)


# Glickman, "The US Chess Rating System", node5: the table of K by N' and m, full and half K.
# Printed to two decimals (the half-K 7.54 for N' 50, m 6 is 7.547 truncated).
@pytest.mark.parametrize(
    ("n_eff", "m", "full", "half"),
    [
        (6, 4, 80, 50),
        (6, 6, 66.67, 44.44),
        (6, 10, 50, 36.36),
        (20, 4, 33.33, 18.18),
        (20, 6, 30.77, 17.39),
        (20, 10, 26.67, 16),
        (50, 4, 14.81, 7.69),
        (50, 6, 14.29, 7.54),
        (50, 10, 13.33, 7.27),
    ],
)
def test_k_table_of_node5(n_eff: int, m: int, full: float, half: float) -> None:
    assert uscf.k_factor(n_eff, m) == pytest.approx(full, abs=0.01)
    assert uscf.k_factor(n_eff, m, half_k=True) == pytest.approx(half, abs=0.01)


def test_effective_games_worked_example_of_node3() -> None:
    # R0 = 1700 based on N = 30 games: N* = 50 / sqrt(3.5) = 26.7, N' = min(30, 26.7) = 26.7.
    assert round(uscf.effective_games_star(1700), 1) == 26.7
    assert round(uscf.effective_games(1700, 30), 1) == 26.7
    assert uscf.effective_games(1700, 12) == 12


def test_effective_games_is_50_above_2200_under_the_2004_formula() -> None:
    assert uscf.effective_games_star(2200) == 50
    assert uscf.effective_games_star(2201) == 50
    assert uscf.effective_games_star(2800) == 50


def test_the_unconfirmed_newer_formula_only_when_asked() -> None:
    newer = uscf.EffectiveGames.UNCONFIRMED_NEWER
    assert uscf.effective_games_star(1700) == uscf.effective_games_star(
        1700, uscf.EffectiveGames.GLICKMAN_2004
    )
    # 50 / sqrt(0.662 + 0.00000739 (2569 - R)^2) below 2355, 50 from 2355.
    assert uscf.effective_games_star(1700, newer) == pytest.approx(
        50 / math.sqrt(0.662 + 0.00000739 * 869**2)
    )
    assert uscf.effective_games_star(2355, newer) == 50


def test_special_formula_worked_case() -> None:
    # Approximating Formulas (2015, 2017): a 1500 based on 6 games meets 1400, 1550, 1650 and
    # wins, loses, draws -> 1511, rounded from 1511.111.
    games = [uscf.UscfGame(1400, 1), uscf.UscfGame(1550, 0), uscf.UscfGame(1650, 0.5)]
    result = uscf.rate_event(1500, games, games_played=6, event_end=DAY)
    assert result.formula is uscf.Formula.SPECIAL
    assert round(result.new_rating, 3) == 1511.111
    assert result.published == 1511


def test_special_formula_for_an_unrated_player() -> None:
    # "If the player is unrated, set N = 0 and Rpre = 0": Ravg + 400 (W - L) / m.
    games = [uscf.UscfGame(1400, 1), uscf.UscfGame(1600, 1), uscf.UscfGame(1500, 0)]
    result = uscf.rate_event(None, games, games_played=0, event_end=DAY)
    assert result.new_rating == pytest.approx(1500 + 400 / 3)


def test_a_rating_needs_its_games_played() -> None:
    # "If the player is unrated, set N = 0": N = 0 is an unrated player, so a rating with 0 games
    # played is refused, never rated as unrated (1500 beating 1400 is not 1400 + 400 = 1800).
    with pytest.raises(InvalidInputError, match="games played") as refused:
        uscf.rate_event(1500, [uscf.UscfGame(1400, 1)], games_played=0, event_end=DAY)
    assert refused.value.code == "uscf-games-played-needed"
    with pytest.raises(InvalidInputError, match="has a rating"):
        uscf.rate_event(None, [uscf.UscfGame(1400, 1)], games_played=5, event_end=DAY)


def test_standard_formula_from_nine_games() -> None:
    assert uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=8, event_end=DAY).formula == "special"
    assert (
        uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=9, event_end=DAY).formula == "standard"
    )


# B by the end of the event: 10 (Glickman 2004, node5) -> 12 for events ending on or after 1 June 2015
# [USCF-B15]; 12 -> 14 for tournaments ending on 1 May 2017 or later; 14 -> 12 for those ending on or
# after 1 February 2023; 12 -> 10 for every event of 2025 [USCF-B].
@pytest.mark.parametrize(
    ("day", "b"),
    [
        (dt.date(2004, 9, 22), 10),
        (dt.date(2015, 5, 31), 10),
        (dt.date(2015, 6, 1), 12),
        (dt.date(2017, 4, 30), 12),
        (dt.date(2017, 5, 1), 14),
        (dt.date(2023, 1, 31), 14),
        (dt.date(2023, 2, 1), 12),
        (dt.date(2024, 12, 31), 12),
        (dt.date(2025, 1, 1), 10),
    ],
)
def test_bonus_threshold_on_both_sides_of_each_date(day: dt.date, b: int) -> None:
    assert uscf.bonus_threshold(day).b == b


def _four_wins(day: dt.date, **kwargs: object) -> uscf.UscfResult:
    games = [uscf.UscfGame(1500, 1)] * 4
    return uscf.rate_event(1500, games, games_played=30, event_end=day, **kwargs)  # type: ignore[arg-type]


def test_bonus_by_node5() -> None:
    # Four wins against equals: S - E = 2, N' = min(30, N*(1500)), K = 800 / (N' + 4);
    # bonus = max(0, K (S - E) - B sqrt(max(4, 4))).
    n_eff = min(30, 50 / math.sqrt(1 + 700**2 / 100000))
    k = 800 / (n_eff + 4)
    for day, b in ((dt.date(2020, 1, 1), 14), (dt.date(2025, 3, 1), 10)):
        result = _four_wins(day)
        assert result.k == pytest.approx(k)
        assert result.bonus == pytest.approx(k * 2 - b * 2)
        assert result.new_rating == pytest.approx(1500 + 2 * k * 2 - b * 2)


def test_no_bonus_below_three_games_or_with_a_repeated_opponent() -> None:
    two = uscf.rate_event(1500, [uscf.UscfGame(1500, 1)] * 2, games_played=30, event_end=DAY)
    assert (two.bonus_allowed, two.bonus) == (False, 0.0)
    repeated = _four_wins(DAY, repeated_opponent=True)
    assert (repeated.bonus_allowed, repeated.bonus) == (False, 0.0)


def test_half_k_event() -> None:
    result = uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=30, event_end=DAY, half_k=True)
    n_eff = min(30, 50 / math.sqrt(1 + 700**2 / 100000))
    assert result.k == pytest.approx(400 / (n_eff + 0.5))


def test_bad_inputs_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match="games played"):
        uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=-1, event_end=DAY)
    with pytest.raises(InvalidInputError, match="game 1 result"):
        uscf.rate_event(1500, [uscf.UscfGame(1500, 0.7)], games_played=20, event_end=DAY)
    with pytest.raises(InvalidInputError, match="rating"):
        uscf.rate_event(None, [uscf.UscfGame(1500, 1)], games_played=3, event_end=DAY)
    with pytest.raises(InvalidInputError, match="bonus threshold"):
        uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=20, event_end=DAY, bonus_b=-1)


@given(
    st.floats(min_value=100, max_value=2700),
    st.integers(min_value=1, max_value=300),  # a rating comes with its games (N = 0: unrated)
    st.lists(
        st.tuples(st.floats(min_value=100, max_value=2700), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=9,
    ),
    st.data(),
)
def test_monotone_in_the_score(
    rating: float, played: int, games: list[tuple[float, float]], data: st.DataObject
) -> None:
    position = data.draw(st.integers(min_value=0, max_value=len(games) - 1))
    news = []
    for score in (0.0, 0.5, 1.0):
        games[position] = (games[position][0], score)
        event = [uscf.UscfGame(o, s) for o, s in games]
        news.append(uscf.rate_event(rating, event, games_played=played, event_end=DAY).new_rating)
    assert news[0] <= news[1] + 1e-9
    assert news[1] <= news[2] + 1e-9


def test_absolute_floor_of_100() -> None:
    # US Chess forum, "Ratings floor question": no rating below the absolute floor of 100.
    # An unrated player who loses to a 100: the special formula gives 100 + 400 x (0 - 1) = -300.
    unrated = uscf.rate_event(None, [uscf.UscfGame(100, 0)], games_played=0, event_end=DAY)
    assert (unrated.published, unrated.unfloored_rating) == (100, -300)
    # A 150 losing five games to 150s: the standard formula goes below 100 and is held at 100.
    rated = uscf.rate_event(150, [uscf.UscfGame(150, 0)] * 5, games_played=20, event_end=DAY)
    assert rated.new_rating == uscf.ABSOLUTE_FLOOR == 100
    assert rated.unfloored_rating is not None
    assert rated.unfloored_rating < 100
    # Above the floor nothing changes.
    assert (
        uscf.rate_event(1500, [uscf.UscfGame(1500, 0)], games_played=30, event_end=DAY).unfloored_rating
        is None
    )


def test_b_before_june_2015_is_10_and_the_source_says_where_none_does() -> None:
    # Glickman's node5 (2004) and a US Chess forum answer of 11 April 2005 ("multiplied by 10") give
    # B = 10; the June 2015 news raised it "from the current level of B=10" [USCF-B15]. Before the 2004
    # text no source read says: the source says so. B can be given instead.
    threshold = uscf.bonus_threshold(dt.date(2005, 4, 11))
    assert threshold.b == 10
    assert "no source read gives B" in threshold.source
    assert _four_wins(dt.date(2005, 1, 1), bonus_b=12).bonus_threshold == uscf.BonusThreshold(
        b=12, since=None, source="given by the user"
    )


def test_the_issue_example_of_2005_uses_b_10(cli: Any) -> None:
    # chessrate uscf 1500 1300:1 1350:1 1400:1 1450:1 --games-played 30 --event-end 2005-04-11:
    # node5's bonus max(0, K (S - E) - 10 sqrt(4)).
    run = cli(
        "uscf", "1500", "1300:1", "1350:1", "1400:1", "1450:1", "--games-played", "30",
        "--event-end", "2005-04-11", "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    data = run.json()
    n_eff = min(30, 50 / math.sqrt(1 + 700**2 / 100000))
    k = 800 / (n_eff + 4)
    expected = sum(1 / (1 + 10 ** ((o - 1500) / 400)) for o in (1300, 1350, 1400, 1450))
    base = k * (4 - expected)
    assert data["bonus"]["threshold"] == 10
    assert data["bonus"]["bonus"] == pytest.approx(max(0.0, base - 20), abs=0.01)


def test_a_future_event_is_refused_in_the_cli_and_the_api(cli: Any) -> None:
    from fastapi.testclient import TestClient

    from chessrate.web import create_app

    day = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    run = cli("uscf", "1500", "1400:1", "--games-played", "30", "--event-end", day)
    assert run.code == 2
    assert "event_end" in run.err or "--event-end" in run.err
    assert "ends after today" in run.err
    assert len(run.err.strip().splitlines()) == 1
    with TestClient(create_app()) as client:
        body = {"rating": "1500", "games": [{"opponent": "1400", "result": "1"}], "games_played": "30",
                "event_end": day}  # fmt: skip
        answer = client.post("/api/uscf", json=body)
        assert answer.status_code == 422
        detail = answer.json()["detail"][0]
        assert detail["loc"] == ["body", "event_end"]
        assert "ends after today" in detail["msg"]
        today = client.post("/api/uscf", json={**body, "event_end": dt.date.today().isoformat()})
        assert today.status_code == 200
