"""One error tree (``chessrate.errors``): every refusal is a ``RatingError``; only invalid input is
also a ``ValueError``, so that ``except ValueError`` never hides a damaged or busy store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from chessrate.errors import (
    CodedError,
    ConvergenceError,
    FileFormatError,
    InvalidInputError,
    RatingError,
    RuleSetError,
    UnpublishedRuleError,
)
from chessrate.ratinglist.store import DamagedStoreError, StoreBusyError, StoreError, init_store, open_store

INVALID_INPUT = (InvalidInputError, FileFormatError, RuleSetError)
NOT_INPUT = (
    StoreError,
    StoreBusyError,
    DamagedStoreError,
    ConvergenceError,
    UnpublishedRuleError,
    CodedError,
)


@pytest.mark.parametrize("error", INVALID_INPUT + NOT_INPUT, ids=lambda error: error.__name__)
def test_every_error_is_a_rating_error(error: type[Exception]) -> None:
    assert issubclass(error, RatingError)


def test_the_root_is_no_value_error() -> None:
    assert not issubclass(RatingError, ValueError)


@pytest.mark.parametrize("error", INVALID_INPUT, ids=lambda error: error.__name__)
def test_invalid_input_is_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, ValueError)


@pytest.mark.parametrize("error", NOT_INPUT, ids=lambda error: error.__name__)
def test_a_store_or_a_computation_fault_is_no_value_error(error: type[Exception]) -> None:
    assert not issubclass(error, ValueError)


def test_except_value_error_around_a_store_call_does_not_hide_damage(tmp_path: Path) -> None:
    db = tmp_path / "list.db"
    init_store(str(db)).dispose()
    with sqlite3.connect(db) as connection:  # a table of many pages, so that a page can be broken
        connection.execute("CREATE TABLE filler (x TEXT)")
        connection.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    connection.close()
    data = bytearray(db.read_bytes())
    for start in range(4096, len(data), 4096):  # every page but the first, broken
        data[start : start + 4] = b"\xff\xff\xff\xff"
    db.write_bytes(bytes(data))

    def look() -> None:
        try:
            open_store(str(db)).connect().close()
        except ValueError:  # what a caller expecting bad input writes: it must not swallow damage
            pytest.fail("a damaged store was caught as a ValueError")

    with pytest.raises(DamagedStoreError):
        look()
