"""``list run`` in a process a test can kill at a chosen moment, with no hook in the product.

``python killable_run.py DB PERIOD``: runs ``chessrate list run PERIOD --db DB``; once the first
list of the run is written (inside the run's transaction) it says so on stderr and waits to be
killed. The wait is this script's: it wraps the runner's write from outside.

``python killable_run.py DB PERIOD --chunk N``: the run as it is, its rows written N at a time (so
that a kill at any moment can fall between chunks); says ``started`` on stderr first.
"""

from __future__ import annotations

import sys
import time

from chessrate.cli import main
from chessrate.ratinglist import rows, runner

write = runner._write


def write_then_wait(*args: object, **kwargs: object) -> object:
    written = write(*args, **kwargs)  # type: ignore[arg-type]
    sys.stderr.write("killable_run: first list written, waiting inside the transaction\n")
    sys.stderr.flush()
    time.sleep(60)
    return written


if __name__ == "__main__":
    db, period, *options = sys.argv[1:]
    if options[:1] == ["--chunk"]:
        rows.CHUNK = int(options[1])
        sys.stderr.write("killable_run: started\n")
        sys.stderr.flush()
    else:
        runner._write = write_then_wait  # type: ignore[assignment]
    main(["list", "run", period, "--db", db])
