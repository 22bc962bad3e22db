"""The web's list and player pages while a period runs: answered (neither refused nor held until
the run ends) and showing the published list, until the run commits; then the new one.

SQLite keeps a write-ahead log (``store._write_ahead_log``): with a rollback journal, a run whose
writes leave its page cache holds the file's exclusive lock until it commits, and a reader waits
for it, then is refused (``store-busy``). ``paused_run.py`` makes the run's cache small and stops
it inside its transaction once its first list is written. PostgreSQL readers never wait for a
writer (MVCC)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient

from chessrate.web import WebSettings, create_app

from .test_faults import synthetic_store

SRC = Path(__file__).parents[2] / "src"
PAUSED_RUN = Path(__file__).parent / "paused_run.py"


def test_pages_show_the_published_list_while_a_run_writes_the_next(db: str, tmp_path: Path) -> None:
    synthetic_store(db, tmp_path)  # 2025-08 and 2025-09 published, 2025-10 imported
    client = TestClient(create_app(WebSettings(list_db=db)))
    before = client.get("/list")
    assert before.status_code == 200
    assert "Period 2025-09 (published" in before.text
    player = re.search(r'href="/list/player/(\d+)', before.text)
    assert player is not None
    go = tmp_path / "go"
    run = subprocess.Popen(
        [sys.executable, str(PAUSED_RUN), db, "2025-10", str(go)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    try:
        assert run.stderr is not None
        assert "first list written" in run.stderr.readline().decode()
        for _ in range(3):  # the run waits inside its transaction, its pages written
            started = time.monotonic()
            listed = client.get("/list")
            assert listed.status_code == 200, listed.text[-500:]
            assert "Period 2025-09 (published" in listed.text
            history = client.get(f"/list/player/{player.group(1)}")
            assert history.status_code == 200, history.text[-500:]
            assert "2025-10-01" in history.text  # the list of 2025-09, dated 1 October
            assert "2025-11-01" not in history.text  # nothing of the list the run writes
            assert client.get("/list", params={"period": "2025-10"}).status_code == 404
            assert client.get("/list", params={"sort": "name", "page": "2"}).status_code == 200
            assert time.monotonic() - started < 5  # answered, not held until the run ends
        assert run.poll() is None  # the run was still inside its transaction all along
    finally:
        go.touch()
        code = run.wait(timeout=120)
    assert code == 0
    after = client.get("/list")
    assert "Period 2025-10 (published" in after.text
    assert "2025-11-01" in client.get(f"/list/player/{player.group(1)}").text
