"""FIDE policy both engines apply: the K lines in order, the junior age, the 700 rule and the
400-point rule's reach and choice of game (FIDE Handbook B.02 8.3.1, 8.3.3).

Each rule is written once, with operators only (comparisons, ``&``, ``//``, ``abs``), so the same
function takes one player's numbers (the scalar path: :mod:`chessrate.systems.fide.k_factor`,
:mod:`chessrate.systems.elo.calculate`; it answers a ``bool``) or numpy arrays of every player
(:mod:`chessrate.bulk.elo`; an array of booleans): the ``@overload``s say which gives which.
A value of -1 means "not known" for a birth year or a count of rated games.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, overload

from chessrate.systems.fide.regulations import FideRules, JuniorRule

if TYPE_CHECKING:  # numpy is loaded by the bulk engine only, never for one player
    import numpy as np
    from numpy.typing import NDArray

    #: Every player's whole numbers (ratings, birth years, counts), and a condition for each.
    Wholes: TypeAlias = NDArray[np.integer[Any]]
    Conditions: TypeAlias = NDArray[np.bool_]

#: One player's rating or difference: whole, or a Decimal (an average opponent).
Rating: TypeAlias = int | Decimal
#: The implementations below are checked once for each kind of number they take.
_Number = TypeVar("_Number", int | Decimal, "Wholes")
_Whole = TypeVar("_Whole", int, "Wholes")
_Value = TypeVar("_Value", int, Decimal, "Wholes")  # where abs() is taken: int and Decimal apart

UNKNOWN = -1


class KLine(StrEnum):
    """The four lines of B.02 8.3.3, each with its text (B022024; the same in B022022)."""

    # "K = 10 once a player's published rating has reached 2400 and remains at that level subsequently,
    # even if the rating drops below 2400."
    ESTABLISHED = "established"
    # "K = 40 for all players until the end of the year of their 18th birthday, as long as their rating
    # remains under 2300." (2014: "until their 18th birthday")
    JUNIOR = "junior"
    # "K = 40 for a player new to the rating list until they have completed events with at least 30 games."
    NEW_PLAYER = "new_player"
    # "K = 20 as long as a player's rating remains under 2400."
    STANDARD = "standard"


#: The text gives no order between its lines; the first that holds gives K, in the order that best
#: reproduces FIDE's published K (docs/fide.md, "Order of the K lines"): established, junior, new, standard.
K_LINE_ORDER: tuple[KLine, ...] = (KLine.ESTABLISHED, KLine.JUNIOR, KLine.NEW_PLAYER, KLine.STANDARD)


def k_of_line(line: KLine, rules: FideRules) -> int:
    """The K a line gives under ``rules``."""
    return {
        KLine.ESTABLISHED: rules.k_established,
        KLine.JUNIOR: rules.k_junior,
        KLine.NEW_PLAYER: rules.k_new_player,
        KLine.STANDARD: rules.k_standard,
    }[line]


@overload
def is_junior(birth_year: int, year: int, rules: FideRules) -> bool: ...
@overload
def is_junior(birth_year: Wholes, year: int, rules: FideRules) -> Conditions: ...
def is_junior(birth_year: _Whole, year: int, rules: FideRules) -> bool | Conditions:
    """Whether a player born in ``birth_year`` (-1: unknown) is a junior in ``year`` (B.02 8.3.3).

    2022 and later: "until the end of the year of their 18th birthday"; 2014: "until their 18th
    birthday", which with the birth year only is taken as past in the year of the birthday.
    """
    age = year - birth_year
    young = age <= 18 if rules.junior_rule is JuniorRule.UNTIL_END_OF_YEAR_OF_18TH_BIRTHDAY else age < 18
    if rules.junior_rule is JuniorRule.NONE:  # before 1 July 2014: no junior line [SAMARA]
        young = age < 0
    return (birth_year >= 0) & young


@overload
def k_line_holds(
    line: KLine, *, highest: Rating, junior: bool, rated_games: int, rules: FideRules
) -> bool: ...
@overload
def k_line_holds(
    line: KLine, *, highest: Wholes, junior: bool | Conditions, rated_games: int | Wholes, rules: FideRules
) -> bool | Conditions: ...
def k_line_holds(
    line: KLine,
    *,
    highest: _Number,
    junior: bool | Conditions,
    rated_games: int | Wholes,
    rules: FideRules,
) -> bool | Conditions:
    """Whether ``line`` holds for a player: ``highest`` is the highest of the rating and every
    published rating, ``junior`` from :func:`is_junior`, ``rated_games`` the games rated so far (-1:
    unknown, taken as 30 or more)."""
    if line is KLine.ESTABLISHED:
        return highest >= rules.k_established_from
    if line is KLine.JUNIOR:
        return junior & (highest < rules.junior_rating_below)
    if line is KLine.NEW_PLAYER:
        return (rated_games >= 0) & (rated_games < rules.new_player_games)
    return True


@overload
def exceeds_700_rule(k: int, games: int, max_k_times_games: int) -> bool: ...
@overload
def exceeds_700_rule(k: Wholes, games: Wholes, max_k_times_games: int) -> Conditions: ...
def exceeds_700_rule(k: _Whole, games: _Whole, max_k_times_games: int) -> bool | Conditions:
    """B022024 8.3.3: "If the number of games (n) for a player on any list for a rating period
    multiplied by K (as defined above) exceeds 700, then K shall be the largest whole number such that
    K x n does not exceed 700." ``games`` is n, the games of the whole rating period."""
    return k * games > max_k_times_games


