"""The command line fed nasty input: one line on stderr and exit 2, never a traceback (issue 12)."""

from __future__ import annotations

import csv
import io
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from chessrate.errors import InvalidInputError
from chessrate.formats.spreadsheet import neutralise
from chessrate.parse import MAX_GAMES, MAX_K, parse_count, parse_decimal, parse_k, parse_rating

DATA = Path(__file__).parent / "data"
NINES = "9" * 5000


def one_line_error(run: Any) -> str:
    assert run.code == 2, (run.out, run.err)
    assert run.err.startswith("chessrate: error: "), run.err
    assert run.err.count("\n") == 1, run.err
    assert "Traceback" not in run.err
    return str(run.err)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["game", "1500", "1600", "1", "--k", "1e400", "--rules", "elo"], "too large"),
        (["game", "1500", "1600", "1", "--k", NINES], "longer than 40 characters"),
        (["game", "1500", "1600", "1", "--k", "1001", "--rules", "elo"], f"at most {MAX_K}"),
        (["tournament", "1500", "1600:1", "--k", "1e400", "--rules", "elo"], "too large"),
        (["games", "1500", "--games", "1e400", "--points", "3", "--average", "1500"], "too large"),
        (["games", "1500", "--games", "10001", "--points", "3", "--average", "1500"], f"at most {MAX_GAMES}"),
        (["game", "١٥٠٠", "1600", "1"], "digits 0-9"),
        (["game", "１５００", "1600", "1"], "digits 0-9"),
        (["game", "1500", "1600", "1", "--rules", ""], "empty"),
        (["game", "1500", "1600", "1", "--as-of", ""], "empty"),
        (["glicko2", "1400:30:1", "--rating", "1500", "--deviation", "1e400"], "too large"),
        (["glicko2", "1400:1e400:1"], "too large"),
        (["serve", "--port", "99999"], "at most 65535"),
        (["serve", "--host", "999.1.1.1"], "not an address"),
        (["list", "run", "9999-12", "--db", "nowhere.db"], "9999-11"),
        (["list", "run", "2024-05", "--rules", "", "--db", "nowhere.db"], "empty"),
        (["list", "import", "x.trf", "--replaces", "1e400", "--db", "nowhere.db"], "replaces"),
        (["list", "show", "--db", "postgresql://u:secret@127.0.0.1:1/x"], "cannot be opened"),
    ],
)
def test_nonsense_is_one_line_and_exit_2(cli: Any, args: list[str], words: str) -> None:
    error = one_line_error(cli(*args))
    assert words in error
    assert "secret" not in error  # a database URL's password is never shown


def test_the_shared_parsers_set_the_bounds() -> None:
    assert parse_k("1000") == 1000
    assert parse_count("10000", field="games", maximum=MAX_GAMES) == 10_000
    assert parse_rating("4000") == 4000
    for bad in ("4000.5", "-1", "1e400", "NaN", "١٥٠٠"):
        with pytest.raises(InvalidInputError):
            parse_rating(bad)
    with pytest.raises(InvalidInputError, match="too large"):
        parse_decimal(10**5000, field="n")  # an int too long for str(): refused by its size


def test_a_huge_player_id(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "l.db")
    assert cli("list", "init", "--db", db).code == 0
    assert "up to 15 digits" in one_line_error(cli("list", "player", "9" * 23, "--db", db))


MARKUP_TRF = (
    "012 [/]\n"
    "042 2024/05/01\n"
    "001    1      [/bold]                           1500             2024/05/01  "
    "   2 w 1\n"
    "001    2      [red]Ann                          1600             2024/05/01  "
    "   1 b 0\n"
)


