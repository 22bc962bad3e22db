"""Small TRF files written here, one per quirk of real files ([TRF-FILES] in docs/sources.md).

The fixture is a 4-player, 3-round Swiss worked out by hand:

- round 1: 1 (White) beats 2; 4 wins against 3 by forfeit;
- round 2: 3 (White) draws 1; 2 takes a half-point bye (H); 4 has withdrawn (Z);
- round 3: 3 (Black) beats 2; 1 takes a full-point bye (F); 4's cell is blank.

Points: 1 = 1 + ½ + 1 = 2.5; 2 = 0 + ½ + 0 = 0.5; 3 = 0 + ½ + 1 = 1.5; 4 = 1 + 0 + 0 = 1.0.
Player 2 is unrated (blank rating), player 4 is rated 0000 (unrated too).
"""

from __future__ import annotations

import datetime as dt
import itertools
from decimal import Decimal

import pytest

from chessrate.errors import FileFormatError
from chessrate.formats import Kind, read_trf, trf_cells


def player(
    number: int, sex: str, title: str, name: str, rating: str, points: str, rank: int, cells: str
) -> str:
    """A 001 line at the columns of [TRF16] / [TRF26]."""
    return (
        f"001 {number:>4} {sex}{title:>3} {name:<33} {rating:>4} ESP {'':>11} {'1990/01/01':<10} "
        f"{points:>4} {rank:>4}  {cells}"
    )


HEADER = ["012 Open de Prova", "022 Tarragona", "042 2025/03/14", "052 2025/03/16", "XXR 3"]
PLAYERS = [
    player(1, "w", "WGM", "Muñoz Pérez, Ana", "2000", "2.5", 1, "   2 w 1     3 b =  0000 - F"),
    player(2, "m", "", "Çelik, Jordi", "", "0.5", 4, "   1 b 0  0000 - H     3 w 0"),
    player(3, "m", "", "Garcia, Pere", "1800", "1.5", 2, "   4 w -     1 w =     2 b 1"),
    player(4, "m", "", "Vidal, Joan", "0000", "1.0", 3, "   3 b +  0000 - Z"),
]


def trf(lines: list[str] | None = None, *, eol: str = "\n", encoding: str = "utf-8") -> bytes:
    return eol.join([*HEADER, *(lines or PLAYERS)]).encode(encoding) + eol.encode()


def check_fixture(data: bytes) -> None:
    result = read_trf(data)
    assert result.problems == ()
    t = result.tournament
    assert (t.name, t.place, t.start_date, t.planned_rounds, t.rounds) == (
        "Open de Prova", "Tarragona", dt.date(2025, 3, 14), 3, 3,
    )  # fmt: skip
    assert [p.name for p in t.players] == [
        "Muñoz Pérez, Ana", "Çelik, Jordi", "Garcia, Pere", "Vidal, Joan",
    ]  # fmt: skip
    assert [p.rating for p in t.players] == [2000, None, 1800, None]
    assert t.player(1).title == "WGM"
    assert t.player(1).sex == "w"


@pytest.mark.parametrize(
    ("eol", "encoding", "bom"),
    [
        pytest.param("\n", "utf-8", b"", id="utf8-lf"),
        pytest.param("\n", "utf-8", b"\xef\xbb\xbf", id="utf8-bom"),
        pytest.param("\r", "utf-8", b"", id="cr-only"),
        pytest.param("\r\n", "cp1252", b"", id="windows-1252-crlf"),
        pytest.param("\r", "latin-1", b"", id="latin1-cr-only"),
    ],
)
def test_encodings_and_line_ends(eol: str, encoding: str, bom: bytes) -> None:
    check_fixture(bom + trf(eol=eol, encoding=encoding))


def test_latin1_is_read_as_windows_1252() -> None:
    assert read_trf(trf(encoding="latin-1")).tournament.encoding == "windows-1252"
    assert read_trf(trf()).tournament.encoding == "utf-8"


