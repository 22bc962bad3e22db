"""Estimates of playing strength from analysed games: per game and per player over several games."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

from chessrate.analysis.games import GameAnalysis
from chessrate.errors import InvalidInputError
from chessrate.strength.features import feature_row
from chessrate.strength.model import Estimate, StrengthModel, load_model


@dataclass(frozen=True)
class PlayerEstimate:
    """One player's estimate over all the player's games in the file."""

    player: str
    estimate: Estimate


def game_estimates(analysis: GameAnalysis, model: StrengthModel | None = None) -> tuple[Estimate, Estimate]:
    """(White's, Black's) estimate from this one game."""
    model = model or load_model()
    return model.estimate([feature_row(analysis, chess.WHITE)]), model.estimate(
        [feature_row(analysis, chess.BLACK)]
    )


def player_estimates(
    analyses: Sequence[GameAnalysis], player: str | None = None, model: StrengthModel | None = None
) -> list[PlayerEstimate]:
    """Each player's estimate from all of the player's games (players by name, as in the file).

    With ``player``, only that player (names compared without case); an unknown name is an error.
    """
    model = model or load_model()
    rows: dict[str, list[list[float]]] = {}
    names: dict[str, str] = {}
    for analysis in analyses:
        for white in (chess.WHITE, chess.BLACK):
            name = analysis.player(white).name
            if analysis.player(white).moves == 0:
                continue
            key = name.casefold()
            names.setdefault(key, name)
            rows.setdefault(key, []).append(feature_row(analysis, white))
    if player is not None:
        key = player.casefold()
        if key not in rows:
            raise InvalidInputError(
                "player", player, "no game of this player in the file", code="no-player-games"
            )
        return [PlayerEstimate(names[key], model.estimate(rows[key]))]
    return [PlayerEstimate(names[k], model.estimate(v)) for k, v in rows.items()]
