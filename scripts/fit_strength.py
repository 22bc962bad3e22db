"""Fit the strength estimator and write the shipped model (src/chessrate/strength/model/).

Without Stockfish: the Lichess games' evaluations are data/lichess-calibration/evals.npz (made once
by scripts/analyse_strength.py; provenance in data/lichess-calibration/README.md).

1. Games: every game of calibration.csv that evals.npz holds. Features per player-game
   (``chessrate.strength.features``; never the ratings).
2. Split by player: a player is held out when the first byte of sha256("chessrate-strength-held:" +
   name) is below ``HELD_OUT_BELOW`` (about 20%). The fit sees only games whose two players are both
   in training; a held-out player has no game in the fit. Held-out figures: every player-game of a
   held-out player.
3. LightGBM regression (L2) of the Lichess rating on the features, fixed parameters, one thread,
   deterministic. Out-of-fold predictions on the training player-games (5 folds by player) feed the
   calibration of the ``online`` kind (``chessrate.strength.fitting``).
4. ``--otb PGN --otb-cache SQLITE``: the over-the-board classical kind, fitted on FIDE-rated games
   analysed by scripts/analyse_strength.py (the games are not in the repository): a ridge score of
   the prediction and a few features, then the same calibration; cross-validated by event. Without
   ``--otb``, the shipped model's ``otb`` section is kept as it is (it depends on the LightGBM
   model, which this script rewrites identically; it says so).
5. ``--check PGN`` (with its games in ``--otb-cache``): each player's estimate from all games, beside
   the rating in the file (read only here, for the check).

Run from the repository root: ``python scripts/fit_strength.py`` (a few minutes on one core).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import lightgbm as lgb
import numpy as np

from chessrate.analysis import read_games_file
from chessrate.analysis.cache import EvaluationCache
from chessrate.analysis.games import game_keys
from chessrate.strength.book import BOOK_FEATURES, Book, Ply, opening_plies
from chessrate.strength.calibration import (
    engine_analysis,
    evals_engine,
    read_evals,
    read_rows,
    row_analysis,
)
from chessrate.strength.features import FEATURES, MOVE_FEATURES, game_features, time_control
from chessrate.strength.fitting import (
    OTB_BAND_COVERAGE,
    OTB_COVERAGE,
    choose_temper,
    feature_ranges,
    fit_calibration,
    ridge,
)
from chessrate.strength.kind import game_kind
from chessrate.strength.model import FIDE_SCALE, MODEL_DIR, SCALE, Calibration

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "lichess-calibration"
HELD_OUT_BELOW = 52
FOLDS = 5
#: LightGBM parameters: issue 16's, but the loss, chosen by out-of-fold MAE on the training folds
#: alone (no held-out figure): L2 169.2, L1 171.1, Huber 170.4; docs/strength.md "Ablation".
PARAMS: dict[str, object] = {
    "objective": "regression",
    "learning_rate": 0.03,
    "num_leaves": 15,
    "min_data_in_leaf": 40,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 1.0,
    "random_state": 7,
    "deterministic": True,
    "num_threads": 1,
    "verbose": -1,
}
ROUNDS = 600
#: The over-the-board score: the prediction and these features, by ridge regression; its penalty is
#: the one of ``OTB_PENALTIES`` with the least MAE by event cross-validation inside the fit's games.
OTB_INPUTS = ("prediction", *FEATURES)
OTB_PENALTIES = (1.0, 10.0, 100.0, 1000.0, 10000.0)
#: Groups of game counts reported (lower bounds), and the rating bands.
COUNT_GROUPS = ((1, 1), (2, 4), (5, 9), (10, 10**9))
LICHESS_BANDS = ((0, 1200), (1200, 1600), (1600, 2000), (2000, 4000))
FIDE_BANDS = tuple((low, low + 200) for low in range(1400, 2800, 200))
#: Time-control groups by estimated duration, base + 40 x increment seconds (lila's ``Speed``).
SPEEDS = ((0, 180, "bullet"), (180, 480, "blitz"), (480, 1500, "rapid"), (1500, 10**9, "classical"))
#: Losses the ablation also tries in place of ``PARAMS``'s (all features): how the loss was chosen.
LOSSES: dict[str, dict[str, object]] = {
    "L1 loss": {"objective": "regression_l1"},
    "Huber loss (150 points)": {"objective": "huber", "alpha": 150.0},
}
#: Feature groups of the ablation.
GROUPS: dict[str, tuple[str, ...]] = {
    "time control": ("clock_base", "clock_increment"),
    "length and ending": ("moves", "score", "mate", "final_eval"),
    "opponent's play": tuple(f"opponent_{name}" for name in MOVE_FEATURES),
    "losses by phase": tuple(
        f"{who}{phase}_{measure}"
        for who in ("", "opponent_")
        for phase in ("middlegame", "endgame")
        for measure in ("acpl", "win_drop", "blunder_rate")
    )
    + tuple(
        f"{who}{name}" for who in ("", "opponent_") for name in ("opening_win_drop", "opening_error_rate")
    ),
    "spread of the losses": tuple(
        f"{who}{name}"
        for who in ("", "opponent_")
        for name in ("cp_loss_p75", "cp_loss_p90", "win_drop_std", "first_error_move", "first_error_share")
    ),
    "style of the moves": tuple(
        f"{who}{name}"
        for who in ("", "opponent_")
        for name in (
            "castling_move",
            "castled",
            "opening_queen_share",
            "opening_pawn_share",
            "opening_piece_kinds",
            "early_king_move",
            "queen_move_share",
            "check_share",
            "capture_share",
        )
    ),
    "opening table": tuple(f"{who}{name}" for who in ("", "opponent_") for name in BOOK_FEATURES),
    "course of the game": tuple(
        f"{who}{name}"
        for who in ("", "opponent_")
        for name in ("mean_abs_eval", "max_eval", "min_eval", "endgame_share")
    ),
}


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def held_out(player: str) -> bool:
    return digest("chessrate-strength-held:" + player)[0] < HELD_OUT_BELOW


def player_fold(player: str) -> int:
    return digest("chessrate-strength-held:" + player)[1] % FOLDS


@dataclass
class PlayerGame:
    game: str
    player: str
    rating: float
    features: list[float]
    group: str  # the player's fold (Lichess) or the event (over the board)
    speed: str = ""
    white: bool = True
    opening: tuple[Ply, ...] = ()


def set_book(items: Sequence[PlayerGame], book: Book) -> None:
    """Write the opening table's features (the player's and the opponent's) into each player-game."""
    for p in items:
        for prefix, colour in (("", p.white), ("opponent_", not p.white)):
            for name, value in book.features(p.opening, white=colour).items():
                p.features[FEATURES.index(prefix + name)] = value


