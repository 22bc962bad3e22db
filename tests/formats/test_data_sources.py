"""The real files of tests/data are byte for byte those listed in tests/data/SOURCES.md."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

DATA = Path(__file__).parents[1] / "data"


def test_every_file_matches_its_sha256() -> None:
    rows = re.findall(r"^\| (\S+) \|.*\| ([0-9a-f]{64}) \|$", (DATA / "SOURCES.md").read_text(), re.M)
    assert len(rows) == 10
    listed = {name for name, _ in rows}
    present = {str(p.relative_to(DATA)) for p in DATA.glob("*/*") if p.suffix in (".trf", ".pgn")}
    assert listed == present
    for name, digest in rows:
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, name
