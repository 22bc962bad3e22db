"""chessrate: chess ratings as federations, clubs and online platforms compute them.

The names below are the library's public API; the README's example, as a doctest (1500 beats
1400 under FIDE's rules: D 100 → PD .64 by table 8.1.2, so 20 × (1 − .64) = +7.2):

>>> import datetime as dt
>>> from decimal import Decimal
>>> from chessrate import Game, rate_tournament, resolve_rule_set
>>> rules = resolve_rule_set("fide", as_of=dt.date(2026, 1, 1))
>>> result = rate_tournament(Decimal(1500), [Game(Decimal(1400), Decimal(1))], rules=rules, k=20)
>>> result.period.change, result.period.new_rating
(Decimal('7.20'), Decimal('1507'))
"""

from chessrate.calculate import (
    AverageResult,
    Event,
    Game,
    PeriodResult,
    TournamentResult,
    rate_against_average,
    rate_game,
    rate_period,
    rate_tournament,
)
from chessrate.errors import FileFormatError, InvalidInputError, RatingError, RuleSetError
from chessrate.fide.k_factor import KFactor, PlayerProfile
from chessrate.presets import resolve_rule_set, rule_set_from_toml
from chessrate.ruleset import RuleSet

__version__ = "0.1.0"

__all__ = [
    "AverageResult",
    "Event",
    "FileFormatError",
    "Game",
    "InvalidInputError",
    "KFactor",
    "PeriodResult",
    "PlayerProfile",
    "RatingError",
    "RuleSet",
    "RuleSetError",
    "TournamentResult",
    "__version__",
    "rate_against_average",
    "rate_game",
    "rate_period",
    "rate_tournament",
    "resolve_rule_set",
    "rule_set_from_toml",
]