def fit_book(items: Sequence[PlayerGame]) -> Book:
    return Book.fit((p.opening, p.white, p.rating) for p in items)


def book_out_of_fold(training: Sequence[PlayerGame]) -> None:
    """Each training player-game's table features from a table of the other folds' players (no
    player's own rating in its features)."""
    for k in range(FOLDS):
        set_book(
            [p for p in training if p.group == str(k)], fit_book([p for p in training if p.group != str(k)])
        )


def speed(tag: str | None) -> str:
    base, increment = time_control(tag)
    seconds = base + 40 * increment
    return next((name for low, high, name in SPEEDS if low <= seconds < high), "unknown")


def lichess_player_games() -> list[PlayerGame]:
    evals = read_evals(DATA / "evals.npz")
    out = []
    known: dict[str, str] = {}  # opening positions' keys, shared by the games (``opening_plies``)
    for row in read_rows(DATA / "calibration.csv"):
        if row["id"] not in evals:
            continue
        scores, best = evals[row["id"]]
        analysis = row_analysis(row, scores, best)
        opening = opening_plies(analysis, known)
        for white, features in zip((chess.WHITE, chess.BLACK), game_features(analysis), strict=True):
            player = row["white_id" if white else "black_id"]
            out.append(
                PlayerGame(
                    game=row["id"],
                    player=player,
                    rating=float(row["white_rating" if white else "black_rating"]),
                    features=[features[name] for name in FEATURES],
                    group=str(player_fold(player)),
                    speed=speed(analysis.headers["TimeControl"]),
                    white=white,
                    opening=opening,
                )
            )
    return out


