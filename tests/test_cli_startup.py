"""The command line imports per command: one game loads neither the web, the database, numpy nor chess.

The time it takes is measured in ``benchmarks/cli_startup.py``, not here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("sqlalchemy", "alembic", "numpy", "jinja2", "chess", "fastapi")

PROBE = """
import json, runpy, sys
sys.argv = ["chessrate", *sys.argv[1:]]
runpy.run_module("chessrate", run_name="__main__")
sys.stderr.write(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def loaded_by(*args: str) -> tuple[str, set[str]]:
    """The output of ``chessrate ARGS`` run in a fresh interpreter, and the packages it imported."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout, set(json.loads(done.stderr))


@pytest.mark.parametrize(
    "args",
    [
        ["game", "1500", "1700", "1", "--json"],
        ["game", "1500", "1700", "1"],
        ["tournament", "1500", "1400:1", "1600:½", "--json"],
        ["k-factor", "1900", "--json"],
    ],
    ids=" ".join,
)
def test_an_elo_command_loads_nothing_heavy(args: list[str]) -> None:
    out, loaded = loaded_by(*args)
    assert out.strip()
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_probe_sees_what_a_command_loads() -> None:
    # The analyse command drives the engine through python-chess and the list commands open a
    # database: the probe must see both (else it proves nothing).
    _, loaded = loaded_by("table", "pd", "--json")
    assert "chessrate" in loaded
    _, loaded = loaded_by("analyse", "--help")
    assert "chess" in loaded
    _, loaded = loaded_by("list", "--help")
    assert "sqlalchemy" in loaded
