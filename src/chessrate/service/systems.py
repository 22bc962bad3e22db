"""DWZ, US Chess, ECF, the Chess.com-style Glicko, pools compared and the points at stake, as users ask.

Text in, the library's results out (:mod:`chessrate.systems.dwz.rating`,
:mod:`chessrate.systems.uscf.rating`, :mod:`chessrate.systems.ecf.rating`,
:mod:`chessrate.systems.glicko.chesscom`, :mod:`chessrate.comparisons.pools`,
:mod:`chessrate.comparisons.stakes`),
problems kept per field, as in :mod:`chessrate.service.elo`. Nothing here computes a rating.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from chessrate.comparisons import pools
from chessrate.errors import InvalidInputError, RatingError
from chessrate.parse import (
    MAX_RATING,
    MIN_RATING,
    parse_count,
    parse_date,
    parse_decimal,
    parse_rating,
    parse_score,
)
from chessrate.service import glicko as glicko_values
from chessrate.service.elo import MAX_ROWS, GameRow, too_many_rows
from chessrate.service.glicko import GLICKO_SCALE
from chessrate.service.options import Outcome, one_of, read_rating
from chessrate.service.problems import Path, Problems
from chessrate.systems.dwz import rating as dwz
from chessrate.systems.ecf import rating as ecf
from chessrate.systems.glicko import chesscom, glicko2
from chessrate.systems.glicko import glicko1 as glicko
from chessrate.systems.uscf import rating as uscf

T = TypeVar("T")
EFFECTIVE_CHOICES = tuple(choice.value for choice in uscf.EffectiveGames)
YES = frozenset({"1", "true", "yes", "on", "y"})


def field_hints(problems: Problems) -> dict[str, str]:
    """What to type in the fields that only these calculations have, with their whole range: shown
    when a value is not a number or is out of that range (``Problems.add``'s hint)."""
    t = problems.t
    _ = t.gettext
    age = _("Write the age in whole years, from 0 to %(maximum)s, such as 15.", maximum=dwz.MAX_AGE)
    index = _("The Index counts your previous DWZ evaluations: 1 or more.")
    played = _("Write the number of rated games played before, 0 or more.")
    rd = _(
        "The rating deviation (RD) is a number from %(low)s to %(high)s, such as 200.",
        low=t.number(glicko2.LEAST_DEVIATION),
        high=t.number(glicko.MAX_DEVIATION),
    )
    sigma = _(
        "The volatility is a number from %(low)s to %(high)s, such as 0.06.",
        low=t.number(glicko2.LEAST_VOLATILITY, 3),
        high=t.number(glicko2.MOST_VOLATILITY),
    )
    return {
        "age": age,
        "index": index,
        "opponent_age": age,
        "opponent_index": index,
        "games_played": played,
        "opponent_games_played": played,
        "event_end": _("Write the day the event ended as YYYY-MM-DD."),
        "bonus_b": _("The bonus threshold B is a whole number, such as 10."),
        "opponent_k": _("K is a whole number from 1 to 1000, such as 20."),
        "level": _("Choose a level from the list."),
        "from_pool": _("Choose a rating pool from the list."),
        "to_pool": _("Choose a rating pool from the list."),
        "deviation": rd,
        "volatility": sigma,
        "opponent_deviation": rd,
        "opponent_volatility": sigma,
        "effective": _("Choose 2004 or newer."),
        "system": _("Choose a rating system from the list."),
    }


def read_field(
    problems: Problems, path: Path, text: str, parser: Callable[[str], T], *, required: bool
) -> T | None:
    """Like ``problems.parse`` (or ``optional``), with this module's messages for its own fields."""
    if not text.strip():
        if required:
            problems.missing.append(path)
        return None
    try:
        return parser(text)
    except RatingError as error:
        hint = field_hints(problems).get(str(path[-1]))
        problems.add(path, text, error, hint=hint)
        return None


def flag(text: str) -> bool:
    """A check box or a boolean field as typed: on, true, yes, 1."""
    return text.strip().lower() in YES


#: The ratings each system accepts (docs/systems.md, "Rating bounds"), for its fields and their hints.
Bounds = tuple[int | Decimal, int | Decimal]
DWZ_BOUNDS: Bounds = (dwz.MIN_RATING, dwz.MAX_RATING)
ECF_BOUNDS: Bounds = (ecf.MIN_RATING, ecf.MAX_RATING)
USCF_BOUNDS: Bounds = (uscf.MIN_RATING, uscf.MAX_RATING)


def _whole_rating(name: str, bounds: Bounds | None = None) -> Callable[[str], int]:
    """A whole rating within ``bounds`` (FIDE's when None)."""

    def parse(text: str) -> int:
        value = _rating(text, name, bounds)
        if value != value.to_integral_value():
            raise InvalidInputError(name, text, "this rating is a whole number", code="whole-rating")
        return int(value)

    return parse


def _float_rating(name: str, bounds: Bounds | None = None) -> Callable[[str], float]:
    return lambda text: float(_rating(text, name, bounds))


def _rating(text: str, name: str, bounds: Bounds | None) -> Decimal:
    if bounds is None:
        return parse_rating(text, field=name)
    return parse_rating(text, field=name, low=bounds[0], high=bounds[1])


def _count(name: str, minimum: int = 0, maximum: int | None = None) -> Callable[[str], int]:
    return lambda text: parse_count(text, field=name, minimum=minimum, maximum=maximum)


def _dwz_index_named(name: str) -> Callable[[str], int]:
    """A DWZ Index: 0 (a first DWZ) is refused saying why (chessrate.systems.dwz.rating.check_index)."""
    return lambda text: dwz.check_index(parse_count(text, field=name))


def _age(name: str) -> Callable[[str], int]:
    """An age in whole years, 0 to DWZ's 120 (chessrate.systems.dwz.rating.MAX_AGE)."""
    return _count(name, maximum=dwz.MAX_AGE)


def event_end(problems: Problems, text: str, *, today: dt.date) -> dt.date:
    """The day a US Chess event ended (it sets the bonus threshold B); blank or wrong: ``today``."""
    day = read_field(
        problems,
        ("event_end",),
        text,
        lambda text: uscf.check_event_end(parse_date(text, field="event_end"), today=today),
        required=False,
    )
    return day or today


def _rows(
    rows: tuple[GameRow, ...],
    problems: Problems,
    *,
    whole: bool,
    deviation: bool = False,
    bounds: Bounds | None = None,
) -> list[tuple[Decimal, Decimal, float | None]] | None:
    """(opponent, score, opponent RD) of the filled rows; None if any is wrong or none is given.
    The opponents' ratings are within the system's ``bounds`` (FIDE's when None)."""
    if len(rows) > MAX_ROWS:
        problems.add(("games",), len(rows), too_many_rows(("games",), len(rows)))
        return None
    games: list[tuple[Decimal, Decimal, float | None]] = []
    complete = True
    for index, row in enumerate(rows):
        if row.blank:
            continue
        path: Path = ("games", index, "opponent")
        if whole:
            number = problems.parse(path, row.opponent, _whole_rating("opponent", bounds))
            opponent = None if number is None else Decimal(number)
        elif bounds is not None:
            opponent = problems.parse(path, row.opponent, lambda text: _rating(text, "opponent", bounds))
        else:
            opponent = read_rating(problems, path, row.opponent)
        score = problems.parse(("games", index, "result"), row.result, parse_score)
        rd = None
        if deviation:
            rd = problems.parse(
                ("games", index, "deviation"), row.deviation, glicko_values.deviation("chesscom")
            )
        if opponent is None or score is None or (deviation and rd is None):
            complete = False
            continue
        games.append((opponent, score, rd))
    if not games and complete:
        problems.missing.append(("games", 0, "opponent"))
    return games if complete and games else None


# --- DWZ --------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class DwzInputs:
    rating: str = ""
    age: str = ""
    index: str = ""
    games: tuple[GameRow, ...] = ()


@dataclass(frozen=True, kw_only=True)
class DwzPlayer:
    """A DWZ player as typed: rating, age and Index (None: blank or wrong, the problem kept)."""

    rating: int | None
    age: int | None
    index: int | None


def read_dwz_player(
    problems: Problems, rating: str, age: str, index: str, *, side: str = "", required: bool = True
) -> DwzPlayer:
    """The one reader of a DWZ player's fields, for the calculator and the points at stake.

    ``side``: ``""`` for the player (``rating``, ``age``, ``index``), ``"opponent"`` for the
    opponent (``opponent``, ``opponent_age``, ``opponent_index``). The rating is always needed;
    age and Index when ``required`` (the opponent's default to the player's)."""
    name = side or "rating"
    prefix = f"{side}_" if side else ""
    problems.rating_scale = ("DWZ", *DWZ_BOUNDS)
    return DwzPlayer(
        rating=problems.parse((name,), rating, _whole_rating(name, DWZ_BOUNDS)),
        age=read_field(problems, (f"{prefix}age",), age, _age(f"{prefix}age"), required=required),
        index=read_field(
            problems, (f"{prefix}index",), index, _dwz_index_named(f"{prefix}index"), required=required
        ),
    )


def dwz_evaluation(inputs: DwzInputs, problems: Problems, *, today: dt.date) -> Outcome[dwz.DwzResult]:
    del today
    player = read_dwz_player(problems, inputs.rating, inputs.age, inputs.index)
    rating, age, index = player.rating, player.age, player.index
    games = _rows(inputs.games, problems, whole=True, bounds=DWZ_BOUNDS)
    if problems or rating is None or age is None or index is None or games is None:
        return Outcome(None, problems)
    played = [dwz.DwzGame(int(opponent), float(score)) for opponent, score, _ in games]
    return Outcome(
        problems.attempt(
            ("rating",),
            rating,
            lambda: dwz.rate(rating, played, age=age, index=index),
            fields=("age", "index"),
        ),
        problems,
    )


# --- US Chess ---------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class UscfInputs:
    #: Blank for an unrated player.
    rating: str = ""
    games_played: str = ""
    event_end: str = ""
    half_k: str = ""
    effective: str = uscf.EffectiveGames.GLICKMAN_2004.value
    repeated_opponent: str = ""
    bonus_b: str = ""
    games: tuple[GameRow, ...] = ()


@dataclass(frozen=True, kw_only=True)
class UscfPlayer:
    """A US Chess player as typed: rating (None: unrated, or wrong) and games played before."""

    rating: float | None
    games_played: int | None


def read_uscf_player(
    problems: Problems, rating: str, games_played: str, *, side: str = "", unrated: bool = False
) -> UscfPlayer:
    """The one reader of a US Chess player's fields, for the calculator and the points at stake.

    ``side`` as for :func:`read_dwz_player`. ``unrated``: a blank rating is an unrated player's,
    whose blank games played are 0 ("If the player is unrated, set N = 0"); a rated player's
    games played weigh the rating (N' and the special formula's N), never assumed."""
    name = side or "rating"
    played_name = f"{side}_games_played" if side else "games_played"
    problems.rating_scale = ("US Chess", *USCF_BOUNDS)
    parse = problems.optional if unrated else problems.parse
    real = parse((name,), rating, _float_rating(name, USCF_BOUNDS))
    if unrated and rating.strip() and not games_played.strip():
        problems.add((played_name,), "", uscf.games_played_needed(""))
        return UscfPlayer(rating=real, games_played=None)
    played = read_field(
        problems,
        (played_name,),
        (games_played or "0") if unrated else games_played,
        _count(played_name),
        required=True,
    )
    return UscfPlayer(rating=real, games_played=played)


def uscf_event(inputs: UscfInputs, problems: Problems, *, today: dt.date) -> Outcome[uscf.UscfResult]:
    player = read_uscf_player(problems, inputs.rating, inputs.games_played, unrated=True)
    rating, played = player.rating, player.games_played
    day = event_end(problems, inputs.event_end, today=today)
    effective_text = inputs.effective.strip().lower() or uscf.EffectiveGames.GLICKMAN_2004.value
    if effective_text not in EFFECTIVE_CHOICES:
        problems.add(
            ("effective",), inputs.effective, one_of("effective", inputs.effective, EFFECTIVE_CHOICES)
        )
    bonus_b = read_field(problems, ("bonus_b",), inputs.bonus_b, _count("bonus_b"), required=False)
    games = _rows(inputs.games, problems, whole=False, bounds=USCF_BOUNDS)
    if rating is None and played:
        problems.add(("rating",), inputs.rating, uscf.rated_with_games(played))
    if problems or played is None or games is None:
        return Outcome(None, problems)
    event = [uscf.UscfGame(float(opponent), float(score)) for opponent, score, _ in games]
    result = problems.attempt(
        ("rating",),
        inputs.rating,
        lambda: uscf.rate_event(
            rating,
            event,
            games_played=played,
            event_end=day,
            half_k=flag(inputs.half_k),
            effective=uscf.EffectiveGames(effective_text),
            repeated_opponent=flag(inputs.repeated_opponent),
            bonus_b=bonus_b,
        ),
        fields=("games_played",),
    )
    return Outcome(result, problems)


# --- ECF --------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class EcfInputs:
    rating: str = ""
    junior: str = ""
    #: The rating and the opponents are old three-digit grades, converted as 7.5 x grade + 700.
    grade: str = ""
    #: Asking for a new player's P rating, which cannot be computed exactly: answered with why.
    new_player: str = ""
    games: tuple[GameRow, ...] = ()


def ecf_rating(inputs: EcfInputs, problems: Problems, *, today: dt.date) -> Outcome[ecf.EcfResult]:
    del today
    if flag(inputs.new_player):
        try:
            ecf.new_player_rating()
        except RatingError as error:
            problems.add(
                ("new_player",),
                inputs.new_player,
                error,
                message=problems.t.gettext(
                    "A new player’s ECF rating cannot be computed exactly: it counts a draw against a "
                    "nominal opponent whose rating the ECF does not publish."
                ),
            )
        return Outcome(None, problems)
    problems.rating_scale = ("ECF", *ECF_BOUNDS)
    rating = problems.parse(("rating",), inputs.rating, _whole_rating("rating", ECF_BOUNDS))
    games = _rows(inputs.games, problems, whole=True, bounds=ECF_BOUNDS)
    if problems or rating is None or games is None:
        return Outcome(None, problems)
    if flag(inputs.grade):  # [ECF-MONTHLY]: rating = 7.5 x grade + 700
        rating = ecf.rating_of_grade(rating)
        games = [(Decimal(ecf.rating_of_grade(opponent)), score, rd) for opponent, score, rd in games]
    else:
        problems.attempt(("rating",), rating, lambda: ecf.check_not_a_grade("rating", rating))
        for index, (opponent, _, _) in enumerate(games):
            path = ("games", index, "opponent")
            problems.attempt(
                path, opponent, functools.partial(ecf.check_not_a_grade, "opponent", int(opponent))
            )
        if problems:
            return Outcome(None, problems)
    played = [ecf.EcfGame(int(opponent), score) for opponent, score, _ in games]
    return Outcome(
        problems.attempt(("rating",), rating, lambda: ecf.rate(rating, played, junior=flag(inputs.junior))),
        problems,
    )


# --- Chess.com-style Glicko ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ChesscomInputs:
    #: A level for a new account; or blank, with the player's own rating and RD.
    level: str = ""
    rating: str = ""
    deviation: str = ""
    games: tuple[GameRow, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ChesscomResult:
    level: chesscom.Level | None
    start: glicko.GlickoRating
    games: tuple[glicko.GlickoGame, ...]
    period: glicko.GlickoResult
    #: Whether the start rating and RD were given, rather than the level's and a new player's.
    rating_given: bool = False
    deviation_given: bool = False


def chesscom_glicko(inputs: ChesscomInputs, problems: Problems, *, today: dt.date) -> Outcome[ChesscomResult]:
    del today
    problems.rating_scale = (GLICKO_SCALE, int(MIN_RATING), int(MAX_RATING))  # Chess.com's is Glicko
    level = read_field(problems, ("level",), inputs.level, chesscom.parse_level, required=False)
    rating = problems.optional(("rating",), inputs.rating, _float_rating("rating"))
    deviation = read_field(
        problems, ("deviation",), inputs.deviation, glicko_values.deviation("chesscom"), required=False
    )
    if level is None and rating is None and not problems:
        problems.missing.append(("level",))
    games = _rows(inputs.games, problems, whole=False, deviation=True)
    if problems or games is None:
        return Outcome(None, problems)
    start = (
        chesscom.start_rating(level)
        if level is not None
        else glicko.GlickoRating(rating or 0.0, chesscom.START_DEVIATION)
    )
    if rating is not None:
        start = glicko.GlickoRating(rating, start.deviation)
    if deviation is not None:
        start = glicko.GlickoRating(start.rating, deviation)
    played = [glicko.GlickoGame(float(o), rd or 0.0, float(s)) for o, s, rd in games]
    period = problems.attempt(("games",), len(played), lambda: chesscom.rate_period(start, played))
    if period is None:
        return Outcome(None, problems)
    result = ChesscomResult(
        level=level,
        start=start,
        games=tuple(played),
        period=period,
        rating_given=rating is not None,
        deviation_given=deviation is not None,
    )
    return Outcome(result, problems)


# --- pools compared -----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ConvertInputs:
    rating: str = ""
    from_pool: str = ""
    to_pool: str = ""
    #: Further ratings some fits need: ``POOL=RATING`` each (the Lichess forum's needs classical).
    also: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ConvertResult:
    ratings: dict[pools.Pool, float]
    target: pools.Pool
    conversions: tuple[pools.Converted, ...]


def convert(inputs: ConvertInputs, problems: Problems, *, today: dt.date) -> Outcome[ConvertResult]:
    del today
    rating = problems.parse(
        ("rating",), inputs.rating, lambda text: float(parse_decimal(text, field="rating"))
    )
    source = read_field(problems, ("from_pool",), inputs.from_pool, pools.parse_pool, required=True)
    target = read_field(problems, ("to_pool",), inputs.to_pool, pools.parse_pool, required=True)
    ratings: dict[pools.Pool, float] = {}
    if source is not None and rating is not None:
        ratings[source] = rating
    for index, text in enumerate(inputs.also):
        pair = problems.attempt(("also", index), text, functools.partial(_pool_rating, text))
        if pair is not None:
            ratings[pair[0]] = pair[1]
    if problems or target is None:
        return Outcome(None, problems)
    try:
        converted = pools.convert(ratings, target)
    except InvalidInputError as error:
        # A rating or a result outside its pool is the rating's fault; the other refusals, the pools'.
        on_rating = error.code in ("pool-rating-outside", "pool-result-outside")
        problems.add(*((("rating",), inputs.rating) if on_rating else (("to_pool",), inputs.to_pool)), error)
        return Outcome(None, problems)
    return Outcome(ConvertResult(ratings=ratings, target=target, conversions=converted), problems)


def _pool_rating(text: str) -> tuple[pools.Pool, float]:
    """``POOL=RATING``, such as ``lichess-classical=1900``."""
    name, equals, value = text.partition("=")
    if not equals:
        raise InvalidInputError(
            "also", text, "write POOL=RATING, such as lichess-classical=1900", code="pool-rating"
        )
    return pools.parse_pool(name), float(parse_decimal(value, field=name.strip()))