def event_of(game: chess.pgn.Game) -> str:
    """The event without its round ("Cesme op-A 11th Izmir (4)" -> "Cesme op-A 11th Izmir")."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", game.headers.get("Event", "?"))


def pgn_player_games(path: str, cache: str, engine: str, setting: str) -> list[PlayerGame]:
    """Player-games of a PGN whose positions are all in the cache; the ratings from the file's tags."""
    games = read_games_file(path)
    out = []
    known: dict[str, str] = {}
    with EvaluationCache(cache, engine=engine, setting=setting) as store:
        for number, game in enumerate(games, start=1):
            keys = game_keys(game)[0]
            found = store.get_many(keys)
            if len(found) < len(set(keys)):
                raise SystemExit(f"{path}: game {number} is not analysed in {cache}")
            scores = [found[k].score for k in keys]
            bests = [found[k].best for k in keys]
            analysis = engine_analysis(game, scores, bests)
            opening = opening_plies(analysis, known)
            for white, features in zip((chess.WHITE, chess.BLACK), game_features(analysis), strict=True):
                out.append(
                    PlayerGame(
                        game=f"{path}#{number}",
                        player=game.headers["White" if white else "Black"],
                        rating=float(game.headers["WhiteElo" if white else "BlackElo"]),
                        features=[features[name] for name in FEATURES],
                        group=event_of(game),
                        speed=game_kind(game.headers),
                        white=white,
                        opening=opening,
                    )
                )
    return out


def matrix(items: Sequence[PlayerGame], keep: Sequence[str] = FEATURES) -> np.ndarray:
    columns = [FEATURES.index(name) for name in keep]
    return np.array([p.features for p in items], dtype=float).reshape(len(items), len(FEATURES))[:, columns]


def train(
    items: Sequence[PlayerGame], keep: Sequence[str] = FEATURES, params: dict[str, object] = PARAMS
) -> lgb.Booster:
    y = np.array([p.rating for p in items], dtype=float)
    data = lgb.Dataset(matrix(items, keep), y, feature_name=list(keep), free_raw_data=False)
    return lgb.train(params, data, ROUNDS)


def predict(model: lgb.Booster, items: Sequence[PlayerGame], keep: Sequence[str] = FEATURES) -> np.ndarray:
    return np.asarray(model.predict(matrix(items, keep), num_threads=1))


def out_of_fold(
    items: Sequence[PlayerGame], keep: Sequence[str] = FEATURES, params: dict[str, object] = PARAMS
) -> np.ndarray:
    oof = np.zeros(len(items))
    for k in range(FOLDS):
        inside = [p for p in items if p.group != str(k)]
        outside = [i for i, p in enumerate(items) if p.group == str(k)]
        oof[outside] = predict(train(inside, keep, params), [items[i] for i in outside], keep)
    return oof


def model_text(model: lgb.Booster) -> str:
    """LightGBM's text model without its "parameters:" block (model.json records the parameters)."""
    text = model.model_to_string(num_iteration=-1)
    start = text.index("parameters:\n")
    end = text.index("end of parameters\n") + len("end of parameters\n")
    return text[:start] + text[end:]


# --- estimates and their figures ---------------------------------------------------------------------


@dataclass
class Outcome:
    rating: float
    estimate: float
    low: float | None
    high: float | None
    games: int
    band_of: float  # the rating that sorts it into a band
    speed: str = ""

    @property
    def covered(self) -> bool:
        return (self.low is None or self.low <= self.rating) and (
            self.high is None or self.rating <= self.high
        )

    @property
    def closed(self) -> bool:
        return self.low is not None and self.high is not None


