"""scripts/fit_strength.py rewrites the shipped model byte for byte from the data in the repository.

No Stockfish: the evaluations are data/lichess-calibration/evals.npz. The over-the-board kind is
fitted on games that are not in the repository; a refit without them keeps the shipped figures.
Marked slow (a few minutes on a busy 2-core machine): ``-m "not slow"`` leaves it out.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chessrate.strength.model import MODEL_DIR

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_fit_rewrites_the_shipped_model_byte_for_byte(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "fit_strength.py"), "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    for name in ("model.txt", "model.json"):
        assert (tmp_path / name).read_bytes() == (MODEL_DIR / name).read_bytes(), name
