"""``list run`` in a process that stops inside its transaction until a test lets it go.

``python paused_run.py DB PERIOD GO``: runs ``chessrate list run PERIOD --db DB`` with SQLite's page
cache cut to 20 pages (so that the run's writes leave its cache for the database file before it
commits, as a month's run does); once the run's first list is written, inside the transaction, it
says so on stderr and waits until the file ``GO`` exists, then goes on and commits. The wait is this
script's: it wraps the runner's write from outside, with no hook in the product.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from chessrate.cli import main
from chessrate.ratinglist import runner

write = runner._write


@event.listens_for(Engine, "connect")
def _small_cache(dbapi_connection: Any, _record: Any) -> None:
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        dbapi_connection.execute("PRAGMA cache_size = 20")


def write_then_wait(*args: object, **kwargs: object) -> object:
    written = write(*args, **kwargs)  # type: ignore[arg-type]
    sys.stderr.write("paused_run: first list written, waiting inside the transaction\n")
    sys.stderr.flush()
    go = Path(sys.argv[3])
    deadline = time.monotonic() + 120
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return written


if __name__ == "__main__":
    db, period, _go = sys.argv[1:]
    runner._write = write_then_wait  # type: ignore[assignment]
    main(["list", "run", period, "--db", db])
