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

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    __version__: str  # pyproject.toml's, read from the package metadata when first asked for
    from chessrate.errors import FileFormatError, InvalidInputError, RatingError, RuleSetError
    from chessrate.systems.elo.calculate import (
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
    from chessrate.systems.elo.presets import resolve_rule_set, rule_set_from_toml
    from chessrate.systems.elo.ruleset import RuleSet
    from chessrate.systems.fide.k_factor import KFactor, PlayerProfile

#: Where each public name lives: imported when first asked for (PEP 562), so a command that needs
#: none of them (``chessrate list import``) does not import the rating core at start-up.
_HOMES = {
    **dict.fromkeys(
        [
            "AverageResult",
            "Event",
            "Game",
            "PeriodResult",
            "TournamentResult",
            "rate_against_average",
            "rate_game",
            "rate_period",
            "rate_tournament",
        ],
        "chessrate.systems.elo.calculate",
    ),
    **dict.fromkeys(
        ["FileFormatError", "InvalidInputError", "RatingError", "RuleSetError"], "chessrate.errors"
    ),
    **dict.fromkeys(["KFactor", "PlayerProfile"], "chessrate.systems.fide.k_factor"),
    **dict.fromkeys(["resolve_rule_set", "rule_set_from_toml"], "chessrate.systems.elo.presets"),
    "RuleSet": "chessrate.systems.elo.ruleset",
}


def __getattr__(name: str) -> object:
    if name == "__version__":  # read when asked: importlib.metadata costs milliseconds at start-up
        from importlib.metadata import version

        return version(__name__)
    home = _HOMES.get(name)
    if home is not None:
        return getattr(import_module(home), name)
    # a subpackage or module (``chessrate.systems.elo.calculate``), as the eager imports made them reachable
    try:
        return import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


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


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES, "__version__"])