def test_forfeits_byes_withdrawn_and_unrated() -> None:
    t = read_trf(trf()).tournament
    assert [(g.round, g.white, g.black, g.code, g.kind) for g in t.games] == [
        (1, 1, 2, "1", Kind.PLAYED),
        (1, 3, 4, "-", Kind.FORFEIT),
        (2, 3, 1, "=", Kind.PLAYED),
        (3, 2, 3, "0", Kind.PLAYED),
    ]
    forfeit = t.games[1]
    assert (forfeit.white_score, forfeit.black_score, forfeit.counts_for_rating) == (0, 1, False)
    # Byes: kept as cells, scored, never rated.
    assert [(c.code, c.kind, c.points) for c in t.player(2).cells] == [
        ("0", Kind.PLAYED, 0), ("H", Kind.BYE, Decimal("0.5")), ("0", Kind.PLAYED, 0),
    ]  # fmt: skip
    assert (t.player(1).cells[2].code, t.player(1).cells[2].points) == ("F", 1)
    # Withdrawn player 4: Z in round 2, blank (not paired, no cell: the line ends) in round 3, no rated
    # game at all.
    assert [c.kind for c in t.player(4).cells] == [Kind.FORFEIT, Kind.BYE]
    assert t.rounds == 3
    assert t.rated_games(4) == ()
    # Rated games of player 3: the draw with 1 (rated) and the win over unrated 2.
    assert [(g.opponent, g.opponent_rating, g.score, g.colour) for g in t.rated_games(3)] == [
        (1, 2000, Decimal("0.5"), "w"), (2, None, 1, "b"),
    ]  # fmt: skip
    assert [g.opponent_rated for g in t.rated_games(3)] == [True, False]


def test_declared_points_are_checked() -> None:
    lines = [*PLAYERS]
    lines[0] = lines[0].replace(" 2.5 ", " 3.0 ")
    result = read_trf(trf(lines))
    (problem,) = result.errors
    assert (problem.code, problem.line) == ("points-mismatch", 6)
    assert "declares 3.0 points; the rounds give 2.5" in problem.message


@pytest.mark.parametrize(
    ("cell", "replacement", "code", "line"),
    [
        pytest.param("   1 b 0", "   3 b 0", "asymmetric-pairing", 7, id="wrong-opponent"),
        # Reported once, on the line of the lower starting number, naming the other line.
        pytest.param("   1 b 0", "   1 b 1", "result-mismatch", 6, id="both-win"),
        pytest.param("   1 b 0", "   9 b 0", "unknown-opponent", 7, id="no-such-player"),
        pytest.param("   1 b 0", "   2 b 0", "self-pairing", 7, id="self"),
    ],
)
def test_both_sides_must_agree(cell: str, replacement: str, code: str, line: int) -> None:
    lines = [*PLAYERS]
    lines[1] = lines[1].replace(cell, replacement)
    result = read_trf(trf(lines))
    codes = {(p.code, p.line) for p in result.errors}
    assert (code, line) in codes  # player 1 is on line 6, player 2 on line 7
    assert all(g.round != 1 or 2 not in (g.white, g.black) for g in result.tournament.games)


def test_same_colour_on_both_sides_is_an_error() -> None:
    lines = [*PLAYERS]
    lines[1] = lines[1].replace("   1 b 0", "   1 w 0")
    result = read_trf(trf(lines))
    assert [(p.code, p.line) for p in result.errors] == [("colour-mismatch", 6)]
    (game,) = [g for g in result.tournament.games if g.round == 1 and g.white in (1, 2)]
    assert not game.colours_known
    assert game.counts_for_rating


def test_strict_mode_refuses_with_the_line() -> None:
    lines = [*PLAYERS]
    lines[2] = lines[2].replace("   4 w -", "   4 w x")
    with pytest.raises(FileFormatError) as caught:
        read_trf(trf(lines), strict=True)
    assert caught.value.line == 8
    assert "invalid result 'x'" in str(caught.value)
    assert str(caught.value).startswith("line 8: ")
    assert read_trf(trf(), strict=True).problems == ()


