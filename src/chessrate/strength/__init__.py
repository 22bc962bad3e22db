"""Playing strength estimated from the moves alone (never from the ratings in the file)."""

from chessrate.strength.estimate import PlayerEstimate, game_estimates, player_estimates
from chessrate.strength.model import SCALE, Estimate, StrengthModel, load_model

__all__ = [
    "SCALE",
    "Estimate",
    "PlayerEstimate",
    "StrengthModel",
    "game_estimates",
    "load_model",
    "player_estimates",
]
