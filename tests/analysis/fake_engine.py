"""A UCI engine for the tests: answers at once (score 0, the first legal move), and dies as
Stockfish did (signal 11) on a position whose FEN starts with ``$FAKE_ENGINE_DIES_ON``; with
``$FAKE_ENGINE_SLOW`` it takes that many seconds a search (to hold a worker)."""

from __future__ import annotations

import os
import signal
import sys
import time

import chess


def main() -> None:
    dies_on = os.environ.get("FAKE_ENGINE_DIES_ON", "")
    slow = float(os.environ.get("FAKE_ENGINE_SLOW", "0") or 0)
    board = chess.Board()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print(
                "id name FakeFish\n"
                "option name Threads type spin default 1 min 1 max 512\n"
                "option name Hash type spin default 16 min 1 max 33554432\n"
                "uciok",
                flush=True,
            )
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            fen = " ".join(words[2:8]) if words[1] == "fen" else chess.STARTING_FEN
            board = chess.Board(fen)
            if "moves" in words:
                for move in words[words.index("moves") + 1 :]:
                    board.push_uci(move)
        elif words[0] == "go":
            if dies_on and board.fen().startswith(dies_on):
                os.kill(os.getpid(), signal.SIGSEGV)
            time.sleep(slow)
            best = next(iter(board.legal_moves)).uci()
            print(f"info depth 1 score cp 0 pv {best}\nbestmove {best}", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
