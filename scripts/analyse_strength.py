"""Analyse calibration games with Stockfish once, into an SQLite cache that a later run resumes.

The games are a Lichess calibration CSV (``--csv``, the columns of data/lichess-calibration/) or
PGN files (``--pgn``, e.g. over-the-board games). Every position of every game is searched at
``--depth`` (default 8, the runtime default) by ``chessrate.analysis.analyse_games``, the same
code ``chessrate strength`` runs, so the fit sees exactly the evaluations a user's run gives.
Games are taken in chunks, in the order of their players: a game's key is the smaller of
sha256(player) over its two players, so that a run cut short leaves every game of the players
whose digest is below some value analysed (a subset split by player, whole players only), and
a new run searches only what the cache lacks. Run it niced::

    nice -n 19 python scripts/analyse_strength.py --csv data/lichess-calibration/calibration.csv \
        --cache /tmp/strength.sqlite --workers 2
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import chess.pgn

from chessrate.analysis import Setting, analyse_games, read_games_file
from chessrate.analysis.cache import EvaluationCache
from chessrate.analysis.engine import engine_name
from chessrate.analysis.games import game_keys
from chessrate.strength.calibration import csv_games, write_evals

CHUNK = 200


def player_key(name: str) -> bytes:
    return hashlib.sha256(("chessrate-strength-player:" + name).encode()).digest()


def order_key(game: chess.pgn.Game) -> tuple[bytes, str]:
    players = (game.headers.get("White", "?"), game.headers.get("Black", "?"))
    return min(player_key(p) for p in players), game.headers.get("Site", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--csv", action="append", default=[], help="a Lichess calibration CSV")
    parser.add_argument("--pgn", action="append", default=[], help="a PGN file")
    parser.add_argument("--cache", required=True)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--export",
        metavar="NPZ",
        help="analyse nothing: write the evaluations of the fully analysed CSV games to this file",
    )
    args = parser.parse_args()
    if args.export:
        export(args)
        return
    games: list[chess.pgn.Game] = []
    for path in args.csv:
        games.extend(game for _, game in csv_games(Path(path)))
    for path in args.pgn:
        games.extend(read_games_file(path))
    games.sort(key=order_key)
    started = time.perf_counter()
    for start in range(0, len(games), CHUNK):
        chunk = games[start : start + CHUNK]
        analyse_games(
            chunk,
            setting=Setting(depth=args.depth),
            cache_path=args.cache,
            workers=args.workers,
            use_pgn_evals=False,
        )
        done = start + len(chunk)
        print(
            f"{done}/{len(games)} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True
        )


def export(args: argparse.Namespace) -> None:
    """The cached evaluations of every CSV game whose positions are all cached, in the CSV's order."""
    setting = Setting(depth=args.depth)
    out = []
    name = engine_name(None)
    with EvaluationCache(args.cache, engine=name, setting=setting.key) as cache:
        for path in args.csv:
            for row, game in csv_games(Path(path)):
                keys = game_keys(game)[0]
                found = cache.get_many(keys)
                if len(found) == len(set(keys)):
                    out.append((row["id"], [found[k].score for k in keys], [found[k].best for k in keys]))
    write_evals(Path(args.export), out, name, setting.key)
    print(f"{len(out)} games written to {args.export}", file=sys.stderr)


if __name__ == "__main__":
    main()