def estimate(calibration: Calibration, scores: Sequence[float], rating: float, speed: str = "") -> Outcome:
    value, low, high = calibration.estimate(float(np.mean(scores)), len(scores))
    return Outcome(rating, value, low, high, len(scores), rating, speed)


def estimates(
    calibration: Calibration,
    scores: Sequence[Sequence[float]],
    ratings: Sequence[float],
    speeds: Sequence[str] | None = None,
) -> list[Outcome]:
    """``estimate`` of many (scores, rating) at once: ``Calibration.intervals`` once per number of games."""
    speeds = speeds or [""] * len(scores)
    rows: dict[int, list[int]] = defaultdict(list)
    for i, games in enumerate(scores):
        rows[len(games)].append(i)
    outcomes: list[Outcome | None] = [None] * len(scores)
    for games, indices in rows.items():
        means = np.array([float(np.mean(scores[i])) for i in indices])
        values, lows, highs = calibration.intervals(means, games)
        for i, value, low, high in zip(indices, values.tolist(), lows.tolist(), highs.tolist(), strict=True):
            outcomes[i] = Outcome(
                ratings[i],
                value,
                None if math.isnan(low) else low,
                None if math.isnan(high) else high,
                games,
                ratings[i],
                speeds[i],
            )
    return [o for o in outcomes if o is not None]


def summary(outcomes: Sequence[Outcome], baseline: float) -> dict[str, Any]:
    if not outcomes:
        return {"n": 0}
    closed = [o for o in outcomes if o.closed]
    return {
        "n": len(outcomes),
        "mae": round(statistics.mean(abs(o.rating - o.estimate) for o in outcomes), 1),
        "baseline_mae": round(statistics.mean(abs(o.rating - baseline) for o in outcomes), 1),
        "coverage": round(statistics.mean(o.covered for o in outcomes), 3),
        "open": round(1 - len(closed) / len(outcomes), 3),
        "closed_mae": round(statistics.mean(abs(o.rating - o.estimate) for o in closed), 1)
        if closed
        else None,
        "closed_baseline_mae": round(statistics.mean(abs(o.rating - baseline) for o in closed), 1)
        if closed
        else None,
        "median_width": round(statistics.median(o.high - o.low for o in closed), 1)  # type: ignore[operator]
        if closed
        else None,
    }


def breakdown(
    outcomes: Sequence[Outcome], baseline: float, bands: Sequence[tuple[int, int]]
) -> dict[str, Any]:
    return {
        "all": summary(outcomes, baseline),
        "by_band": {
            f"{low}-{high - 1}": summary([o for o in outcomes if low <= o.band_of < high], baseline)
            for low, high in bands
        },
    }


def player_sets(
    items: Sequence[PlayerGame], scores: np.ndarray
) -> dict[str, tuple[list[float], float, list[str]]]:
    """Per player: the scores of all the player's games, the mean rating, the speeds."""
    by: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(items):
        by[p.player].append(i)
    return {
        player: (
            [float(scores[i]) for i in indices],
            statistics.mean(items[i].rating for i in indices),
            [items[i].speed for i in indices],
        )
        for player, indices in by.items()
    }


# --- the two kinds -------------------------------------------------------------------------------------


def online_section(training: Sequence[PlayerGame], oof: np.ndarray) -> tuple[dict[str, Any], Any]:
    ratings = np.array([p.rating for p in training])
    section: dict[str, Any] = {
        "scale": SCALE,
        "inputs": ["prediction"],
        "weights": [1.0],
        "intercept": 0.0,
        "fill": [0.0],
    }
    section |= fit_calibration(oof, ratings, [p.player for p in training])
    section["feature_ranges"] = feature_ranges(matrix(training), FEATURES)
    section["temper"], section["tail"], tried = choose_temper(section, oof, ratings, LICHESS_BANDS)
    return section, tried


