"""A SQLite cache of evaluations keyed by position, engine and setting, so nothing is searched twice."""

from __future__ import annotations

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


class EvaluationCache:
    """Evaluations of one engine at one setting, in a SQLite file (or ``:memory:``)."""

    def __init__(self, path: str | Path, *, engine: str, setting: str) -> None:
        self.engine = engine
        self.setting = setting
        try:
            self._db = sqlite3.connect(str(path))
            self._db.execute(SCHEMA)
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
