"""The command line speaks to users: option names in errors, readable --help, the working in words.

The values asserted are FIDE's published examples (the F-N01 initial rating 1922 of FIDE's rating
regulations, B.02 8.2, the same as in test_cli.py) or the files' own content.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chessrate.cli.app import COMMANDS

DATA = Path(__file__).parent / "data"
SWISS = str(DATA / "trf/swiss-9-rounds.trf")  # "FIDE C.07 2023 Tie-Break Exercises", 34 characters
KASPAROV = str(DATA / "pgn/kasparov-deep-blue-1997.pgn")
FIDE_INITIAL_EXAMPLE = ["1902:1", "1877:1", "1884:1", "2012:0", "1832:0"]


def one_error_line(run: Any) -> str:
    assert run.code == 2, (run.out, run.err)
    assert run.out == ""
    assert run.err.count("\n") == 1, run.err
    assert "Traceback" not in run.err
    return str(run.err)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["game", "1500", "1600", "1", "--as-of", "yesterday"], "invalid --as-of 'yesterday'"),
        (["game", "1500", "1600", "1", "--birth-year", "3000"], "invalid --birth-year '3000'"),
        (["game", "1500", "1600", "1", "--highest-rating", "x"], "invalid --highest-rating 'x'"),
        (["game", "1500", "1600", "1", "--rated-games", "1.5"], "invalid --rated-games '1.5'"),
        (
            ["game", "1500", "1600", "1", "--rules", "elo"],
            "missing --k: the rule set 'elo' has no rule for K",
        ),
        (["k-factor", "2000", "--games-this-period", "x"], "invalid --games-this-period 'x'"),
        (["games", "1500", "--games", "0", "--points", "0", "--average", "1500"], "invalid --games '0'"),
        (["tournament", "1500", "1400:1", "1600:x"], "invalid game 2 result 'x'"),
        (["period", "1500", "1400:1", "1500:1 1600:nope"], "invalid tournament 2 game 2 result 'nope'"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else v,
)
def test_errors_name_the_option_not_the_field(cli: Any, args: list[str], words: str) -> None:
    line = one_error_line(cli(*args))
    assert words in line
    assert not re.search(r"\b(as_of|birth_year|rated_games|highest_rating|games_this_period)\b", line)
    assert "None" not in line


@pytest.mark.parametrize("args", [["game", "-1500", "1700", "1"], ["game", "1500", "-1700", "1"]])
def test_a_negative_rating_is_refused_by_name(cli: Any, args: list[str]) -> None:
    line = one_error_line(cli(*args))
    assert re.search(r"invalid (rating|opponent) '-1[57]00': a rating is between 0 and 4000", line)
    assert "No such option" not in line


@pytest.mark.parametrize(
    "args", [["game", "1500", "1700", "1", "--kk", "3"], ["game", "-1500", "1700", "1", "--kk"]]
)
def test_an_unknown_option_is_still_refused_by_name(cli: Any, args: list[str]) -> None:
    assert "No such option: --kk" in one_error_line(cli(*args))


def test_a_negative_option_value_is_still_that_option_s(cli: Any) -> None:
    assert "invalid --k '-20'" in one_error_line(cli("game", "1500", "1700", "1", "--k", "-20"))


def _helps(cli: Any) -> dict[str, str]:
    helps = {}
    for name in COMMANDS:
        run = cli(name, "--help")
        assert run.code == 0, run.err
        helps[name] = run.out
    for sub in ("init", "import", "run", "show", "player", "events", "export", "demo"):
        helps[f"list {sub}"] = cli("list", sub, "--help").out
    return helps


def test_help_has_metavars_not_types_or_braces(cli: Any) -> None:
    for name, text in _helps(cli).items():
        usage = text.splitlines()[0]
        assert usage.startswith(f"Usage: chessrate {name} "), (name, usage)
        assert "{" not in usage, (name, usage)
        assert not re.search(r"<(bool|str|int|path)>", text), (name, text)
    game = cli("game", "--help").out
    assert game.splitlines()[0] == "Usage: chessrate game [OPTIONS] RATING OPPONENT RESULT"
    for option in ("--k K", "--as-of YYYY-MM-DD", "--birth-year YEAR", "--rated-games N"):
        assert option in game


def test_k_is_explained_once_in_words(cli: Any) -> None:
    out = cli("game", "1500", "1700", "1", "--k", "20").out
    assert "K 20 given" not in out
    assert "K 20, as you chose it." in out


def test_the_k_explanation_fits_80_columns() -> None:
    # A junior's K 40 cut by the 700 rule: the longest explanation the rules give (FIDE B.02 8.3.3).
    events = [" ".join(["1500:1"] * 10), " ".join(["1500:0"] * 15)]
    args = ["period", "1500", *events, "--birth-year", "2012", "--as-of", "2026-01-01"]
    environment = {**os.environ, "COLUMNS": "80"}
    done = subprocess.run(
        [sys.executable, "-m", "chessrate", *args],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert all(len(line.rstrip()) <= 80 for line in lines), max(lines, key=len)
    k_row = next(line for line in lines if line.startswith("│ K "))
    assert k_row.split("│")[2].strip() == "28"
    note = " ".join(line.strip() for line in lines if not line.startswith(("│", "┃", "┏", "┡", "└")))
    assert "K 40: a junior (born 2012)" in note
    assert "The 700 rule: 40 × 25 games = 1000, more than 700, so K is 28" in note


def test_initial_rating_says_it_counts_two_1800_draws(cli: Any) -> None:
    # F-N01: 3 points from 5 games; with the two assumed draws v 1800 (B.02 8.2.2, from 2024):
    # 4 points from 7 games, p 0.57, Ra 1872.43, dp +50 -> 1922.
    out = cli("initial", *FIDE_INITIAL_EXAMPLE, "--as-of", "2025-12-01").out
    assert re.search(r"with two assumed draws v 1800 \(8\.2\.2\)\s*│\s*7 games, 4 points", out)
    assert "0.57" in out
    assert "counting two draws against opponents rated 1800" in out
    before = cli("initial", *FIDE_INITIAL_EXAMPLE, "--as-of", "2023-06-01").out  # 2022 rules: no draws
    assert "1800" not in before


def _cells(out: str, column: str) -> list[str]:
    """A column's cells; a header may take two lines ("rated" over "games")."""
    lines = out.splitlines()
    header_lines = [line.split("┃") for line in lines if line.startswith("┃")]
    headers = [" ".join(cell.strip() for cell in cells).strip() for cells in zip(*header_lines, strict=True)]
    index = headers.index(column)
    return [
        line.split("│")[index].strip()
        for line in lines
        if line.startswith("│") and line.split("│")[1].strip()
    ]


