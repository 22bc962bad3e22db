"""Rating changes under a rule set: one game, a tournament, G games against an average, a period.

Every result carries its working: per game the difference (and whether it was capped), the
expected score and the change; K and why; the unrounded and rounded change; the new rating.
Each tournament is rated from the player's rating at its start; K is chosen once for the period
(FIDE B.02 7.1.2: "the current value of K") and cut by the 700 rule over all its games.
A game the rules do not rate (FIDE rapid and blitz 8.3.1 from 1 December 2024: 600 points or more
apart with a player above 2600) is left out, kept in ``not_rated`` to be said; when no game is
left, or only the total score is known, the calculation is refused with the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from chessrate.errors import InvalidInputError
from chessrate.parse import MAX_RATING, MIN_RATING, check_rating
from chessrate.systems.elo import rating as elo
from chessrate.systems.elo.ruleset import Expected, Rounding, RuleSet
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, given_k
from chessrate.systems.fide.performance import Performance, check_points, fide_performance
from chessrate.systems.fide.policy import capped_game_preference, game_not_rated, over_cap
from chessrate.systems.fide.regulations import CapScope
from chessrate.systems.fide.tables import scoring_probability
from chessrate.systems.rounding import round_half_away_from_zero

ZERO = Decimal(0)


@dataclass(frozen=True)
class Game:
    """One game: the opponent's rating and the player's score (None when only a total is known)."""

    opponent: Decimal
    score: Decimal | None = None


@dataclass(frozen=True)
class Event:
    """A tournament within a rating period, rated from ``start_rating`` (None: the period's)."""

    games: tuple[Game, ...]
    start_rating: Decimal | None = None
    name: str | None = None


@dataclass(frozen=True, kw_only=True)
class GameWorking:
    """How one game was rated."""

    opponent: Decimal
    #: Own rating minus the opponent's, as it is.
    raw_difference: Decimal
    #: The difference used: after the 400-point rule, and whole for the table.
    difference: Decimal
    capped: bool
    expected: Decimal
    score: Decimal | None
    #: K x (score - expected), unrounded; None when only the total score is known.
    change: Decimal | None


@dataclass(frozen=True, kw_only=True)
class EventWorking:
    """How one tournament was rated."""

    name: str | None
    start_rating: Decimal
    games: tuple[GameWorking, ...]
    score: Decimal
    expected: Decimal
    change: Decimal
    rounded_change: int
    #: The games left out: not rated by the rules (FIDE rapid and blitz 8.3.1, 1 December 2024).
    not_rated: tuple[Game, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PeriodResult:
    """A rating period (or a single tournament or game, which is a period of its own)."""

    rules: RuleSet
    rating: Decimal
    k: KFactor
    events: tuple[EventWorking, ...]
    games: int
    score: Decimal
    expected: Decimal
    change: Decimal
    rounded_change: int
    new_rating: Decimal

    @property
    def not_rated(self) -> tuple[Game, ...]:
        """Every game of the period left out as not rated (:attr:`EventWorking.not_rated`)."""
        return tuple(game for event in self.events for game in event.not_rated)


@dataclass(frozen=True, kw_only=True)
class TournamentResult:
    """One tournament: the period working plus its averages and performance."""

    period: PeriodResult
    average_opponent: Decimal
    performance: Performance
    logistic_performance: float | None

    @property
    def event(self) -> EventWorking:
        return self.period.events[0]


@dataclass(frozen=True, kw_only=True)
class AverageResult:
    """G games against an opponent of average rating, P points in all ([ELO-CALC-ES]'s multi-game mode)."""

    rules: RuleSet
    rating: Decimal
    k: KFactor
    games: int
    points: Decimal
    average_opponent: Decimal
    #: The difference used in the first game: the capped one when the 400-point rule applies.
    difference: Decimal
    capped: bool
    #: How many of the G games the 400-point rule capped: all of them, or one (B022022 8.3.1).
    capped_games: int
    #: The expected score of the G games over G (the table's PD when every game is alike).
    expected_per_game: Decimal
    expected: Decimal
    change: Decimal
    rounded_change: int
    new_rating: Decimal


def choose_k(
    rating: Decimal,
    *,
    rules: RuleSet,
    games: int,
    k: int | None = None,
    profile: PlayerProfile | None = None,
) -> KFactor:
    """K given by the user or by the rule set, then cut by the 700 rule over ``games``."""
    chosen = given_k(k) if k is not None else rules.k_for(rating, profile)
    return apply_700_rule(chosen, games, max_k_times_games=rules.max_k_times_games)


def rate_game(
    rating: Decimal,
    opponent: Decimal,
    score: Decimal,
    *,
    rules: RuleSet,
    k: int | None = None,
    profile: PlayerProfile | None = None,
) -> TournamentResult:
    """One game; the game is its own tournament and period."""
    return rate_tournament(rating, [Game(opponent, score)], rules=rules, k=k, profile=profile)


def rate_tournament(
    rating: Decimal,
    games: Sequence[Game],
    *,
    rules: RuleSet,
    k: int | None = None,
    profile: PlayerProfile | None = None,
    points: Decimal | None = None,
) -> TournamentResult:
    """A tournament, each game with its own score, or the opponents and ``points`` in total."""
    if not games:
        raise InvalidInputError(
            "games", "", "a tournament needs at least one game", code="tournament-no-games"
        )
    if points is not None:
        if any(game.score is not None for game in games):
            raise InvalidInputError(
                "points", points, "give per-game results or total points", code="points-or-results"
            )
        check_points(points, len(games))
    period = _rate_period(rating, [Event(tuple(games))], rules=rules, k=k, profile=profile, points=points)
    opponents = [game.opponent for game in period.events[0].games]  # the games rated
    return TournamentResult(
        period=period,
        average_opponent=sum(opponents, ZERO) / len(opponents),
        performance=fide_performance(opponents, period.score),
        logistic_performance=elo.logistic_performance(opponents, period.score),
    )


def rate_period(
    rating: Decimal,
    events: Sequence[Event],
    *,
    rules: RuleSet,
    k: int | None = None,
    profile: PlayerProfile | None = None,
) -> PeriodResult:
    """A rating period of several tournaments, every game with its score."""
    if not events or any(not event.games for event in events):
        raise InvalidInputError(
            "events", len(events), "every tournament needs at least one game", code="events-no-games"
        )
    for event in events:
        for game in event.games:
            if game.score is None:
                raise InvalidInputError(
                    "result", None, "every game of a period needs a result", code="period-result-needed"
                )
    return _rate_period(rating, events, rules=rules, k=k, profile=profile, points=None)


def rate_against_average(
    rating: Decimal,
    *,
    games: int,
    points: Decimal,
    average: Decimal,
    rules: RuleSet,
    k: int | None = None,
    profile: PlayerProfile | None = None,
) -> AverageResult:
    """``games`` games against an opponent rated ``average``: change K x (P - G x E)."""
    _check_rating("rating", rating)
    _check_rating("average", average)
    if games < 1:
        raise InvalidInputError("games", games, "at least one game", code="games-none")
    if not ZERO <= points <= games:
        raise InvalidInputError(
            "points",
            points,
            f"points are between 0 and the {games} games",
            code="points-of-games",
            params={"games": games},
        )
    left_out = _not_rated(rating, [Game(average)], rules)
    if left_out:  # the G games are alike: none is rated
        raise _not_rated_error(left_out[0], rules, "average")
    k_factor = choose_k(rating, rules=rules, games=games, k=k, profile=profile)
    # The G games rated as a tournament, so the 400-point rule's reach (every game, or one per
    # tournament under B022022 8.3.1) is the same as in every other mode.
    event = _rate_event(Event((Game(average),) * games), rating, rules=rules, k=k_factor.k, points=points)
    shown = event.games[0]  # the capped game when one is (the tie goes to the first game)
    return AverageResult(
        rules=rules,
        rating=rating,
        k=k_factor,
        games=games,
        points=points,
        average_opponent=average,
        difference=shown.difference,
        capped=shown.capped,
        capped_games=sum(game.capped for game in event.games),
        expected_per_game=event.expected / games,
        expected=event.expected,
        change=event.change,
        rounded_change=event.rounded_change,
        new_rating=rating + event.rounded_change,
    )


def _rate_period(
    rating: Decimal,
    events: Sequence[Event],
    *,
    rules: RuleSet,
    k: int | None,
    profile: PlayerProfile | None,
    points: Decimal | None,
) -> PeriodResult:
    _check_rating("rating", rating)
    for event in events:
        for game in event.games:
            _check_rating("opponent", game.opponent)
    left_out = [
        _not_rated(rating if event.start_rating is None else event.start_rating, event.games, rules)
        for event in events
    ]
    total_games = sum(len(event.games) - len(out) for event, out in zip(events, left_out, strict=True))
    if total_games == 0:
        raise _not_rated_error(next(out[0] for out in left_out if out), rules)
    if points is not None and any(left_out):
        raise InvalidInputError(
            "points",
            points,
            "a game is not rated (FIDE rapid and blitz 8.3.1): give each game's result, not the total",
            code="not-rated-with-total",
        )
    k_factor = choose_k(rating, rules=rules, games=total_games, k=k, profile=profile)
    rated = tuple(
        _rate_event(
            event,
            rating if event.start_rating is None else event.start_rating,
            rules=rules,
            k=k_factor.k,
            points=points,
            not_rated=out,
        )
        for event, out in zip(events, left_out, strict=True)
    )
    change = sum((event.change for event in rated), ZERO)
    if rules.rounding is Rounding.TOURNAMENT:
        rounded = sum(event.rounded_change for event in rated)
    else:
        rounded = round_half_away_from_zero(change)  # FIDE B.02 8.3.4
    return PeriodResult(
        rules=rules,
        rating=rating,
        k=k_factor,
        events=rated,
        games=total_games,
        score=sum((event.score for event in rated), ZERO),
        expected=sum((event.expected for event in rated), ZERO),
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
    )


def _not_rated(start_rating: Decimal, games: Sequence[Game], rules: RuleSet) -> tuple[Game, ...]:
    """The games the rules do not rate for a player rated ``start_rating`` (FIDE rapid and blitz
    8.3.1 from 1 December 2024, :func:`chessrate.systems.fide.policy.game_not_rated`)."""
    _check_rating("start_rating", start_rating)
    fide = rules.fide
    if fide is None or fide.not_rated_difference is None:
        return ()
    return tuple(game for game in games if game_not_rated(start_rating, game.opponent, fide))


def _not_rated_error(game: Game, rules: RuleSet, field: str = "opponent") -> InvalidInputError:
    """No game left to rate: the rule that leaves them out, in one line."""
    fide = rules.fide
    assert fide is not None  # only FIDE's rapid and blitz rules leave games out
    return InvalidInputError(
        field,
        str(game.opponent),
        f"the game is not rated under {fide.name}: {fide.not_rated_difference} points "
        f"or more apart with a player above {fide.not_rated_above} ({fide.source})",
        code="not-rated-game",
        params={"difference": fide.not_rated_difference, "above": fide.not_rated_above},
    )


def _rate_event(
    event: Event,
    start_rating: Decimal,
    *,
    rules: RuleSet,
    k: int,
    points: Decimal | None,
    not_rated: tuple[Game, ...] = (),
) -> EventWorking:
    _check_rating("start_rating", start_rating)
    rated = [game for game in event.games if game not in not_rated] if not_rated else event.games
    capped_games = games_to_cap(start_rating, [start_rating - game.opponent for game in rated], rules)
    games = tuple(
        _game_working(start_rating, game, rules=rules, k=k, cap=index in capped_games)
        for index, game in enumerate(rated)
    )
    expected = sum((game.expected for game in games), ZERO)
    if points is None:
        points = sum((game.score or ZERO for game in games), ZERO)
    change = elo.change(k, points, expected)  # B.02 8.3.2 c), d): K x sum of (score - PD)
    return EventWorking(
        name=event.name,
        start_rating=start_rating,
        games=games,
        score=points,
        expected=expected,
        change=change,
        rounded_change=round_half_away_from_zero(change),
        not_rated=not_rated,
    )


def games_to_cap(rating: Decimal, differences: Sequence[Decimal | int], rules: RuleSet) -> set[int]:
    """Indices of the games whose difference (own rating minus the opponent's) the 400-point rule
    limits (B.02 8.3.1), for a player of ``rating``."""
    cap = rules.cap
    if cap is None or not cap.applies_to(rating):  # 2025: only for players rated below 2650
        return set()
    over = [i for i, difference in enumerate(differences) if over_cap(difference, cap.limit)]
    if cap.scope is CapScope.ONE_GAME_PER_TOURNAMENT and over:
        # 2022-2024: "only one upgrade ... for the game in which the rating difference is greatest"
        return {min(over, key=lambda i: capped_game_preference(differences[i], i))}
    return set(over)


def _game_working(rating: Decimal, game: Game, *, rules: RuleSet, k: int, cap: bool) -> GameWorking:
    raw = rating - game.opponent
    difference: Decimal = raw
    capped = False
    if cap and rules.cap is not None and abs(raw) > rules.cap.limit:
        difference = Decimal(rules.cap.limit if raw > 0 else -rules.cap.limit)
        capped = True
    if rules.expected is Expected.TABLE:
        # Table 8.1.2 has whole-number rows; a fractional difference (an average opponent) is
        # rounded to the nearest whole number, 0.5 away from zero, as B.01 1.4.9 rounds averages.
        difference = Decimal(round_half_away_from_zero(difference))
        expected = scoring_probability(int(difference))
    else:
        expected = elo.expected_score(difference)
    score_change = None if game.score is None else elo.change(k, game.score, expected)
    return GameWorking(
        opponent=game.opponent,
        raw_difference=raw,
        difference=difference,
        capped=capped,
        expected=expected,
        score=game.score,
        change=score_change,
    )


def _check_rating(field: str, value: Decimal) -> None:
    check_rating(field, value, low=MIN_RATING, high=MAX_RATING)
