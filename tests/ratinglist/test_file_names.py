"""A file whose name is not UTF-8 text (Linux allows any bytes) is refused in one line by the
commands that store a file's name, before anything is written, on both backends."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from .ratinglist_support import DATA


def _named_badly(source: Path, folder: Path, suffix: str) -> Path:
    target = Path(os.fsdecode(os.fsencode(str(folder)) + b"/bad\xff" + suffix.encode()))
    shutil.copyfile(source, target)
    return target


def test_an_import_of_a_file_named_in_other_bytes_is_refused_in_one_line(
    cli: Any, db: str, tmp_path: Path
) -> None:
    good = DATA / "pgn" / "stlouis-rapid-2022.pgn"
    bad = _named_badly(good, tmp_path, ".pgn")
    assert cli("list", "init", "--db", db).code == 0
    refused = cli("list", "import", str(good), str(bad), "--db", db)
    assert refused.code == 2
    assert refused.err.strip().count("\n") == 0
    assert "bad\ufffd.pgn" in refused.err
    assert "not UTF-8" in refused.err
    events = cli("list", "events", "--db", db, "--json")
    assert events.code == 0
    assert events.json()["events"] == []  # the good file before it is not kept either


def test_a_fide_list_named_in_other_bytes_is_refused_in_one_line(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "store.db")
    bad = _named_badly(DATA / "fide-list" / "standard_sep26frl.txt", tmp_path, ".txt")
    assert cli("list", "init", "--db", db).code == 0
    refused = cli("list", "import-fide", str(bad), "--db", db)
    assert refused.code == 2
    assert refused.err.strip().count("\n") == 0
    assert "not UTF-8" in refused.err
