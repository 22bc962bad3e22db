"""Rule sets: which expected score, which cap on the difference, which K, which rounding.

A :class:`RuleSet` is plain data. FIDE's on a given date is built from
:mod:`chessrate.systems.fide.regulations`;
plain Elo and club rule sets (K by rating band, from a TOML file) are in :mod:`chessrate.systems.elo.presets`.
The calculation itself is in :mod:`chessrate.systems.elo.calculate`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from chessrate.errors import InvalidInputError
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile, fide_k_factor
from chessrate.systems.fide.policy import cap_covers
from chessrate.systems.fide.regulations import CapScope, FideRules

#: FIDE's rule sets by name, and the list whose regulations each is: standard chess (B.02), and the
#: rapid and blitz chapter for the rapid and the blitz list (docs/fide.md, "Rapid and blitz").
FIDE_LISTS = {"fide": "standard", "fide-rapid": "rapid", "fide-blitz": "blitz"}


class Expected(StrEnum):
    """How the expected score of a game is found."""

    TABLE = "table"  # FIDE B.02 table 8.1.2, two decimals
    FORMULA = "formula"  # the logistic 1 / (1 + 10^(-D/400))


class Rounding(StrEnum):
    """When the rating change is rounded to a whole number."""

    PERIOD = "period"  # once per rating period (FIDE B.02 8.3.4)
    TOURNAMENT = "tournament"  # each tournament's change on its own


class CapMode(StrEnum):
    """The 400-point rule as a user option."""

    AUTO = "auto"  # as the rule set says (FIDE: by date and by the player's rating)
    ON = "on"  # a difference over 400 counts as 400, for everyone
    OFF = "off"  # the real difference, always


@dataclass(frozen=True, kw_only=True)
class DifferenceCap:
    """A rating difference larger than ``limit`` counts as ``limit`` (FIDE B.02 8.3.1)."""

    limit: int
    #: The cap applies only to players rated below this; None: to everyone.
    applies_below: int | None = None
    scope: CapScope = CapScope.EVERY_GAME

    def applies_to(self, rating: Decimal) -> bool:
        return bool(cap_covers(rating, self.applies_below))


@dataclass(frozen=True, kw_only=True)
class KBand:
    """K for ratings from ``from_rating`` up to the next band."""

    from_rating: int
    k: int


@dataclass(frozen=True, kw_only=True)
class KByRatingBand:
    """A club's K by rating category, such as the Ciabe club's 25/20/15/10 [CIABE]."""

    bands: tuple[KBand, ...]
    source: str

    def k_for(self, rating: Decimal, profile: PlayerProfile | None) -> KFactor:
        del profile  # a band rule looks at the rating only
        band = self.bands[0]
        for candidate in self.bands:
            if rating >= candidate.from_rating:
                band = candidate
        following = [b.from_rating for b in self.bands if b.from_rating > band.from_rating]
        if following:
            span = (("low", band.from_rating), ("high", following[0] - 1))
            return KFactor(k=band.k, code="k-band", params=span, article=self.source)
        return KFactor(k=band.k, code="k-band-top", params=(("low", band.from_rating),), article=self.source)


@dataclass(frozen=True, kw_only=True)
class FideKPolicy:
    """K by the FIDE rules of a version (B.02 8.3.3), for a day."""

    rules: FideRules
    day: dt.date

    def k_for(self, rating: Decimal, profile: PlayerProfile | None) -> KFactor:
        return fide_k_factor(rating, profile, rules=self.rules, day=self.day)


KPolicy = KByRatingBand | FideKPolicy


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """Everything a rating calculation needs to know besides the games."""

    name: str
    title: str
    source: str
    expected: Expected
    cap: DifferenceCap | None
    #: How K is chosen when the user gives none; None: the user must give K.
    k_policy: KPolicy | None
    #: The 700 rule (FIDE B.02 8.3.3); None: no limit.
    max_k_times_games: int | None
    rounding: Rounding
    #: The FIDE version behind this rule set, when it is FIDE's (initial ratings, floor).
    fide: FideRules | None = None
    #: The title and the source in other languages, by language code (a club's TOML ``titles``).
    titles: tuple[tuple[str, str], ...] = ()
    sources: tuple[tuple[str, str], ...] = ()

    @property
    def is_fide(self) -> bool:
        """Whether this is one of FIDE's named rule sets (:data:`FIDE_LISTS`)."""
        return self.fide is not None and self.name in FIDE_LISTS

    def title_in(self, language: str) -> str:
        """The title in ``language`` when the rule set gives one, else :attr:`title`."""
        return dict(self.titles).get(language, self.title)

    def source_in(self, language: str) -> str:
        """The source in ``language`` when the rule set gives one, else :attr:`source`."""
        return dict(self.sources).get(language, self.source)

    def with_expected(self, expected: Expected) -> RuleSet:
        return dataclasses.replace(self, expected=expected)

    def with_rounding(self, rounding: Rounding) -> RuleSet:
        return dataclasses.replace(self, rounding=rounding)

    def with_cap(self, mode: CapMode) -> RuleSet:
        """The rule set with the 400-point rule on for everyone, off, or as it is (``auto``)."""
        if mode is CapMode.OFF:
            return dataclasses.replace(self, cap=None)
        if mode is CapMode.ON:
            scope = self.cap.scope if self.cap else CapScope.EVERY_GAME
            limit = self.cap.limit if self.cap else 400
            return dataclasses.replace(self, cap=DifferenceCap(limit=limit, scope=scope))
        return self

    def k_for(self, rating: Decimal, profile: PlayerProfile | None) -> KFactor:
        if self.k_policy is None:
            reason = f"the rule set {self.name!r} needs K to be given"
            raise InvalidInputError("k", None, reason, code="rules-need-k", params={"rules": self.name})
        return self.k_policy.k_for(rating, profile)


def fide_rule_set(rules: FideRules, *, day: dt.date, name: str = "fide") -> RuleSet:
    """The FIDE regulations of ``rules`` as a rule set named ``name`` (``fide``, ``fide-rapid``,
    ``fide-blitz``: :data:`chessrate.systems.elo.presets.FIDE_LISTS`), K chosen as on ``day``."""
    cap = DifferenceCap(
        limit=rules.difference_cap, applies_below=rules.cap_applies_below, scope=rules.cap_scope
    )
    return RuleSet(
        name=name,
        title=f"{rules.name} (in force on {day.isoformat()})",
        source=rules.source,
        expected=Expected.TABLE,  # B.02 8.3.2 a): "Use table 8.1.2"
        cap=cap,
        k_policy=FideKPolicy(rules=rules, day=day),
        max_k_times_games=rules.max_k_times_games,
        rounding=Rounding.PERIOD,  # B.02 8.3.4
        fide=rules,
    )
