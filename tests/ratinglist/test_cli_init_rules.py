"""`list init --rules` refuses a rule set it cannot use, before the store is made or changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("rules", "said"),
    [
        ("bogus", "unknown rule set 'bogus'"),
        ("missing-club.toml", "cannot read rule set file 'missing-club.toml'"),
    ],
)
def test_an_unusable_rule_set_is_refused_and_nothing_is_written(
    cli: Any, tmp_path: Path, rules: str, said: str
) -> None:
    db = tmp_path / "club.db"
    run = cli("list", "init", "--db", str(db), "--rules", rules)
    assert run.code == 2
    assert said in run.err
    assert not db.exists()
    # An existing store keeps its rules.
    assert cli("list", "init", "--db", str(db), "--rules", "ciabe").code == 0
    assert cli("list", "init", "--db", str(db), "--rules", rules).code == 2
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT value FROM meta WHERE key = 'rules'").fetchone() == ("ciabe",)


@pytest.mark.parametrize("rules", ["fide", "elo", "ciabe", "glicko2"])
def test_the_known_rule_sets_are_taken(cli: Any, tmp_path: Path, rules: str) -> None:
    assert cli("list", "init", "--db", str(tmp_path / "club.db"), "--rules", rules).code == 0
