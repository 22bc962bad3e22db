"""A month's folder imported in one command (``list import --db DB FOLDER/``, or a quoted glob):
the store it leaves is the one a file-by-file import of the same files, in the order of their
names, leaves; files that cannot be read are all named at once, each by file and line, and nothing
is imported; a progress bar only on a terminal."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from chessrate.cli import progress
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.sources import event_files
from chessrate.ratinglist.store import init_store, open_store

from .test_import_paths import month_files, stored

HEADER = "white,black,white_rating,black_rating,result,date\n"
BROKEN_RESULT = HEADER + "A,B,,,1-0,2025-10-01\nC,D,,,2-0,2025-10-01\n"
NO_DATE = HEADER + "C,D,,,1-0,\n"


def month_folder(folder: Path) -> Path:
    """Five event files (TRF, PGN, CSV, two real ones) under names whose order is not the
    order month_files made them in, and a file that is not an event file."""
    month = folder / "2025-10"
    month.mkdir()
    for path, name in zip(month_files(folder), ["e.trf", "a.pgn", "c.csv", "b.trf", "d.pgn"], strict=True):
        shutil.copy(path, month / name)
    (month / "notes.md").write_text("not an event file\n", encoding="utf-8")
    (month / ".hidden.trf").write_text("not imported either\n", encoding="utf-8")
    return month


def one_by_one(db: str, files: list[Path]) -> list[list[tuple[object, ...]]]:
    engine = init_store(db)
    try:
        for path in files:
            import_files(engine, [path])
        return stored(engine)
    finally:
        engine.dispose()


@pytest.fixture
def second_db(db: str, tmp_path: Path) -> Any:
    """A second fresh store on the same backend as ``db``."""
    from .ratinglist_support import fresh_database

    folder = tmp_path / "second"
    folder.mkdir()
    backend = "sqlite" if "://" not in db else "postgres"
    yield from fresh_database(folder, backend)


def test_a_folder_stores_what_its_files_one_by_one_store(
    cli: Any, db: str, second_db: str, tmp_path: Path
) -> None:
    month = month_folder(tmp_path)
    assert cli("list", "init", "--db", db).code == 0
    done = cli("list", "import", f"{month}/", "--db", db, "--json")
    assert done.code == 0, done.err
    assert done.err == ""  # no progress bar where standard error is not a terminal
    assert [e["file"] for e in done.json()["imported"]] == ["a.pgn", "b.trf", "c.csv", "d.pgn", "e.trf"]
    names = ["a.pgn", "b.trf", "c.csv", "d.pgn", "e.trf"]
    expected = one_by_one(second_db, [month / name for name in names])
    assert all(expected)  # players, events, entrants and games
    engine = open_store(db)
    try:
        assert stored(engine) == expected
    finally:
        engine.dispose()


def test_a_glob_is_its_files_in_the_order_of_their_names(cli: Any, tmp_path: Path) -> None:
    month = month_folder(tmp_path)
    db, other = str(tmp_path / "glob.db"), str(tmp_path / "files.db")
    cli("list", "init", "--db", db)
    done = cli("list", "import", str(month / "*.trf"), str(month / "a.pgn"), "--db", db, "--json")
    assert done.code == 0, done.err
    assert [e["file"] for e in done.json()["imported"]] == ["b.trf", "e.trf", "a.pgn"]
    engine = open_store(db)
    try:
        assert stored(engine) == one_by_one(other, [month / "b.trf", month / "e.trf", month / "a.pgn"])
    finally:
        engine.dispose()


def test_every_broken_file_is_named_by_file_and_line_and_nothing_is_imported(
    cli: Any, db: str, tmp_path: Path
) -> None:
    month = month_folder(tmp_path)
    (month / "f-broken.csv").write_text(BROKEN_RESULT, encoding="utf-8")
    (month / "g-no-date.csv").write_text(NO_DATE, encoding="utf-8")
    cli("list", "init", "--db", db)
    done = cli("list", "import", str(month), "--db", db)
    assert done.code == 2
    lines = done.err.splitlines()
    assert lines[0] == "chessrate: error: 2 files have errors; nothing was imported:"
    assert lines[1].startswith("f-broken.csv: 1 error: line 3: ")
    assert "'2-0'" in lines[1]
    assert lines[2].startswith("g-no-date.csv gives no date")
    assert len(lines) == 3
    assert "Traceback" not in done.err
    engine = open_store(db)
    try:
        assert stored(engine) == [[], [], [], []]
    finally:
        engine.dispose()


def test_one_broken_file_is_refused_as_before(cli: Any, tmp_path: Path) -> None:
    month = month_folder(tmp_path)
    (month / "f-broken.csv").write_text(BROKEN_RESULT, encoding="utf-8")
    db = str(tmp_path / "one.db")
    cli("list", "init", "--db", db)
    done = cli("list", "import", str(month), "--db", db)
    assert done.code == 2
    assert done.err.count("\n") == 1
    assert "f-broken.csv has 1 error; nothing was imported: line 3:" in done.err


def test_the_refusals_are_said_in_spanish(cli: Any, tmp_path: Path) -> None:
    month = tmp_path / "month"
    month.mkdir()
    (month / "a.csv").write_text(BROKEN_RESULT, encoding="utf-8")
    (month / "b.csv").write_text(NO_DATE, encoding="utf-8")
    db = str(tmp_path / "es.db")
    cli("list", "init", "--db", db)
    done = cli("--lang", "es", "list", "import", str(month), "--db", db)
    assert done.code == 2
    assert "2 archivos tienen errores; no se ha importado nada:" in done.err
    assert "b.csv no da ninguna fecha" in done.err
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.md").write_text("no events\n", encoding="utf-8")
    refused = cli("--lang", "es", "list", "import", str(empty), "--db", db)
    assert refused.code == 2
    assert "aquí no hay ningún archivo de torneo" in refused.err


def test_a_folder_or_glob_without_event_files_is_refused_by_name(cli: Any, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.md").write_text("no events\n", encoding="utf-8")
    db = str(tmp_path / "x.db")
    cli("list", "init", "--db", db)
    for given in (str(empty), str(tmp_path / "nowhere" / "*.trf")):
        done = cli("list", "import", given, "--db", db)
        assert done.code == 2
        assert done.err == f"chessrate: error: invalid file {given!r}: no event file here " + (
            "(.trf, .trfx, .txt, .pgn, .csv); nothing was imported\n"
        )


def test_event_files_keeps_the_order_given_and_sorts_within_a_folder(tmp_path: Path) -> None:
    month = month_folder(tmp_path)
    single = month / "e.trf"
    assert event_files([single, month]) == [
        single,
        *(month / name for name in ["a.pgn", "b.trf", "c.csv", "d.pgn", "e.trf"]),
    ]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with progress.files_read(progress.MIN_FILES) as advance:
        assert advance is not None
        for _ in range(progress.MIN_FILES):
            advance(Path("x.trf"))
    assert "Reading files" in terminal.getvalue()
    with progress.files_read(progress.MIN_FILES - 1) as advance:
        assert advance is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress.files_read(1000) as advance:
        assert advance is None


def unrated_games(folder: Path, counts: dict[str, int]) -> None:
    """PGN files in which "Newcomer" (no rating) plays White in every game: a warning a game."""
    folder.mkdir()
    for name, count in counts.items():
        with (folder / name).open("w", encoding="utf-8") as out:
            for game in range(count):
                out.write(
                    f'[Event "E {name}"]\n[Date "2025.10.0{game + 1}"]\n[Round "{game + 1}"]\n'
                    f'[White "Newcomer"]\n[Black "Rated {name} {game}"]\n[Result "1-0"]\n'
                    f'[BlackElo "1800"]\n\n1. e4 1-0\n\n'
                )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "warning: a.pgn: game at line 1: White 'Newcomer' has no rating; and 4 more of this kind: "
            "a.pgn: game at line 11; a.pgn: game at line 21…",
        ),
        (
            "es",
            "aviso: a.pgn: línea 1: «Newcomer» no tiene Elo; y 4 más de esta clase: "
            "a.pgn: línea 11; a.pgn: línea 21…",
        ),
        (
            "ca",
            "avís: a.pgn: línia 1: «Newcomer» no té Elo; i 4 més d’aquest tipus: "
            "a.pgn: línia 11; a.pgn: línia 21…",
        ),
    ],
)
def test_many_warnings_of_a_kind_are_one_line_with_their_count(
    cli: Any, tmp_path: Path, lang: str, expected: str
) -> None:
    month = tmp_path / "month"
    unrated_games(month, {"a.pgn": 3, "b.pgn": 2})
    db = str(tmp_path / "warned.db")
    cli("list", "init", "--db", db)
    done = cli("--lang", lang, "list", "import", f"{month}/", "--db", db)
    assert done.code == 0, done.err
    assert done.err.splitlines() == [expected]
    other = str(tmp_path / "other.db")
    cli("list", "init", "--db", other)
    listed = cli("list", "import", f"{month}/", "--db", other, "--json")  # --json lists each
    assert listed.code == 0, listed.err
    assert [len(e["warnings"]) for e in listed.json()["imported"]] == [3, 2]


def test_a_few_warnings_of_a_kind_are_said_each(cli: Any, tmp_path: Path) -> None:
    month = tmp_path / "month"
    unrated_games(month, {"a.pgn": 2, "b.pgn": 1})
    db = str(tmp_path / "warned.db")
    cli("list", "init", "--db", db)
    done = cli("list", "import", f"{month}/", "--db", db)
    assert done.code == 0, done.err
    assert done.err.splitlines() == [
        "warning: a.pgn: game at line 1: White 'Newcomer' has no rating",
        "warning: a.pgn: game at line 11: White 'Newcomer' has no rating",
        "warning: b.pgn: game at line 1: White 'Newcomer' has no rating",
    ]