def otb_scores(items: Sequence[PlayerGame], predictions: np.ndarray, fill: Sequence[float]) -> np.ndarray:
    columns = [predictions if name == "prediction" else matrix(items, [name])[:, 0] for name in OTB_INPUTS]
    x = np.column_stack(columns)
    for j, value in enumerate(fill):
        x[np.isnan(x[:, j]), j] = value
    return x


def event_folds(items: Sequence[PlayerGame], folds: int = FOLDS) -> list[int]:
    """Each player-game's fold by its event (every game of an event in one fold)."""
    return [digest("chessrate-strength-event:" + p.group)[0] % folds for p in items]


def ridge_scores(x: np.ndarray, ratings: np.ndarray, penalty: float, folds: Sequence[int]) -> np.ndarray:
    """Out-of-fold ridge scores, each fold fitted on the others."""
    out = np.zeros(len(ratings))
    fold = np.array(folds)
    for k in sorted(set(folds)):
        weights, intercept = ridge(x[fold != k], ratings[fold != k], penalty)
        out[fold == k] = x[fold == k] @ weights + intercept
    return out


def otb_fit(items: Sequence[PlayerGame], predictions: np.ndarray) -> tuple[dict[str, Any], Any]:
    """The ``otb`` section from player-games with their LightGBM predictions, and ``choose_temper``'s
    table. A feature missing in a game takes its mean (0 when no game has it).

    Inside these games, by event cross-validation: the ridge penalty (least MAE of ``OTB_PENALTIES``),
    then out-of-fold scores, on which the knots, rho, ``temper`` and ``tail`` are fitted, so that the
    interval is as wide as the score's error on events the ridge did not see."""
    raw = otb_scores(items, predictions, [math.nan] * len(OTB_INPUTS))
    present = ~np.isnan(raw)
    fill = [float(raw[present[:, j], j].mean()) if present[:, j].any() else 0.0 for j in range(raw.shape[1])]
    x = otb_scores(items, predictions, fill)
    ratings = np.array([p.rating for p in items])
    folds = event_folds(items)
    errors = {
        penalty: float(np.mean(np.abs(ridge_scores(x, ratings, penalty, folds) - ratings)))
        for penalty in OTB_PENALTIES
    }
    penalty = min(OTB_PENALTIES, key=lambda value: errors[value])
    weights, intercept = ridge(x, ratings, penalty)
    section: dict[str, Any] = {
        "scale": FIDE_SCALE,
        "inputs": list(OTB_INPUTS),
        "weights": [round(float(w), 8) for w in weights],
        "intercept": round(intercept, 6),
        "fill": [round(v, 6) for v in fill],
        "penalty": penalty,
    }
    scores = ridge_scores(x, ratings, penalty, folds)
    section |= fit_calibration(scores, ratings, [p.player for p in items])
    section["feature_ranges"] = feature_ranges(matrix(items), FEATURES)
    section["temper"], section["tail"], tried = choose_temper(
        section, scores, ratings, FIDE_BANDS, OTB_BAND_COVERAGE, OTB_COVERAGE
    )
    return section, tried


def otb_scores_of(
    section: dict[str, Any], items: Sequence[PlayerGame], predictions: np.ndarray
) -> np.ndarray:
    x = otb_scores(items, predictions, section["fill"])
    return np.asarray(x @ np.array(section["weights"]) + section["intercept"])


def otb_cross_validation(
    items: Sequence[PlayerGame], predictions: np.ndarray, folds: int = FOLDS
) -> list[Outcome]:
    """By event: every game of an event in one fold; each player-game estimated from that game alone."""
    fold = event_folds(items, folds)
    outcomes: list[Outcome] = []
    for k in range(folds):
        inside = [i for i, p in enumerate(items) if fold[i] != k]
        outside = [i for i, p in enumerate(items) if fold[i] == k]
        section, _ = otb_fit([items[i] for i in inside], predictions[inside])
        calibration = Calibration.from_json("otb", section)
        scores = otb_scores_of(section, [items[i] for i in outside], predictions[outside])
        outcomes += [
            estimate(calibration, [s], items[i].rating) for s, i in zip(scores, outside, strict=True)
        ]
    return outcomes


