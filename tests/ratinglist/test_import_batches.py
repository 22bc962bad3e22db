"""An import checks and stores its files a batch at a time (``importer._Batch``): the rows stored
and the refusal raised are those of an import that checks and stores one file at a time
(``importer._FILES = 1``), on both backends; texts go into PostgreSQL's ``COPY`` escaped."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from chessrate.errors import RatingError
from chessrate.ratinglist import importer
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.schema import events, players
from chessrate.ratinglist.store import init_store, open_store

from .ratinglist_support import BACKENDS, DATA, fresh_database
from .test_import_paths import month_files, stored


@pytest.fixture(params=BACKENDS)
def two_dbs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    first, second = tmp_path / "batched", tmp_path / "one-by-one"
    first.mkdir()
    second.mkdir()
    for one in fresh_database(first, request.param):
        for other in fresh_database(second, request.param):
            yield one, other


def pool(folder: Path) -> dict[str, Path]:
    """Files that import, and files each refused in its own way."""
    good = month_files(folder)
    files = {"trf": good[0], "pgn": good[1], "csv": good[2], "real": good[3]}
    files["trf copy"] = folder / "copy.trf"  # the same bytes
    shutil.copy(good[0], files["trf copy"])
    files["trf crlf"] = folder / "crlf.trf"  # the same games, other bytes
    files["trf crlf"].write_bytes(good[0].read_bytes().replace(b"\n", b"\r\n"))
    files["broken"] = folder / "broken.csv"
    files["broken"].write_text(
        "white,black,white_rating,black_rating,result,date\nA,B,,,2-0,2025-10-01\n", encoding="utf-8"
    )
    files["no date"] = folder / "no-date.csv"
    files["no date"].write_text(
        "white,black,white_rating,black_rating,result,date\nC,D,,,1-0,\n", encoding="utf-8"
    )
    # Two players the file tells apart (start numbers), of one name key: one stored player.
    files["same player"] = folder / "same-player.trf"
    real = (DATA / "trf/swiss-9-rounds.trf").read_bytes()
    files["same player"].write_bytes(real.replace(b"    Bruno     ", b"    ALYX      ", 1))
    return files


def outcome(db: str, paths: list[Path]) -> object:
    """What an import of ``paths`` does: its refusal, or what it stored."""
    engine = open_store(db)
    try:
        try:
            import_files(engine, paths)
        except RatingError as refusal:
            return type(refusal).__name__, str(refusal), stored(engine)
        return stored(engine)
    finally:
        engine.dispose()


def test_batches_store_what_one_file_at_a_time_stores(
    two_dbs: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = pool(tmp_path)
    batched, one_by_one = two_dbs
    names = ["trf", "pgn", "csv", "real"]
    for db in two_dbs:
        init_store(db).dispose()
    assert outcome(batched, [files[name] for name in names]) != [[], [], [], []]
    monkeypatch.setattr(importer, "_FILES", 1)
    assert outcome(one_by_one, [files[name] for name in names]) == stored(open_store(batched))


@pytest.mark.parametrize(
    "names",
    [
        ["trf", "csv", "trf copy", "broken"],  # the copy first: already imported by this import
        ["trf", "broken", "trf copy"],  # the broken file first
        ["pgn", "same player", "broken"],
        ["trf", "pgn", "trf crlf", "same player"],  # the same games first
        ["csv", "no date", "trf copy", "trf"],
    ],
)
def test_the_refusal_is_the_first_files_on_both_backends(
    two_dbs: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: list[str]
) -> None:
    files = pool(tmp_path)
    batched, one_by_one = two_dbs
    for db in two_dbs:
        init_store(db).dispose()
    first = outcome(batched, [files[name] for name in names])
    monkeypatch.setattr(importer, "_FILES", 1)
    assert outcome(one_by_one, [files[name] for name in names]) == first
    assert isinstance(first, tuple)
    assert first[2] == [[], [], [], []]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return pool(tmp_path_factory.mktemp("pool"))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["trf", "pgn", "csv", "trf copy", "trf crlf", "broken", "no date", "same player"]),
        min_size=1,
        max_size=6,
    )
)
def test_any_files_batched_or_not_give_the_same_outcome(
    tmp_path_factory: pytest.TempPathFactory, files: dict[str, Path], names: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("stores")
    empty = folder / "empty.db"
    init_store(str(empty)).dispose()
    outcomes = []
    for limit in (importer._FILES, 1, 2):
        db = folder / f"list-{limit}.db"
        shutil.copy(empty, db)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(importer, "_FILES", limit)
            outcomes.append(outcome(str(db), [files[name] for name in names]))
    assert outcomes[0] == outcomes[1] == outcomes[2]


def test_texts_go_into_copy_and_lookups_escaped(db: str, tmp_path: Path) -> None:
    # A file name and names with a backslash, a tab, a carriage return, quotes, braces and commas:
    # stored as they are, and found again by the next import (an array of names on PostgreSQL).
    names = ["Tab\\ \\N One", 'Quote " Two', "{Brace,} Three", "NULL"]
    header = "white,black,white_rating,black_rating,result,date\n"
    name = "back\\slash\ttab\rreturn.csv"
    first, second = tmp_path / name, tmp_path / "second.csv"
    rows = [
        f"{one},{other},,,1-0,2025-10-0{day}" for day, (one, other) in enumerate([names[:2], names[2:]], 1)
    ]
    quoted = [
        row.replace('Quote " Two', '"Quote "" Two"').replace("{Brace,} Three", '"{Brace,} Three"')
        for row in rows
    ]
    first.write_text(header + "\n".join(quoted) + "\n", encoding="utf-8")
    second.write_text(
        header + "\n".join(quoted[::-1]).replace("-01", "-05").replace("-02", "-06") + "\n", encoding="utf-8"
    )
    engine = init_store(db)
    (event,) = import_files(engine, [first])
    (again,) = import_files(engine, [second])
    with engine.connect() as connection:
        assert connection.execute(
            select(events.c.name, events.c.file_name).order_by(events.c.id)
        ).first() == (
            "back\\slash\ttab\rreturn",
            name,
        )
        assert sorted(connection.execute(select(players.c.name)).scalars()) == sorted(names)
    assert event.name == "back\\slash\ttab\rreturn"
    assert (event.new_players, again.new_players) == (4, 0)


def test_an_import_killed_between_batches_leaves_the_store_as_it_was(db: str, tmp_path: Path) -> None:
    # A real process, killed with SIGKILL inside the import's transaction once two batches' rows
    # are written (killable_import.py says when, from outside the product's code).
    files = month_files(tmp_path)
    engine = init_store(db)
    import_files(engine, files[3:])
    before = stored(engine)
    engine.dispose()
    env = {**os.environ, "PYTHONPATH": str(Path(importer.__file__).parents[2])}
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("killable_import.py")), db, *map(str, files[:3])],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    assert process.stderr is not None
    assert "two batches written" in process.stderr.readline().decode()
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL
    engine = open_store(db)
    assert stored(engine) == before
    assert [event.games for event in import_files(engine, files[:3])] == [75, 75, 75]
    engine.dispose()