@pytest.mark.parametrize(
    ("field", "bad", "code"),
    [
        ("2000", "20x0", "invalid-rating"),
        ("2000", "9999", "invalid-rating"),  # above 4000, the bound of parse.MAX_RATING
        ("   2 w 1", "   2 q 1", "invalid-colour"),
        ("   2 w 1", "  zz w 1", "invalid-opponent"),
        ("   2 w 1", "   2 w1 ", "misaligned-cell"),
        (" 2.5 ", " 2,x ", "invalid-points"),
    ],
)
def test_bad_fields_are_errors_with_their_line(field: str, bad: str, code: str) -> None:
    lines = [*PLAYERS]
    lines[0] = lines[0].replace(field, bad, 1)
    result = read_trf(trf(lines))
    assert (code, 6) in {(p.code, p.line) for p in result.errors}


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("28. 07. 2005", dt.date(2005, 7, 28)),  # FIDE example
        ("24/09/2010", dt.date(2010, 9, 24)),  # JaVaFo sample
        ("May 29, 2020", dt.date(2020, 5, 29)),  # lichess Swiss
        ("2024-08-01", dt.date(2024, 8, 1)),  # TieBreakServer
        ("2024/12/01", dt.date(2024, 12, 1)),  # TRF26
        ("2005.07.28", dt.date(2005, 7, 28)),
    ],
)
def test_header_dates_in_variant_forms_peers_2_4(text: str, day: dt.date) -> None:
    data = f"012 X\n042 {text}\n".encode() + trf()[len("\n".join(HEADER)) + 1 :]
    assert read_trf(data).tournament.start_date == day


def test_unreadable_date_is_a_warning() -> None:
    result = read_trf(b"042 sometime\n" + trf())
    assert [(p.code, p.line) for p in result.warnings] == [("unreadable-date", 1)]
    assert result.ok


def test_comments_rulers_legends_and_extensions_are_not_errors() -> None:
    extra = [
        "### a comment",
        "",
        "         1         2         3",
        "1234567890123456789012345678901234567890",
        "DDD SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF",
        "XXC white1",
        "DAT    1 EMAIL ana@example.org",
        "FRA    1 w    Muñoz Pérez, Ana                  1950 FRA      L01854 1990/01/01",
    ]
    result = read_trf(trf([*extra, *PLAYERS]))
    assert result.problems == ()


def test_unknown_records_are_warnings() -> None:
    result = read_trf(trf(["XYZ hello", "ZZ9 what", *PLAYERS]))
    assert [(p.code, p.line, p.severity.value) for p in result.problems] == [
        ("unknown-record", 6, "warning"),
        ("unknown-record", 7, "warning"),
    ]


def test_xxs_scoring_is_used_for_points() -> None:
    # JaVaFo XXS ([AUM]): a win 3 points, a draw 1. Player 1: 3 + 1 + 3 (F) = 7.
    lines = [line.replace(" 2.5 ", " 7.0 ") for line in PLAYERS[:1]]
    lines += [PLAYERS[1].replace(" 0.5 ", " 1.0 "), PLAYERS[2].replace(" 1.5 ", " 4.0 ")]
    lines += [PLAYERS[3].replace(" 1.0 ", " 3.0 ")]
    result = read_trf(trf(["XXS W=3 D=1", *lines]))
    assert result.problems == ()


def test_trf26_162_scoring() -> None:
    lines = [PLAYERS[0].replace(" 2.5 ", " 7.0 "), PLAYERS[1].replace(" 0.5 ", " 1.0 ")]
    lines += [PLAYERS[2].replace(" 1.5 ", " 4.0 "), PLAYERS[3].replace(" 1.0 ", " 3.0 ")]
    result = read_trf(trf(["162  W 3.0  D 1.0  L 0.0", *lines]))
    assert result.problems == ()
    assert result.tournament.source_format == "TRF26"


def test_one_letter_titles_and_year_only_birth() -> None:
    line = PLAYERS[2].replace("m    Garcia", "m  g Garcia").replace("1990/01/01", "1978      ")
    p = read_trf(trf([*PLAYERS[:2], line, PLAYERS[3]])).tournament.player(3)
    assert (p.title, p.birth_year, p.birth_date) == ("GM", 1978, None)


def test_pending_pairing_without_result_is_a_warning() -> None:
    lines = [
        PLAYERS[0] + "     4 w  ",
        PLAYERS[1],
        PLAYERS[2],
        PLAYERS[3] + " " * 10 + "     1 b  ",
    ]
    result = read_trf(trf(lines))
    assert result.ok
    assert {p.code for p in result.warnings} == {"no-result", "too-many-rounds"}
    (game,) = [g for g in result.tournament.games if g.round == 4]
    assert (game.kind, game.white_score, game.counts_for_rating) == (Kind.UNFINISHED, None, False)


def test_repeated_starting_number_is_an_error() -> None:
    result = read_trf(trf([*PLAYERS, PLAYERS[3]]))
    assert ("repeated-player", 10) in {(p.code, p.line) for p in result.errors}


