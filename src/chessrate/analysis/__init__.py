"""Analysis of games by a chess engine: Lichess's win%, accuracy, centipawn loss and judgements."""

from chessrate.analysis.engine import DEFAULT_DEPTH, Setting
from chessrate.analysis.games import (
    AnalysisStats,
    GameAnalysis,
    MoveAnalysis,
    PlayerSummary,
    analyse_games,
    read_games,
    read_games_file,
)

__all__ = [
    "DEFAULT_DEPTH",
    "AnalysisStats",
    "GameAnalysis",
    "MoveAnalysis",
    "PlayerSummary",
    "Setting",
    "analyse_games",
    "read_games",
    "read_games_file",
]
