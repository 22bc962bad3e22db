"""Whole rating periods from arrays, with numpy: FIDE Elo (:mod:`chessrate.bulk.elo`) and Glicko-2
(:mod:`chessrate.bulk.glicko2`), equal to the scalar library player for player (``docs/bulk.md``).

The games of a period are three arrays of the same length: ``white`` and ``black``, the players'
indices (0 to n_players - 1), and ``white_half_points``, White's score in half points (0 loss,
1 draw, 2 win: one byte a game; :func:`half_points` converts 0 / 0.5 / 1).
"""

from chessrate.bulk._arrays import half_points
from chessrate.bulk.elo import EloGameWorking, EloPeriod, elo_game_working, k_factors, rate_elo_period
from chessrate.bulk.glicko2 import SCALAR_AGREEMENT, Glicko2Period, glicko2_takes, rate_glicko2_period

__all__ = [
    "SCALAR_AGREEMENT",
    "EloGameWorking",
    "EloPeriod",
    "Glicko2Period",
    "elo_game_working",
    "glicko2_takes",
    "half_points",
    "k_factors",
    "rate_elo_period",
    "rate_glicko2_period",
]
