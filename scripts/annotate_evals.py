"""Write a PGN's games back with Lichess-style ``[%eval]`` comments from chessrate's analysis.

Used to make ``tests/analysis/data/lichess-export-evals.pgn`` (moves from ``lichess-export.pgn``,
evaluations by Stockfish at the depth given)::

    PYTHONPATH=src python scripts/annotate_evals.py tests/data/pgn/lichess-export.pgn --depth 10 \
        > tests/analysis/data/lichess-export-evals.pgn
"""

from __future__ import annotations

import argparse

import chess.engine

from chessrate.analysis import Setting, analyse_games, read_games_file
from chessrate.analysis.engine import score_from_int


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("pgn")
    parser.add_argument("--depth", type=int, default=10)
    args = parser.parse_args()
    games = read_games_file(args.pgn)
    analyses = analyse_games(games, setting=Setting(depth=args.depth), use_pgn_evals=False)
    for game, analysis in zip(games, analyses, strict=True):
        for node, move in zip(game.mainline(), analysis.moves, strict=True):
            node.set_eval(chess.engine.PovScore(score_from_int(move.after), chess.WHITE))
        print(game, end="\n\n")


if __name__ == "__main__":
    main()
