"""The command line's calculators on bad or incomplete input: one line naming the option and the
value (exit 2), never a traceback, a silent default or a figure computed from a guess.

Published values: Glickman's worked examples (glicko.pdf, glicko2.pdf); US Chess's "Approximating
Formulas" worked case; FIDE's calculator for the 2022 initial-rating rule ([FIDE-CALC] F-I01).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

PAPER = ["1400:30:1", "1550:100:0", "1700:300:0"]
DATA = Path(__file__).resolve().parent / "data"
PGN = str(DATA / "pgn/candidates-2022.pgn")
GLICKO2 = ["glicko2", *PAPER, "--rating", "1500", "--deviation", "200"]
GLICKO = ["glicko", *PAPER, "--rating", "1500"]
STAKES = ["stakes", "1500", "1700", "--system"]
AT_MOST_350 = "invalid --deviation '1e6': must be at most 350"


@pytest.mark.parametrize(
    ("args", "line"),
    [
        # Values whose square underflows crashed the papers' arithmetic (math domain error,
        # ZeroDivisionError): glicko2.pdf Step 1's tau range and our floors refuse them.
        (
            [*GLICKO2, "--volatility", "1e-320"],
            "invalid --volatility '1e-320': must be at least 0.001",
        ),
        (
            [*GLICKO2, "--volatility", "0.06", "--tau", "1e-300"],
            "invalid --tau '1e-300': must be at least 0.3",
        ),
        ([*GLICKO, "--deviation", "1e-320"], "invalid --deviation '1e-320': must be at least 1"),
        (
            [*STAKES, "glicko2", "--volatility", "1e-320"],
            "invalid --volatility '1e-320': must be at least 0.001",
        ),
        # The papers' largest RD, 350 (glicko.pdf Step 1), in stakes and the Chess.com estimate too.
        ([*STAKES, "glicko2", "--deviation", "1e6"], AT_MOST_350),
        (
            ["glicko", "--preset", "chesscom", "--level", "beginner", "900:350:1", "--deviation", "1e6"],
            AT_MOST_350,
        ),
        # A floor for the new RD above Step 1's cap of 350 would hold every RD at the floor.
        (
            [*GLICKO, "--deviation", "200", "--min-deviation", "1e9"],
            "invalid --min-deviation '1e9': must be at most 350",
        ),
        # DWZ's age is its own field, not the rating.
        (
            ["dwz", "1000", "1200:1", "--age", "200", "--index", "1"],
            "invalid --age '200': must be at most 120",
        ),
        (
            [*STAKES, "dwz", "--age", "15", "--index", "1", "--opponent-age", "500"],
            "invalid --opponent-age '500': must be at most 120",
        ),
        # A US Chess rating is weighed by its games played (N): never assumed 0, which is unrated.
        (["uscf", "1500", "1400:1"], "missing --games-played: a rated player's games played are needed"),
        (
            ["uscf", "1500", "1400:1", "--games-played", "0"],
            "invalid --games-played 0: a rated player's games",
        ),
        # A result with colours says nothing of the player's own score.
        (["game", "1500", "1700", "0-1"], "invalid result '0-1': a result with colours says White's score"),
        (["report", PGN, "--format", "xml"], "invalid --format 'xml'"),
        (["analyse", PGN, "--workers", "1e9"], "invalid --workers '1e9': must be at most 64"),
        (["analyse", PGN, "--depth", "deep"], "invalid --depth 'deep': not a number"),
    ],
)
def test_bad_input_is_one_line_naming_the_option(cli: Any, args: list[str], line: str) -> None:
    run = cli(*args)
    assert run.code == 2, run.out
    assert run.err.startswith(f"chessrate: error: {line}"), run.err
    assert "Traceback" not in run.err


def test_a_us_chess_rating_with_its_games(cli: Any) -> None:
    # Approximating Formulas: a 1500 based on 6 games meets 1400, 1550, 1650: W, L, D -> 1511.
    run = cli("uscf", "1500", "1400:1", "1550:0", "1650:½", "--games-played", "6", "--json")
    assert run.code == 0, run.err
    assert run.json()["published_rating"] == 1511
    # Unrated: N = 0 is the special formula's unrated player ("set N = 0 and Rpre = 0").
    assert cli("uscf", "0", "1400:1", "--json").json()["published_rating"] == 1400 + 400


def test_any_decimal_of_a_draw_is_a_draw(cli: Any) -> None:
    # FIDE table 8.1.2: 1500 v 1700 (D 200) gives 0.24; a draw with K 20 is 20 x (0.5 - 0.24) = +5.2.
    for text in ["½", "0.5", "0.50", "0,500"]:
        run = cli("game", "1500", "1700", text, "--k", "20", "--as-of", "2025-12-01", "--json")
        assert run.code == 0, run.err
        assert run.json()["change"] == 5.2


def test_min_deviation_takes_glickmans_floor(cli: Any) -> None:
    # Glickman's suggestion, "such as 30", lies within the bounds: the paper's example's RD 151.4
    # stays above it.
    run = cli("glicko", *PAPER, "--rating", "1500", "--deviation", "200", "--min-deviation", "30", "--json")
    assert run.code == 0, run.err
    assert run.json()["deviation"] == pytest.approx(151.39890244796933, abs=1e-6)


def test_glicko2_paper_json_is_the_api_document(cli: Any) -> None:
    """glicko2.pdf's example in ``glicko2 --json`` and /api/glicko: one document, the same keys."""
    from fastapi.testclient import TestClient

    from chessrate.web import create_app

    run = cli("glicko2", *PAPER, "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "--json")
    assert run.code == 0, run.err
    body = {
        "system": "glicko2",
        "rating": 1500,
        "deviation": 200,
        "volatility": 0.06,
        "games": [
            {"opponent": o, "deviation": d, "result": s}
            for o, d, s in [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]
        ],
    }
    answer = TestClient(create_app()).post("/api/glicko", json=body, headers={"Accept-Language": "en"})
    assert answer.status_code == 200, answer.text
    assert run.json() == answer.json()
    assert run.json()["rating"] == pytest.approx(1464.0506705393013, abs=1e-6)
    assert run.json()["deviation"] == pytest.approx(151.51652412385727, abs=1e-6)
    # The paper defines no provisional mark (docs/glicko.md): False in both, whatever the RD.
    assert run.json()["provisional"] is False
    # The keys glicko2 --json gave before it printed the API's document are still there.
    assert [round(g["expected_score"], 3) for g in run.json()["games"]] == [0.639, 0.432, 0.303]


def test_initial_rating_before_2024_adds_20_per_half_point(cli: Any) -> None:
    # [FIDE-CALC] F-I01, the 2022-24 rule: "Rc:2000, W:3, N:5 ... Initial Rating: 2020": 20 per
    # half point over 50 %, not table 8.1.1's dp (72 at p 0.60, which would give 2072).
    run = cli("initial", *[f"2000:{s}" for s in (1, 1, 1, 0, 0)], "--as-of", "2023-06-01")
    assert run.code == 0, run.err
    assert "+20 per half point over 50 % (FIDE B.02 8.2.3)" in run.out
    assert "table 8.1.1" not in run.out
    assert "Ru = Ra + 20 per half point over 50 % = 2000.00 + 1 × 20 = 2020.00" in " ".join(run.out.split())
    data = cli("initial", *[f"2000:{s}" for s in (1, 1, 1, 0, 0)], "--as-of", "2023-06-01", "--json").json()
    assert (data["rating"], data["dp"], data["dp_rule"]) == (
        2020,
        20,
        "+20 per half point over 50 % (FIDE B.02 8.2.3)",
    )


def test_the_700_rule_article_is_said_once(cli: Any) -> None:
    # FIDE B.02 8.3.3: a junior's K 40 x 20 games exceeds 700, so K is 35 (700 / 20).
    args = ["k-factor", "1900", "--birth-year", "2010", "--rated-games", "50", "--games-this-period", "20"]
    run = cli(*args, "--as-of", "2025-12-01", "--json")
    assert run.code == 0, run.err
    assert (run.json()["k"], run.json()["article"]) == (35, "FIDE B.02 8.3.3, with the 700 rule")
    table = cli(*args, "--as-of", "2025-12-01")
    assert table.out.count("8.3.3") == 1


def test_a_club_file_in_windows_1252_is_read_as_the_readers_read_files(cli: Any, tmp_path: Path) -> None:
    # A club's rules saved by a Windows editor: "ú" is the one byte 0xFA, not UTF-8.
    ciabe = (Path(__file__).parents[1] / "src/chessrate/data/ciabe.toml").read_text(encoding="utf-8")
    club = tmp_path / "club.toml"
    club.write_bytes(ciabe.encode("cp1252", errors="strict"))
    utf8 = tmp_path / "club-utf8.toml"
    utf8.write_text(ciabe, encoding="utf-8")
    args = ("tournament", "1800", "1500", "1600", "1700", "--points", "2", "--json")
    windows, plain = cli(*args, "--rules", str(club)), cli(*args, "--rules", str(utf8))
    assert windows.code == plain.code == 0, windows.err
    assert windows.json()["change"] == plain.json()["change"]
