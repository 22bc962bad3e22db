"""chessrate: chess ratings as federations, clubs and online platforms compute them.

The names below are the library's public API: one entry per rating system, each with its
published worked example as a doctest.

>>> import datetime as dt
>>> from decimal import Decimal
>>> import chessrate

**FIDE (Elo).** 1500 beats 1400 under FIDE's rules: D 100 gives PD .64 (B.02 table 8.1.2), so
20 × (1 − .64) = +7.2:

>>> rules = chessrate.resolve_rule_set("fide", as_of=dt.date(2026, 1, 1))
>>> result = chessrate.rate_game(Decimal(1500), Decimal(1400), Decimal(1), rules=rules, k=20)
>>> result.period.change, result.period.new_rating
(Decimal('7.20'), Decimal('1507'))

A tournament, and a period of tournaments, take :class:`EloGame` (``chessrate.rate_tournament``,
``chessrate.rate_elo_period`` with :class:`EloEvent`):

>>> chessrate.rate_tournament(Decimal(1500), [chessrate.EloGame(Decimal(1400), Decimal(1))],
...                           rules=rules, k=20).period.new_rating
Decimal('1507')

**Glicko-2**, the example of Glickman's "Example of the Glicko-2 system" (glicko2.pdf): 1500,
RD 200, volatility 0.06, tau 0.5, against 1400 (RD 30, won), 1550 (100, lost), 1700 (300, lost)
gives r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (the paper rounds its steps; unrounded, the
rating is 1464.0507):

>>> games = [chessrate.GlickoGame(1400, 30, 1), chessrate.GlickoGame(1550, 100, 0),
...          chessrate.GlickoGame(1700, 300, 0)]
>>> period = chessrate.rate_glicko2_period(chessrate.Glicko2Rating(1500, 200, 0.06), games, tau=0.5)
>>> round(period.after.rating, 1), round(period.after.deviation, 2), f"{period.after.volatility:.7f}"
(1464.1, 151.52, '0.0599960')

**Glicko** (Glicko-1), the same games in Glickman's "The Glicko system" (glicko.pdf): r' = 1464,
RD' = 151.4:

>>> period = chessrate.rate_glicko_period(chessrate.GlickoRating(1500, 200), games)
>>> round(period.after.rating), round(period.after.deviation, 1)
(1464, 151.4)

**DWZ**, sktroisdorf.de's worked example: two juniors (J = 5), Index 1, 1000 beats 1200 → 1101:

>>> chessrate.rate_dwz(1000, [chessrate.DwzGame(1200, 1.0)], age=15, index=1).new_rating
1101

**US Chess**, the special formula's case of "Approximating Formulas for the US Chess Rating
System": a 1500 of 6 games beats 1400, loses to 1550, draws with 1650 → 1511.111, published 1511:

>>> games = [chessrate.UscfGame(1400, 1), chessrate.UscfGame(1550, 0), chessrate.UscfGame(1650, 0.5)]
>>> event = chessrate.rate_uscf_event(1500, games, games_played=6, event_end=dt.date(2026, 1, 1))
>>> round(event.new_rating, 3), event.published
(1511.111, 1511)

**ECF**, "The calculation of ECF grades on a monthly basis": an adult beating an equal gains
k × (1 − 0.5) = 20 × 0.5 = 10:

>>> chessrate.rate_ecf(1800, [chessrate.EcfGame(1800, Decimal(1))]).new_rating
1810

**A tournament file.** ``read_tournament`` reads a TRF, PGN or CSV file (a path or its bytes);
``report_tournament`` rates every player. Here a TRF (FIDE's format, C.04 Annex 2) of one game,
1500 beating 1400, rated as above (K 20 for a player rated below 2400, B.02 8.3.3); the loser's
D −100 gives PD .36, so 20 × (0 − .36) = −7.2:

>>> def player(number, name, rating, opponent, colour, result):  # a TRF "001" line's columns
...     return f"001{number:>5}{'':6}{name:<33} {rating:>4}{'':39}{opponent:>4} {colour} {result}\\n"
>>> trf = "012 Club rapid\\n" + player(1, "Ana", 1500, 2, "w", 1) + player(2, "Bea", 1400, 1, "b", 0)
>>> read = chessrate.read_tournament(trf.encode())
>>> report = chessrate.report_tournament(read, rules=rules, as_of=dt.date(2026, 1, 10))
>>> [(p.name, p.k.k, p.change, p.new_rating) for p in report.players]
[('Ana', 20, Decimal('7.20'), Decimal('1507')), ('Bea', 20, Decimal('-7.20'), Decimal('1393'))]

Each name is imported when first asked for (PEP 562): ``import chessrate`` imports no rating
system, so a command that needs none (``chessrate list import``) does not load them.
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    __version__: str  # pyproject.toml's, read from the package metadata when first asked for
    from chessrate.errors import FileFormatError, InvalidInputError, RatingError, RuleSetError
    from chessrate.formats import read_tournament
    from chessrate.systems.dwz.rating import DwzGame
    from chessrate.systems.dwz.rating import rate as rate_dwz
    from chessrate.systems.ecf.rating import EcfGame
    from chessrate.systems.ecf.rating import rate as rate_ecf
    from chessrate.systems.elo.calculate import (
        AverageResult,
        PeriodResult,
        TournamentResult,
        rate_against_average,
        rate_game,
        rate_tournament,
    )
    from chessrate.systems.elo.calculate import Event as EloEvent
    from chessrate.systems.elo.calculate import Game as EloGame
    from chessrate.systems.elo.calculate import rate_period as rate_elo_period
    from chessrate.systems.elo.presets import resolve_rule_set, rule_set_from_toml
    from chessrate.systems.elo.ruleset import RuleSet
    from chessrate.systems.fide.k_factor import KFactor, PlayerProfile
    from chessrate.systems.glicko.chesscom import rate_period as rate_chesscom_period
    from chessrate.systems.glicko.glicko1 import GlickoGame, GlickoRating
    from chessrate.systems.glicko.glicko1 import rate_period as rate_glicko_period
    from chessrate.systems.glicko.glicko2 import Glicko2Rating
    from chessrate.systems.glicko.glicko2 import rate_period as rate_glicko2_period
    from chessrate.systems.glicko.lichess import LichessRating
    from chessrate.systems.glicko.lichess import rate_games as rate_lichess_games
    from chessrate.systems.uscf.rating import UscfGame
    from chessrate.systems.uscf.rating import rate_event as rate_uscf_event
    from chessrate.tournament.report import report_tournament

#: Where each public name lives, and its name there: imported when first asked for (PEP 562), so
#: a command that needs none of them (``chessrate list import``) does not import the rating core.
#: Every rating system's names carry the system's name where they would clash (``EloGame`` is
#: ``chessrate.systems.elo.calculate.Game``, not ``chessrate.formats.Game``; ``rate_elo_period``,
#: ``rate_glicko_period``, ``rate_glicko2_period``, ``rate_chesscom_period``).
_HOMES: dict[str, tuple[str, str]] = {
    **{
        name: ("chessrate.errors", name)
        for name in ("FileFormatError", "InvalidInputError", "RatingError", "RuleSetError")
    },
    # Elo, under FIDE's rules or a club's
    **{
        name: ("chessrate.systems.elo.calculate", name)
        for name in (
            "AverageResult",
            "PeriodResult",
            "TournamentResult",
            "rate_against_average",
            "rate_game",
            "rate_tournament",
        )
    },
    "EloEvent": ("chessrate.systems.elo.calculate", "Event"),
    "EloGame": ("chessrate.systems.elo.calculate", "Game"),
    "rate_elo_period": ("chessrate.systems.elo.calculate", "rate_period"),
    "resolve_rule_set": ("chessrate.systems.elo.presets", "resolve_rule_set"),
    "rule_set_from_toml": ("chessrate.systems.elo.presets", "rule_set_from_toml"),
    "RuleSet": ("chessrate.systems.elo.ruleset", "RuleSet"),
    "KFactor": ("chessrate.systems.fide.k_factor", "KFactor"),
    "PlayerProfile": ("chessrate.systems.fide.k_factor", "PlayerProfile"),
    # Glicko, Glicko-2, Lichess, Chess.com
    "GlickoGame": ("chessrate.systems.glicko.glicko1", "GlickoGame"),
    "GlickoRating": ("chessrate.systems.glicko.glicko1", "GlickoRating"),
    "rate_glicko_period": ("chessrate.systems.glicko.glicko1", "rate_period"),
    "Glicko2Rating": ("chessrate.systems.glicko.glicko2", "Glicko2Rating"),
    "rate_glicko2_period": ("chessrate.systems.glicko.glicko2", "rate_period"),
    "LichessRating": ("chessrate.systems.glicko.lichess", "LichessRating"),
    "rate_lichess_games": ("chessrate.systems.glicko.lichess", "rate_games"),
    "rate_chesscom_period": ("chessrate.systems.glicko.chesscom", "rate_period"),
    # DWZ, US Chess, ECF
    "DwzGame": ("chessrate.systems.dwz.rating", "DwzGame"),
    "rate_dwz": ("chessrate.systems.dwz.rating", "rate"),
    "UscfGame": ("chessrate.systems.uscf.rating", "UscfGame"),
    "rate_uscf_event": ("chessrate.systems.uscf.rating", "rate_event"),
    "EcfGame": ("chessrate.systems.ecf.rating", "EcfGame"),
    "rate_ecf": ("chessrate.systems.ecf.rating", "rate"),
    # a tournament file, read and reported
    "read_tournament": ("chessrate.formats", "read_tournament"),
    "report_tournament": ("chessrate.tournament.report", "report_tournament"),
}


def __getattr__(name: str) -> object:
    if name == "__version__":  # read when asked: importlib.metadata costs milliseconds at start-up
        from importlib.metadata import version

        return version(__name__)
    home = _HOMES.get(name)
    if home is not None:
        return getattr(import_module(home[0]), home[1])
    # a subpackage or module (``chessrate.systems.elo.calculate``), as the eager imports made them reachable
    try:
        return import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{name}":
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


__all__ = [
    "AverageResult",
    "DwzGame",
    "EcfGame",
    "EloEvent",
    "EloGame",
    "FileFormatError",
    "Glicko2Rating",
    "GlickoGame",
    "GlickoRating",
    "InvalidInputError",
    "KFactor",
    "LichessRating",
    "PeriodResult",
    "PlayerProfile",
    "RatingError",
    "RuleSet",
    "RuleSetError",
    "TournamentResult",
    "UscfGame",
    "__version__",
    "rate_against_average",
    "rate_chesscom_period",
    "rate_dwz",
    "rate_ecf",
    "rate_elo_period",
    "rate_game",
    "rate_glicko2_period",
    "rate_glicko_period",
    "rate_lichess_games",
    "rate_tournament",
    "rate_uscf_event",
    "read_tournament",
    "report_tournament",
    "resolve_rule_set",
    "rule_set_from_toml",
]


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES, "__version__"])
