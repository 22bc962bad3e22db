"""Fit the strength estimator on the Lichess calibration games and write the shipped model.

Reproduces ``src/chessrate/strength/model/`` from ``data/lichess-calibration/calibration.csv``:

1. Split by game id: a game is held out when the first byte of sha256("chessrate-strength-split:"
   + id) is below 86 (about a third); the fit never sees held-out games.
2. Sample (the engine budget of a 2-core machine): players with at least 10 games in the file are
   ordered by sha256("chessrate-strength-player:" + name), and all games of the first of them are
   taken until at least ``--games`` games (default 2,200) are in. Every game gives two
   player-games (White's and Black's).
3. Analyse every sampled game with Stockfish at depth 8 (``--depth``), in an SQLite cache
   (``--cache``), on ``--workers`` processes.
4. Features per player-game (``chessrate.strength.features``; never the ratings).
5. LightGBM regression of the player's rating on the features (fixed parameters, deterministic).
   5-fold cross-validation on the training games (fold = sha256(id) second byte mod 5) gives
   out-of-fold predictions; their residuals' 10th and 90th percentiles make the 80% interval of
   one game. For n games of a player: estimate = mean + stretch_n x (mean of the n predictions -
   mean), with stretch_n and the residual percentiles fitted on out-of-fold predictions of
   training players' n-game sets.
6. Held-out report: single-game MAE against the mean-rating baseline, interval coverage and
   width, and MAE of players with 5 or more held-out games (all their held-out games together).

Run from the repository root (about 10 minutes on 2 cores the first time; seconds once cached)::

    nice python scripts/fit_strength.py --workers 2
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn
import lightgbm as lgb
import numpy as np

from chessrate.analysis import Setting, analyse_games
from chessrate.analysis.engine import engine_name
from chessrate.strength.features import FEATURES, feature_row
from chessrate.strength.model import GROUPS, MODEL_DIR, SCALE

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "lichess-calibration" / "calibration.csv"
HELD_OUT_BELOW = 86
FOCUS_MIN_GAMES = 10
FOLDS = 5
#: LightGBM parameters, fixed (chosen once by cross-validation on the training games only).
PARAMS: dict[str, object] = {
    "objective": "regression_l1",
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


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def held_out(game_id: str) -> bool:
    return digest("chessrate-strength-split:" + game_id)[0] < HELD_OUT_BELOW


def fold(game_id: str) -> int:
    return digest("chessrate-strength-split:" + game_id)[1] % FOLDS


def load_rows() -> list[dict[str, str]]:
    with DATA.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def sample(rows: list[dict[str, str]], games: int) -> list[dict[str, str]]:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["white_id"]] += 1
        counts[row["black_id"]] += 1
    focus = sorted(
        (p for p, n in counts.items() if n >= FOCUS_MIN_GAMES),
        key=lambda p: digest("chessrate-strength-player:" + p),
    )
    chosen: dict[str, dict[str, str]] = {}
    for player in focus:
        if len(chosen) >= games:
            break
        for row in rows:
            if player in (row["white_id"], row["black_id"]):
                chosen[row["id"]] = row
    return sorted(chosen.values(), key=lambda r: r["id"])


def to_game(row: dict[str, str]) -> chess.pgn.Game:
    board = chess.Board()
    for san in row["moves"].split():
        board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    minutes, _, seconds = row["increment_code"].partition("+")
    game.headers["Site"] = "https://lichess.org/" + row["id"]
    game.headers["White"] = row["white_id"]
    game.headers["Black"] = row["black_id"]
    game.headers["TimeControl"] = f"{int(minutes) * 60}+{int(seconds)}"
    return game


@dataclass
class PlayerGame:
    game_id: str
    player: str
    rating: float
    features: list[float]
    held_out: bool
    fold: int


def player_games(rows: Sequence[dict[str, str]], args: argparse.Namespace) -> list[PlayerGame]:
    games = [to_game(r) for r in rows]
    started = time.perf_counter()

    reported = [0]

    def progress(done: int, total: int) -> None:
        if done == total or done - reported[0] >= 5000:
            reported[0] = done
            print(
                f"  {done}/{total} positions, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    analyses = analyse_games(
        games,
        setting=Setting(depth=args.depth),
        cache_path=args.cache,
        workers=args.workers,
        use_pgn_evals=False,
        progress=progress,
    )
    out = []
    for row, analysis in zip(rows, analyses, strict=True):
        for white in (chess.WHITE, chess.BLACK):
            out.append(
                PlayerGame(
                    game_id=row["id"],
                    player=row["white_id" if white else "black_id"],
                    rating=float(row["white_rating" if white else "black_rating"]),
                    features=feature_row(analysis, white),
                    held_out=held_out(row["id"]),
                    fold=fold(row["id"]),
                )
            )
    return out


def train(items: Sequence[PlayerGame]) -> lgb.Booster:
    x = np.array([p.features for p in items], dtype=float)
    y = np.array([p.rating for p in items], dtype=float)
    return lgb.train(PARAMS, lgb.Dataset(x, y, feature_name=list(FEATURES), free_raw_data=False), ROUNDS)


def predict(model: lgb.Booster, items: Sequence[PlayerGame]) -> np.ndarray:
    return np.asarray(model.predict(np.array([p.features for p in items], dtype=float), num_threads=1))


def model_text(model: lgb.Booster) -> str:
    """LightGBM's text model without its "parameters:" block (model.json records the parameters).

    The block only lists the training settings; predictions from the file are the same without it.
    """
    text = model.model_to_string(num_iteration=-1)
    start = text.index("parameters:\n")
    end = text.index("end of parameters\n") + len("end of parameters\n")
    return text[:start] + text[end:]


def group_of(n: int) -> int:
    """Index into ``GROUPS`` (lower bounds of the game counts)."""
    return max(i for i, low in enumerate(GROUPS) if n >= low)


def player_sets(items: Sequence[PlayerGame], predictions: np.ndarray, size: int) -> list[tuple[float, float]]:
    """(mean prediction, rating) for disjoint sets of ``size`` games of one player, in game id order."""
    by_player: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by_player[item.player].append(i)
    sets = []
    for indices in by_player.values():
        indices.sort(key=lambda i: items[i].game_id)
        for start in range(0, len(indices) - size + 1, size):
            chunk = indices[start : start + size]
            sets.append((float(np.mean(predictions[chunk])), statistics.mean(items[i].rating for i in chunk)))
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=2200)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cache", default=str(ROOT / ".cache" / "strength-calibration.sqlite"))
    parser.add_argument("--analyse-only", action="store_true")
    parser.add_argument(
        "--no-write", action="store_true", help="report only; leave the shipped model as it is"
    )
    args = parser.parse_args()
    Path(args.cache).parent.mkdir(parents=True, exist_ok=True)

    rows = sample(load_rows(), args.games)
    print(f"{len(rows)} games sampled, {sum(held_out(r['id']) for r in rows)} held out", file=sys.stderr)
    items = player_games(rows, args)
    if args.analyse_only:
        return
    training = [p for p in items if not p.held_out]
    testing = [p for p in items if p.held_out]
    mean_rating = statistics.mean(p.rating for p in training)

    # Out-of-fold predictions on the training games.
    oof = np.zeros(len(training))
    for k in range(FOLDS):
        inside = [i for i, p in enumerate(training) if p.fold != k]
        outside = [i for i, p in enumerate(training) if p.fold == k]
        model_k = train([training[i] for i in inside])
        oof[outside] = predict(model_k, [training[i] for i in outside])

    # Per group of game counts: the stretch and the residual percentiles.
    groups = []
    for low in GROUPS:
        sets = player_sets(training, oof, low)
        means = np.array([m for m, _ in sets])
        truth = np.array([r for _, r in sets])
        centred = means - mean_rating
        stretch = float(np.dot(centred, truth - mean_rating) / np.dot(centred, centred)) if low > 1 else 1.0
        residuals = truth - (mean_rating + stretch * centred)
        groups.append(
            {
                "games": low,
                "sets": len(sets),
                "stretch": round(stretch, 6),
                "low": round(float(np.percentile(residuals, 10)), 3),
                "high": round(float(np.percentile(residuals, 90)), 3),
            }
        )

    model = train(training)
    held = predict(model, testing)
    truth = np.array([p.rating for p in testing])
    one = groups[0]
    mae = float(np.mean(np.abs(truth - held)))
    baseline = float(np.mean(np.abs(truth - mean_rating)))
    covered = float(np.mean((truth >= held + one["low"]) & (truth <= held + one["high"])))
    width = one["high"] - one["low"]
    # Players with 5 or more held-out games: all their held-out games at once.
    by_player: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(testing):
        by_player[p.player].append(i)
    player_errors, player_baseline, player_cover, player_width = [], [], [], []
    for indices in by_player.values():
        if len(indices) < 5:
            continue
        g = groups[group_of(len(indices))]
        estimate = mean_rating + g["stretch"] * (float(np.mean(held[indices])) - mean_rating)
        rating = float(np.mean(truth[indices]))
        player_errors.append(abs(rating - estimate))
        player_baseline.append(abs(rating - mean_rating))
        player_cover.append(estimate + g["low"] <= rating <= estimate + g["high"])
        player_width.append(g["high"] - g["low"])
    report = {
        "held_out_player_games": len(testing),
        "training_player_games": len(training),
        "mae": round(mae, 1),
        "baseline_mae": round(baseline, 1),
        "coverage_80": round(covered, 3),
        "interval_width": round(width, 1),
        "players_5_plus": len(player_errors),
        "players_5_plus_mae": round(statistics.mean(player_errors), 1) if player_errors else math.nan,
        "players_5_plus_baseline_mae": round(statistics.mean(player_baseline), 1)
        if player_errors
        else math.nan,
        "players_5_plus_coverage": round(statistics.mean(player_cover), 3) if player_errors else math.nan,
        "players_5_plus_mean_width": round(statistics.mean(player_width), 1) if player_errors else math.nan,
    }
    print(json.dumps({"held_out": report, "groups": groups}, indent=2))
    if args.no_write:
        return
    MODEL_DIR.mkdir(parents=True, exist_ok=True)
    (MODEL_DIR / "model.txt").write_text(model_text(model), encoding="utf-8")
    meta = {
        "scale": SCALE,
        "features": list(FEATURES),
        "mean_rating": round(mean_rating, 3),
        "engine": engine_name(None),
        "setting": Setting(depth=args.depth).key,
        "depth": args.depth,
        "groups": groups,
        "held_out": report,
        "data": "data/lichess-calibration/calibration.csv",
        "lightgbm": lgb.__version__,
        "parameters": PARAMS,
        "rounds": ROUNDS,
    }
    (MODEL_DIR / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
