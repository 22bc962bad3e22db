"""The rating list's writes as the faces ask for them: an import (``list import``, ``list fide
import``, the admin page's file) and a run (``list run``, the admin page's period).

The store's own refusals (:class:`~chessrate.ratinglist.store.StoreError`, a bad value, a file with
errors) pass as they are. A refusal of the database itself while it writes (a full disk, a read-only
file, a constraint, a COPY the server refuses), which the driver raises (or SQLAlchemy around it),
becomes one :class:`~chessrate.ratinglist.store.StoreError` on one line naming the files or the
period and what the database said (``import-database``, ``run-database``). Every write is one
transaction: it was rolled back, nothing of it is kept.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from chessrate.ratinglist.store import WRITER_WAIT, StoreError

if TYPE_CHECKING:
    from chessrate.formats.fide_list import ListType
    from chessrate.ratinglist.fide_import import ImportedFideList
    from chessrate.ratinglist.importer import ImportedEvent
    from chessrate.ratinglist.periods import Period
    from chessrate.ratinglist.runner import RunReport


def import_events(
    engine: Engine,
    paths: Sequence[Path],
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    replaces: int | None = None,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
    on_file: Callable[[Path], None] | None = None,
) -> tuple[ImportedEvent, ...]:
    """:func:`~chessrate.ratinglist.importer.import_files`, the database's refusal on one line."""
    from chessrate.ratinglist.importer import import_files

    names = [Path(path).name for path in paths[:FILES_NAMED]]
    files = ", ".join(names if len(paths) <= FILES_NAMED else [*names, "…"])
    with _database_refusal("import-database", {"files": files}, f"{files}: the database refused the import"):
        return import_files(
            engine,
            paths,
            start=start,
            end=end,
            replaces=replaces,
            wait=wait,
            on_wait=on_wait,
            on_file=on_file,
        )


#: The files a database's refusal of an import names (a month's folder: thousands).
FILES_NAMED = 5


def event_files(arguments: Sequence[Path]) -> list[Path]:
    """The files an import is given as files, folders and globs (:mod:`chessrate.ratinglist.sources`)."""
    from chessrate.ratinglist.sources import event_files as files_of

    return files_of(arguments)


def import_fide(
    engine: Engine,
    path: Path,
    *,
    list_type: ListType = "standard",
    month: dt.date | None = None,
    federation: str | None = None,
    replace: bool = False,
) -> ImportedFideList:
    """:func:`~chessrate.ratinglist.fide_import.import_fide_list`, the database's refusal on one line."""
    from chessrate.ratinglist.fide_import import import_fide_list

    files = path.name
    with _database_refusal("import-database", {"files": files}, f"{files}: the database refused the import"):
        return import_fide_list(
            engine, path, list_type=list_type, month=month, federation=federation, replace=replace
        )


def run_list(
    engine: Engine,
    period: Period,
    *,
    rules: str | None = None,
    republish: bool = False,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
    server: bool = False,
) -> RunReport:
    """:func:`~chessrate.ratinglist.runner.run_period`, the database's refusal on one line.

    ``server``: run by the web server, whose working folder is none of the user's: a club's rules
    file named by a relative path (a store set up before ``list init`` kept full paths) is refused
    rather than looked for there (``rules-relative-path``).
    """
    from chessrate.ratinglist.runner import run_period

    if server:
        _refuse_relative_club_file(engine, rules)
    params: dict[str, object] = {"period": str(period)}
    with _database_refusal("run-database", params, f"period {period}: the database refused the run"):
        return run_period(engine, period, rules=rules, republish=republish, wait=wait, on_wait=on_wait)


def _refuse_relative_club_file(engine: Engine, rules: str | None) -> None:
    from chessrate.ratinglist.store import store_rules

    if rules is None:
        with engine.connect() as connection:
            rules = store_rules(connection)
    if rules.strip().lower().endswith(".toml") and not Path(rules.strip()).expanduser().is_absolute():
        raise StoreError(
            f"the rule set is the club file {rules!r}, a path relative to the folder where the list was "
            "run, which this server cannot know: run the period from the command line, in that folder",
            code="rules-relative-path",
            params={"rules": rules},
        )


@contextmanager
def _database_refusal(code: str, params: dict[str, object], said: str) -> Iterator[None]:
    """A driver's error inside as one :class:`StoreError`: ``said``, what the database said."""
    try:
        yield
    except Exception as error:
        reason = database_reason(error)
        if reason is None:
            raise
        raise StoreError(
            f"{said} ({reason}); nothing was written", code=code, params={**params, "reason": reason}
        ) from None


def database_reason(error: BaseException) -> str | None:
    """What the database said, on one line, if ``error`` is the database's (PEP 249's ``Error`` of
    the driver, or SQLAlchemy's :class:`~sqlalchemy.exc.DBAPIError` around it); else ``None``.

    psycopg's message goes on with ``DETAIL`` and ``CONTEXT`` lines (the row a COPY refused): the
    first line says what went wrong."""
    original: BaseException = error.orig if isinstance(error, DBAPIError) and error.orig else error
    psycopg = sys.modules.get("psycopg")  # loaded if the store is a PostgreSQL one
    if not isinstance(error, DBAPIError | sqlite3.Error) and not (
        psycopg is not None and isinstance(error, psycopg.Error)
    ):
        return None
    lines = [line.strip() for line in str(original).splitlines() if line.strip()]
    return lines[0] if lines else type(original).__name__