def test_empty_file() -> None:
    result = read_trf(b"")
    assert {p.code for p in result.errors} == {"empty-file", "no-players"}
    assert all(p.line is None for p in result.errors)


def test_a_rating_above_4000_names_its_line_and_columns() -> None:
    lines = [PLAYERS[0].replace("2000", "9999", 1), *PLAYERS[1:]]
    result = read_trf(trf(lines))
    (error,) = result.errors
    assert (error.code, error.line, dict(error.params)["columns"]) == ("invalid-rating", 6, "49-52")
    assert "invalid rating '9999' (columns 49-52)" in error.message
    assert result.tournament.player(1).rating is None


@pytest.mark.parametrize(
    "record",
    ["XXS WW=1E-1000000", "XXS W=0.00001", "XXS D=12345", "162  W 0.000000000000001", "BBW 1E-5", "BBD -1"],
)
def test_scoring_values_beyond_four_digits_or_with_an_exponent_are_not_read(record: str) -> None:
    # A value has at most four digits each side of the point (the points columns 81-84 hold four):
    # 1E-1000000 would make every sum a million-digit number.
    result = read_trf(trf([record, *PLAYERS]))
    assert [(p.code, p.line) for p in result.problems] == [("unread-scoring", 6)]


def test_a_line_wider_than_99_rounds_is_an_error_and_pads_no_one() -> None:
    # REVIEW-s5: one cell at round 20,000 padded 300 players to 20,000 cells each (1 GB).
    wide = PLAYERS[3] + " " * 10 * 19_997 + "  0000 - Z"
    dates = "132" + " " * 88 + "  25/03/14" * 120
    result = read_trf(trf([dates, *PLAYERS[:3], wide]))
    assert [(p.code, p.line, dict(p.params).get("limit")) for p in result.errors] == [
        ("too-many-rounds", 6, 99),
        ("too-many-rounds", 10, 99),
    ]
    assert "cells for 20000 rounds, more than the 99 a file may have" in result.errors[1].message
    t = result.tournament
    assert t.rounds == 3
    assert [len(p.cells) for p in t.players] == [3, 3, 3, 2]  # the rounds each line has
    assert len(t.round_dates) == 99


@pytest.mark.parametrize("character", ["\x00", "\x07", "\x0b", "\x1a"])
def test_a_control_character_in_a_name_is_an_error_with_its_line(character: str) -> None:
    lines = [PLAYERS[0].replace("Ana", f"A{character}a", 1), *PLAYERS[1:]]
    result = read_trf(trf(lines))
    assert [(p.code, p.line, dict(p.params)["column"]) for p in result.errors] == [
        ("control-character", 6, 29)
    ]
    with pytest.raises(FileFormatError, match=r"line 6: .*control character"):
        read_trf(trf(lines), strict=True)


def test_a_tab_is_not_a_control_character_refused() -> None:
    lines = [PLAYERS[0].replace("Ana ", "Ana\t", 1), *PLAYERS[1:]]
    assert read_trf(trf(lines)).errors == ()


def test_an_ambiguous_day_and_month_is_a_warning_naming_both_readings() -> None:
    # REVIEW-s5: 02/03/2024 is 2 March (day first, as read) or 3 February (US order), which picks
    # other rating rules (FIDE's of 1 March 2024 or those before).
    data = trf().replace(b"042 2025/03/14", b"042 02/03/2024")
    result = read_trf(data)
    (warning,) = result.problems
    assert (warning.code, warning.line) == ("ambiguous-date", 3)
    assert dict(warning.params) == {
        "value": "02/03/2024", "record": "042", "taken": "2024-03-02", "other": "2024-02-03",
    }  # fmt: skip
    assert "2024-03-02 read day first (as taken) or 2024-02-03 read month first" in warning.message
    assert result.tournament.start_date == dt.date(2024, 3, 2)


@pytest.mark.parametrize("text", ["2024/02/03", "13/02/2024", "03/03/2024", "28. 07. 2005", "May 2, 2024"])
def test_dates_with_one_reading_are_not_ambiguous(text: str) -> None:
    assert read_trf(f"042 {text}\n".encode() + trf()).problems == ()


