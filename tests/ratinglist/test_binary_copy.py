"""PostgreSQL: a list's lines written by binary ``COPY`` laid out with numpy (``rows.copy_binary``,
what ``list run`` does) are stored exactly as the text ``COPY`` of the same rows stores them
(``rows.insert_rows``): every column, NULLs, decimals' texts, floats, non-ASCII notes."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, delete, insert, select

from chessrate.ratinglist import rows as rows_module
from chessrate.ratinglist import runner
from chessrate.ratinglist.facts import Entry, EntryColumns
from chessrate.ratinglist.rows import Pieces, copy_binary, insert_rows
from chessrate.ratinglist.schema import list_entries, list_versions
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.ratinglist.store import init_store

from .ratinglist_support import fresh_database

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    for url in fresh_database(Path(tmp_path_factory.mktemp("binary")), "postgres"):
        store = init_store(url)
        with store.begin() as connection:
            for version in (1, 2):
                connection.execute(
                    insert(list_versions).values(
                        id=version,
                        period=f"2025-0{version}",
                        revision=1,
                        status="draft",
                        rules="fide",
                        rules_title="FIDE",
                        created_at=dt.datetime(2025, 1, 1),
                    )
                )
        yield store
        store.dispose()


whole = st.one_of(st.none(), st.integers(0, 4000))
decimals = st.one_of(
    st.none(), st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-99, max_value=99)
)
floats = st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False, width=64))
texts = st.one_of(st.none(), st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=12))
entries = st.builds(
    Entry,
    player_id=st.integers(1, 2**31 - 1),
    status=st.sampled_from(EntryStatus),
    rating_before=whole,
    rating=whole,
    games=st.integers(0, 500),
    k=st.one_of(st.none(), st.integers(1, 800)),
    k_reason=texts,
    score=decimals,
    expected=decimals,
    change=decimals,
    rounded_change=st.one_of(st.none(), st.integers(-(2**31), 2**31 - 1)),
    adjustment=whole,
    glicko_rating=floats,
    deviation=floats,
    volatility=floats,
    note=texts,
)


def stored(engine: Engine, version: int) -> list[tuple[object, ...]]:
    columns = [column for column in list_entries.c if column.name != "version_id"]
    with engine.connect() as connection:
        return [
            tuple(row)
            for row in connection.execute(
                select(*columns)
                .where(list_entries.c.version_id == version)
                .order_by(list_entries.c.player_id)
            )
        ]


def assert_copies_agree(
    engine: Engine, pieces: tuple[list[str], list[Pieces]], columns: EntryColumns, count: int
) -> None:
    """The lines written by binary ``COPY`` (as list 1) and by the text path (as list 2) are the
    same ``count`` rows."""
    with engine.begin() as connection:
        connection.execute(delete(list_entries))
        assert copy_binary(connection, list_entries, *pieces) == count
        assert insert_rows(connection, list_entries, *runner._entry_rows(2, columns)) == count
    assert stored(engine, 1) == stored(engine, 2)
    assert len(stored(engine, 1)) == count


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(entries, max_size=30, unique_by=lambda entry: entry.player_id))
def test_binary_copy_stores_what_text_copy_stores(engine: Engine, lines: list[Entry]) -> None:
    columns = EntryColumns.of({entry.player_id: entry for entry in lines})
    pieces = runner._entry_pieces(1, columns)
    assert pieces is not None
    assert_copies_agree(engine, pieces, columns, len(lines))


def test_a_whole_number_beyond_an_integer_is_left_to_the_text_copy(engine: Engine) -> None:
    big = Entry(player_id=7, status=EntryStatus.RATED, rating_before=None, rating=None, games=2**31)
    assert runner._entry_pieces(1, EntryColumns.of({7: big})) is None


def test_decimal_texts_are_kept_as_written(engine: Engine) -> None:
    lines = {
        player: Entry(player_id=player, status=EntryStatus.RATED, rating_before=1500, rating=1510, games=1)
        for player in (1, 2, 3)
    }
    lines = {
        player: dataclasses.replace(line, change=change)
        for (player, line), change in zip(
            lines.items(), (Decimal("1.0"), Decimal("1"), Decimal("-0.50")), strict=True
        )
    }
    pieces = runner._entry_pieces(1, EntryColumns.of(lines))
    assert pieces is not None
    with engine.begin() as connection:
        connection.execute(delete(list_entries))
        copy_binary(connection, list_entries, *pieces)
    with engine.connect() as connection:
        changes = connection.execute(
            select(list_entries.c.change)
            .where(list_entries.c.version_id == 1)
            .order_by(list_entries.c.player_id)
        ).scalars()
        assert [str(change) for change in changes] == ["1.0", "1", "-0.50"]


@pytest.mark.parametrize("copy_bytes", [1, 60, 200, 1 << 20])
def test_rows_laid_out_a_few_bytes_at_a_time_are_stored_whole(
    engine: Engine, copy_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chunks of one row, of a few rows with a remainder, and all rows in one: the same rows."""
    lines = {
        player: Entry(
            player_id=player,
            status=EntryStatus.RATED,
            rating_before=1500 + player,
            rating=None if player % 3 == 0 else 1510 + player,
            games=player,
            note="é" * (player % 4) or None,
        )
        for player in range(1, 24)
    }
    columns = EntryColumns.of(lines)
    pieces = runner._entry_pieces(1, columns)
    assert pieces is not None
    monkeypatch.setattr(rows_module, "COPY_BYTES", copy_bytes)
    assert_copies_agree(engine, pieces, columns, len(lines))
