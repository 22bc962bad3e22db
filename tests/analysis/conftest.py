from __future__ import annotations

from pathlib import Path

import chess.pgn
import pytest

from chessrate.analysis import read_games_file

DATA = Path(__file__).parent / "data"
LICHESS = Path(__file__).parents[1] / "data" / "pgn" / "lichess-export.pgn"


@pytest.fixture(scope="session")
def lichess_games() -> list[chess.pgn.Game]:
    """17 real Lichess games (no evaluations)."""
    return read_games_file(LICHESS)


@pytest.fixture(scope="session")
def eval_games() -> list[chess.pgn.Game]:
    """The same games with [%eval] comments (Stockfish 15.1, depth 10)."""
    return read_games_file(DATA / "lichess-export-evals.pgn")


@pytest.fixture(scope="session")
def short_games(lichess_games: list[chess.pgn.Game]) -> list[chess.pgn.Game]:
    """The two shortest games (29 and 37 plies), for real engine runs at a low depth."""
    return sorted(lichess_games, key=lambda g: len(list(g.mainline_moves())))[:2]
