"""The FIDE Rating Regulations (Handbook B.02: standard chess, and its rapid and blitz chapter) as
dated data.

One frozen :class:`FideRules` per version, never edited once written: a rule change is a new object,
written as the previous version with what changed, so every past rating period stays computable.
:func:`rules_in_force` picks the version of a day for a list (standard, rapid or blitz).
Sources and article numbers are in each object; the tags in brackets are resolved, each with its
original publication, in docs/sources.md.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from bisect import bisect_right
from dataclasses import dataclass
from enum import StrEnum

from chessrate.errors import InvalidInputError


class JuniorRule(StrEnum):
    """How long the junior K of 40 lasts (B.02 8.3.3)."""

    NONE = "none"  # before 1 July 2014 the K lines have no junior line [SAMARA]
    UNTIL_18TH_BIRTHDAY = "until_18th_birthday"  # 2014 text: "until their 18th birthday"
    UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY = "until_end_of_year_of_18th_birthday"  # 2022 and later


class InitialRatingMethod(StrEnum):
    """How the first rating of an unrated player is computed (B.02 8.2)."""

    # Ra = average of rated opponents; 50 % -> Ra; above 50 % -> Ra + 20 per half point over
    # 50 %; below 50 % -> Ra + dp ([FIDE-RR-2014], [FIDE-RR-2022 §8.2.3]).
    AVERAGE_PLUS_20_PER_HALF_POINT = "average_plus_20_per_half_point"
    # Ra and p with two hypothetical draws against 1800-rated opponents; Ru = Ra + dp (2024 text).
    TWO_HYPOTHETICAL_1800_DRAWS = "two_hypothetical_1800_draws"
    # 2008-2011: "the value of 0.5 point in a new player's rating calculation will stay as 12.5 (half
    # of the highest K value)" [FIDE09]: Ra at 50 %, Ra + 12.5 per half point over 50 %; the text
    # for a score below 50 % was not read, so none is computed (docs/fide.md).
    AVERAGE_PLUS_12_5_PER_HALF_POINT = "average_plus_12_5_per_half_point"
    # 1 July 2011 - 30 June 2014: the Handbook of the time was not read; nothing is computed.
    NOT_KNOWN = "not_known"


class CapScope(StrEnum):
    """Which games of a tournament the 400-point rule applies to (B.02 8.3.1)."""

    EVERY_GAME = "every_game"
    # 2022 text: "a player may benefit from only one upgrade under this rule, for the game in
    # which the rating difference is greatest."
    ONE_GAME_PER_TOURNAMENT = "one_game_per_tournament"


@dataclass(frozen=True, kw_only=True)
class FideRules:
    """One version of the FIDE Rating Regulations for standard chess."""

    name: str
    effective_from: dt.date
    source: str

    # 8.3.1 the 400-point rule: a larger difference counts as ``difference_cap``...
    difference_cap: int
    cap_scope: CapScope
    # ...for players rated below this (None: for everyone).
    cap_applies_below: int | None

    # 8.3.3 K-factors.
    k_new_player: int
    new_player_games: int
    k_junior: int
    junior_rule: JuniorRule
    junior_rating_below: int
    k_standard: int
    k_established: int
    k_established_from: int
    # 8.3.3 the 700 rule; None where the version's text does not have it.
    max_k_times_games: int | None

    # 7.1.4 and 8.2: the initial rating of an unrated player.
    initial_rating_method: InitialRatingMethod
    initial_rating_min_games: int
    initial_rating_max: int | None
    # 7.1.4 / 7.2.1: the lowest rating published; None where the text of the time was not read.
    rating_floor: int | None

    # The rapid and blitz chapter (one for both lists), not standard chess.
    rapid_and_blitz: bool = False
    # Rapid and blitz before 1 October 2022: one K for every player (None: the K lines above).
    k_everyone: int | None = None
    # Rapid and blitz 8.3.1 from 1 December 2024: a game with a difference of ``not_rated_difference``
    # or more is not rated when a player is rated above ``not_rated_above`` (None: every game is).
    not_rated_difference: int | None = None
    not_rated_above: int | None = None
    # Rapid and blitz 7.2.1 (2024 chapter): "If an unrated player has a standard rating at the beginning
    # of a rapid or blitz tournament, their standard rating is used for rating calculation. Such a
    # player is considered to be rated" [FIDE-RR-RB-2024 §7.2.1].
    standard_rating_for_unrated: bool = False


# The rules before 1 July 2014, kept from 1 July 2008 (docs/fide.md, "Before 1 July 2014"). The
# chapters of the time are not read whole: each value below cites what was read, and what was not
# read is None or NOT_KNOWN, never guessed.
# 1 July 2008: K 25 new to the list (until 30 games), 15 below 2400, 10 once 2400 is reached
# [SAMARA][PR][CELO14]; the 350-point rule on every game [CELO400][VBHAT]; a first rating from 9
# games [FIDE-RR-2008 §9.14], Ra + 12.5 per half point over 50 % [FIDE09]; the floor of 2008 is not
# read (the 2008 text gives only the one "after 1.7.2009": 1200 [FIDE-RR-2008 §0.6]).
FIDE_2008_07 = FideRules(
    name="FIDE 2008-07-01",
    effective_from=dt.date(2008, 7, 1),
    source="FIDE Rating Regulations as amended through 2008, K 25/15/10, 350-point rule "
    "[FIDE-RR-2008][SAMARA][PR][CELO400][FIDE09]",
    difference_cap=350,
    cap_scope=CapScope.EVERY_GAME,
    cap_applies_below=None,
    k_new_player=25,
    new_player_games=30,
    k_junior=25,
    junior_rule=JuniorRule.NONE,
    junior_rating_below=2300,
    k_standard=15,
    k_established=10,
    k_established_from=2400,
    max_k_times_games=None,
    initial_rating_method=InitialRatingMethod.AVERAGE_PLUS_12_5_PER_HALF_POINT,
    initial_rating_min_games=9,
    initial_rating_max=None,
    rating_floor=None,
)

# 1 July 2009: "a difference in rating of more than 400 points shall be counted ... as though it were
# a difference of 400 points" replaces the 350-point rule [FIDE09][CELO400]; floor 1200 [FIDE-RR-2008
# §0.6]; "The K values stay as they are", the half point of a new player "will stay as 12.5" [FIDE09].
FIDE_2009_07 = dataclasses.replace(
    FIDE_2008_07,
    name="FIDE 2009-07-01",
    effective_from=dt.date(2009, 7, 1),
    source="FIDE Rating Regulations from 1 July 2009: 400-point rule, floor 1200 [FIDE09][FIDE-RR-2008 §0.6]",
    difference_cap=400,
    rating_floor=1200,
)

# 1 July 2011: K 30 for a player new to the list (K 30/15/10) [SAMARA][PR]; changes take effect on
# 1 July [FIDE-RR-2008 §0.1]. The initial-rating text of 2011-2014 was not read.
FIDE_2011_07 = dataclasses.replace(
    FIDE_2009_07,
    name="FIDE 2011-07-01",
    effective_from=dt.date(2011, 7, 1),
    source="FIDE Handbook B.02 from 1 July 2011, article 8.56: K 30/15/10 [SAMARA][PR]",
    k_new_player=30,
    k_junior=30,
    initial_rating_method=InitialRatingMethod.NOT_KNOWN,
)

# 1 July 2012: the lowest published rating is 1000 [CE11][ECF11].
FIDE_2012_07 = dataclasses.replace(
    FIDE_2011_07,
    name="FIDE 2012-07-01",
    effective_from=dt.date(2012, 7, 1),
    source="FIDE Handbook B.02 from 1 July 2012: floor 1000 [CE11][ECF11]; K 30/15/10 [SAMARA]",
    rating_floor=1000,
)

# FIDE Handbook B.02, chapter effective from 1 July 2014 till 30 June 2017 (the 2017 chapter,
# in force till 31 December 2021, is treated as identical: its differences are not established,
# [FIDE-RR-2014]). K = 40/20/10 and the junior K from this date [SAMARA][CXP14]; 400-point rule
# for every game [CELO14]; initial rating from 5 games, floor 1000 [USCFD14][AICF][CE11].
# The 700 rule is not in the 2014 text as quoted [SAMARA]: it is applied from 2022 here.
FIDE_2014_07 = FideRules(
    name="FIDE 2014-07-01",
    effective_from=dt.date(2014, 7, 1),
    source="FIDE Handbook B.02 (2014), articles 7.1.4, 8.2, 8.54-8.56 [FIDE-RR-2014]",
    difference_cap=400,
    cap_scope=CapScope.EVERY_GAME,
    cap_applies_below=None,
    k_new_player=40,
    new_player_games=30,
    k_junior=40,
    junior_rule=JuniorRule.UNTIL_18TH_BIRTHDAY,
    junior_rating_below=2300,
    k_standard=20,
    k_established=10,
    k_established_from=2400,
    max_k_times_games=None,
    initial_rating_method=InitialRatingMethod.AVERAGE_PLUS_20_PER_HALF_POINT,
    initial_rating_min_games=5,
    initial_rating_max=None,
    rating_floor=1000,
)

# FIDE Handbook B022022, effective from 1 January 2022 till 29 February 2024 [FIDE-RR-2022][CE21]:
# the 400-point rule for one game per tournament; the 700 rule and the junior K to the end of
# the year of the 18th birthday [SSM][CODE-K22]; the round-robin initial-rating method removed.
FIDE_2022_01 = dataclasses.replace(
    FIDE_2014_07,
    name="FIDE 2022-01-01",
    effective_from=dt.date(2022, 1, 1),
    source="FIDE Handbook B022022, articles 7.1.4, 8.2, 8.3.1, 8.3.3 [FIDE-RR-2022]",
    cap_scope=CapScope.ONE_GAME_PER_TOURNAMENT,
    junior_rule=JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY,
    max_k_times_games=700,
)

# FIDE Handbook B022024, "Applied from 1 March, 2024" [FIDE-RR-2024][QC24]: the 400-point rule for every
# game again; initial rating with two hypothetical 1800 draws, at most 2200; floor 1400.
FIDE_2024_03 = dataclasses.replace(
    FIDE_2022_01,
    name="FIDE 2024-03-01",
    effective_from=dt.date(2024, 3, 1),
    source="FIDE Handbook B022024, articles 7.1.4, 7.2.1, 8.2, 8.3.1-8.3.4 [FIDE-RR-2024]",
    cap_scope=CapScope.EVERY_GAME,
    initial_rating_method=InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS,
    initial_rating_max=2200,
    rating_floor=1400,
)

# B022024 8.3.1 as amended "Effective from 1 October 2025": the 400-point rule only "for players
# rated below 2650" [FIDE-RR-2024][CB25][OFN][TT].
FIDE_2025_10 = dataclasses.replace(
    FIDE_2024_03,
    name="FIDE 2025-10-01",
    effective_from=dt.date(2025, 10, 1),
    source="FIDE Handbook B022024 as amended 1 October 2025, article 8.3.1 [FIDE-RR-2024 §8.3.1]",
    cap_applies_below=2650,
)

#: Every version, oldest first.
FIDE_RULES: tuple[FideRules, ...] = (
    FIDE_2008_07,
    FIDE_2009_07,
    FIDE_2011_07,
    FIDE_2012_07,
    FIDE_2014_07,
    FIDE_2022_01,
    FIDE_2024_03,
    FIDE_2025_10,
)

# The rapid and blitz chapter (B02RB), kept from 1 January 2022, when it was "brought into line
# with the Standard rating system (eg the 400 point rule applies here as well)" [CE21]: the 400-point
# rule for one game per tournament, the initial rating and floor as in standard chess; but "K=20
# for everyone" until 1 October 2022, cut by the 700 rule beyond 35 games [SCAC].
FIDE_RB_2022_01 = dataclasses.replace(
    FIDE_2022_01,
    name="FIDE rapid and blitz 2022-01-01",
    source="FIDE Handbook B.02 rapid and blitz chapter of 2022, articles 8.3.1, 8.3.3 [CE21][SCAC]",
    rapid_and_blitz=True,
    k_everyone=20,
)

# From 1 October 2022 the K rules of standard chess (B02RBRegulations202210) [SCAC][SSM].
FIDE_RB_2022_10 = dataclasses.replace(
    FIDE_2022_01,
    name="FIDE rapid and blitz 2022-10-01",
    effective_from=dt.date(2022, 10, 1),
    source="FIDE Handbook B02RBRegulations202210, article 8.3.3 [SCAC][SSM]",
    rapid_and_blitz=True,
)

# From 1 March 2024 as standard chess (initial rating, floor 1400, the 400-point rule on every game)
# [FIDE-RR-RB-2024][QC24]; the 2650 exemption of 1 October 2025 is not in this chapter.
FIDE_RB_2024_03 = dataclasses.replace(
    FIDE_2024_03,
    name="FIDE rapid and blitz 2024-03-01",
    source="FIDE Handbook B02RBRegulations2024, articles 7.1.4, 7.2.1, 8.2, 8.3.1-8.3.4 [FIDE-RR-RB-2024]",
    rapid_and_blitz=True,
    standard_rating_for_unrated=True,
)

# B02RBRegulations2024 8.3.1: "Effective from 1 December 2024: Games played between players with a
# rating difference of 600 points or more shall not be rated if at least one of the players is
# rated above 2600 on the relevant list." [FIDE-RR-RB-2024]
FIDE_RB_2024_12 = dataclasses.replace(
    FIDE_RB_2024_03,
    name="FIDE rapid and blitz 2024-12-01",
    effective_from=dt.date(2024, 12, 1),
    source="FIDE Handbook B02RBRegulations2024 as amended 1 December 2024, article 8.3.1 [FIDE-RR-RB-2024]",
    not_rated_difference=600,
    not_rated_above=2600,
)

#: The rapid and blitz versions (one chapter for both lists), oldest first.
FIDE_RB_RULES: tuple[FideRules, ...] = (FIDE_RB_2022_01, FIDE_RB_2022_10, FIDE_RB_2024_03, FIDE_RB_2024_12)

#: The lists FIDE rates, and the versions of each.
RULES_BY_LIST: dict[str, tuple[FideRules, ...]] = {
    "standard": FIDE_RULES,
    "rapid": FIDE_RB_RULES,
    "blitz": FIDE_RB_RULES,
}

#: The one-time adjustment of 1 March 2024: R + 0.40 x (2000 - R) for ratings below 2000
#: [FIDE-PROP][C4355][QC24].
ADJUSTMENT_2024_DAY = dt.date(2024, 3, 1)


def versions_of(list_type: str) -> tuple[FideRules, ...]:
    """The versions kept for ``list_type`` (standard, rapid or blitz), oldest first."""
    if list_type not in RULES_BY_LIST:
        raise InvalidInputError(
            "list_type", list_type, "a list is standard, rapid or blitz", code="list-type"
        )
    return RULES_BY_LIST[list_type]


def rules_in_force(day: dt.date, list_type: str = "standard") -> FideRules:
    """The version of the regulations in force on ``day`` for ``list_type``."""
    versions = versions_of(list_type)
    index = bisect_right([rules.effective_from for rules in versions], day) - 1
    if index < 0:
        first = versions[0].effective_from
        raise InvalidInputError(
            "as_of",
            day.isoformat(),
            f"{list_type} rules are known from {first} on",
            code="rules-known-from",
            params={"list": list_type, "first": first.isoformat()},
        )
    return versions[index]
