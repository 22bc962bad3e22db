"""The command line of the other systems and the points at stake (--json, one-line errors)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_dwz_worked_example(cli: Any) -> None:
    # sktroisdorf.de (2018-11-15): 1000 v 1200, juniors, Index >= 1: a win gives 1101 / 1132.
    assert cli("dwz", "1000", "1200:1", "--age", "15", "--index", "1", "--json").json()["new_rating"] == 1101
    second = cli("dwz", "1200", "1000:0", "--age", "15", "--index", "1", "--json").json()
    assert second["new_rating"] == 1132
    assert second["development_coefficient"]["e"] == 8


def test_dwz_table_shows_e(cli: Any) -> None:
    out = cli("dwz", "1000", "1200:½", "--age", "15", "--index", "1").out
    assert "1035" in out
    assert "E = E0 x fB + SBr" in out


def test_uscf_special_formula(cli: Any) -> None:
    # Approximating Formulas: 1500 after 6 games v 1400 (W), 1550 (L), 1650 (D) -> 1511.
    data = cli("uscf", "1500", "1400:1", "1550:0", "1650:½", "--games-played", "6", "--json").json()
    assert data["formula"] == "special"
    assert data["published_rating"] == 1511


def test_uscf_standard_formula_and_dated_bonus(cli: Any) -> None:
    data = cli(
        "uscf", "1700", "1700:1", "1700:1", "1700:1", "1700:1", "--games-played", "30", "--event-end",
        "2025-03-01", "--json",
    ).json()  # fmt: skip
    assert data["formula"] == "standard"
    assert round(data["effective_games"], 1) == 26.7  # node3's worked value
    assert data["k"] == pytest.approx(800 / (data["effective_games"] + 4))
    assert data["bonus"]["threshold"] == 10
    assert data["bonus"]["bonus"] == pytest.approx(data["k"] * 2 - 10 * 2)


def test_ecf_adult_and_junior(cli: Any) -> None:
    assert cli("ecf", "1800", "1800:1", "--json").json()["change"] == 10
    assert cli("ecf", "1800", "1800:1", "--junior", "--json").json()["change"] == 20


def test_convert_shows_the_fide_range(cli: Any) -> None:
    data = cli("convert", "1500", "--from", "lichess-blitz", "--to", "fide", "--json").json()
    (fit,) = data["conversions"]
    assert fit["value"] == pytest.approx(0.8399 * 1500 + 179.89)
    assert fit["high"] == pytest.approx(fit["value"] + 0.4 * (2000 - fit["value"]))
    both = cli(
        "convert",
        "1500",
        "--from",
        "lichess-blitz",
        "--to",
        "fide",
        "--and",
        "lichess-classical=1700",
        "--json",
    ).json()
    assert {c["name"] for c in both["conversions"]} == {"mathtuition88-2020", "lichess-forum"}


def test_stakes_table_and_formula(cli: Any) -> None:
    table = cli("stakes", "1500", "1700", "--k", "20", "--json").json()
    assert [table[o]["change"] for o in ("win", "draw", "loss")] == [15.2, 5.2, -4.8]
    assert table["win"]["opponent_change"] == -15.2
    formula = cli("stakes", "1500", "1700", "--k", "20", "--expected", "formula", "--json").json()
    assert [round(formula[o]["change"], 2) for o in ("win", "draw", "loss")] == [15.19, 5.19, -4.81]


def test_stakes_of_other_systems(cli: Any) -> None:
    dwz = cli("stakes", "1000", "1200", "--system", "dwz", "--age", "15", "--index", "1", "--json").json()
    assert [dwz[o]["new_rating"] for o in ("win", "draw", "loss")] == [1101, 1035, 985]
    assert [dwz[o]["opponent_new_rating"] for o in ("win", "draw", "loss")] == [1132, 1177, 1232]
    uscf = cli(
        "stakes", "1500", "1500", "--system", "uscf", "--games-played", "30", "--opponent-games-played", "30",
        "--json",
    ).json()  # fmt: skip
    assert uscf["zero_sum"] is True
    glicko2 = cli(
        "stakes", "1500", "1400", "--system", "glicko2", "--deviation", "200", "--opponent-deviation", "30",
        "--json",
    ).json()  # fmt: skip
    assert glicko2["win"]["new_rating"] == pytest.approx(1563.5641943063383, abs=1e-6)


def test_every_elo_document_has_stakes(cli: Any) -> None:
    game = cli("game", "1500", "1700", "½", "--k", "20", "--json").json()
    assert game["stakes"]["win"]["change"] == 15.2


def test_glicko_chesscom_preset(cli: Any) -> None:
    data = cli("glicko", "--preset", "chesscom", "--level", "beginner", "900:350:1", "--json").json()
    assert data["estimate"] is True
    assert data["start_rating"] == 800
    assert data["start_deviation"] == 350


def test_lichess_gain_factor(cli: Any) -> None:
    plain = cli("glicko2", "--preset", "lichess", "1500:500:1", "--json").json()
    gained = cli("glicko2", "--preset", "lichess", "--gain-factor", "1.015", "1500:500:1", "--json").json()
    assert gained["rating"] - 1500 == pytest.approx(1.015 * (plain["rating"] - 1500))
    assert gained["games"][0]["rating_diff"] == 245  # trunc(1745.098) - 1500, a number
    assert plain["games"][0]["rating_diff"] == 241


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["dwz", "1000", "1200:1", "--age", "15", "--index", "0"], "index"),
        (["dwz", "1000", "1200:1", "--age", "old", "--index", "1"], "age"),
        (["dwz", "1000", "1200:3", "--age", "15", "--index", "1"], "result"),
        (["uscf", "1500", "1400:1", "--games-played", "-2"], "--games-played"),
        (["ecf", "abc", "1800:1"], "rating"),
        (["ecf", "1800", "1800:1", "--new-player"], "nominal opponent"),
        (["convert", "1500", "--from", "icc", "--to", "fide"], "--from"),
        (["convert", "1500", "--from", "chesscom-blitz", "--to", "fide"], "lichess-blitz"),
        (["stakes", "1500", "1700", "--system", "dwz", "--age", "15"], "index"),
        (["glicko", "--preset", "chesscom", "--level", "master", "900:350:1"], "level"),
        (
            [
                "glicko2",
                "--gain-factor",
                "1.015",
                "--rating",
                "1500",
                "--deviation",
                "200",
                "--volatility",
                "0.06",
                "1400:30:1",
            ],
            "--gain-factor",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2(cli: Any, args: list[str], field: str) -> None:
    run = cli(*args)
    assert run.code == 2
    assert field in run.err
    assert "Traceback" not in run.err
    assert len(run.err.strip().splitlines()) == 1


words = st.one_of(
    st.text(max_size=8), st.sampled_from(["", "0", "-5", "1e9", "nan", "½", "1500,5", "1200:1"])
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rating=words, game=words, extra=words)
def test_no_argument_breaks_a_command(cli: Any, rating: str, game: str, extra: str) -> None:
    for args in (
        ["dwz", rating, game, "--age", extra, "--index", extra],
        ["uscf", rating, game, "--games-played", extra],
        ["ecf", rating, game],
        ["convert", rating, "--from", extra, "--to", "fide"],
        ["stakes", rating, game, "--system", "dwz", "--age", extra, "--index", extra],
        ["glicko", "--preset", "chesscom", "--level", extra, game],
    ):
        run = cli(*args)
        assert run.code in {0, 2}, (args, run.err)
        assert "Traceback" not in run.err
