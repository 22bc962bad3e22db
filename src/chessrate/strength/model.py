"""The shipped estimator: a LightGBM text model and a JSON of its metadata (data, never code).

``model/model.txt`` is LightGBM's own text format (trees as numbers), read by
``lightgbm.Booster(model_str=...)``: one prediction per player-game on the Lichess scale.
``model/model.json`` holds the opening table (``book``: the ratings of the fit's players per opening
move, ``chessrate.strength.book``) and, per kind of game (``online``: Lichess rapid/blitz; ``otb``:
over-the-board classical on the FIDE scale), how that prediction is read on the kind's scale.
``scripts/fit_strength.py`` writes both; docs/strength.md gives the method and its figures.

Per kind, with p the mean of a player's n one-game scores (for ``otb`` a score is a linear
combination of the prediction and a few features, ``inputs``/``weights``):

- p given a rating r is taken as normal, its middle and spread read off ``knots`` (each knot: the
  median rating of an equal-count bin of the fit's player-games, and the median, 10th and 90th
  percentiles of their scores), the spread of n games' mean narrowed by sqrt(rho + (1 - rho) / n)
  (``rho``: the share of one game's noise that belongs to the player and does not average away);
- ``prior`` is the pool's ratings (a smoothed histogram on a grid of ratings);
- the **estimate** is the median of the rating's posterior (Bayes' rule); the **80% interval** runs
  from the ``tail`` to the 1 - ``tail`` quantile of the posterior with the prior raised to
  ``temper`` (0 <= temper <= 1). Both are fitted on the fit's own out-of-fold scores so that the
  interval holds 80% of the time overall and in every rating band: the full prior pulls every
  interval towards the pool's middle and misses the strongest and weakest players;
- **reach**: the knots span the ratings the kind's fit had evidence for. An end of the interval
  beyond the first or last knot is open (``None``) and ``reach`` says why; features outside the
  range fitted on are named in ``reach`` too.
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
from chessrate.strength.kind import KIND_NAMES

MODEL_DIR = Path(__file__).parent / "model"
#: The scale of the online kind's estimates.
SCALE = "Lichess rating (Glicko-2), 2016-17 pool, mostly 10+0 games"
#: The scale of the over-the-board kind's estimates.
FIDE_SCALE = "FIDE standard rating, over-the-board classical games of 2024-25"


@dataclass(frozen=True)
class Estimate:
    """A playing strength with its 80% interval (an end is None when open), from ``games`` games."""

    estimate: float
    low: float | None
    high: float | None
    games: int
    scale: str = SCALE
    kind: str = "online"
    #: The ratings the kind's fit had evidence for (its first and last knot).
    reach_low: float = 0.0
    reach_high: float = 0.0
    #: Features of these games outside the range the kind's fit saw.
    beyond: tuple[str, ...] = ()

    @property
    def reach(self) -> str:
        """Why an end is open, and which features lay beyond the fit's range; "" when neither."""
        kind = KIND_NAMES[self.kind]
        notes = []
        if self.high is None:
            notes.append(
                f"open above: these moves fit the strongest {kind} players the model was fitted on "
                f"(about {round(self.reach_high)} and above), so it cannot tell how much stronger"
            )
        if self.low is None:
            notes.append(
                f"open below: these moves fit the weakest {kind} players the model was fitted on "
                f"(about {round(self.reach_low)} and below), so it cannot tell how much weaker"
            )
        if self.beyond:
            notes.append(f"beyond the range of the {kind} games fitted on: {', '.join(self.beyond)}")
        return "; ".join(notes)

    def rounded(self) -> dict[str, object]:
        return {
            "estimate": round(self.estimate),
            "low": None if self.low is None else round(self.low),
            "high": None if self.high is None else round(self.high),
            "games": self.games,
            "scale": self.scale,
            "kind": self.kind,
            "reach": self.reach or None,
        }


