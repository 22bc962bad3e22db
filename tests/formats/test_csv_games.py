"""The CSV game list: one game per line, header row required (layout in docs/formats.md)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from chessrate.errors import FileFormatError
from chessrate.formats import Kind, read_csv_games

CLUB = """white,black,white_rating,black_rating,result,date
"Muñoz, Ana","Pujol, Marc",1850,,1-0,2025-03-14
"Pujol, Marc",Soler Anna,,1720,½-½,2025-03-21
Soler Anna,"Muñoz, Ana",1720,1850,0,2025-03-28
"Muñoz, Ana",Soler Anna,1850,1720,+-,
"""


def test_club_file() -> None:
    result = read_csv_games(CLUB.encode())
    assert result.problems == ()
    t = result.tournament
    assert [(p.number, p.name, p.rating) for p in t.players] == [
        (1, "Muñoz, Ana", 1850), (2, "Pujol, Marc", None), (3, "Soler Anna", 1720),
    ]  # fmt: skip
    assert [(g.white, g.black, g.white_score, g.black_score, g.kind, g.line) for g in t.games] == [
        (1, 2, 1, 0, Kind.PLAYED, 2),
        (2, 3, Decimal("0.5"), Decimal("0.5"), Kind.PLAYED, 3),
        (3, 1, 0, 1, Kind.PLAYED, 4),
        (1, 3, 1, 0, Kind.FORFEIT, 5),
    ]
    assert (t.start_date, t.end_date) == (dt.date(2025, 3, 14), dt.date(2025, 3, 28))
    # Ana's rated games: the win over unrated Marc, the win over Anna; the forfeit is not rated.
    games = t.rated_games(1)
    assert [(g.opponent, g.opponent_rating, g.score, g.colour) for g in games] == [
        (2, None, 1, "w"), (3, 1720, 1, "b"),
    ]  # fmt: skip


def test_semicolon_delimiter_and_decimal_comma_draw() -> None:
    text = "White;Black;White_Rating;Black_Rating;Result;Date;Round\nA, B;C;1500;1600;0,5-0,5;;2\n"
    t = read_csv_games(text.encode("cp1252")).tournament
    assert t.players[0].name == "A, B"
    (game,) = t.games
    assert (game.white_score, game.round, game.date) == (Decimal("0.5"), 2, None)
    assert t.rounds == 2


@pytest.mark.parametrize(
    ("row", "code"),
    [
        ("A,B,15x0,,1-0,", "invalid-white-rating"),
        ("A,B,,5000,1-0,", "invalid-black-rating"),
        ("A,B,,,2-0,", "invalid-result"),
        ("A,B,,,+,", "invalid-result"),
        ("A,B,,,1-0,14/03/2025", "invalid-date"),
        (",B,,,1-0,", "invalid-white"),
        ("A,a,,,1-0,", "self-pairing"),
        ("A,B,,", "csv-row"),
    ],
)
def test_bad_rows_are_errors_with_their_line(row: str, code: str) -> None:
    text = f"white,black,white_rating,black_rating,result,date\nX,Y,,,1-0,\n{row}\n"
    result = read_csv_games(text)
    assert [(p.code, p.line) for p in result.errors] == [(code, 3)]
    assert len(result.tournament.games) == 1
    with pytest.raises(FileFormatError) as caught:
        read_csv_games(text, strict=True)
    assert caught.value.line == 3


def test_header_is_required() -> None:
    result = read_csv_games("A,B,1500,1600,1-0,2025-03-14\n")
    assert [(p.code, p.line) for p in result.errors] == [("csv-header", 1)]
    assert "missing: white, black" in result.errors[0].message


def test_extra_column_is_a_warning() -> None:
    text = "white,black,white_rating,black_rating,result,date,board\nA,B,,,1-0,,3\n"
    result = read_csv_games(text)
    assert [(p.code, p.line) for p in result.warnings] == [("csv-column", 1)]
    assert result.ok


def test_empty_file() -> None:
    assert [p.code for p in read_csv_games(b"\n\n").errors] == ["empty-file"]


@pytest.mark.parametrize("character", ["\x00", "\x01", "\x0c", "\x1b", "\x1f"])
def test_a_control_character_in_a_name_is_an_error_with_its_line(character: str) -> None:
    # REVIEW-s5: a NUL in a name crashed a PostgreSQL import (text cannot hold NUL).
    text = CLUB.replace("\nSoler Anna,", f"\nSol{character}r Anna,", 1)
    result = read_csv_games(text.encode())
    (error,) = result.errors
    assert (error.code, error.line) == ("control-character", 4)
    assert dict(error.params) == {"character": f"U+{ord(character):04X}", "column": 4}
    with pytest.raises(FileFormatError, match=r"line 4: .*control character"):
        read_csv_games(text.encode(), strict=True)


def test_an_unclosed_quote_is_an_error_on_the_line_it_opens() -> None:
    # REVIEW-s5: the quote swallowed the next row; Ana-Bob's game vanished without a word.
    text = (
        "white,black,white_rating,black_rating,result,date\n"
        '"Ana,Bob,1500,1600,1-0,2025-01-03\n'
        '"Carl",Dan,1500,1600,0-1,2025-01-04\n'
        "Eve,Fay,1500,1600,1-0,2025-01-05\n"
    )
    result = read_csv_games(text.encode())
    assert [(p.code, p.line, dict(p.params)) for p in result.errors] == [
        ("csv-quote-open", 2, {"to_line": 3})
    ]
    assert [(g.line, g.code) for g in result.tournament.games] == [(4, "1-0")]


def test_a_quoted_line_break_is_an_error_even_when_closed() -> None:
    text = 'white,black,white_rating,black_rating,result,date\n"Ana\nMaria",Bob,1500,1600,1-0,2025-01-03\n'
    result = read_csv_games(text.encode())
    assert [(p.code, p.line) for p in result.errors] == [("no-games", None), ("csv-quote-open", 2)]


def test_a_column_named_twice_is_an_error() -> None:
    text = "white,White,black,white_rating,black_rating,result,date\nA,B,C,1500,1600,1-0,2025-01-03\n"
    result = read_csv_games(text.encode())
    assert [(p.code, p.line, dict(p.params)) for p in result.errors] == [
        ("csv-repeated-column", 1, {"column": "white"})
    ]
    assert result.tournament.games == ()


def test_a_quote_left_open_on_the_last_line_is_an_error() -> None:
    text = 'white,black,white_rating,black_rating,result,date\nA,B,1500,1600,1-0,\n"Ana,Bob,1500,1600,1-0,'
    result = read_csv_games(text.encode())
    assert [(p.code, p.line) for p in result.errors] == [("csv-quote-open", 3)]