# --- the report ------------------------------------------------------------------------------------------


def count_group(low: int, high: int) -> str:
    return f"{low}-{high}" if high < 10**9 else f"{low}+"


def player_outcomes(
    calibration: Calibration, items: Sequence[PlayerGame], scores: np.ndarray
) -> list[Outcome]:
    """Each player's estimate from all the player's games, against the mean of the games' ratings."""
    sets = list(player_sets(items, scores).values())
    return estimates(calibration, [s for s, _, _ in sets], [r for _, r, _ in sets])


def by_games(players: Sequence[Outcome], baseline: float) -> dict[str, Any]:
    return {
        count_group(low, high): summary([o for o in players if low <= o.games <= high], baseline)
        for low, high in COUNT_GROUPS
    }


def rating_spans(items: Sequence[PlayerGame]) -> dict[str, tuple[int, float]]:
    """Per player: (games, highest minus lowest rating over the games), how far the target moved."""
    ratings: dict[str, list[float]] = defaultdict(list)
    for p in items:
        ratings[p.player].append(p.rating)
    return {player: (len(r), max(r) - min(r)) for player, r in ratings.items()}


def lichess_report(
    calibration: Calibration, testing: Sequence[PlayerGame], held: np.ndarray, baseline: float
) -> dict[str, Any]:
    singles = estimates(
        calibration, [[float(s)] for s in held], [p.rating for p in testing], [p.speed for p in testing]
    )
    report: dict[str, Any] = {"one_game": breakdown(singles, baseline, LICHESS_BANDS)}
    report["one_game"]["by_speed"] = {
        name: summary([o for o in singles if o.speed == name], baseline) for *_, name in SPEEDS
    }
    players = player_outcomes(calibration, testing, held)
    report["players_by_games"] = by_games(players, baseline)
    spans = rating_spans(testing)
    report["rating_span_by_games"] = {
        count_group(low, high): round(
            statistics.median(span for games, span in spans.values() if low <= games <= high)
        )
        for low, high in COUNT_GROUPS
    }
    report["players_by_games_and_band"] = {
        f"{low}+": breakdown([o for o in players if o.games >= low], baseline, LICHESS_BANDS)["by_band"]
        for low, _ in COUNT_GROUPS[2:]
    }
    return report


def ablation(training: Sequence[PlayerGame], baseline_oof: np.ndarray) -> dict[str, Any]:
    ratings = np.array([p.rating for p in training])
    rows = {"all features": round(float(np.mean(np.abs(ratings - baseline_oof))), 1)}
    for name, group in GROUPS.items():
        keep = [f for f in FEATURES if f not in group]
        oof = out_of_fold(training, keep)
        rows[f"without {name}"] = round(float(np.mean(np.abs(ratings - oof))), 1)
        print(f"  ablation: without {name}: {rows[f'without {name}']}", file=sys.stderr, flush=True)
    for name, change in LOSSES.items():
        oof = out_of_fold(training, params=PARAMS | change)
        rows[f"all features, {name}"] = round(float(np.mean(np.abs(ratings - oof))), 1)
        print(f"  ablation: {name}: {rows[f'all features, {name}']}", file=sys.stderr, flush=True)
    return rows


def _cells(row: dict[str, Any]) -> str:
    if not row.get("n"):
        return "0 | – | – | – | – | –"
    width = "–" if row["median_width"] is None else f"{row['median_width']:.0f}"
    closed = (
        "–" if row["closed_mae"] is None else f"{row['closed_mae']:.1f} ({row['closed_baseline_mae']:.1f})"
    )
    return (
        f"{row['n']:,} | {row['mae']:.1f} ({row['baseline_mae']:.1f}) | {row['coverage']:.1%} | "
        f"{row['open']:.1%} | {closed} | {width}"
    )