#: z of the 10th and 90th percentiles of a normal distribution (one game's band is read as normal).
Z80 = 1.2815515655446004


@dataclass(frozen=True)
class Calibration:
    """How one kind's scores are read as ratings (see the module's docstring)."""

    kind: str
    scale: str
    inputs: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    fill: tuple[float, ...]
    rho: float
    temper: float
    tail: float
    ratings: np.ndarray
    middle: np.ndarray
    low: np.ndarray
    high: np.ndarray
    grid: np.ndarray
    prior: np.ndarray
    feature_ranges: dict[str, tuple[float, float]]

    @classmethod
    def from_json(cls, kind: str, data: dict[str, Any]) -> Calibration:
        knots, prior = data["knots"], data["prior"]
        density = np.array(prior["density"], dtype=float)
        return cls(
            kind=kind,
            scale=str(data["scale"]),
            inputs=tuple(data["inputs"]),
            weights=tuple(float(w) for w in data["weights"]),
            intercept=float(data["intercept"]),
            fill=tuple(float(v) for v in data["fill"]),
            rho=float(data["rho"]),
            temper=float(data["temper"]),
            tail=float(data["tail"]),
            ratings=np.array(knots["rating"], dtype=float),
            middle=np.array(knots["middle"], dtype=float),
            low=np.array(knots["low"], dtype=float),
            high=np.array(knots["high"], dtype=float),
            grid=float(prior["start"]) + float(prior["step"]) * np.arange(len(density)),
            prior=density,
            feature_ranges={k: (float(v[0]), float(v[1])) for k, v in data["feature_ranges"].items()},
        )

    def score(self, prediction: float, features: dict[str, float]) -> float:
        """One game's score: the prediction (``inputs`` = ("prediction",)) or a linear mix with features."""
        total = self.intercept
        for name, weight, fill in zip(self.inputs, self.weights, self.fill, strict=True):
            value = prediction if name == "prediction" else features[name]
            total += weight * (fill if math.isnan(value) else value)
        return total

    def noise(self, games: int) -> float:
        """The spread of a mean of ``games`` scores around the middle, as a share of one game's."""
        return math.sqrt(self.rho + (1.0 - self.rho) / games)

    def posterior(self, scores: np.ndarray, games: int, temper: float) -> np.ndarray:
        """Per mean score of ``games`` games (one row each): the rating's distribution on ``grid``,
        the pool's prior raised to ``temper`` (1: Bayes' rule; 0: the likelihood alone)."""
        middle = np.interp(self.grid, self.ratings, self.middle)
        spread = np.interp(self.grid, self.ratings, (self.high - self.low) / (2 * Z80)) * self.noise(games)
        log = -0.5 * ((scores[:, None] - middle) / spread) ** 2 - np.log(spread)
        with np.errstate(divide="ignore"):
            log = log + temper * np.log(self.prior)
        weights = np.exp(log - np.max(log, axis=1, keepdims=True))
        return np.asarray(weights / weights.sum(axis=1, keepdims=True))

    def quantile(self, weights: np.ndarray, q: float) -> np.ndarray:
        """Per row, the first rating of the grid where the distribution reaches ``q``."""
        index = (np.cumsum(weights, axis=1) < q).sum(axis=1)
        return np.asarray(self.grid[np.minimum(index, len(self.grid) - 1)])

    def ends(self, tempered: np.ndarray, tail: float) -> tuple[np.ndarray, np.ndarray]:
        """The ``tail`` and 1 - ``tail`` quantiles of tempered posteriors (one row each), an end beyond
        the first or last knot NaN (open)."""
        low, high = self.quantile(tempered, tail), self.quantile(tempered, 1 - tail)
        return (
            np.where(low < self.ratings[0], np.nan, low),
            np.where(high > self.ratings[-1], np.nan, high),
        )

    def intervals(self, scores: np.ndarray, games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(estimates, lows, highs) for mean scores of ``games`` games: the posterior's median, and the
        tempered posterior's ``tail`` and 1 - ``tail`` quantiles; an end beyond the first or last knot
        (no evidence there) is NaN (open), and the estimate is kept within the closed ends. Several
        games' interval lies within one game's of the same score (where the knots' spread changes
        with the rating, the quantiles alone could move an end outwards)."""
        value = self.quantile(self.posterior(scores, games, 1.0), 0.5)
        low, high = self.ends(self.posterior(scores, games, self.temper), self.tail)
        if games > 1:  # more games of the same mean score never widen one game's interval
            _, one_low, one_high = self.intervals(scores, 1)
            low, high = np.fmax(low, one_low), np.fmin(high, one_high)
        value = np.fmin(np.fmax(value, low), high)  # fmax/fmin ignore NaN
        return value, low, high

    def estimate(self, score: float, games: int) -> tuple[float, float | None, float | None]:
        """One mean score's (estimate, low, high), an open end as None (see ``intervals``)."""
        values, lows, highs = self.intervals(np.array([score]), games)
        low, high = float(lows[0]), float(highs[0])
        return float(values[0]), None if math.isnan(low) else low, None if math.isnan(high) else high

    def beyond(self, rows: Sequence[dict[str, float]]) -> list[str]:
        """The features of these games outside the range the kind's fit saw."""
        names = []
        for name, (low, high) in self.feature_ranges.items():
            values = [row[name] for row in rows if not math.isnan(row[name])]
            if any(v < low or v > high for v in values):
                names.append(name)
        return names


class StrengthModel:
    """The fitted model with its metadata."""

    def __init__(self, model_text: str, meta: dict[str, Any]) -> None:
        import lightgbm

        from chessrate.strength.book import Book
        from chessrate.strength.features import FEATURES

        if list(meta.get("features", [])) != list(FEATURES):
            raise InvalidInputError("model", "features", "the model was fitted on other features")
        self.meta = meta
        self.booster = lightgbm.Booster(model_str=model_text)
        self.depth = int(meta["depth"])
        #: The opening table of the online fit (``chessrate.strength.book``).
        self.book = Book.from_json(meta["book"])
        self.kinds = {kind: Calibration.from_json(kind, data) for kind, data in meta["kinds"].items()}

    def predict(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """One prediction per player-game on the Lichess scale (feature rows in ``FEATURES`` order)."""
        x = np.array(rows, dtype=float).reshape(len(rows), -1)
        return [float(v) for v in self.booster.predict(x, num_threads=1)]

    def estimate(self, rows: Sequence[Sequence[float]], kind: str = "online") -> Estimate:
        """The estimate from one player's games (one feature row per game) for the kind of game."""
        from chessrate.strength.features import FEATURES

        if not rows:
            raise InvalidInputError(
                "games", 0, "no game of this player to estimate from", code="no-player-games"
            )
        if kind not in self.kinds:
            raise InvalidInputError("kind", kind, f"must be one of {', '.join(self.kinds)}")
        calibration = self.kinds[kind]
        named = [dict(zip(FEATURES, row, strict=True)) for row in rows]
        scores = [calibration.score(p, f) for p, f in zip(self.predict(rows), named, strict=True)]
        score = sum(scores) / len(scores)
        n = len(rows)
        if not math.isfinite(score):
            raise InvalidInputError(
                "games", n, "no estimate could be made from these moves", code="no-estimate"
            )
        value, low, high = calibration.estimate(score, n)
        return Estimate(
            value,
            low,
            high,
            n,
            calibration.scale,
            kind,
            float(calibration.ratings[0]),
            float(calibration.ratings[-1]),
            tuple(calibration.beyond(named)),
        )


@cache
def load_model(directory: Path = MODEL_DIR) -> StrengthModel:
    """The shipped model (read once)."""
    text = (directory / "model.txt").read_text(encoding="utf-8")
    meta = json.loads((directory / "model.json").read_text(encoding="utf-8"))
    return StrengthModel(text, meta)