@pytest.mark.parametrize(
    ("start", "end", "days"),
    [
        ("24/09/2010", "02/10/2010", (dt.date(2010, 9, 24), dt.date(2010, 10, 2))),  # JaVaFo sample
        ("09/24/2010", "10/02/2010", (dt.date(2010, 9, 24), dt.date(2010, 10, 2))),  # US order
    ],
)
def test_the_other_date_of_the_file_settles_the_order(
    start: str, end: str, days: tuple[dt.date, ...]
) -> None:
    data = (
        trf()
        .replace(b"042 2025/03/14", f"042 {start}".encode())
        .replace(b"052 2025/03/16", f"052 {end}".encode())
    )
    result = read_trf(data)
    assert result.problems == ()
    assert (result.tournament.start_date, result.tournament.end_date) == days


def test_one_line_reaching_round_99_makes_no_cell_for_the_others() -> None:
    # A bye in round 99 on player 4's line: the tournament has 99 rounds, but the other lines keep
    # the cells they have (rounds 4 to 99 are blank for them, without a cell each).
    wide = PLAYERS[3] + " " * 10 * 96 + "  0000 - Z"
    result = read_trf(trf([*PLAYERS[:3], wide]))
    t = result.tournament
    assert t.rounds == 99
    assert [len(p.cells) for p in t.players] == [3, 3, 3, 99]
    # The blank rounds are scored as before (a zero-point bye): the declared points still agree.
    assert "points-mismatch" not in {p.code for p in result.problems}
    assert {p.code for p in result.problems} == {"too-many-rounds"}  # XXR 3 announced


def test_blank_rounds_after_a_line_ends_score_as_the_scoring_says() -> None:
    # XXS ZPB=1: a zero-point bye and a blank cell are worth a point each (scoring.py), so player 4,
    # whose line ends after round 2, has 1 (forfeit win) + 1 (Z) + 1 (round 3, blank) = 3.
    lines = ["XXS ZPB=1", *PLAYERS[:3], PLAYERS[3].replace(" 1.0 ", " 3.0 ", 1)]
    result = read_trf(trf(lines))
    assert "points-mismatch" not in {p.code for p in result.problems}
    wrong = read_trf(trf(["XXS ZPB=1", *PLAYERS]))  # still declares 1.0: the blank round counts
    assert [(p.code, dict(p.params)["computed"]) for p in wrong.errors] == [("points-mismatch", Decimal(3))]


def test_a_pairing_into_a_round_after_the_opponent_s_line_is_asymmetric() -> None:
    lines = [PLAYERS[0], PLAYERS[1], PLAYERS[2] + "     4 w 1", PLAYERS[3]]
    result = read_trf(trf(lines))
    (problem,) = [p for p in result.errors if p.code == "asymmetric-pairing"]
    assert (problem.line, dict(problem.params)["other_line"]) == (8, 9)
    assert "gives 4 no opponent in round 4" in problem.message


@pytest.mark.parametrize("record", ["XXR", "142"])
def test_more_than_99_rounds_announced_is_refused_naming_the_record_and_value(record: str) -> None:
    header = [line for line in HEADER if not line.startswith("XXR")]
    result = read_trf(f"{chr(10).join([*header, f'{record} 150', *PLAYERS])}\n".encode())
    assert [(p.code, p.line, dict(p.params)) for p in result.errors] == [
        ("invalid-rounds", 5, {"value": "150", "record": record, "limit": 99})
    ]
    assert (
        result.errors[0].message == f"record {record} announces 150 rounds, more than the 99 a file may have"
    )
    assert result.tournament.planned_rounds is None
    most = read_trf(f"{chr(10).join([*header, f'{record} 99', *PLAYERS])}\n".encode())
    assert (most.tournament.planned_rounds, most.errors) == (99, ())
    with pytest.raises(FileFormatError, match=f"^line 5: record {record} announces 150 rounds"):
        read_trf(f"{chr(10).join([*header, f'{record} 150', *PLAYERS])}\n".encode(), strict=True)


def test_the_opponent_columns_read_as_strip_and_int_read_them() -> None:
    # formats/trf_cells.py reads the four opponent columns through a table of every way they can be
    # written (a white space, a digit or another character in each): the table against Python's
    # own reading of each.
    table = trf_cells._opponents()
    texts = ["".join(c).strip() for c in itertools.product(trf_cells._CHARACTER, repeat=4)]
    assert table.value.tolist() == [int(text) if text.isdigit() else 0 for text in texts]
    assert table.invalid.tolist() == [bool(text) and not text.isdigit() for text in texts]
