"""``list run`` in a process a test can kill at a chosen moment, with no hook in the product.

Usage: ``python killable_run.py DB PERIOD``. Runs ``chessrate list run PERIOD --db DB``; after the
first list of the run is written (inside the run's transaction), says so on stderr and waits to be
killed. The wait is this script's: it wraps the runner's write from outside.
"""

from __future__ import annotations

import sys
import time

from chessrate.cli import main
from chessrate.ratinglist import runner

write = runner._write


def write_then_wait(*args: object, **kwargs: object) -> object:
    written = write(*args, **kwargs)  # type: ignore[arg-type]
    sys.stderr.write("killable_run: first list written, waiting inside the transaction\n")
    sys.stderr.flush()
    time.sleep(60)
    return written


if __name__ == "__main__":
    runner._write = write_then_wait  # type: ignore[assignment]
    main(["list", "run", sys.argv[2], "--db", sys.argv[1]])
