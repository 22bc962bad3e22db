"""K-factor selection (FIDE B.02 8.3.3) with the rule and article that decided it, and the 700 rule.

The rule that decided K is a code with its values (:data:`K_REASONS`), never a sentence: the words,
English included, are in the catalogs (:mod:`chessrate.service.explanations`, docs/codes.md).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from chessrate.errors import InvalidInputError
from chessrate.systems.fide.policy import (
    K_LINE_ORDER,
    UNKNOWN,
    KLine,
    exceeds_700_rule,
    is_junior,
    k_line_holds,
    k_of_line,
    k_under_700_rule,
)
from chessrate.systems.fide.regulations import FideRules, JuniorRule

ARTICLE_K = "FIDE B.02 8.3.3"


@dataclass(frozen=True, kw_only=True)
class PlayerProfile:
    """What the K rules need to know of a player; ``None`` where it is not known."""

    birth_year: int | None = None
    #: Games rated so far (all rated events before this one).
    rated_games: int | None = None
    #: Highest published rating so far.
    highest_rating: int | None = None


#: The rules that decide K, each a code, and the values it carries (besides ``k``).
K_REASONS = {
    "k-given": (),  # typed in by the user
    "k-everyone": ("rules",),  # one K for every player (a rule set's k_everyone)
    "k-rating-alone-established": ("limit",),  # no profile, rated `limit` or more
    "k-rating-alone-standard": ("limit",),  # no profile, rated below `limit`
    "k-established": ("limit",),  # B.02 8.3.3: a published rating has reached `limit`
    "k-junior-end-of-year": ("year", "limit"),  # until the end of the year of the 18th birthday
    "k-junior-birthday": ("year", "limit"),  # until the 18th birthday
    "k-new-player": ("games", "needed"),  # fewer than `needed` rated games
    "k-standard": ("limit", "games"),  # rated under `limit`, `games` rated games
    "k-standard-games-unknown": ("limit",),  # rated under `limit`, games taken as 30 or more
    "k-band": ("low", "high"),  # a club's band of ratings from `low` to `high`
    "k-band-top": ("low",),  # a club's band from `low` up
    "k-fide-list": ("list", "month"),  # a tournament's K from FIDE's list (tournament.report)
    "k-fide-list-in-force": (),  # a rating list's K from FIDE's list in force (ratinglist)
}

Params = tuple[tuple[str, int | str], ...]


@dataclass(frozen=True, kw_only=True)
class SevenHundredCut:
    """K cut by the 700 rule (B.02 8.3.3): ``k`` x ``games`` exceeded ``limit``."""

    k: int
    games: int
    limit: int


@dataclass(frozen=True, kw_only=True)
class KFactor:
    """A K-factor and why: the rule as a code (:data:`K_REASONS`) with its values, the article it
    comes from, and the 700 rule's cut when it applied."""

    k: int
    code: str
    params: Params = ()
    article: str
    cut: SevenHundredCut | None = None

    @property
    def values(self) -> dict[str, int | str]:
        """The reason's values, ``k`` (before any 700-rule cut) among them."""
        return {"k": self.cut.k if self.cut else self.k, **dict(self.params)}

    def reason_params(self) -> dict[str, object]:
        """The reason's values as JSON gives them (``k_params``, docs/codes.md): the code's own, and
        the 700 rule's cut (K before it, the games, the limit) under ``cut`` when it applied."""
        values: dict[str, object] = dict(self.params)
        if self.cut is not None:
            values["cut"] = {"k": self.cut.k, "games": self.cut.games, "limit": self.cut.limit}
        return values


def given_k(k: int) -> KFactor:
    """A K typed in by the user."""
    if k <= 0:
        raise InvalidInputError("k", k, "K is a whole number above zero", code="k")
    return KFactor(k=k, code="k-given", article="given")


def fide_k_factor(
    rating: Decimal | int, profile: PlayerProfile | None, *, rules: FideRules, day: dt.date
) -> KFactor:
    """K for a player of ``rating`` on ``day``, by the K rules of ``rules`` (B.02 8.3.3).

    The lines are tried in :data:`chessrate.systems.fide.policy.K_LINE_ORDER`, the first that holds giving K.
    "As long as their rating remains under 2300" is read as: no published rating of 2300 yet.
    """
    rating = Decimal(rating)
    if rules.k_everyone is not None:
        k = rules.k_everyone
        return KFactor(k=k, code="k-everyone", params=(("rules", rules.name),), article=rules.source)
    if profile is None:
        # No profile: the rating alone decides between 20 and 10; say so.
        limit = (("limit", rules.k_established_from),)
        if k_line_holds(KLine.ESTABLISHED, highest=rating, junior=False, rated_games=UNKNOWN, rules=rules):
            return KFactor(
                k=rules.k_established, code="k-rating-alone-established", params=limit, article=ARTICLE_K
            )
        return KFactor(k=rules.k_standard, code="k-rating-alone-standard", params=limit, article=ARTICLE_K)

    highest = max(rating, Decimal(profile.highest_rating or 0))
    born = UNKNOWN if profile.birth_year is None else profile.birth_year
    played = UNKNOWN if profile.rated_games is None else profile.rated_games
    junior = is_junior(born, day.year, rules)
    line = next(
        line
        for line in K_LINE_ORDER
        if k_line_holds(line, highest=highest, junior=junior, rated_games=played, rules=rules)
    )
    code, params = _line_reason(line, profile, rules)
    return KFactor(k=k_of_line(line, rules), code=code, params=params, article=ARTICLE_K)


def _line_reason(line: KLine, profile: PlayerProfile, rules: FideRules) -> tuple[str, Params]:
    """The code of the line of B.02 8.3.3 that gave K, and its values."""
    if line is KLine.ESTABLISHED:
        return "k-established", (("limit", rules.k_established_from),)
    if line is KLine.JUNIOR:
        code = (
            "k-junior-end-of-year"
            if rules.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY
            else "k-junior-birthday"
        )
        return code, (("year", profile.birth_year or 0), ("limit", rules.junior_rating_below))
    if line is KLine.NEW_PLAYER:
        return "k-new-player", (("games", profile.rated_games or 0), ("needed", rules.new_player_games))
    if profile.rated_games is None:
        return "k-standard-games-unknown", (("limit", rules.k_established_from),)
    return "k-standard", (("limit", rules.k_established_from), ("games", profile.rated_games))


def apply_700_rule(k: KFactor, games: int, *, max_k_times_games: int | None) -> KFactor:
    """K cut to the largest whole number with K x n <= 700 (B.02 8.3.3), n the games of the period."""
    if max_k_times_games is None or games == 0 or not exceeds_700_rule(k.k, games, max_k_times_games):
        return k
    cut = SevenHundredCut(k=k.k, games=games, limit=max_k_times_games)
    return dataclasses.replace(k, k=k_under_700_rule(games, max_k_times_games), cut=cut)
