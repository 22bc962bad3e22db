"""Values a TRF line cannot hold: declared points that are no points, birth dates no one has, and
bad values too long to repeat whole (docs/formats.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chessrate.formats import read_trf
from chessrate.formats.text import SHOWN, shown
from chessrate.service.file_problems import file_problem
from chessrate.service.language import translator

from .test_trf_quirks import PLAYERS, trf


def _first_player(old: str, new: str) -> bytes:
    assert old in PLAYERS[0]
    return trf([PLAYERS[0].replace(old, new, 1), *PLAYERS[1:]])


@pytest.mark.parametrize("points", ["1e9", "1E3", "-2.5", "nan", "inf", "+2.5", "2.5x"])
def test_declared_points_that_are_no_points_are_refused_naming_line_and_value(points: str) -> None:
    result = read_trf(_first_player(" 2.5 ", f"{points:>4} "))
    (error,) = [p for p in result.errors if p.code == "invalid-points"]
    assert error.line == 6
    assert dict(error.params)["value"] == points
    assert f"invalid points {points!r} (columns 81-84)" in error.message
    assert result.tournament.player(1).points is None
    assert "points-mismatch" not in {p.code for p in result.problems}


@pytest.mark.parametrize(("points", "value"), [("2.5", Decimal("2.5")), ("2,5", Decimal("2.5")), ("10", 10)])
def test_declared_points_as_files_write_them_are_read(points: str, value: Decimal) -> None:
    result = read_trf(_first_player(" 2.5 ", f"{points:>4} "))
    assert "invalid-points" not in {p.code for p in result.problems}
    assert result.tournament.player(1).points == value


@pytest.mark.parametrize(
    "birth",
    [
        "9999/99/99",
        "9999/01/01",
        "1849/12/31",
        "2101",
        "1990/13/01",
        "1990/02/30",
        "1990/12/32",
        "1990/13/00",
    ],
)
def test_an_impossible_birth_date_is_a_warning_and_no_date(birth: str) -> None:
    result = read_trf(_first_player("1990/01/01", f"{birth:<10}"))
    (warning,) = [p for p in result.problems if p.code == "unreadable-birth-date"]
    assert (warning.line, warning.severity.value, dict(warning.params)["value"]) == (6, "warning", birth)
    player = result.tournament.player(1)
    assert (player.birth_year, player.birth_date) == (None, None)


@pytest.mark.parametrize(
    ("birth", "year", "day"),
    [
        ("1850/01/01", 1850, dt.date(1850, 1, 1)),
        ("2100/12/31", 2100, dt.date(2100, 12, 31)),
        ("1987/00/00", 1987, None),  # the year alone, as real files write it
        ("0000/00/00", None, None),  # not given
        ("1969.12.06", 1969, dt.date(1969, 12, 6)),
    ],
)
def test_possible_birth_dates_are_read_without_a_warning(
    birth: str, year: int | None, day: dt.date | None
) -> None:
    result = read_trf(_first_player("1990/01/01", f"{birth:<10}"))
    assert "unreadable-birth-date" not in {p.code for p in result.problems}
    player = result.tournament.player(1)
    assert (player.birth_year, player.birth_date) == (year, day)


def test_shown_cuts_a_value_at_40_characters() -> None:
    assert SHOWN == 40
    assert shown("x" * 40) == "x" * 40
    assert shown("x" * 41) == "x" * 40 + "…"
    assert shown("") == ""


LONG = "W=1 WW=" + "1" * 5000  # a value of 5000 digits: not read (docs/formats.md)


@pytest.mark.parametrize(
    ("record", "code"),
    [
        (f"XXS {LONG}", "unread-scoring"),
        ("XXR " + "x" * 5000, "invalid-rounds"),
        ("XXR " + "9" * 5000, "invalid-rounds"),  # more than 99 rounds, said in digits
    ],
)
def test_a_long_bad_value_is_quoted_cut_at_40_characters(record: str, code: str) -> None:
    lines = [line for line in trf().decode().splitlines() if not line.startswith("XXR")]
    result = read_trf("\n".join([*lines[:4], record, *lines[4:]]).encode())
    (problem,) = [p for p in result.problems if p.code == code]
    value = str(dict(problem.params)["value"])
    assert len(value) == SHOWN + 1
    assert value.endswith("…")
    assert value[:SHOWN] in record
    assert len(problem.message) < 150, problem.message
    for language in ("en", "es", "ca"):
        said = file_problem(problem.code, problem.params, problem.message, translator(language))
        assert value in said
        assert len(said) < 150, said
