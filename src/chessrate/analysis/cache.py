"""A SQLite cache of evaluations keyed by position, engine and setting, so nothing is searched twice.

A cache file is checked before any search (:func:`check_cache`): ours (marked by
``PRAGMA application_id``, or an unmarked file holding only our ``evaluation`` table, or empty),
and writable. Anything else, a rating-list store above all, is refused and left untouched.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from chessrate.analysis.engine import Evaluation
from chessrate.errors import InvalidInputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS evaluation (
    position TEXT NOT NULL,
    engine TEXT NOT NULL,
    setting TEXT NOT NULL,
    score INTEGER NOT NULL,
    best TEXT NOT NULL,
    PRIMARY KEY (position, engine, setting)
)
"""


#: ``PRAGMA application_id`` of a chessrate evaluation cache ("CRev").
APPLICATION_ID = 0x43526576
#: Our columns of the ``evaluation`` table.
COLUMNS = ("position", "engine", "setting", "score", "best")


def _refused(path: str, reason: str, code: str) -> InvalidInputError:
    return InvalidInputError("cache", path, reason, code=code, params={"cache": path})


def check_cache(path: str | Path) -> None:
    """Refuse, naming ``path``, a file that is not an evaluation cache of ours or cannot be written."""
    name = str(path)
    if name == ":memory:":
        return
    file = Path(name)
    if not file.exists():
        folder = file.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise _refused(name, "its folder does not exist or cannot be written", "cache-unwritable")
        return
    if not file.is_file():
        raise _refused(name, "not a regular file", "cache-foreign")
    if not os.access(file, os.R_OK | os.W_OK):
        raise _refused(name, "cannot be written", "cache-unwritable")
    try:
        db = sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)
        try:
            mark = db.execute("PRAGMA application_id").fetchone()[0]
            tables = sorted(
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            )
            columns = tuple(row[1] for row in db.execute("PRAGMA table_info(evaluation)"))
        finally:
            db.close()
    except sqlite3.Error:
        raise _refused(name, "not a SQLite file", "cache-foreign") from None
    if mark == APPLICATION_ID or not tables or (tables == ["evaluation"] and columns == COLUMNS and not mark):
        return
    if "players" in tables and "events" in tables:
        raise _refused(
            name, "a rating-list store, not an evaluation cache: nothing was written", "cache-store"
        )
    shown = ", ".join(tables[:5])
    raise _refused(name, f"not an evaluation cache (it holds {shown}): nothing was written", "cache-foreign")


class EvaluationCache:
    """Evaluations of one engine at one setting, in a SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path, *, engine: str, setting: str) -> None:
        self.engine = engine
        self.setting = setting
        check_cache(path)
        try:
            self._db = sqlite3.connect(str(path))
            self._db.execute(SCHEMA)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.commit()
        except sqlite3.Error as error:  # a folder that does not exist, a file that is not SQLite
            raise InvalidInputError(
                "cache", str(path), f"cannot be used as an evaluation cache ({error})", code="cache"
            ) from None

    def __enter__(self) -> EvaluationCache:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def get_many(self, keys: Iterable[str]) -> dict[str, Evaluation]:
        """The cached evaluations among ``keys``."""
        found: dict[str, Evaluation] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT position, score, best FROM evaluation WHERE engine = ? AND setting = ? "
                f"AND position IN ({marks})",
                (self.engine, self.setting, *chunk),
            )
            found.update({key: Evaluation(score, best) for key, score, best in rows})
        return found

    def put_many(self, evaluations: Mapping[str, Evaluation]) -> None:
        self._db.executemany(
            "INSERT OR IGNORE INTO evaluation VALUES (?, ?, ?, ?, ?)",
            [(key, self.engine, self.setting, e.score, e.best) for key, e in evaluations.items()],
        )
        self._db.commit()

    def __len__(self) -> int:
        row = self._db.execute(
            "SELECT COUNT(*) FROM evaluation WHERE engine = ? AND setting = ?", (self.engine, self.setting)
        ).fetchone()
        return int(row[0])