def test_rich_markup_in_names_is_printed_as_written(cli: Any, tmp_path: Path) -> None:
    pgn = tmp_path / "markup.pgn"
    pgn.write_text(
        '[Event "[/]"]\n[Date "2024.05.01"]\n[White "[/bold]"]\n[Black "[link=x]B"]\n'
        '[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n'
    )
    run = cli("report", str(pgn))
    assert run.code == 0, run.err
    assert "[/bold]" in run.out
    assert "[link=x]B" in run.out
    db = str(tmp_path / "l.db")
    assert cli("list", "init", "--db", db).code == 0
    assert cli("list", "import", str(pgn), "--db", db).code == 0
    assert cli("list", "run", "2024-05", "--db", db).code == 0
    shown = cli("list", "show", "--db", db, "--all")
    assert shown.code == 0, shown.err
    assert "[/bold]" in shown.out


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("empty.trf", b""),
        ("utf16.pgn", '[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n'.encode("utf-16")),
    ],
)
def test_a_file_with_nothing_to_rate_is_refused(cli: Any, tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    one_line_error(cli("report", str(path)))


BAD_DATES = (
    '[Event "E"]\n[Date "2024.13.45"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n'
    '[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n\n'
    '[Event "E"]\n[Date "2024.01.9x"]\n[White "A"]\n[Black "C"]\n[Result "0-1"]\n'
    '[WhiteElo "1500"]\n[BlackElo "1700"]\n\n0-1\n\n'
    '[Event "E"]\n[Date "2024.01.99999999999999999999"]\n[White "B"]\n[Black "C"]\n[Result "1-0"]\n'
    '[WhiteElo "1600"]\n[BlackElo "1700"]\n\n1-0\n\n'
    '[Event "E"]\n[Date "2024.??.??"]\n[White "C"]\n[Black "A"]\n[Result "1-0"]\n'
    '[WhiteElo "1700"]\n[BlackElo "1500"]\n\n1-0\n'
)
#: Issue 27: each Date that is not a day, an unknown one or a partial one (PGN standard 8.1.1.3,
#: ``2024.??.??``) is a problem on its game's line.
BAD_DATE_WARNINGS = [
    "game at line 1: invalid Date '2024.13.45'",
    "game at line 11: invalid Date '2024.01.9x'",
    "game at line 21: invalid Date '2024.01.99999999999999999999'",
]


def test_an_unreadable_date_is_a_warning_on_its_line_in_report(cli: Any, tmp_path: Path) -> None:
    pgn = tmp_path / "date.pgn"
    pgn.write_text(BAD_DATES)
    run = cli("report", str(pgn), "--as-of", "2024-01-01")
    assert run.code == 0, run.err
    assert run.err.splitlines() == [f"warning: {warning}" for warning in BAD_DATE_WARNINGS]


def test_an_unreadable_date_is_a_warning_on_its_line_in_list_import(cli: Any, tmp_path: Path) -> None:
    pgn, db = tmp_path / "date.pgn", str(tmp_path / "list.db")
    pgn.write_text(BAD_DATES)
    assert cli("list", "init", "--db", db).code == 0
    run = cli("list", "import", str(pgn), "--db", db, "--start", "2024-01-01")
    assert run.code == 0, run.err
    assert run.err.splitlines() == [f"warning: date.pgn: {warning}" for warning in BAD_DATE_WARNINGS]


def test_list_export_neutralises_formulas(cli: Any, tmp_path: Path) -> None:
    pgn = tmp_path / "formula.pgn"
    pgn.write_text(
        '[Event "E"]\n[Date "2024.05.01"]\n[White "=cmd|calc"]\n[Black "+Black"]\n'
        '[Result "0-1"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n0-1\n'
    )
    db = str(tmp_path / "l.db")
    cli("list", "init", "--db", db)
    assert cli("list", "import", str(pgn), "--db", db).code == 0
    assert cli("list", "run", "2024-05", "--db", db).code == 0
    exported = cli("list", "export", "2024-05", "--db", db, "--format", "csv")
    names = {row["name"] for row in csv.DictReader(io.StringIO(exported.out))}
    assert names == {"'=cmd|calc", "'+Black"}
    changes = {row["change"] for row in csv.DictReader(io.StringIO(exported.out))}
    assert any(change.startswith("-") for change in changes)  # numbers are left as numbers


def test_neutralise_follows_owasp() -> None:
    for text in ("=1+1", "+1+1", "-1+1", "@SUM(1)", "\t=1", "\r=1"):
        assert neutralise(text) == "'" + text
    for value in ("-12", "+3.5", "Ann", "", -12):
        assert neutralise(value) == value


def test_the_same_event_saved_again_is_refused(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "l.db")
    cli("list", "init", "--db", db)
    original = DATA / "trf/swiss-9-rounds.trf"
    assert cli("list", "import", str(original), "--db", db).code == 0
    crlf = tmp_path / "crlf.trf"
    crlf.write_bytes(original.read_bytes().replace(b"\n", b"\r\n"))
    appended = tmp_path / "appended.trf"
    appended.write_bytes(original.read_bytes() + b"\n\n")
    for path in (crlf, appended):
        error = one_line_error(cli("list", "import", str(path), "--db", db))
        assert "already imported as event 1" in error
        assert "--replaces 1" in error
    # A corrected file names the event it replaces.
    replaced = cli("list", "import", str(crlf), "--db", db, "--replaces", "1", "--json")
    assert replaced.code == 0, replaced.err
    assert replaced.json()["imported"][0]["replaces"] == 1


def test_a_damaged_database_is_one_line(cli: Any, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    assert cli("list", "init", "--db", str(db)).code == 0
    assert cli("list", "import", str(DATA / "trf/swiss-9-rounds.trf"), "--db", str(db)).code == 0
    assert cli("list", "check", "--db", str(db)).out.strip() == "ok"
    # The write-ahead log's pages into the file first (sqlite.org/wal.html), so the pages broken
    # below are the ones read.
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
    data = bytearray(db.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page after the first, at its header
        data[start : start + 4] = b"\xff\xff\xff\xff"
    db.write_bytes(bytes(data))
    for args in (["list", "run", "2024-08"], ["list", "show", "--all"], ["list", "check"]):
        error = one_line_error(cli(*args, "--db", str(db)))
        assert "damaged" in error
    assert "check it (chessrate list check)" in one_line_error(cli("list", "run", "2024-08", "--db", str(db)))
