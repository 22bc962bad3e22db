"""A small demo rating list built from the real tournament files shipped in ``data/demo``.

Three MIT-licensed TRF files (sources in ``data/demo/SOURCES.md``), moved into consecutive months
(their length kept), rated under the FIDE rules over six monthly periods from September 2025.
"""

from __future__ import annotations

import datetime as dt
from importlib import resources
from pathlib import Path

from sqlalchemy import func, select

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import events
from chessrate.ratinglist.store import StoreError, init_store, shown

#: (file, the day the demo moves its first round to)
DEMO_EVENTS = (
    ("javafo-sample2.trf", dt.date(2025, 9, 19)),
    ("swiss-9-rounds.trf", dt.date(2025, 10, 4)),
    ("swiss-unplayed-rounds.trf", dt.date(2025, 11, 8)),
)
FIRST_PERIOD = Period(2025, 9)
PERIODS = 6


def build_demo(db: str, *, rules: str = "fide") -> dict[str, object]:
    """Build the demo list in the store ``db`` (created if needed; it must hold no events)."""
    engine = init_store(db, rules=rules)
    with engine.connect() as connection:
        if connection.execute(select(func.count()).select_from(events)).scalar_one():
            raise StoreError(
                f"the store {db!r} already holds events: the demo needs an empty one",
                code="demo-not-empty",
                params={"store": shown(db)},
            )
    folder = resources.files("chessrate").joinpath("data/demo")
    for name, start in DEMO_EVENTS:
        with resources.as_file(folder.joinpath(name)) as path:
            import_files(engine, [Path(path)], start=start)
    period = FIRST_PERIOD
    for _ in range(PERIODS):
        run_period(engine, period)
        period = period.next()
    return {
        "db": db,
        "rules": rules,
        "events": len(DEMO_EVENTS),
        "periods": f"{FIRST_PERIOD} to {period.previous()}",
        "latest list": period.first_day.isoformat(),
    }
