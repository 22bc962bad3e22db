"""The shipped estimator: a LightGBM text model and a JSON of its metadata (data, never code).

``model/model.txt`` is LightGBM's own text format (trees as numbers), read by
``lightgbm.Booster(model_str=...)``; ``model/model.json`` holds the features, the mean rating of
the training games, and per group of game counts the stretch and the 10th/90th residual
percentiles of cross-validated predictions. ``scripts/fit_strength.py`` writes both.

An estimate from n games of one player is ``mean + stretch_n * (mean of the n predictions - mean)``
with the interval ``[estimate + low_n, estimate + high_n]`` (80%). Averaging predictions of one
game shrinks towards the mean twice over; the stretch, fitted on training players, undoes that.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from chessrate.errors import InvalidInputError

MODEL_DIR = Path(__file__).parent / "model"
#: Lower bounds of the groups of game counts with their own stretch and interval.
GROUPS: tuple[int, ...] = (1, 2, 3, 5, 8, 12)
#: The scale of every estimate.
SCALE = "Lichess rating (Glicko-2), 2016-17 pool, mostly 10+0 games"


@dataclass(frozen=True)
class Estimate:
    """A playing strength with its 80% interval, from ``games`` games, on ``scale``."""

    estimate: float
    low: float
    high: float
    games: int
    scale: str = SCALE

    def rounded(self) -> dict[str, object]:
        return {
            "estimate": round(self.estimate),
            "low": round(self.low),
            "high": round(self.high),
            "games": self.games,
            "scale": self.scale,
        }


class StrengthModel:
    """The fitted model with its metadata."""

    def __init__(self, model_text: str, meta: dict[str, Any]) -> None:
        import lightgbm

        from chessrate.strength.features import FEATURES

        if list(meta.get("features", [])) != list(FEATURES):
            raise InvalidInputError("model", "features", "the model was fitted on other features")
        self.meta = meta
        self.booster = lightgbm.Booster(model_str=model_text)
        self.mean = float(meta["mean_rating"])
        self.groups: list[dict[str, float]] = list(meta["groups"])
        self.depth = int(meta["depth"])

    def predict(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """One prediction per player-game (feature rows in ``FEATURES`` order)."""
        x = np.array(rows, dtype=float).reshape(len(rows), -1)
        return [float(v) for v in self.booster.predict(x, num_threads=1)]

    def group(self, games: int) -> dict[str, float]:
        return max((g for g in self.groups if games >= g["games"]), key=lambda g: g["games"])

    def estimate(self, rows: Sequence[Sequence[float]]) -> Estimate:
        """The estimate from one player's games (one feature row per game)."""
        if not rows:
            raise InvalidInputError(
                "games", 0, "no game of this player to estimate from", code="no-player-games"
            )
        predictions = self.predict(rows)
        g = self.group(len(rows))
        value = self.mean + g["stretch"] * (sum(predictions) / len(predictions) - self.mean)
        if not math.isfinite(value):
            raise InvalidInputError(
                "games", len(rows), "no estimate could be made from these moves", code="no-estimate"
            )
        return Estimate(value, value + g["low"], value + g["high"], len(rows))


@cache
def load_model(directory: Path = MODEL_DIR) -> StrengthModel:
    """The shipped model (read once)."""
    text = (directory / "model.txt").read_text(encoding="utf-8")
    meta = json.loads((directory / "model.json").read_text(encoding="utf-8"))
    return StrengthModel(text, meta)
