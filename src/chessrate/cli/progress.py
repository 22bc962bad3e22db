"""A progress bar on a terminal while a command reads many files; nothing where output is not one.

Rich is imported only when standard error is a terminal: a command in a script, a pipe or a test
pays nothing for it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from chessrate.cli.language import say as _

#: Fewer files than this read without a bar (they take a moment).
MIN_FILES = 20


@contextmanager
def files_read(total: int) -> Iterator[Callable[[Path], None] | None]:
    """A callback to call with each file read, advancing a bar on standard error; ``None`` where
    standard error is not a terminal or the files are few."""
    if total < MIN_FILES or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(_("Reading files")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("", total=total)

        def advance(_path: Path) -> None:
            progress.advance(task)

        yield advance