HEADER = (
    "| {} | player-games | MAE (constant guess) | coverage | open | MAE where closed (guess) "
    "| median closed width |\n"
    "|---|---:|---:|---:|---:|---:|---:|"
)


def markdown(report: dict[str, Any]) -> str:
    """The report's tables as docs/strength.md shows them."""
    held = report["held_out"]
    lines = [HEADER.format("held-out Lichess, one game"), f"| all | {_cells(held['one_game']['all'])} |"]
    lines += [f"| {band} | {_cells(row)} |" for band, row in held["one_game"]["by_band"].items()]
    lines += [f"| {speed} | {_cells(row)} |" for speed, row in held["one_game"]["by_speed"].items()]
    lines += ["", HEADER.format("held-out players, all their games").replace("player-games", "players")]
    lines += [f"| {count} games | {_cells(row)} |" for count, row in held["players_by_games"].items()]
    for count, bands in held["players_by_games_and_band"].items():
        lines += [f"| {count} games, {band} | {_cells(row)} |" for band, row in bands.items()]
    lines += [
        "",
        "| players by games | held-out: median rating span of a player's games | training players, out of "
        "fold: players | MAE | coverage |",
        "|---|---:|---:|---:|---:|",
    ]
    for count, row in report["training_players_by_games"].items():
        span = held["rating_span_by_games"][count]
        lines.append(f"| {count} games | {span} | {row['n']:,} | {row['mae']:.1f} | {row['coverage']:.1%} |")
    otb = report.get("otb_cross_validation")
    if otb:
        lines += ["", HEADER.format("over the board, by event, one game"), f"| all | {_cells(otb['all'])} |"]
        lines += [f"| {band} | {_cells(row)} |" for band, row in otb["by_band"].items()]
    ablation = report.get("ablation_oof_mae")
    if ablation:
        lines += ["", "| features | out-of-fold MAE, one game |", "|---|---:|"]
        lines += [f"| {name} | {mae:.1f} |" for name, mae in ablation.items()]
    for name, rows in report.get("checks", {}).items():
        lines += [
            "",
            f"| {name}: player | FIDE | games | estimate | 80% interval | holds |",
            "|---|---:|---:|---:|---|---|",
        ]
        for r in rows:
            low = "…" if r["low"] is None else r["low"]
            high = "…" if r["high"] is None else r["high"]
            lines.append(
                f"| {r['player']} | {r['rating']:.0f} | {r['games']} | {r['estimate']} | {low} – {high} | "
                f"{'yes' if r['covered'] else 'no'} |"
            )
    return "\n".join(lines)


