"""The shipped estimator: a LightGBM text model and a JSON of its metadata (data, never code)."""

from __future__ import annotations

from pathlib import Path

MODEL_DIR = Path(__file__).parent / "model"
#: Lower bounds of the groups of game counts with their own stretch and interval.
GROUPS: tuple[int, ...] = (1, 2, 3, 5, 8, 12)
#: The scale of every estimate.
SCALE = "Lichess rating (Glicko-2), 2016-17 pool, mostly 10+0 games"
