"""Migration 0007 (``game_workings`` without foreign keys, a run checking their keys as a whole):
a run refused for one stray working writes none of its workings, on both backends."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from sqlalchemy import select

from chessrate.ratinglist import runner
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import ComputedList
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import events, game_workings, games, list_versions
from chessrate.ratinglist.store import StoreError, open_store

from .test_entry_checks import store_with_lists, stray_working


def _rows(db: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with open_store(db).connect() as connection:
        workings = connection.execute(select(game_workings).order_by(*game_workings.c)).all()
        versions = connection.execute(select(list_versions).order_by(list_versions.c.id)).all()
    return [tuple(row) for row in workings], [tuple(row) for row in versions]


def test_a_run_refused_for_one_stray_working_writes_none_of_them(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_with_lists(db)
    before = _rows(db)
    assert before[0]  # the runs of the store wrote workings
    with open_store(db).connect() as connection:
        of_the_period = select(events.c.id).where(events.c.period == "2024-06")
        game = connection.execute(select(games).where(games.c.event_id.in_(of_the_period)).limit(1)).one()
    compute = compute_period

    def with_a_stray_working(*args: Any, **kwargs: Any) -> ComputedList:
        computed = compute(*args, **kwargs)
        stray = stray_working(game, "player_id")
        return dataclasses.replace(computed, workings=(*computed.workings, stray))

    monkeypatch.setattr(runner, "compute_period", with_a_stray_working)
    with pytest.raises(StoreError, match=r"player_id 987654.*nothing was written$"):
        run_period(open_store(db), Period(2024, 6), republish=True)
    assert _rows(db) == before  # every working and list as before: none of the run's written
