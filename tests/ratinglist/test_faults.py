"""Faults: a process killed inside a period run, a duplicate import, a malformed file, a corrected
event re-run over the later periods, published lists never rewritten without --republish."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import func, select

from chessrate.errors import FileFormatError
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.queries import list_view
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import (
    event_players,
    events,
    game_workings,
    games,
    list_entries,
    list_summaries,
    list_versions,
    meta,
)
from chessrate.ratinglist.store import StoreError, check_store, init_store, open_store
from chessrate.testing import synthetic

from .ratinglist_support import DATA, fresh_database

SRC = Path(__file__).parents[2] / "src"
KILLABLE_RUN = Path(__file__).parent / "killable_run.py"
SWISS = DATA / "trf/swiss-unplayed-rounds.trf"
CANDIDATES = DATA / "pgn/candidates-2022.pgn"


def counts(db: str) -> dict[str, object]:
    """Each table's rows, and the lists ``list_summaries`` sums (``meta`` key ``summary``)."""
    with open_store(db).connect() as connection:
        found: dict[str, object] = {
            table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (
                events,
                event_players,
                games,
                list_versions,
                list_entries,
                game_workings,
                list_summaries,
            )
        }
        found["summary"] = connection.execute(select(meta.c.value).where(meta.c.key == "summary")).scalar()
        return found


def published(db: str) -> dict[str, list[tuple[int, int | None]]]:
    engine = open_store(db)
    with engine.connect() as connection:
        periods = connection.execute(
            select(list_versions.c.period).where(list_versions.c.status == "published")
        ).scalars()
        return {
            period: [(row.player_id, row.rating) for row in list_view(engine, period).rows]
            for period in sorted(periods)
        }


