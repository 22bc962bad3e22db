"""K-factor selection (FIDE B.02 8.3.3) with the rule and article that decided it, and the 700 rule."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from chessrate.errors import InvalidInputError
from chessrate.fide.rules import FideRules, JuniorRule

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

    The text gives no order between its four lines; we apply them in the order that best reproduces
    FIDE's published K over 19.6 million player-months [ZUGZWANG-K]:
    published 2400 once -> 10; junior under 2300 -> 40; fewer than 30 games -> 40; else 20.
    "As long as their rating remains under 2300" is read as: no published rating of 2300 yet.
    """
    rating = Decimal(rating)
    if profile is None:
        # No profile: the rating alone decides between 20 and 10; say so.
        if rating >= rules.k_established_from:
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
    if highest >= rules.k_established_from:
        return KFactor(
            k=rules.k_established,
            reason=f"K {rules.k_established}: a published rating has reached "
            f"{rules.k_established_from}; it stays 10 even if the rating drops",
            article=ARTICLE_K,
        )
    is_junior = profile.birth_year is not None and _is_junior(profile.birth_year, rules, day)
    if is_junior and highest < rules.junior_rating_below:
        until = (
            "until the end of the year of their 18th birthday"
            if rules.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY
            else "until their 18th birthday"
        )
        return KFactor(
            k=rules.k_junior,
            reason=f"K {rules.k_junior}: junior (born {profile.birth_year}) {until}, "
            f"rating under {rules.junior_rating_below}",
            article=ARTICLE_K,
        )
    if profile.rated_games is not None and profile.rated_games < rules.new_player_games:
        return KFactor(
            k=rules.k_new_player,
            reason=f"K {rules.k_new_player}: new to the list, {profile.rated_games} rated games "
            f"so far (fewer than {rules.new_player_games})",
            article=ARTICLE_K,
        )
    games = (
        f"{profile.rated_games} rated games"
        if profile.rated_games is not None
        else "rated games unknown, taken as 30 or more"
    )
    return KFactor(
        k=rules.k_standard,
        reason=f"K {rules.k_standard}: rating under {rules.k_established_from}, {games}",
        article=ARTICLE_K,
    )


def _is_junior(birth_year: int, rules: FideRules, day: dt.date) -> bool:
    if rules.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY:
        return day.year - birth_year <= 18
    # "until their 18th birthday": with the birth year only, the year of the 18th birthday is
    # taken as already past it (the day of the birthday is unknown).
    return day.year - birth_year < 18


def apply_700_rule(k: KFactor, games: int, *, max_k_times_games: int | None) -> KFactor:
    """K cut to the largest whole number with K x n <= 700 (B.02 8.3.3), n the games of the period."""
    if max_k_times_games is None or games == 0 or k.k * games <= max_k_times_games:
        return k
    reduced = max_k_times_games // games
    return KFactor(
        k=reduced,
        reason=f"{k.reason}; {k.k} x {games} games exceeds {max_k_times_games}, so K is "
        f"{reduced}, the largest whole number with K x {games} <= {max_k_times_games}",
        article=f"{k.article}; FIDE B.02 8.3.3 (700 rule)",
    )
