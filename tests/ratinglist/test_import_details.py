"""What a later file tells of a stored player fills in what the store did not know, and nothing it
knew is overwritten (``import_players.PlayerDirectory``: the filled details written in one batch per set of
columns)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.schema import players
from chessrate.ratinglist.store import init_store
from chessrate.testing import synthetic

from .ratinglist_support import BACKENDS, fresh_database

RESULTS = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(tmp_path, request.param)


def test_a_later_file_fills_in_details_and_overwrites_none(db: str, tmp_path: Path) -> None:
    month = synthetic.swiss_month(games=1_800, seed=1)  # 4 events of 100 players, players shared
    per_event = len(month.white) // len(month.seats)
    # Event 1 as PGN: names, ratings and FIDE ids, no federation or sex.
    first = range(per_event, 2 * per_event)
    pgn = tmp_path / "first.pgn"
    pgn.write_text(
        "".join(
            f'[Event "First"]\n[Site "?"]\n[Date "2025.10.0{month.round[g]}"]\n[Round "{month.round[g]}"]\n'
            f'[White "Player {month.white[g]:06d}"]\n[Black "Player {month.black[g]:06d}"]\n'
            f'[Result "{RESULTS[int(month.white_half_points[g])]}"]\n'
            f'[WhiteFideId "{month.fide_id[month.white[g]]}"]\n'
            f'[BlackFideId "{month.fide_id[month.black[g]]}"]\n\n'
            f"{RESULTS[int(month.white_half_points[g])]}\n\n"
            for g in first
        ),
        encoding="utf-8",
    )
    # Event 0 as TRF, later: federation ESP and sex m for everyone.
    trf = tmp_path / "second.trf"
    trf.write_text(synthetic.trf_text(month, 0), encoding="utf-8")
    engine = init_store(db)
    import_files(engine, [pgn], start=dt.date(2025, 10, 1))
    with engine.begin() as connection:  # a detail the store knew before the TRF
        known = int(month.fide_id[month.seats[1][0]])
        connection.execute(players.update().where(players.c.fide_id == known).values(federation="FRA"))
    import_files(engine, [trf], start=dt.date(2025, 10, 1))

    with engine.connect() as connection:
        stored = {
            row.fide_id: (row.federation, row.sex)
            for row in connection.execute(select(players.c.fide_id, players.c.federation, players.c.sex))
        }
    in_first = {int(month.fide_id[p]) for p in month.seats[1].tolist()}
    in_second = {int(month.fide_id[p]) for p in month.seats[0].tolist()}
    both = (in_first & in_second) - {known}
    assert both, "the two events share players"
    assert all(stored[fide_id] == ("ESP", "m") for fide_id in both)  # filled in
    assert all(stored[fide_id] == (None, None) for fide_id in in_first - in_second - {known})
    assert stored[known][0] == "FRA"  # never overwritten
    if known in in_second:
        assert stored[known][1] == "m"
