"""Store fixtures: every store test runs on SQLite and on a real PostgreSQL server.

The PostgreSQL URL comes from ``CHESSRATE_TEST_POSTGRES_URL`` (``scripts/start_postgres.sh`` starts
a throwaway server and prints one). Without it the PostgreSQL cases fail: deselect them locally
with ``-m "not postgres"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .ratinglist_support import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL or path, once per backend."""
    yield from fresh_database(tmp_path, request.param)