def test_report_counts_say_rated_and_scores_read_alike(cli: Any) -> None:
    out = cli("report", SWISS, "--as-of", "2024-08-01").out
    scores = _cells(out, "rated score")
    assert len(scores) == 16  # the sixteen players of the file
    assert all(re.fullmatch(r"\d+\.\d", score) for score in scores), scores
    assert "6.0" in scores  # Alyx's 6 points, not "6" beside "5.5"
    kasparov = cli("report", KASPAROV)
    assert _cells(kasparov.out, "rated games") == ["0", "0"]  # Deep Blue had no rating
    assert "rated games and score: the games played against rated opponents" in kasparov.out


def test_report_warnings_say_each_thing_once(cli: Any) -> None:
    err = cli("report", KASPAROV).err
    lines = err.splitlines()
    assert lines[0] == "warning: game at line 1: White 'Garry Kasparov' has no rating"
    for line in lines:
        assert line.count("warning") == 1, line
        assert len(re.findall(r"\bline \d+\b", line)) == 1, line


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"myhost\n", "not a TRF, PGN or CSV file"),
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text"),
    ],
    ids=["hostname", "empty", "image"],
)
def test_a_file_that_is_not_a_tournament_is_one_error(
    cli: Any, tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "hostname"
    path.write_bytes(content)
    line = one_error_line(cli("report", str(path)))
    assert f"invalid file '{path}': {reason}" in line


def test_list_counts_are_named_and_event_names_whole(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    assert cli("list", "init", "--db", db).code == 0
    imported = cli("list", "import", SWISS, "--db", db)
    assert imported.code == 0, imported.err
    assert "rated games" in imported.out
    period = cli("list", "import", SWISS, "--db", db, "--json")  # the same file twice imports nothing
    assert period.code == 2
    run = cli("list", "run", "2024-08", "--db", db, "--rules", "fide")
    assert run.code == 0, run.err
    assert "player-games" in run.out
    assert "each rated game once for each player it rates" in run.out
    player = cli("list", "player", "1", "--db", db)
    assert "FIDE C.07 2023 Tie-Break Exercises" in player.out  # 34 characters, no longer cut at 30


def test_list_import_warnings_say_each_thing_once(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    cli("list", "init", "--db", db)
    run = cli("list", "import", str(DATA / "pgn/lichess-export.pgn"), "--db", db)
    assert run.code == 0, run.err
    lines = run.err.splitlines()
    # Five games of an unrated player: the first said, then their count and the next two places.
    assert (
        "warning: lichess-export.pgn: game at line 25: White 'lichess AI level 7' has no rating; "
        "and 4 more of this kind: lichess-export.pgn: game at line 138; lichess-export.pgn: game at line 226…"
    ) in lines
    for line in lines:
        assert line.count("warning") == 1, line
        said, _, more = line.partition("; and ")
        assert len(re.findall(r"\bline \d+\b", said)) <= 1, line  # "file: …" names no line
        assert not more or len(re.findall(r"\bline \d+\b", more)) == 2, line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["game"], "missing RATING (your rating)"),
        (["game", "1500"], "missing OPPONENT (the opponent's rating)"),
        (["games", "1500"], "missing --games (number of games G)"),
        (["report"], "missing FILE (a TRF, PGN or CSV file)"),
    ],
    ids=" ".join,
)
def test_a_missing_argument_is_named_as_help_names_it(cli: Any, args: list[str], words: str) -> None:
    assert one_error_line(cli(*args)) == f"chessrate: error: {words}\n"


@pytest.mark.parametrize("args", [[], ["list"]], ids=["chessrate", "chessrate list"])
def test_a_bare_group_prints_its_help(cli: Any, args: list[str]) -> None:
    run = cli(*args)
    assert (run.code, run.err) == (0, "")
    assert run.out.startswith(f"Usage: chessrate {' '.join(args)}".rstrip() + " [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in run.out
