"""Every benchmark whose peers the test environment has still runs, on a tiny size.

Nothing here is timed (the figures are the benchmarks' own, in docs/): it only catches a benchmark
that no longer runs against the code, as ``ratinglist_period.py`` once did unseen. ``bulk.py`` and
``fide_list.py`` measure peers of the ``bench`` extra (PyPI ``glicko2``, ``skelo``, ``riix``, pandas),
which the test environment does not install; they are run by hand with it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Each benchmark, its smallest meaningful arguments, and a piece of the table it must print.
RUNS = [
    ("list_scale.py", ["--sizes", "3000"], "| sqlite run |"),
    ("list_scale.py", ["--sizes", "3000", "--months", "2"], "| sqlite run after 1 lists |"),
    # month_scale.py runs in test_the_paired_run_benchmark_runs, which needs its month.
    ("report_scale.py", ["--games", "2000"], "`chessrate report --format json`"),
    ("ratinglist_period.py", ["--games", "2000", "--rules", "fide", "glicko2"], "glicko2"),
    ("pgn_read.py", ["--megabytes", "0.5", "--full-megabytes", "0.05"], "chessrate / read_headers speed"),
    ("cli_startup.py", ["--runs", "3"], "ratio: wall"),
    ("web_latency.py", ["--requests", "5"], "/api/expected-curve"),
    ("analysis_speed.py", ["--games", "2", "--depth", "2"], "Dask LocalCluster"),
    (
        "analysis_load.py",
        ["--seconds", "3", "--posters", "1", "--readers", "2", "--scenarios", "load", "gone"],
        "Engines idle",
    ),
]


@pytest.mark.parametrize(
    ("script", "arguments", "printed"), RUNS, ids=[" ".join([s, *a]) for s, a, _ in RUNS]
)
def test_the_benchmark_runs(script: str, arguments: list[str], printed: str) -> None:
    assert printed in run_benchmark(script, *arguments).stdout


def run_benchmark(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The benchmark run from this checkout's ``src``; it must end well."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_paired_run_benchmark_runs(tmp_path: Path) -> None:
    """``paired_run.py`` needs a month's files (``month_scale.py --keep``) and a checkout to compare
    with: here this one with itself, whose rows it dumps the same on both sides."""
    kept = run_benchmark("month_scale.py", "--sizes", "2000", "--repeat", "1", "--keep")
    folder = Path(kept.stderr.split("kept ", 1)[1].split()[0])
    try:
        dumped = str(tmp_path)
        done = run_benchmark(
            "paired_run.py", str(folder), "--other", str(ROOT), "--repeat", "1", "--dump", dumped
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert "| sqlite folder -> list |" in kept.stdout
    assert "fastest A:" in done.stdout
    assert "fastest B:" in done.stdout
    rows = (tmp_path / "A.txt").read_text(encoding="utf-8")
    assert "list_entries\t" in rows
    assert rows == (tmp_path / "B.txt").read_text(encoding="utf-8")