def timed(label: str, work: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    result = work()
    print(f"{label}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--otb", help="over-the-board classical PGN with FIDE ratings (fit the otb kind)")
    parser.add_argument(
        "--otb-cache", help="the SQLite cache of scripts/analyse_strength.py for --otb/--check"
    )
    parser.add_argument("--check", action="append", default=[], help="a PGN to check estimates on")
    parser.add_argument("--ablation", action="store_true", help="also the feature ablation (slower)")
    parser.add_argument("--out", default=str(MODEL_DIR), help="where to write model.txt and model.json")
    parser.add_argument("--no-write", action="store_true", help="report only")
    parser.add_argument("--markdown", action="store_true", help="print the report's tables as Markdown")
    args = parser.parse_args()
    engine, setting = evals_engine(DATA / "evals.npz")

    items = timed("features of the Lichess games", lichess_player_games)
    games_in = {p.game for p in items}
    testing = [p for p in items if held_out(p.player)]
    held_games = {p.game for p in testing}
    training = [p for p in items if p.game not in held_games]
    print(
        f"{len(games_in)} games; training {len(training)} player-games, held out {len(testing)}",
        file=sys.stderr,
    )
    book = fit_book(training)
    book_out_of_fold(training)
    set_book(testing, book)
    oof = timed("out-of-fold predictions", lambda: out_of_fold(training))
    model = timed("the model", lambda: train(training))
    held = predict(model, testing)
    online, online_tried = online_section(training, oof)
    baseline = float(np.mean([p.rating for p in training]))
    calibration = Calibration.from_json("online", online)
    split = {
        "games": len(games_in),
        "training_games": len({p.game for p in training}),
        "held_out_games": len(held_games),
        "training_players": len({p.player for p in training}),
        "held_out_players": len({p.player for p in testing}),
        "training_player_games": len(training),
        "held_out_player_games": len(testing),
        "games_unused": len(games_in) - len(held_games) - len({p.game for p in training}),
    }
    report: dict[str, Any] = {
        "mean_rating": round(baseline, 1),
        "online_temper": online_tried,
        "split": split,
        "held_out": lichess_report(calibration, testing, held, baseline),
        # The same count groups on the training players' out-of-fold scores (the calibration was
        # fitted on these scores, so this is a check of the combination rule, not a held-out figure).
        "training_players_by_games": by_games(player_outcomes(calibration, training, oof), baseline),
    }
    if args.ablation:
        report["ablation_oof_mae"] = ablation(training, oof)

    out = Path(args.out)
    previous = json.loads((MODEL_DIR / "model.json").read_text(encoding="utf-8"))
    if args.otb:
        otb_items = pgn_player_games(args.otb, args.otb_cache, engine, setting)
        set_book(otb_items, book)
        otb_pred = predict(model, otb_items)
        otb, report["otb_temper"] = otb_fit(otb_items, otb_pred)
        cv = otb_cross_validation(otb_items, otb_pred)
        median = float(np.median([p.rating for p in otb_items]))
        report["otb_cross_validation"] = breakdown(cv, median, FIDE_BANDS)
        report["otb_cross_validation"]["pool_median"] = median
        report["otb_games"] = len({p.game for p in otb_items})
        report["otb_events"] = len({p.group for p in otb_items})
    else:
        otb = previous["kinds"]["otb"]
        print("otb kind kept from the shipped model.json (give --otb to refit it)", file=sys.stderr)
    # What this run did not compute (no --ablation, --otb, --check) is kept from the shipped model.
    for key, value in previous.get("report", {}).items():
        report.setdefault(key, value)
    for path in args.check:
        check_items = pgn_player_games(path, args.otb_cache, engine, setting)
        set_book(check_items, book)
        check_pred = predict(model, check_items)
        otb_calibration = Calibration.from_json("otb", otb)
        rows = []
        for player, (scores, rating, _) in player_sets(
            check_items, otb_scores_of(otb, check_items, check_pred)
        ).items():
            o = estimate(otb_calibration, scores, rating)
            rows.append(
                {
                    "player": player,
                    "rating": rating,
                    "games": o.games,
                    "estimate": round(o.estimate),
                    "low": None if o.low is None else round(o.low),
                    "high": None if o.high is None else round(o.high),
                    "covered": o.covered,
                }
            )
        report.setdefault("checks", {})[Path(path).name] = rows
    print(markdown(report) if args.markdown else json.dumps(report, indent=1))
    if args.no_write:
        return
    out.mkdir(parents=True, exist_ok=True)
    (out / "model.txt").write_text(model_text(model), encoding="utf-8")
    meta = {
        "features": list(FEATURES),
        "engine": engine,
        "setting": setting,
        "depth": int(setting.split(";")[0].removeprefix("depth=")),
        "kinds": {"online": online, "otb": otb},
        "book": book.to_json(),
        "report": report,
        "data": "data/lichess-calibration/calibration.csv, data/lichess-calibration/evals.npz",
        "lightgbm": lgb.__version__,
        "parameters": PARAMS,
        "rounds": ROUNDS,
    }
    (out / "model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
