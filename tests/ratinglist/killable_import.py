"""``list import`` in a process a test can kill inside the import's transaction, with no hook in
the product.

``python killable_import.py DB FILE...``: imports the files one a batch (``importer._FILES = 1``);
once the second batch's rows are written (PostgreSQL: its ``COPY``s done), it says so on stderr and
waits to be killed. The wait is this script's: it wraps the importer's store from outside.
"""

from __future__ import annotations

import sys
import time

from chessrate.cli import main
from chessrate.ratinglist import importer

store = importer._Batch._store
stored = 0


def store_then_wait(self: importer._Batch, *args: object, **kwargs: object) -> None:
    global stored
    store(self, *args, **kwargs)  # type: ignore[arg-type]
    self._wait()
    stored += 1
    if stored == 2:
        sys.stderr.write("killable_import: two batches written, waiting inside the transaction\n")
        sys.stderr.flush()
        time.sleep(60)


if __name__ == "__main__":
    db, *files = sys.argv[1:]
    importer._FILES = 1
    importer._Batch._store = store_then_wait  # type: ignore[method-assign]
    main(["list", "import", *files, "--db", db])
