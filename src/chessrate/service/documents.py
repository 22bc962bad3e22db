"""The JSON documents of the Elo calculations: one shape for ``--json`` and the API.

Each document is a plain dataclass built from a result and the :class:`Translator` of the user's
language (the command line's is English). The Glicko and tournament-file documents are beside
their calculations, in :mod:`chessrate.service.glicko` and
:mod:`chessrate.service.tournament_file`. The API declares them as its response models, so its
OpenAPI schema is typed; the command line prints :func:`to_json` of the same document. Numbers are
JSON numbers: a whole value stays whole (``1817``), any other is a float (``17.25``). The keys
are public: ``docs/architecture.md`` lists the renames. Documents are records to print, built once:
no comparison or freezing (each costs the command line's start a little).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from chessrate.comparisons import stakes
from chessrate.service import explanations
from chessrate.service.elo import KFactorResult, PerformanceResult
from chessrate.service.language import Translator
from chessrate.service.options import Options
from chessrate.systems.elo.calculate import (
    AverageResult,
    EventWorking,
    GameWorking,
    PeriodResult,
    TournamentResult,
)
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.performance import InitialRating
from chessrate.systems.fide.regulations import FideRules
from chessrate.systems.fide.tables import DP_TABLE_UPPER_HALF, PD_TABLE

#: A JSON number.
Number = int | float


def number(value: Decimal | float | int) -> Number:
    """A Decimal as a JSON number: whole values stay whole, others become floats.

    >>> number(Decimal("1817.00")), number(Decimal("17.25"))
    (1817, 17.25)
    """
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def whole_or_float(value: float) -> Number:
    """A float as a JSON number: 1515.0 as 1515."""
    return int(value) if float(value).is_integer() else value


def maybe(value: Decimal | float | int | None) -> Number | None:
    return None if value is None else number(value)


def to_json(document: Any) -> str:
    """A document (or a list of them) as indented JSON text, non-ASCII kept."""
    plain = document if isinstance(document, list) else dataclasses.asdict(document)
    return json.dumps(plain, ensure_ascii=False, indent=2)


def json_bytes(document: Any) -> bytes:
    """:func:`to_json`'s text in UTF-8, for a big document (a tournament report: 44 MB for 70,000
    games), written by pydantic-core (FastAPI's serializer) from the dataclasses as they are, some
    ten times faster than ``asdict`` and the stdlib's indenting encoder. Its import costs about
    30 ms, which a one-game answer does not pay (``docs/architecture.md``, start-up).

    Only a float below 0.0001 is written without an exponent (``0.00001``, not ``1e-05``: the
    same number). Text it cannot write (a lone surrogate, as in a file name that is not UTF-8) goes
    through the stdlib, escaped as JSON escapes it (``\\udc80``).
    """
    import pydantic_core

    try:
        return pydantic_core.to_json(document, indent=2)
    except pydantic_core.PydanticSerializationError:
        return to_json(document).encode("utf-8", errors="backslashreplace")


# --- the points at stake ---------------------------------------------------------------------------


@dataclass(kw_only=True, eq=False)
class OutcomeDocument:
    score: Number
    change: float
    new_rating: Number
    opponent_change: float
    opponent_new_rating: Number


@dataclass(kw_only=True, eq=False)
class StakesDocument:
    system: str
    rating: Number
    opponent: Number
    expected: float
    win: OutcomeDocument
    draw: OutcomeDocument
    loss: OutcomeDocument
    zero_sum: bool


def _outcome(outcome: stakes.Outcome) -> OutcomeDocument:
    return OutcomeDocument(
        score=whole_or_float(outcome.score),
        change=outcome.change,
        new_rating=whole_or_float(outcome.new_rating),
        opponent_change=outcome.opponent_change,
        opponent_new_rating=whole_or_float(outcome.opponent_new_rating),
    )


def stakes_document(result: stakes.Stakes) -> StakesDocument:
    return StakesDocument(
        system=result.system,
        rating=whole_or_float(result.rating),
        opponent=whole_or_float(result.opponent),
        expected=result.expected,
        win=_outcome(result.win),
        draw=_outcome(result.draw),
        loss=_outcome(result.loss),
        zero_sum=result.zero_sum,
    )


# --- the Elo calculations -------------------------------------------------------------------------


@dataclass(kw_only=True, eq=False)
class RuleSetDocument:
    name: str
    #: In the user's language: ``FIDE rules of 1 October 2025``.
    title: str
    source: str
    expected: str
    cap: int | None
    cap_applies_below: int | None
    rounding: str


def rules_id(rules: RuleSet) -> str:
    """A rule set's name, the same in every language: FIDE's by its version (``FIDE 2025-10-01``)."""
    return rules.fide.name if rules.fide is not None and rules.is_fide else rules.name


def rule_set_document(rules: RuleSet, t: Translator) -> RuleSetDocument:
    return RuleSetDocument(
        name=rules.name,
        title=explanations.rule_set_title(rules, t),
        source=rules.source,
        expected=rules.expected.value,
        cap=None if rules.cap is None else rules.cap.limit,
        cap_applies_below=None if rules.cap is None else rules.cap.applies_below,
        rounding=rules.rounding.value,
    )


@dataclass(kw_only=True, eq=False)
class GameDocument:
    opponent: Number
    raw_difference: Number
    difference: Number
    capped: bool
    expected: Number
    score: Number | None
    change: Number | None
    #: The game in words, in the user's language (None without a result).
    explanation: str | None


def game_document(game: GameWorking, k: int, t: Translator) -> GameDocument:
    return GameDocument(
        opponent=number(game.opponent),
        raw_difference=number(game.raw_difference),
        difference=number(game.difference),
        capped=game.capped,
        expected=number(game.expected),
        score=maybe(game.score),
        change=maybe(game.change),
        explanation=explanations.game_story(game, k, t) or None,
    )


@dataclass(kw_only=True, eq=False)
class EventDocument:
    name: str | None
    start_rating: Number
    games: list[GameDocument]
    score: Number
    expected: Number
    change: Number
    rounded_change: int


@dataclass(kw_only=True, eq=False)
class EloDocument:
    """What every Elo answer has: the rules, K and why, the change."""

    #: The rule set's title in the user's language, as the pages show it (``rule_set.title``).
    rules: str
    #: The rule set, the same in every language: ``FIDE 2025-10-01``, ``ciabe``, ``elo``, a club's name.
    rules_id: str
    rule_set: RuleSetDocument
    #: Whether the 400-point rule applies, and why, in the user's language.
    cap_note: str
    k: int
    #: Why K is what it is: the reason's code (docs/codes.md) and its values; its article in the
    #: user's language (``FIDE B.02 8.3.3``).
    k_reason: str
    k_params: dict[str, object]
    k_article: str
    #: ``k_reason`` in words, in the user's language.
    k_explanation: str
    rating: Number
    expected: Number
    change: Number
    rounded_change: int
    new_rating: Number
    #: The points at stake in one more game against the opponent (or the average opponent), with
    #: the same K for both players: what a win, a draw and a loss would do.
    stakes: StakesDocument | None = None
    #: The opponents of the games left out as not rated (FIDE rapid and blitz 8.3.1, from
    #: 1 December 2024), and why, in the user's language (None: every game was rated).
    not_rated: list[Number] = field(default_factory=list)
    not_rated_note: str | None = None


def _stakes(rating: Decimal, opponent: Decimal, rules: RuleSet, k: int) -> StakesDocument:
    return stakes_document(stakes.elo_stakes(rating, opponent, rules=rules, k=k))


def _elo(result: PeriodResult | AverageResult, options: Options, t: Translator) -> dict[str, Any]:
    left_out = result.not_rated if isinstance(result, PeriodResult) else ()
    return {
        "not_rated": [number(game.opponent) for game in left_out],
        "not_rated_note": explanations.not_rated_note(left_out, result.rules, t),
        "rules": explanations.rule_set_title(result.rules, t),
        "rules_id": rules_id(result.rules),
        "rule_set": rule_set_document(result.rules, t),
        "cap_note": explanations.cap_note(options, result.rating, t),
        "k": result.k.k,
        "k_reason": result.k.code,
        "k_params": result.k.reason_params(),
        "k_article": explanations.k_article(result.k, t, result.rules),
        "k_explanation": explanations.k_reason(result.k, t),
        "rating": number(result.rating),
        "expected": number(result.expected),
        "change": number(result.change),
        "rounded_change": result.rounded_change,
        "new_rating": number(result.new_rating),
    }


@dataclass(kw_only=True, eq=False)
class AverageDocument(EloDocument):
    games: int
    points: Number
    average_opponent: Number
    difference: Number
    capped: bool
    expected_per_game: Number


def average_document(result: AverageResult, options: Options, t: Translator) -> AverageDocument:
    return AverageDocument(
        **_elo(result, options, t),
        games=result.games,
        points=number(result.points),
        average_opponent=number(result.average_opponent),
        difference=number(result.difference),
        capped=result.capped,
        expected_per_game=number(result.expected_per_game),
        stakes=_stakes(result.rating, result.average_opponent, result.rules, result.k.k),
    )


@dataclass(kw_only=True, eq=False)
class PeriodDocument(EloDocument):
    #: The number of games of the period.
    games: int
    score: Number
    rounding: str
    events: list[EventDocument]


def period_document(result: PeriodResult, options: Options, t: Translator) -> PeriodDocument:
    return PeriodDocument(
        **_elo(result, options, t),
        games=result.games,
        score=number(result.score),
        rounding=result.rules.rounding.value,
        events=[_event(event, result.k.k, t) for event in result.events],
        stakes=_stakes(result.rating, _average_opponent(result), result.rules, result.k.k),
    )


def _average_opponent(result: PeriodResult) -> Decimal:
    opponents = [game.opponent for event in result.events for game in event.games]
    return sum(opponents, Decimal(0)) / len(opponents)


def _event(event: EventWorking, k: int, t: Translator) -> EventDocument:
    return EventDocument(
        name=event.name,
        start_rating=number(event.start_rating),
        games=[game_document(game, k, t) for game in event.games],
        score=number(event.score),
        expected=number(event.expected),
        change=number(event.change),
        rounded_change=event.rounded_change,
    )


@dataclass(kw_only=True, eq=False)
class TournamentDocument(EloDocument):
    games: list[GameDocument]
    game_count: int
    score: Number
    average_opponent: Number
    #: FIDE's performance Ra + dp (table 8.1.1), its dp and p, and the logistic one.
    performance: int
    performance_dp: int
    performance_fractional_score: Number
    performance_logistic: float | None


def _tournament(result: TournamentResult, options: Options, t: Translator) -> dict[str, Any]:
    period = result.period
    return {
        **_elo(period, options, t),
        "games": [game_document(game, period.k.k, t) for game in result.event.games],
        "game_count": period.games,
        "score": number(period.score),
        "average_opponent": number(result.average_opponent),
        "performance": result.performance.rating,
        "performance_dp": result.performance.dp,
        "performance_fractional_score": number(result.performance.fractional_score),
        "performance_logistic": result.logistic_performance,
        "stakes": _stakes(period.rating, result.average_opponent, period.rules, period.k.k),
    }


def tournament_document(result: TournamentResult, options: Options, t: Translator) -> TournamentDocument:
    return TournamentDocument(**_tournament(result, options, t))


@dataclass(kw_only=True, eq=False)
class OneGameDocument(TournamentDocument):
    """A tournament of one game, with that game's working also at the top."""

    opponent: Number
    raw_difference: Number
    difference: Number
    capped: bool


def one_game_document(result: TournamentResult, options: Options, t: Translator) -> OneGameDocument:
    played = result.event.games[0]
    return OneGameDocument(
        **_tournament(result, options, t),
        opponent=number(played.opponent),
        raw_difference=number(played.raw_difference),
        difference=number(played.difference),
        capped=played.capped,
    )


@dataclass(kw_only=True, eq=False)
class KFactorDocument:
    #: The FIDE rules' version: ``FIDE 2024-10-01``.
    rules: str
    as_of: str
    k: int
    #: Why: the reason's code (docs/codes.md) and its values; ``explanation`` says it in words.
    reason: str
    params: dict[str, object]
    #: Where K comes from, in the user's language (the 700 rule's article said once).
    article: str
    explanation: str
    k_before_700_rule: int
    cut_by_700_rule: bool
    games_this_period: int | None


def k_factor_document(result: KFactorResult, t: Translator) -> KFactorDocument:
    return KFactorDocument(
        rules=result.rules.name,
        as_of=result.day.isoformat(),
        k=result.k.k,
        reason=result.k.code,
        params=result.k.reason_params(),
        article=explanations.k_article(result.k, t),
        explanation=explanations.k_reason(result.k, t),
        k_before_700_rule=result.base.k,
        cut_by_700_rule=result.cut_by_700_rule,
        games_this_period=result.games_this_period,
    )


@dataclass(kw_only=True, eq=False)
class InitialDocument:
    rules: str
    rating: int | None
    reason: str
    #: ``reason`` in the user's language, with the working Ru = Ra + dp.
    explanation: str
    article: str
    games: int
    points: Number
    average_opponent: Number | None
    fractional_score: Number | None
    #: The term added to Ra: table 8.1.1's dp, or (rules before 2024, above 50 %) 20 per half point.
    dp: int | None
    #: What ``dp`` is by the rules' method, with its article, in the user's language.
    dp_rule: str | None
    unrounded: Number | None


def initial_document(initial: InitialRating, rules: FideRules, t: Translator) -> InitialDocument:
    return InitialDocument(
        rules=rules.name,
        rating=initial.rating,
        reason=initial.outcome.value,
        explanation=explanations.initial_reason(initial, rules, t),
        article=initial.article,
        games=initial.games,
        points=number(initial.points),
        average_opponent=maybe(initial.average_opponent),
        fractional_score=maybe(initial.fractional_score),
        dp=initial.dp,
        dp_rule=None if initial.dp is None else explanations.initial_term(initial, rules, t),
        unrounded=maybe(initial.unrounded),
    )


@dataclass(kw_only=True, eq=False)
class PerformanceDocument:
    rules: str
    games: int
    points: Number
    average_opponent: int
    fractional_score: Number
    dp: int
    #: FIDE's Ra + dp; ``fide`` is the same number.
    performance: int
    fide: int
    #: The logistic performance; ``formula`` is the same number.
    performance_formula: float | None
    formula: float | None
    initial_rating: InitialDocument
    #: Rapid and blitz 7.2.1: the games rated from the standard rating given (None: none given).
    rated_from_standard: RatedFromStandardDocument | None = None


@dataclass(kw_only=True, eq=False)
class RatedFromStandardDocument:
    """An unrated player with a standard rating, "considered to be rated" (rapid and blitz 7.2.1)."""

    article: str
    standard_rating: Number
    k: int
    k_explanation: str
    expected: Number
    change: Number
    rounded_change: int
    new_rating: Number
    not_rated: list[Number]


def performance_document(result: PerformanceResult, t: Translator) -> PerformanceDocument:
    return PerformanceDocument(
        rules=result.rules.name,
        games=result.games,
        points=number(result.points),
        average_opponent=result.fide.average_opponent,
        fractional_score=number(result.fide.fractional_score),
        dp=result.fide.dp,
        performance=result.fide.rating,
        fide=result.fide.rating,
        performance_formula=result.logistic,
        formula=result.logistic,
        initial_rating=initial_document(result.initial, result.rules, t),
        rated_from_standard=_from_standard(result.rated_from_standard, t),
    )


def _from_standard(result: TournamentResult | None, t: Translator) -> RatedFromStandardDocument | None:
    if result is None:
        return None
    period = result.period
    return RatedFromStandardDocument(
        article="FIDE B.02 rapid and blitz 7.2.1",
        standard_rating=number(period.rating),
        k=period.k.k,
        k_explanation=explanations.k_reason(period.k, t),
        expected=number(period.expected),
        change=number(period.change),
        rounded_change=period.rounded_change,
        new_rating=number(period.new_rating),
        not_rated=[number(game.opponent) for game in period.not_rated],
    )


# --- FIDE's tables ----------------------------------------------------------------------------------


def dp_table() -> list[tuple[Decimal, int]]:
    """Table 8.1.1 whole, p from 1.00 to 0.00: FIDE prints the upper half; dp(1 - p) = -dp(p)."""
    upper = [(Decimal(p), dp) for p, dp in DP_TABLE_UPPER_HALF]
    return upper + [(1 - p, -dp) for p, dp in reversed(upper[:-1])]


@dataclass(kw_only=True, eq=False)
class TablesDocument:
    table_8_1_2: list[dict[str, Number | None]]
    table_8_1_1: list[dict[str, Number]]


def tables_document() -> TablesDocument:
    pd: list[dict[str, Number | None]] = [
        {"from": low, "to": high, "higher": number(Decimal(h)), "lower": number(Decimal(lo))}
        for low, high, h, lo in PD_TABLE
    ]
    return TablesDocument(table_8_1_2=pd, table_8_1_1=[{"p": number(p), "dp": dp} for p, dp in dp_table()])
