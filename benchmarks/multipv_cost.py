"""What MultiPV costs at the strength setting: seconds a game at depth 8 with 1, 2 and 3 lines.

The engine's second-best move (the gap to it, the rank of the move played among the top moves) needs
MultiPV 2 or more. This searches every position of the first ``--games`` Lichess calibration games
as ``chessrate strength`` does (one thread, 16 MB hash, a cleared engine per position) with each
MultiPV and prints seconds a game and the ratio to MultiPV 1::

    nice python benchmarks/multipv_cost.py --games 40
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from chessrate.analysis.engine import ENGINE_OPTIONS, find_engine  # noqa: E402
from chessrate.strength.calibration import read_rows, row_game  # noqa: E402

DATA = ROOT / "data" / "lichess-calibration" / "calibration.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args()
    games = [row_game(row) for row in read_rows(DATA)[: args.games]]
    engine = chess.engine.SimpleEngine.popen_uci(find_engine(None))
    try:
        engine.configure(ENGINE_OPTIONS)
        base = 0.0
        for lines in (1, 2, 3):
            started = time.perf_counter()
            for game in games:
                board = game.board()
                for move in game.mainline_moves():
                    board.push(move)
                    if not board.is_game_over():
                        engine.analyse(
                            board, chess.engine.Limit(depth=args.depth), multipv=lines, game=object()
                        )
            seconds = (time.perf_counter() - started) / len(games)
            base = base or seconds
            print(f"MultiPV {lines}: {seconds:.3f} s a game, {seconds / base:.2f} x MultiPV 1")
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