def test_killed_mid_run_leaves_the_store_consistent_and_the_run_can_be_repeated(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [CANDIDATES], start=dt.date(2024, 5, 6))
    import_files(engine, [SWISS], start=dt.date(2024, 6, 8))
    run_period(engine, Period(2024, 5))
    engine.dispose()
    before_lists, before_counts = published(db), counts(db)

    # A real process, killed with SIGKILL inside the run's transaction, once the June list has been
    # written: killable_run.py says when, from outside the product's code.
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.Popen(
        [sys.executable, str(KILLABLE_RUN), db, "2024-06"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    assert process.stderr is not None
    line = process.stderr.readline().decode()
    assert "first list written" in line
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL

    assert published(db) == before_lists
    assert counts(db) == before_counts
    engine = open_store(db)
    report = run_period(engine, Period(2024, 6))
    assert [run.status for run in report.periods] == ["published"]
    assert sorted(published(db)) == ["2024-05", "2024-06"]


def test_duplicate_import_is_refused_and_imports_nothing(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS])
    before = counts(db)
    with pytest.raises(StoreError, match="already imported as event 1"):
        import_files(engine, [CANDIDATES, SWISS])  # the new file with it is not imported either
    assert counts(db) == before


def test_a_store_from_before_the_fingerprint_column_gets_it_and_still_refuses_a_resaved_file(
    db: str, tmp_path: Path
) -> None:
    # Migration 0003 stores each event's fingerprint; events imported before it get theirs computed.
    engine = init_store(db)
    import_files(engine, [SWISS])
    with engine.connect() as connection:
        stored = connection.execute(select(events.c.games_fingerprint)).scalar_one()
        assert len(stored) == 64
        config = Config()
        config.set_main_option("script_location", "chessrate.ratinglist:migrations")
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
        connection.commit()
    engine.dispose()
    engine = init_store(db)  # upgrades to the newest revision
    with engine.connect() as connection:
        assert connection.execute(select(events.c.games_fingerprint)).scalar_one() == stored
    resaved = tmp_path / "resaved.trf"
    resaved.write_bytes(SWISS.read_bytes() + b"\n\n")
    with pytest.raises(StoreError, match="already imported as event 1"):
        import_files(engine, [resaved])


def test_malformed_file_imports_nothing(db: str, tmp_path: Path) -> None:
    engine = init_store(db)
    broken = tmp_path / "broken.trf"
    text = SWISS.read_bytes().replace(b"   11 b 1  ", b"   11 b X  ", 1)  # no such result code
    assert text != SWISS.read_bytes()
    broken.write_bytes(text)
    with pytest.raises(FileFormatError, match=r"broken.trf has \d+ errors?; nothing was imported: line \d+"):
        import_files(engine, [CANDIDATES, broken])
    assert counts(db)["events"] == counts(db)["games"] == counts(db)["event_players"] == 0


def test_corrected_event_rerun_recomputes_later_periods_as_drafts_then_republish(
    db: str, tmp_path: Path
) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    import_files(engine, [CANDIDATES], start=dt.date(2024, 6, 3))
    for month in (5, 6, 7):
        run_period(engine, Period(2024, month))
    published_before = published(db)

    # The arbiter corrects round 2: Player 2 and Player 11 drew (the file says Player 2 won).
    corrected = tmp_path / "swiss-corrected.trf"
    lines = SWISS.read_bytes().split(b"\n")
    two = next(i for i, line in enumerate(lines) if line.startswith(b"001    2 "))
    eleven = next(i for i, line in enumerate(lines) if line.startswith(b"001   11 "))
    lines[two] = lines[two].replace(b"   11 b 1  ", b"   11 b =  ").replace(b" 4.0 ", b" 3.5 ")
    lines[eleven] = lines[eleven].replace(b"    2 w 0  ", b"    2 w =  ").replace(b" 4.5 ", b" 5.0 ")
    corrected.write_bytes(b"\n".join(lines))
    assert corrected.read_bytes() != SWISS.read_bytes()
    (event,) = import_files(engine, [corrected], start=dt.date(2024, 5, 4), replaces=1)

    report = run_period(engine, Period(2024, 5))
    assert [(run.period, run.status) for run in report.periods] == [
        ("2024-05", "draft"), ("2024-06", "draft"), ("2024-07", "draft"),
    ]  # fmt: skip
    # Both players' lines change in May and in every later list (they play no more games).
    for run in report.periods:
        assert sorted(change.name for change in run.changes) == ["Player, 11", "Player, 2"]
    assert published(db) == published_before  # nothing published was rewritten
    draft = list_view(engine, "2024-05", draft=True)
    assert draft.status == "draft"

    report = run_period(engine, Period(2024, 5), republish=True)
    assert [run.status for run in report.periods] == ["published"] * 3
    with engine.connect() as connection:
        statuses = connection.execute(
            select(list_versions.c.period, list_versions.c.revision, list_versions.c.status).order_by(
                list_versions.c.period, list_versions.c.revision
            )
        ).all()
    assert [tuple(row) for row in statuses] == [
        ("2024-05", 1, "superseded"), ("2024-05", 2, "published"),
        ("2024-06", 1, "superseded"), ("2024-06", 2, "published"),
        ("2024-07", 1, "superseded"), ("2024-07", 2, "published"),
    ]  # fmt: skip
    assert event.replaces == 1


def test_periods_must_run_in_order(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    run_period(engine, Period(2024, 5))
    with pytest.raises(StoreError, match="cannot be run before 2024-06"):
        run_period(engine, Period(2024, 8))


def test_elo_and_glicko2_lists_do_not_mix(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    run_period(engine, Period(2024, 5))
    with pytest.raises(ValueError, match="Elo and Glicko-2 do not mix"):
        run_period(engine, Period(2024, 6), rules="glicko2")


def test_the_run_report_counts_each_game_once(db: str) -> None:
    """Candidates 2022: 8 players, a double round robin, 56 games, every one decisive or drawn."""
    engine = init_store(db)
    import_files(engine, [CANDIDATES], start=dt.date(2024, 5, 6))
    (run,) = run_period(engine, Period(2024, 5)).periods
    assert run.games == 56
    assert sum(row.games for row in list_view(engine, "2024-05").rows) == 2 * 56


def synthetic_store(db: str, folder: Path) -> None:
    """A store with two synthetic Swiss months published (2025-08, 2025-09: the run of September
    keeps the August list summed up) and the next one imported (the run of October sums
    September's list and keeps both summed up, ``list_summaries``)."""
    engine = init_store(db)
    for number, start in enumerate((dt.date(2025, 8, 1), dt.date(2025, 9, 1), dt.date(2025, 10, 1))):
        month = synthetic.swiss_month(games=6000, players=1500, size=40, rounds=7, seed=number, start=start)
        paths = []
        for event in range(len(month.seats)):
            path = folder / f"month{number}-event{event}.trf"
            path.write_text(synthetic.trf_text(month, event), encoding="utf-8")
            paths.append(path)
        import_files(engine, paths)
    run_period(engine, Period(2025, 8))
    run_period(engine, Period(2025, 9))
    engine.dispose()


def chunked_run(db: str, period: str, *, kill_after: float | None) -> float:
    """``list run`` in its own process, rows written 500 at a time; SIGKILL ``kill_after`` seconds
    after it starts (None: let it finish). The seconds from its start to its end."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.Popen(
        [sys.executable, str(KILLABLE_RUN), db, period, "--chunk", "500"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    assert process.stderr is not None
    assert "started" in process.stderr.readline().decode()
    started = time.perf_counter()
    if kill_after is not None:
        time.sleep(kill_after)
        process.send_signal(signal.SIGKILL)
    code = process.wait(timeout=120)
    assert code == 0 or (kill_after is not None and code == -signal.SIGKILL)
    return time.perf_counter() - started


@pytest.fixture
def reference_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A second store on the backend of ``db``."""
    folder = tmp_path / "reference"
    folder.mkdir()
    yield from fresh_database(folder, request.node.callspec.params["db"])


def test_a_chunked_run_killed_at_any_moment_leaves_the_published_lists(
    db: str, reference_db: str, tmp_path: Path
) -> None:
    """SIGKILL at moments spread over a whole run (rows written in chunks): the published lists and
    every table are as they were, or, where the run ended first, as a finished run leaves them."""
    synthetic_store(reference_db, tmp_path)
    duration = chunked_run(reference_db, "2025-10", kill_after=None)
    finished = published(reference_db)

    synthetic_store(db, tmp_path)
    before_lists, before_counts = published(db), counts(db)
    killed = 0
    for fraction in (0.02, 0.06, 0.12, 0.2, 0.3, 0.45, 0.6, 0.8):
        chunked_run(db, "2025-10", kill_after=fraction * duration)
        if published(db) != before_lists:  # committed before the kill came: as a finished run leaves it
            assert published(db) == finished
            break
        killed += 1
        assert counts(db) == before_counts
    assert killed >= 2
    chunked_run(db, "2025-10", kill_after=None)
    assert published(db) == finished
    assert check_store(db) == (True, ("ok",))  # the lists summed up are those the run kept
    assert counts(db)["summary"] != before_counts["summary"]
