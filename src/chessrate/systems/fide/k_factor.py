"""K-factor selection (FIDE B.02 8.3.3) with the rule and article that decided it, and the 700 rule."""

from __future__ import annotations

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


@dataclass(frozen=True, kw_only=True)
class KFactor:
    """A K-factor and why: the rule in words, and the article it comes from."""

    k: int
    reason: str
    article: str


def given_k(k: int) -> KFactor:
    """A K typed in by the user."""
    if k <= 0:
        raise InvalidInputError("k", k, "K is a whole number above zero")
    return KFactor(k=k, reason=f"K {k} given", article="given")


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
        return KFactor(k=k, reason=f"K {k} for every player ({rules.name})", article=rules.source)
    if profile is None:
        # No profile: the rating alone decides between 20 and 10; say so.
        if k_line_holds(KLine.ESTABLISHED, highest=rating, junior=False, rated_games=UNKNOWN, rules=rules):
            k = rules.k_established
            why = f"rated {rules.k_established_from} or more"
        else:
            k = rules.k_standard
            why = f"rated below {rules.k_established_from}"
        return KFactor(
            k=k,
            reason=f"K {k}: {why}; profile unknown, so K from the rating alone "
            "(give birth year, rated games and highest rating for the full rule)",
            article=ARTICLE_K,
        )

    highest = max(rating, Decimal(profile.highest_rating or 0))
    born = UNKNOWN if profile.birth_year is None else profile.birth_year
    played = UNKNOWN if profile.rated_games is None else profile.rated_games
    junior = is_junior(born, day.year, rules)
    line = next(
        line
        for line in K_LINE_ORDER
        if k_line_holds(line, highest=highest, junior=junior, rated_games=played, rules=rules)
    )
    k = k_of_line(line, rules)
    return KFactor(k=k, reason=f"K {k}: {_line_reason(line, profile, rules)}", article=ARTICLE_K)


def _line_reason(line: KLine, profile: PlayerProfile, rules: FideRules) -> str:
    if line is KLine.ESTABLISHED:
        return (
            f"a published rating has reached {rules.k_established_from}; "
            f"it stays {rules.k_established} even if the rating drops"
        )
    if line is KLine.JUNIOR:
        until = (
            "until the end of the year of their 18th birthday"
            if rules.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY
            else "until their 18th birthday"
        )
        return f"junior (born {profile.birth_year}) {until}, rating under {rules.junior_rating_below}"
    if line is KLine.NEW_PLAYER:
        return (
            f"new to the list, {profile.rated_games} rated games so far (fewer than {rules.new_player_games})"
        )
    games = (
        f"{profile.rated_games} rated games"
        if profile.rated_games is not None
        else "rated games unknown, taken as 30 or more"
    )
    return f"rating under {rules.k_established_from}, {games}"


def apply_700_rule(k: KFactor, games: int, *, max_k_times_games: int | None) -> KFactor:
    """K cut to the largest whole number with K x n <= 700 (B.02 8.3.3), n the games of the period."""
    if max_k_times_games is None or games == 0 or not exceeds_700_rule(k.k, games, max_k_times_games):
        return k
    reduced = k_under_700_rule(games, max_k_times_games)
    return KFactor(
        k=reduced,
        reason=f"{k.reason}; {k.k} x {games} games exceeds {max_k_times_games}, so K is "
        f"{reduced}, the largest whole number with K x {games} <= {max_k_times_games}",
        article=f"{k.article}; FIDE B.02 8.3.3 (700 rule)",
    )
