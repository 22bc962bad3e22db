"""Write games of the calibration file as PGN, by their Lichess id.

Used to make ``src/chessrate/data/demo/lichess-2017.pgn`` (the README's examples)::

    python scripts/calibration_pgn.py AAwOojzE JEoVOSJB 1xR5m5BF > src/chessrate/data/demo/lichess-2017.pgn
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import chess
import chess.pgn

DATA = Path(__file__).resolve().parents[1] / "data" / "lichess-calibration" / "calibration.csv"
RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("ids", nargs="+")
    args = parser.parse_args()
    with DATA.open(newline="", encoding="utf-8") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    for game_id in args.ids:
        row = rows[game_id]
        board = chess.Board()
        for san in row["moves"].split():
            board.push_san(san)
        game = chess.pgn.Game.from_board(board)
        minutes, _, seconds = row["increment_code"].partition("+")
        game.headers["Event"] = "Rated game"
        game.headers["Site"] = "https://lichess.org/" + game_id
        game.headers["White"] = row["white_id"]
        game.headers["Black"] = row["black_id"]
        game.headers["Result"] = RESULTS[row["winner"]]
        game.headers["WhiteElo"] = row["white_rating"]
        game.headers["BlackElo"] = row["black_rating"]
        game.headers["TimeControl"] = f"{int(minutes) * 60}+{int(seconds)}"
        game.headers["ECO"] = row["opening_eco"]
        game.headers["Opening"] = row["opening_name"]
        print(game, end="\n\n")


if __name__ == "__main__":
    main()
