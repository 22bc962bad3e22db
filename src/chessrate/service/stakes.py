"""The points at stake in one game, as users ask: Elo, DWZ, US Chess or Glicko-2 (the paper).

Each system's fields are read by the same reader as its calculator's
(:func:`chessrate.service.systems.read_dwz_player`, :func:`~chessrate.service.systems.read_uscf_player`,
:func:`chessrate.service.glicko.read_glicko2_player`); the outcomes are rated by
:mod:`chessrate.comparisons.stakes`. Nothing here computes a rating.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from chessrate.comparisons import stakes
from chessrate.errors import RatingError
from chessrate.parse import parse_k
from chessrate.service.glicko import PAPER_NEW_PLAYER, GlickoResult, read_glicko2_player
from chessrate.service.language import ENGLISH
from chessrate.service.options import OptionInputs, Outcome, one_of, read_rating, resolve_options
from chessrate.service.problems import Problems
from chessrate.service.systems import (
    DwzInputs,
    UscfInputs,
    event_end,
    field_hints,
    read_dwz_player,
    read_field,
    read_uscf_player,
)
from chessrate.systems.dwz import rating as dwz
from chessrate.systems.elo.calculate import AverageResult, PeriodResult, TournamentResult
from chessrate.systems.glicko import glicko2
from chessrate.systems.uscf import rating as uscf

STAKES_SYSTEMS = ("elo", "dwz", "uscf", "glicko2")


@dataclass(frozen=True, kw_only=True)
class StakesInputs:
    system: str = "elo"
    rating: str = ""
    opponent: str = ""
    #: Elo: the rule options (K, rule set, table or formula); the opponent's own K if it differs.
    options: OptionInputs = field(default_factory=OptionInputs)
    opponent_k: str = ""
    #: DWZ.
    age: str = ""
    index: str = ""
    opponent_age: str = ""
    opponent_index: str = ""
    #: US Chess.
    games_played: str = ""
    opponent_games_played: str = ""
    event_end: str = ""
    #: Glicko-2.
    deviation: str = ""
    volatility: str = ""
    opponent_deviation: str = ""
    opponent_volatility: str = ""


def points_at_stake(inputs: StakesInputs, problems: Problems, *, today: dt.date) -> Outcome[stakes.Stakes]:
    system = inputs.system.strip().lower() or "elo"
    if system not in STAKES_SYSTEMS:
        problems.add(("system",), inputs.system, one_of("system", inputs.system, STAKES_SYSTEMS))
        return Outcome(None, problems)
    return _BY_SYSTEM[system](inputs, problems, today)


def _elo(inputs: StakesInputs, problems: Problems, today: dt.date) -> Outcome[stakes.Stakes]:
    rating = read_rating(problems, ("rating",), inputs.rating)
    opponent = read_rating(problems, ("opponent",), inputs.opponent)
    opponent_k = read_field(
        problems,
        ("opponent_k",),
        inputs.opponent_k,
        lambda text: parse_k(text, field="opponent_k"),
        required=False,
    )
    options = resolve_options(inputs.options, problems, today=today)
    if problems or rating is None or opponent is None or options is None:
        return Outcome(None, problems, options)
    result = problems.attempt(
        ("rating",),
        inputs.rating,
        lambda: stakes.elo_stakes(
            rating, opponent, rules=options.rules, k=options.k, opponent_k=opponent_k, profile=options.profile
        ),
    )
    return Outcome(result, problems, options)


def _dwz(inputs: StakesInputs, problems: Problems, today: dt.date) -> Outcome[stakes.Stakes]:
    del today
    mine = read_dwz_player(problems, inputs.rating, inputs.age, inputs.index)
    theirs = read_dwz_player(
        problems, inputs.opponent, inputs.opponent_age, inputs.opponent_index, side="opponent", required=False
    )
    rating, other, age, index = mine.rating, theirs.rating, mine.age, mine.index
    if problems or rating is None or other is None or age is None or index is None:
        return Outcome(None, problems)
    return _rated(
        problems,
        rating,
        lambda: stakes.dwz_stakes(
            rating, other, age=age, index=index, opponent_age=theirs.age, opponent_index=theirs.index
        ),
        fields=("age", "index"),
    )


def _uscf(inputs: StakesInputs, problems: Problems, today: dt.date) -> Outcome[stakes.Stakes]:
    mine = read_uscf_player(problems, inputs.rating, inputs.games_played)
    theirs = read_uscf_player(problems, inputs.opponent, inputs.opponent_games_played, side="opponent")
    day = event_end(problems, inputs.event_end, today=today)
    rating, other = mine.rating, theirs.rating
    played, their_played = mine.games_played, theirs.games_played
    if problems or rating is None or other is None or played is None or their_played is None:
        return Outcome(None, problems)
    return _rated(
        problems,
        rating,
        lambda: stakes.uscf_stakes(
            rating, other, games_played=played, opponent_games_played=their_played, event_end=day
        ),
        fields=("games_played",),
    )


def _glicko2(inputs: StakesInputs, problems: Problems, today: dt.date) -> Outcome[stakes.Stakes]:
    del today
    hints = field_hints(problems)
    mine = read_glicko2_player(
        problems, inputs.rating, inputs.deviation, inputs.volatility, required=True, hints=hints
    )
    theirs = read_glicko2_player(
        problems,
        inputs.opponent,
        inputs.opponent_deviation,
        inputs.opponent_volatility,
        side="opponent",
        required=True,
        hints=hints,
    )
    if problems or mine.rating is None or theirs.rating is None:
        return Outcome(None, problems)
    player = glicko2.Glicko2Rating(*mine.start(PAPER_NEW_PLAYER))
    opponent = glicko2.Glicko2Rating(*theirs.start(PAPER_NEW_PLAYER))
    return _rated(problems, mine.rating, lambda: stakes.glicko2_stakes(player, opponent))


def _rated(
    problems: Problems, rating: float, compute: Callable[[], stakes.Stakes], *, fields: tuple[str, ...] = ()
) -> Outcome[stakes.Stakes]:
    """The stakes ``compute`` gives, or the core's refusal kept under the rating (or one of ``fields``)."""
    return Outcome(problems.attempt(("rating",), rating, compute, fields=fields), problems)


