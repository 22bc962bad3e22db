"""An import stores the same rows whichever way its files are read.

``import_files`` reads each file through ``formats.read_event`` (the readers' column paths) and
adds new players through the driver (SQLite). The reference is the exact reader,
``EventRead.of(read_tournament(...))``: the same files imported that way into a second store give
the same players, events, event players and games, row for row, and the same summary.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from chessrate.formats import EventRead, read_tournament, sniff_format
from chessrate.formats.text import decode
from chessrate.ratinglist import import_driver, import_players, import_reads, importer
from chessrate.ratinglist.fingerprint import fingerprint, fingerprint_columns
from chessrate.ratinglist.importer import ImportedEvent, import_files
from chessrate.ratinglist.schema import event_players, events, games, players
from chessrate.ratinglist.store import StoreError, init_store, write_transaction
from chessrate.testing import synthetic

from .ratinglist_support import BACKENDS, DATA, fresh_database

RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}


@pytest.fixture(params=BACKENDS)
def two_dbs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    first, second = tmp_path / "fast", tmp_path / "exact"
    first.mkdir()
    second.mkdir()
    for one in fresh_database(first, request.param):
        for other in fresh_database(second, request.param):
            yield one, other


def month_files(folder: Path) -> list[Path]:
    """Three events of a synthetic month as TRF, PGN and CSV files, and two real files."""
    month = synthetic.swiss_month(games=1_350, size=30, rounds=5, seed=7)
    per_event = len(month.white) // len(month.seats)
    paths = []
    trf = folder / "event-0.trf"
    trf.write_text(synthetic.trf_text(month, 0), encoding="utf-8")
    paths.append(trf)
    pgn = folder / "event-1.pgn"
    with pgn.open("w", encoding="utf-8") as out:
        for g in range(per_event, 2 * per_event):
            w, b, h, r = month.white[g], month.black[g], int(month.white_half_points[g]), month.round[g]
            out.write(
                f'[Event "One"]\n[Date "2025.10.0{r}"]\n[Round "{r}"]\n[White "Player {w:06d}"]\n'
                f'[Black "Player {b:06d}"]\n[Result "{RESULTS[h]}"]\n[WhiteElo "{month.players.rating[w]}"]\n'
                f'[BlackFideId "{month.fide_id[b]}"]\n\n1. e4 {{a comment}} e5 {RESULTS[h]}\n\n'
            )
    paths.append(pgn)
    games_csv = folder / "event-2.csv"
    with games_csv.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["white", "black", "white_rating", "black_rating", "result", "date", "round"])
        for g in range(2 * per_event, 3 * per_event):
            w, b, h, r = month.white[g], month.black[g], int(month.white_half_points[g]), month.round[g]
            rating = "" if g % 7 == 0 else month.players.rating[w]
            writer.writerow(
                [f"Player {w:06d}", f"player  {b:06d}", rating, "", RESULTS[h], f"2025-10-0{r}", r]
            )
    paths.append(games_csv)
    return [*paths, DATA / "trf/swiss-9-rounds.trf", DATA / "pgn/candidates-2022.pgn"]


def stored(engine: Engine) -> list[list[tuple[object, ...]]]:
    event_columns = [c for c in events.c if c.name != "imported_at"]
    with engine.connect() as connection:
        return [
            [tuple(row) for row in connection.execute(select(*columns).order_by(*order))]
            for columns, order in (
                ([c for c in players.c if c.name != "created_at"], [players.c.id]),
                (event_columns, [events.c.id]),
                (list(event_players.c), [event_players.c.event_id, event_players.c.start_number]),
                (list(games.c), [games.c.id]),
            )
        ]


def summary(imported: tuple[ImportedEvent, ...]) -> list[tuple[object, ...]]:
    return [(e.id, e.name, e.players, e.new_players, e.games, e.rated_games, e.warnings) for e in imported]


def test_the_column_paths_store_what_the_exact_readers_store(
    two_dbs: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast_db, exact_db = two_dbs
    files = month_files(tmp_path)
    fast = init_store(fast_db)
    exact = init_store(exact_db)
    start = dt.date(2025, 10, 1)
    fast_imported = import_files(fast, files[:3], start=None) + import_files(fast, files[3:4], start=start)
    fast_imported += import_files(fast, files[4:])

    def exact_event(path: Path, *, format: str | None) -> EventRead:
        return EventRead.of(read_tournament(path, format=format))  # type: ignore[arg-type]

    monkeypatch.setattr(import_reads, "read_event", exact_event)  # the reading process forks with it
    exact_imported = import_files(exact, files[:3], start=None) + import_files(exact, files[3:4], start=start)
    exact_imported += import_files(exact, files[4:])

    assert summary(fast_imported) == summary(exact_imported)
    assert sum(e.games for e in fast_imported) > 300
    assert stored(fast) == stored(exact)


def test_players_added_through_the_driver_are_stored_as_sqlalchemy_stores_them(
    two_dbs: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # New players go in through the driver (executemany on SQLite, COPY on PostgreSQL) with the
    # ids the database would give them; the reference is SQLAlchemy's INSERT ... RETURNING.
    files = month_files(tmp_path)
    fast, reference = (init_store(db) for db in two_dbs)
    for engine in (fast, reference):
        with engine.begin() as connection:  # ids not from 1: a store whose last players were deleted
            connection.execute(
                insert(players),
                [
                    {"name": f"Gone {i}", "name_key": f"gone {i}", "created_at": dt.datetime(2025, 1, 1)}
                    for i in range(3)
                ],
            )
            connection.execute(delete(players).where(players.c.name_key != "gone 0"))
    import_files(fast, files[:3])
    import_files(fast, files[3:])  # a second import: the ids go on from the first one's

    def returning(self: import_players.PlayerDirectory) -> None:
        # Each new player inserted at once, its id given by the database; filled in later by UPDATE.
        added = [(player, known) for player, _, known in self._new if known.id is None]
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        rows = [
            {
                "name": player.name[:200],
                "name_key": importer.name_key(player.name)[:200],
                "fide_id": player.fide_id or None,
                "created_at": now,
                **dict(zip(import_players.DETAILS, known.details, strict=True)),
            }
            for player, known in added
        ]
        statement = insert(players).returning(players.c.id, sort_by_parameter_order=True)
        new_ids: list[int] = list(self._driver.connection.execute(statement, rows).scalars()) if rows else []
        for (_, known), new_id in zip(added, new_ids, strict=True):
            known.id, known.written = new_id, True
        self._new = [(player, key, known) for player, key, known in self._new if not known.written]

    monkeypatch.setattr(import_players.PlayerDirectory, "give_ids", returning)
    import_files(reference, files[:3])
    import_files(reference, files[3:])
    assert stored(fast) == stored(reference)
    # Events, also written with the ids the database would give: its own next ids follow them.
    for engine in (fast, reference):
        with engine.begin() as connection:
            new_player = insert(players).values(name="N", name_key="n", created_at=dt.datetime(2025, 1, 1))
            new_event = insert(events).values(
                name="E", source_format="csv", file_name="e.csv", file_sha256="0" * 64,
                start_date=dt.date(2025, 1, 1), end_date=dt.date(2025, 1, 1), period="2025-01",
                imported_at=dt.datetime(2025, 1, 1),
            )  # fmt: skip
            ids = [
                connection.execute(s.returning(t.c.id)).scalar_one()
                for s, t in ((new_player, players), (new_event, events))
            ]
            assert ids == [
                connection.execute(select(func.max(t.c.id)).where(t.c.id < ids[i])).scalar_one() + 1
                for i, t in enumerate((players, events))
            ]
    if reference.dialect.name != "sqlite":
        return
    shapes = []
    for engine in (fast, reference):
        with sqlite3.connect(str(engine.url.database)) as raw:
            shapes.append(
                {re.sub(r"\d", "9", text) for (text,) in raw.execute("SELECT created_at FROM players")}
            )
    assert shapes[0] == shapes[1] == {"9999-99-99 99:99:99.999999"}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(1, 30)),
            st.integers(1, 10**6),
            st.integers(1, 10**6),
            st.sampled_from(["1", "0", "0.5", "0.50", "1.0", "-0", "3", "1E+1", None]),
            st.sampled_from(["1", "0", "0.5", "0.00", None]),
        ),
        max_size=30,
    )
)
def test_the_fingerprint_of_columns_is_the_fingerprint_of_keys(games: list[tuple[object, ...]]) -> None:
    start, end = dt.date(2025, 10, 1), dt.date(2025, 10, 9)
    keys = [(r, w, b, None if ws is None else Decimal(ws), None if bs is None else Decimal(bs))
            for r, w, b, ws, bs in games]  # fmt: skip
    rounds, whites, blacks, white_scores, black_scores = (
        (list(c) for c in zip(*games, strict=True)) if games else ([],) * 5
    )
    by_columns = fingerprint_columns(start, end, rounds, whites, blacks, white_scores, black_scores)
    assert by_columns == fingerprint(start, end, keys)  # type: ignore[arg-type]


def test_dates_go_to_the_driver_as_sqlalchemy_writes_them(tmp_path: Path) -> None:
    # At a whole second too: sqlite3's own adapter would drop the microseconds SQLAlchemy writes.
    when, day = dt.datetime(2025, 1, 2, 3, 4, 5), dt.date(1990, 1, 2)
    engine = init_store(str(tmp_path / "list.db"))
    with engine.begin() as connection:
        connection.execute(insert(players).values(name="A", name_key="a", created_at=when, birth_date=day))
        driver = import_driver.Driver(connection)
        try:
            written = (driver.datetime(when), driver.date(day))
        finally:
            driver.close()
    with sqlite3.connect(tmp_path / "list.db") as raw:
        assert raw.execute("SELECT created_at, birth_date FROM players").fetchall() == [written]


@pytest.mark.parametrize("dangling", ["player", "event"])
def test_a_row_naming_a_player_or_event_the_store_does_not_have_imports_nothing(
    db: str, dangling: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # games and event_players have no foreign keys (migration 0005): the import checks the keys
    # of its rows as a whole before it commits, on both backends.
    files = month_files(tmp_path)
    engine = init_store(db)
    resolve = import_players.PlayerDirectory.resolve
    event_row = importer._EventRows.event_row

    def one_unknown(
        self: import_players.PlayerDirectory, *args: Any, **kwargs: Any
    ) -> tuple[list[import_players.KnownPlayer], int]:
        chosen, new = resolve(self, *args, **kwargs)
        return [
            import_players.KnownPlayer(10**6, [None] * 5),
            *chosen[1:],
        ], new  # the first player: an id no player has

    def event_moved(self: importer._EventRows, now: object) -> tuple[object, ...]:
        row = event_row(self, now)
        return (row[0] + 10**6, *row[1:])  # the event stored under another id than its rows name

    if dangling == "player":
        monkeypatch.setattr(import_players.PlayerDirectory, "resolve", one_unknown)
    else:
        monkeypatch.setattr(importer._EventRows, "event_row", event_moved)
    refusal = rf"the import names \d rows? of {dangling}s that the store does not have; nothing was imported"
    with pytest.raises(StoreError, match=refusal):
        import_files(engine, files[:2])
    assert stored(engine) == [[], [], [], []]
    monkeypatch.undo()
    imported = import_files(engine, files[:2])  # the store was left as it was
    assert [event.games for event in imported] == [len(rows) for rows in _games_by_event(engine)]
    # The connection the import used, back in the pool: every other transaction has the keys on.
    for transaction in (engine.begin, lambda: write_transaction(engine)):
        with transaction() as connection, pytest.raises(IntegrityError):
            connection.execute(update(events).values(replaced_by=10**6))


def _games_by_event(engine: Engine) -> list[list[tuple[object, ...]]]:
    rows = stored(engine)[3]
    events_named = sorted({int(row[1]) for row in rows})  # type: ignore[call-overload]
    return [[row for row in rows if row[1] == event] for event in events_named]


HEAD_PIECES = ["\n", "\r\n", "\r", "   ", "% x", "; y", "; white,black", "[Event", "\ufeff", "001 ",
               "001", "XXR 9", "###", "white,black", "a;b", "012 Club", "1. e4", "é", "\xa0", "\x0c",
               "x" * 40]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(HEAD_PIECES), max_size=40),
    st.integers(0, 5000),
    st.lists(st.sampled_from(HEAD_PIECES), max_size=40),
    st.sampled_from(["a.trf", "b.pgn", "c.csv", "d.txt"]),
    st.sampled_from(["utf-8", "cp1252"]),
)
def test_the_format_told_from_the_first_lines_is_the_sniffers(
    before: list[str], filler: int, after: list[str], name: str, encoding: str
) -> None:
    # The importer tells a file's format from its first 4 KiB where they decide it.
    text = "".join(before) + "; filler\n" * (filler // 9) + "".join(after)
    head = text.encode(encoding, errors="replace")[:65536]
    assert import_reads._format(head, name) == sniff_format(decode(head)[0], name=name)


def test_a_csv_import_loads_neither_numpy_nor_alembic(tmp_path: Path) -> None:
    # What `list import` imports is a fifth of a 2x10^5-game import's time (benchmarks/list_scale.py).
    # Nor SQLAlchemy's PostgreSQL dialect on SQLite (schema.add_postgresql_options).
    db, games_csv = tmp_path / "list.db", tmp_path / "games.csv"
    init_store(str(db))
    games_csv.write_text("white,black,white_rating,black_rating,result,date\nA,B,1500,,1-0,2025-01-01\n")
    probe = (
        "import json, runpy, sys\nsys.argv = ['chessrate', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('chessrate', run_name='__main__')\nexcept SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        "sys.stderr.write(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "list", "import", str(games_csv), "--db", str(db)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    modules = set(json.loads(done.stderr))
    loaded = {name.split(".")[0] for name in modules}
    assert {"sqlalchemy", "sqlalchemy.dialects.sqlite"} <= modules  # the probe sees what is loaded
    assert not loaded & {"numpy", "alembic", "pydantic", "chess", "psycopg"}, sorted(loaded)
    assert "sqlalchemy.dialects.postgresql" not in modules
