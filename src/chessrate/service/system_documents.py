"""The JSON documents of DWZ, US Chess, ECF, the Chess.com-style Glicko, pools compared and stakes.

The same shape for the command line's ``--json`` and the API, as in
:mod:`chessrate.service.documents`. Numbers are JSON numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessrate.service import explanations
from chessrate.service.documents import Number, number, whole_or_float
from chessrate.service.language import Translator
from chessrate.service.systems import ChesscomResult, ConvertResult
from chessrate.systems.dwz import rating as dwz
from chessrate.systems.ecf import rating as ecf
from chessrate.systems.uscf import rating as uscf


@dataclass(frozen=True, kw_only=True)
class SystemGameDocument:
    opponent: Number
    score: Number
    #: The rating difference used (own minus opponent's); None where the system has none.
    difference: Number | None
    #: The expected score; None for US Chess's special formula, which uses none.
    expected: Number | None
    change: Number | None = None


@dataclass(frozen=True, kw_only=True)
class DwzDocument:
    system: str
    rating: int
    games: list[SystemGameDocument]
    points: Number
    expected: float
    development_coefficient: dwz.DevelopmentCoefficient
    new_rating_unrounded: float
    new_rating: int
    change: int
    source: str


def dwz_document(result: dwz.DwzResult) -> DwzDocument:
    return DwzDocument(
        system="dwz",
        rating=result.rating,
        games=[
            SystemGameDocument(
                opponent=g.opponent,
                score=whole_or_float(g.score),
                difference=g.difference,
                expected=g.expected,
            )
            for g in result.games
        ],
        points=whole_or_float(result.points),
        expected=result.expected,
        development_coefficient=result.coefficient,
        new_rating_unrounded=result.unrounded,
        new_rating=result.new_rating,
        change=result.change,
        source="DSB Wertungsordnung §3.5.2, Anhang 1.2, Anhang 2.1",
    )


@dataclass(frozen=True, kw_only=True)
class BonusDocument:
    threshold: int | None
    threshold_source: str | None
    allowed: bool
    bonus: float


@dataclass(frozen=True, kw_only=True)
class UscfDocument:
    system: str
    formula: str
    rating: Number | None
    games_played: int
    games: list[SystemGameDocument]
    points: Number
    expected: float | None
    effective_games: float | None
    k: float | None
    half_k: bool
    bonus: BonusDocument
    new_rating: float
    published_rating: int
    change: float | None
    established: bool
    note: str


def uscf_document(result: uscf.UscfResult) -> UscfDocument:
    threshold = result.bonus_threshold
    special = result.formula is uscf.Formula.SPECIAL
    return UscfDocument(
        system="uscf",
        formula=result.formula.value,
        rating=None if result.rating is None else whole_or_float(result.rating),
        games_played=result.games_played,
        games=[
            SystemGameDocument(
                opponent=whole_or_float(g.opponent),
                score=whole_or_float(g.score),
                difference=None if result.rating is None else whole_or_float(result.rating - g.opponent),
                expected=g.expected,
            )
            for g in result.games
        ],
        points=whole_or_float(result.points),
        expected=result.expected,
        effective_games=result.effective_games,
        k=result.k,
        half_k=result.half_k,
        bonus=BonusDocument(
            threshold=None if threshold is None else threshold.b,
            threshold_source=None if threshold is None else threshold.source,
            allowed=result.bonus_allowed,
            bonus=result.bonus,
        ),
        new_rating=result.new_rating,
        published_rating=result.published,
        change=result.change,
        established=result.established,
        note=(
            "special formula of 'Approximating Formulas for the US Chess Rating System': an approximation"
            if special
            else "standard formula (Glickman, 'The US Chess Rating System', node5)"
        )
        + (
            ""
            if result.unfloored_rating is None
            else f"; {result.unfloored_rating:.3f} raised to the absolute floor of {uscf.ABSOLUTE_FLOOR:.0f}"
        ),
    )


@dataclass(frozen=True, kw_only=True)
class EcfDocument:
    system: str
    rating: int
    junior: bool
    k: int
    games: list[SystemGameDocument]
    points: Number
    expected: Number
    change: Number
    new_rating: int
    source: str


def ecf_document(result: ecf.EcfResult) -> EcfDocument:
    return EcfDocument(
        system="ecf",
        rating=result.rating,
        junior=result.junior,
        k=result.k,
        games=[
            SystemGameDocument(
                opponent=g.opponent,
                score=number(g.score),
                difference=g.difference,
                expected=number(g.expected),
                change=number(g.change),
            )
            for g in result.games
        ],
        points=number(result.points),
        expected=number(result.expected),
        change=number(result.change),
        new_rating=result.new_rating,
        source="ECF, 'The calculation of ECF grades on a monthly basis'; We from FIDE table 8.1.2",
    )


@dataclass(frozen=True, kw_only=True)
class ChesscomDocument:
    system: str
    estimate: bool
    #: Why the figure is an estimate, and where its start came from, in the user's language.
    note: str
    level: str | None
    start_rating: float
    start_deviation: float
    games: list[SystemGameDocument]
    rating: float
    deviation: float


def chesscom_document(result: ChesscomResult, t: Translator) -> ChesscomDocument:
    period = result.period
    return ChesscomDocument(
        system="chesscom",
        estimate=True,
        note=explanations.chesscom_note(result, t),
        level=None if result.level is None else result.level.value,
        start_rating=result.start.rating,
        start_deviation=result.start.deviation,
        games=[
            SystemGameDocument(
                opponent=whole_or_float(game.opponent_rating),
                score=whole_or_float(game.score),
                difference=number(period.start.rating - game.opponent_rating),
                expected=expected,
            )
            for game, expected in zip(result.games, period.expected_scores, strict=True)
        ],
        rating=period.after.rating,
        deviation=period.after.deviation,
    )


@dataclass(frozen=True, kw_only=True)
class ConversionDocument:
    name: str
    formula: str
    inputs: dict[str, float]
    value: float
    #: After FIDE's 1 March 2024 adjustment, for a FIDE fit made before it; else None.
    adjusted: float | None
    low: float
    high: float
    sample: str
    r_squared: float | None
    source: str
    fitted: str
    exact: bool
    #: The range of the data the source shows, when an input lies outside it (an extrapolation).
    extrapolated: tuple[float, float] | None = None


@dataclass(frozen=True, kw_only=True)
class ConvertDocument:
    to: str
    ratings: dict[str, float]
    conversions: list[ConversionDocument]


def convert_document(result: ConvertResult) -> ConvertDocument:
    return ConvertDocument(
        to=result.target.value,
        ratings={pool.value: value for pool, value in result.ratings.items()},
        conversions=[
            ConversionDocument(
                name=c.conversion.name,
                formula=c.conversion.formula(),
                inputs={pool.value: value for pool, value in c.inputs},
                value=c.value,
                adjusted=c.adjusted,
                low=c.low,
                high=c.high,
                sample=c.conversion.sample,
                r_squared=c.conversion.r_squared,
                source=c.conversion.source,
                fitted=c.conversion.fitted,
                exact=c.conversion.exact,
                extrapolated=c.extrapolated,
            )
            for c in result.conversions
        ],
    )
