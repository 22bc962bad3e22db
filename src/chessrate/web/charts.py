"""Data for the chart of expected score against rating difference.

The curves come from the library (the logistic formula of :mod:`chessrate.systems.elo.rating` and FIDE table
8.1.2 of :mod:`chessrate.systems.fide.tables`): the browser only draws them.
"""

from __future__ import annotations

from decimal import Decimal

from chessrate.systems.elo.calculate import AverageResult, GameWorking, PeriodResult, TournamentResult
from chessrate.systems.elo.rating import expected_score
from chessrate.systems.fide.tables import scoring_probability

#: The chart spans differences from -CHART_SPAN to +CHART_SPAN (table 8.1.2 is flat past 735).
CHART_SPAN = 800


def expected_curves(span: int = CHART_SPAN) -> dict[str, list[float]]:
    """Expected score for each whole difference D in [-span, span]: formula and table."""
    differences = list(range(-span, span + 1))
    return {
        "difference": [float(d) for d in differences],
        "formula": [round(float(expected_score(d)), 4) for d in differences],
        "table": [float(scoring_probability(d)) for d in differences],
    }


def _mark(game: GameWorking) -> list[float]:
    return [float(game.difference), float(game.expected)]


def chart_marks(result: object) -> list[list[float]]:
    """[difference used, expected score] of each game of a result, to mark on the chart."""
    if isinstance(result, TournamentResult):
        return [_mark(game) for game in result.event.games]
    if isinstance(result, PeriodResult):
        return [_mark(game) for event in result.events for game in event.games]
    if isinstance(result, AverageResult):
        return [[float(result.difference), float(Decimal(result.expected_per_game))]]
    return []