@overload
def k_under_700_rule(games: int, max_k_times_games: int) -> int: ...
@overload
def k_under_700_rule(games: Wholes, max_k_times_games: int) -> Wholes: ...
def k_under_700_rule(games: _Whole, max_k_times_games: int) -> int | Wholes:
    """The largest whole K with K x games <= 700 (games above zero)."""
    return max_k_times_games // games


@overload
def cap_covers(rating: Rating, applies_below: int | None) -> bool: ...
@overload
def cap_covers(rating: Wholes, applies_below: int) -> Conditions: ...
@overload
def cap_covers(rating: Wholes, applies_below: None) -> bool: ...
def cap_covers(rating: _Number, applies_below: int | None) -> bool | Conditions:
    """Whether the 400-point rule covers a player of ``rating`` (B.02 8.3.1; from 1 October 2025
    "for players rated below 2650"; before, everyone)."""
    return True if applies_below is None else rating < applies_below


@overload
def over_cap(difference: int, limit: int) -> bool: ...
@overload
def over_cap(difference: Decimal, limit: int) -> bool: ...
@overload
def over_cap(difference: Wholes, limit: int) -> Conditions: ...
def over_cap(difference: _Value, limit: int) -> bool | Conditions:
    """B.02 8.3.1: "A difference in rating of more than 400 points shall be counted for rating purposes
    as though it were a difference of 400 points" (``limit`` is the 400)."""
    return abs(difference) > limit


@overload
def game_not_rated(rating: int, opponent: int, rules: FideRules) -> bool: ...
@overload
def game_not_rated(rating: Decimal, opponent: Decimal, rules: FideRules) -> bool: ...
@overload
def game_not_rated(rating: Wholes, opponent: Wholes, rules: FideRules) -> bool | Conditions: ...
def game_not_rated(rating: _Value, opponent: _Value, rules: FideRules) -> bool | Conditions:
    """Rapid and blitz 8.3.1 from 1 December 2024: "Games played between players with a rating
    difference of 600 points or more shall not be rated if at least one of the players is rated
    above 2600 on the relevant list"; False under the versions without that sentence."""
    gap, above = rules.not_rated_difference, rules.not_rated_above
    if gap is None or above is None:
        return False
    return (abs(rating - opponent) >= gap) & ((rating > above) | (opponent > above))


@overload
def capped_game_preference(difference: int, game: int) -> tuple[int, int]: ...
@overload
def capped_game_preference(difference: Decimal, game: int) -> tuple[Decimal, int]: ...
@overload
def capped_game_preference(difference: Wholes, game: Wholes) -> tuple[Wholes, Wholes]: ...
def capped_game_preference(difference: _Value, game: int | Wholes) -> tuple[Rating | Wholes, int | Wholes]:
    """The sort key that puts first the game the 2022 rule caps in a tournament: "a player may
    benefit from only one upgrade under this rule, for the game in which the rating difference is
    greatest" (B022022 8.3.1); on a tie the first such game."""
    return -abs(difference), game
