"""Tables that fit the terminal: at 80 and 60 columns, in English, Spanish and Catalan, no line is longer
than the terminal, no title phrase is broken across lines, no cell is folded or cut; a table too wide is
stacked, row by row."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

from chessrate.cli import main
from chessrate.cli.output import console, table_width, title_lines

ROOT = Path(__file__).resolve().parents[1]
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
TRF = str(ROOT / "src" / "chessrate" / "data" / "demo" / "swiss-9-rounds.trf")
COMMANDS = [
    ["game", "1500", "1700", "draw", "--k", "20"],
    ["tournament", "1500", "1400:1", "1600:½", "1550:0"],
    [
        "tournament",
        "1800",
        "1500",
        "1600",
        "1700",
        "1800",
        "1900",
        "2000",
        "--points",
        "4,5",
        "--rules",
        "ciabe",
    ],
    ["games", "1500", "--games", "4", "--points", "2", "--average", "1700", "--rules", "elo", "--k", "20"],
    ["period", "2040", "@2052 1900:1 2100:0.5", "2000:1 2150:0"],
    ["k-factor", "1900", "--birth-year", "2010", "--rated-games", "50", "--games-this-period", "20"],
    ["performance", "1500:1", "1600:1", "1700:0.5"],
    ["initial", "1902:1", "1877:1", "1884:1", "2012:0", "1832:0"],
    ["table", "pd"],
    ["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "1400:30:1", "1550:100:0"],
    ["glicko2", "--preset", "lichess", "--days-idle", "3", "1720:80:win", "1650:60:draw"],
    ["glicko", "--rating", "1500", "--deviation", "200", "1400:30:1", "1550:100:0", "1700:300:0"],
    ["dwz", "1000", "1200:1", "--age", "15", "--index", "1"],
    ["uscf", "1500", "1400:1", "1550:0", "1650:½", "--games-played", "6"],
    ["ecf", "1800", "1800:1"],
    ["convert", "1800", "--from", "lichess-blitz", "--to", "fide"],
    ["stakes", "1800", "1700"],
    ["report", TRF],
]


def shown(width: int, *args: str) -> str:
    """``chessrate ARGS`` on a terminal ``width`` columns wide, in this process (as a fresh one: the
    console is made again for the width; no locale variable set)."""
    saved = {name: os.environ.pop(name, None) for name in ("COLUMNS", *LOCALE_VARIABLES)}
    os.environ["COLUMNS"] = str(width)
    console.cache_clear()
    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(list(args))
    except SystemExit as done:
        code = done.code
    finally:
        console.cache_clear()
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value
    assert not code, err.getvalue()
    return out.getvalue()


@pytest.mark.parametrize("language", ["en", "es", "ca"])
@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: " ".join(args[:2]))
def test_every_line_fits_and_nothing_is_cut(args: list[str], width: int, language: str) -> None:
    out = shown(width, "--lang", language, *args)
    for line in out.splitlines():
        assert len(line) <= width, line
    assert not re.search(r"…\s*[│┃]", out)  # Rich's mark of a cell cut short, at the cell's end


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("es", "Una partida — FIDE 2025-10-01 (en vigor el 2026-12-05)"),
        ("ca", "Una partida — FIDE 2025-10-01 (en vigor el dia 2026-12-05)"),
    ],
)
@pytest.mark.parametrize("width", [80, 60])
def test_the_game_title_is_whole_on_one_line_in_spanish_and_catalan(
    width: int, language: str, title: str
) -> None:
    out = shown(width, "--lang", language, "game", "1800", "1700", "1", "--as-of", "2026-12-05")
    assert out.splitlines()[0] == title


def test_a_title_breaks_between_its_phrases_only() -> None:
    title = "One game — FIDE 2025-10-01 (in force on 2026-12-05)"
    assert title_lines(title, 80) == [title]
    assert title_lines(title, 30) == ["One game — FIDE 2025-10-01", "(in force on 2026-12-05)"]
    assert title_lines(title, 10) == ["One game", "— FIDE 2025-10-01", "(in force on 2026-12-05)"]


@pytest.mark.parametrize("width", [80, 60])
def test_the_game_title_is_whole_on_one_line(width: int) -> None:
    first = shown(width, "game", "1800", "1700", "1", "--as-of", "2026-12-05").splitlines()[0]
    assert first == "One game — FIDE 2025-10-01 (in force on 2026-12-05)"


def test_a_table_too_wide_is_stacked_row_by_row() -> None:
    out = shown(60, "report", TRF)
    assert "┃" not in out  # no table frame
    assert "\n  rating " in out  # each row as column: value lines
    wide = shown(200, "report", TRF)
    assert "┃" in wide


def test_the_width_counts_every_cell_and_the_frame() -> None:
    # two columns of 4 and 2 characters: │ abcd │ ef │ = 1 + (4 + 3) + (2 + 3)
    assert table_width(["a", "b"], [["abcd", "ef"]]) == 13
    assert table_width(["rated\ngames"], [["7"]]) == 1 + 5 + 3