_BY_SYSTEM = {"elo": _elo, "dwz": _dwz, "uscf": _uscf, "glicko2": _glicko2}


# --- the stakes panel beside a result ------------------------------------------------------------------


def stakes_for(inputs: object, result: object, *, today: dt.date) -> stakes.Stakes | None:
    """The points at stake in one more game against the opponent, or the opponents' average.

    For a result of an Elo mode, DWZ, US Chess or Glicko-2 (the paper); None for the others. The
    opponent is assumed to be like the player: the same K (Elo), the same age and Index (DWZ), as
    many games (US Chess), volatility 0.06 (Glicko-2). The player's fields are read by the reader
    the calculator used.
    """
    try:
        return _stakes_for(inputs, result, today)
    except RatingError:  # an opponent average out of a system's range: no panel rather than a guess
        return None


def _stakes_for(inputs: object, result: object, today: dt.date) -> stakes.Stakes | None:
    if isinstance(result, TournamentResult | AverageResult | PeriodResult):
        return _elo_stakes_for(result)
    if isinstance(result, dwz.DwzResult) and isinstance(inputs, DwzInputs):
        average_dwz = round(sum(g.opponent for g in result.games) / len(result.games))
        typed = read_dwz_player(Problems(ENGLISH), inputs.rating, inputs.age, inputs.index)
        if typed.age is None or typed.index is None:
            return None
        return stakes.dwz_stakes(result.rating, average_dwz, age=typed.age, index=typed.index)
    if isinstance(result, uscf.UscfResult) and result.rating is not None:
        average_uscf = sum(g.opponent for g in result.games) / len(result.games)
        day = (
            event_end(Problems(ENGLISH), inputs.event_end, today=today)
            if isinstance(inputs, UscfInputs)
            else today
        )
        return stakes.uscf_stakes(
            result.rating,
            average_uscf,
            games_played=result.games_played,
            opponent_games_played=result.games_played,
            event_end=day,
            half_k=result.half_k,
        )
    if isinstance(result, GlickoResult) and result.system == "glicko2" and result.games:
        count = len(result.games)
        opponent = glicko2.Glicko2Rating(
            sum(g.opponent for g in result.games) / count,
            sum(g.opponent_deviation for g in result.games) / count,
            glicko2.UNRATED_VOLATILITY,
        )
        before = result.before
        start = glicko2.Glicko2Rating(before.rating, before.deviation, before.volatility)
        return stakes.glicko2_stakes(start, opponent, tau=result.tau)
    return None


def _elo_stakes_for(result: TournamentResult | AverageResult | PeriodResult) -> stakes.Stakes:
    """One more game against the opponents' average, with the same K for both."""
    if isinstance(result, TournamentResult):
        period = result.period
        return stakes.elo_stakes(period.rating, result.average_opponent, rules=period.rules, k=period.k.k)
    if isinstance(result, AverageResult):
        return stakes.elo_stakes(result.rating, result.average_opponent, rules=result.rules, k=result.k.k)
    opponents = [game.opponent for event in result.events for game in event.games]
    average = sum(opponents, Decimal(0)) / len(opponents)
    return stakes.elo_stakes(result.rating, average, rules=result.rules, k=result.k.k)
