"""The command line's public contract: commands, JSON keys, and one-line errors with exit code 2."""

from __future__ import annotations

from typing import Any

import pytest


def test_game_json_keys_guide_400_rule_formula(cli: Any) -> None:
    # [ELO-GUIDE]: 1500 beats 1000, K 20, formula with the cap: E 0.91, +1.8.
    run = cli("game", "1500", "1000", "1", "--k", "20", "--expected", "formula", "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert {"k", "difference", "capped", "expected", "change", "new_rating"} <= set(data)
    assert (data["k"], data["difference"], data["capped"]) == (20, 400, True)
    assert round(data["change"], 1) == 1.8
    assert data["new_rating"] == 1502


def test_game_no_cap(cli: Any) -> None:
    data = cli("game", "1500", "1000", "0", "--k", "20", "--expected", "formula", "--no-cap", "--json").json()
    assert (data["difference"], data["capped"], round(data["change"], 1)) == (500, False, -18.9)


def test_game_as_of_before_and_after_2650_amendment(cli: Any) -> None:
    # F-C17: 2700 beats 2200, K 10: +0.8 under the cap (to 30 Sep 2025), +0.4 after.
    before = cli("game", "2700", "2200", "1", "--k", "10", "--as-of", "2025-09-30", "--json").json()
    after = cli("game", "2700", "2200", "1", "--k", "10", "--as-of", "2025-10-01", "--json").json()
    assert (before["change"], before["capped"]) == (0.8, True)
    assert (after["change"], after["capped"]) == (0.4, False)


def test_tournament_ciabe_points_form(cli: Any) -> None:
    run = cli(
        "tournament", "1800", "1500", "1600", "1700", "1800", "1900", "2000", "--points", "4,5",
        "--rules", "ciabe", "--json",
    )  # fmt: skip
    assert run.code == 0, run.err
    data = run.json()
    assert {
        "k",
        "games",
        "score",
        "expected",
        "average_opponent",
        "change",
        "new_rating",
        "performance",
    } <= set(data)
    assert (data["k"], data["expected"], data["change"], data["new_rating"]) == (15, 3.35, 17.25, 1817)
    assert data["average_opponent"] == 1750
    assert [g["expected"] for g in data["games"]] == [0.85, 0.76, 0.64, 0.5, 0.36, 0.24]
    assert {"opponent", "difference", "capped", "expected", "score", "change"} <= set(data["games"][0])


def test_tournament_guide_results_in_words(cli: Any) -> None:
    data = cli("tournament", "1500", "1400:win", "1600:tablas", "1550:derrota", "--k", "20", "--json").json()
    assert [g["change"] for g in data["games"]] == [7.2, 2.8, -8.6]
    assert (data["change"], data["new_rating"]) == (1.4, 1501)


def test_games_against_average(cli: Any) -> None:
    # [ELO-CALC-ES]'s multi-game mode: 1500 K 20, 3 games v 1500 average, 2 points -> 20 x (2 - 1.5) = +10.
    data = cli(
        "games", "1500", "--games", "3", "--points", "2", "--average", "1500", "--k", "20", "--json"
    ).json()
    assert (data["expected"], data["expected_per_game"], data["change"], data["new_rating"]) == (
        1.5,
        0.5,
        10,
        1510,
    )


def test_period_with_start_ratings_and_700_rule(cli: Any) -> None:
    # [ELO-GUIDE]'s 700 rule: K 40 with 20 games -> 35.
    events = ["@1500 " + " ".join(["1500:1"] * 10), " ".join(["1500:0"] * 10)]
    data = cli("period", "1500", *events, "--k", "40", "--json").json()
    assert data["k"] == 35
    assert data["games"] == 20
    assert [e["change"] for e in data["events"]] == [175, -175]
    assert (data["change"], data["new_rating"]) == (0, 1500)


def test_period_round_per_tournament(cli: Any) -> None:
    args = ("period", "2000", "2000:1", "2000:1", "--k", "5", "--json")
    assert cli(*args).json()["new_rating"] == 2005
    assert cli(*args, "--round-per-tournament").json()["new_rating"] == 2006


def test_k_factor_with_reason(cli: Any) -> None:
    data = cli("k-factor", "1900", "--birth-year", "2010", "--rated-games", "50", "--as-of", "2026-11-29",
               "--json").json()  # fmt: skip
    assert (data["k"], data["article"]) == (40, "FIDE B.02 8.3.3")
    assert "junior" in data["reason"]
    assert (
        cli("k-factor", "2000", "--rated-games", "100", "--games-this-period", "40", "--json").json()["k"]
        == 17
    )


def test_performance_and_initial(cli: Any) -> None:
    perf = cli("performance", "1500:1", "1600:1", "1700:1", "1800:0.5", "1900:½", "2000:0", "--json").json()
    # 4 of 6 -> p .67 -> dp 125 (table 8.1.1); Ra 1750 -> 1875.
    assert (perf["fide"], perf["average_opponent"], perf["dp"]) == (1875, 1750, 125)
    assert perf["formula"] is not None
    # [FIDE-CALC] F-N01 -> 1922.
    init = cli(
        "initial", "1902:1", "1877:1", "1884:1", "2012:0", "1832:0", "--as-of", "2025-12-01", "--json"
    ).json()
    assert init["rating"] == 1922
    none = cli("initial", "1900:1", "1900:0", "--json").json()
    assert none["rating"] is None
    assert none["reason"] == "too-few-games"  # B.02 7.1.4: at least 5 games against rated opponents
    assert "at least 5" in none["explanation"]


def test_tables(cli: Any) -> None:
    pd = cli("table", "pd", "--json").json()
    assert pd[0] == {"from": 0, "to": 3, "pd_higher": ".50", "pd_lower": ".50"}
    assert len(pd) == 51
    dp = cli("table", "dp", "--json").json()
    assert len(dp) == 101
    assert dp[0] == {"p": "1.00", "dp": 800}
    assert dp[-1]["dp"] == -800
    assert cli("table", "pd").code == 0


def test_human_output_shows_the_working(cli: Any) -> None:
    run = cli(
        "tournament",
        "1800",
        "1500",
        "1600",
        "1700",
        "1800",
        "1900",
        "2000",
        "--points",
        "4.5",
        "--rules",
        "ciabe",
    )
    assert run.code == 0
    for text in ("3.35", "+17.25", "1817", "K 15"):
        assert text in run.out


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["game", "abc", "1500", "1"], "rating"),
        (["game", "1500", "5000", "1"], "opponent"),
        (["game", "1500", "4001", "1"], "opponent"),
        (["game", "1500", "--", "-10", "1"], "opponent"),
        (["game", "1500", "1600", "2"], "result"),
        (["game", "1500", "1600", "1", "--k", "0"], "k"),
        (["game", "1500", "1600", "1", "--k", "-5"], "k"),
        (["game", "1500", "1600", "1", "--rules", "nonsense"], "rule set"),
        (["game", "1500", "1600", "1", "--rules", "elo"], "k"),
        (["game", "1500", "1600", "1", "--expected", "magic"], "expected"),
        (["game", "1500", "1600", "1", "--as-of", "yesterday"], "--as-of"),
        (["games", "1500", "--games", "0", "--points", "0", "--average", "1500"], "games"),
        (["games", "1500", "--games", "3", "--points", "4", "--average", "1500"], "points"),
        (["tournament", "1500", "1400", "1600", "--points", "3"], "points"),
        (["tournament", "1500", "1400:1", "--points", "1"], "points"),
        (["tournament", "1500", "1400"], "game"),
        (["period", "1500", "@1500"], "event"),
        (["period", "1500", "1400:x"], "result"),
        (["table", "xx"], "table"),
        (["game", "1500"], "opponent"),
        (["tournament", "1500"], "missing OPPONENT[:RESULT]..."),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_bad_input_is_one_line_and_exit_code_2(cli: Any, args: list[str], field: str) -> None:
    run = cli(*args)
    assert run.code == 2
    assert run.out == ""
    assert run.err.count("\n") == 1
    assert field in run.err
    assert "Traceback" not in run.err


def test_malformed_club_toml(cli: Any, tmp_path: Any) -> None:
    bad = tmp_path / "club.toml"
    bad.write_text("name = 'x'\nexpected = [", encoding="utf-8")
    run = cli("game", "1500", "1600", "1", "--rules", str(bad))
    assert run.code == 2
    assert "malformed rule set file" in run.err
    assert cli("game", "1500", "1600", "1", "--rules", str(tmp_path / "missing.toml")).code == 2


def test_module_entry_point() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "chessrate", "game", "1500", "1700", "0.5", "--k", "20", "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"expected": 0.24' in done.stdout


@pytest.mark.parametrize(
    "text", ["1.500", "2,345", "1.5e3x"], ids=["es-thousands", "comma-thousands", "junk"]
)
def test_a_rating_with_a_thousands_separator_is_refused_not_guessed(cli: Any, text: str) -> None:
    run = cli("game", text, "1500", "1", "--k", "20")
    assert run.code == 2
    assert "rating" in run.err
