"""The reference Elo period of a rating list: the scalar calculation, player by player, over
objects (:class:`.facts.EventFacts`, a :class:`.calculate.Game` a game).

The array engine (:func:`.elo_period.elo_period`) rates a period from its games as columns; this
is what it is tested against (``tests/ratinglist/test_bulk_equivalence.py``: every figure the same,
byte for byte), and what rates the periods the engine does not: rule sets whose expected score is
the logistic formula rather than table 8.1.2, and scores other than 1, ½ and 0. ``bulk`` rates the
players of such a period with the array engine where it can (:func:`.bulk.figures.rate_players`).
The rules are :mod:`.elo_period`'s (each event rated from the ratings in force at its start, K from
the player's history, the 700 rule, the rounding, first ratings).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from chessrate.bulk import figures as bulk_figures
from chessrate.bulk.figures import GameFigures, PlayerFigures, PlayerPeriod, RatedGame
from chessrate.ratinglist.elo_period import (
    as_official,
    k_of,
    k_reason,
    takes_fide_k,
)
from chessrate.ratinglist.facts import (
    ZERO,
    ComputedList,
    Entry,
    EntryColumns,
    EventFacts,
    GameFacts,
    History,
    Working,
    pooled_working,
)
from chessrate.ratinglist.initial import initial_entry
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.publish import publish_fide
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.systems.elo.calculate import Event, Game, rate_period
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.k_factor import PlayerProfile
from chessrate.systems.fide.policy import game_not_rated
from chessrate.systems.fide.regulations import FideRules


@dataclass(kw_only=True)
class _PlayerGames:
    events: list[list[RatedGame]] = field(default_factory=list)  # tournament by tournament
    event_names: list[str] = field(default_factory=list)
    pool: list[Working] = field(default_factory=list)


def elo_period_reference(
    period: Period,
    *,
    rules: RuleSet,
    history: History,
    events: Sequence[EventFacts],
    bulk: bool,
    rated_workings: bool = True,
) -> ComputedList:
    """The list of ``period`` under ``rules``; ``bulk``: the players rated with the array engine
    where it can; ``rated_workings``: with the working of each rated game."""
    start_ratings: dict[int, int | None] = {}

    def at_period_start(player_id: int) -> int | None:
        if player_id not in start_ratings:
            start_ratings[player_id] = history.rating_in_force(player_id, period.first_day)
        return start_ratings[player_id]

    played = _gather(events, history, at_period_start, rules.fide)
    rated_players = {
        player_id: rating
        for player_id, mine in played.items()
        if mine.events and (rating := at_period_start(player_id)) is not None
    }
    rated_lines = _rate_players(
        rated_players,
        played,
        period=period,
        rules=rules,
        history=history,
        bulk=bulk,
        workings=rated_workings,
    )
    pools = {player_id: mine.pool for player_id, mine in played.items() if mine.pool}
    return _listed(
        period,
        rules=rules,
        history=history,
        order=played,
        rated_lines=rated_lines,
        pools=pools,
        entrants=[event.ratings_in_file for event in events],
        at_period_start=at_period_start,
    )


def _listed(
    period: Period,
    *,
    rules: RuleSet,
    history: History,
    order: Iterable[int],
    rated_lines: Mapping[int, tuple[Entry, list[Working]]],
    pools: Mapping[int, list[Working]],
    entrants: Iterable[Iterable[int]],
    at_period_start: Callable[[int], int | None],
) -> ComputedList:
    """The period's list: the rated players' lines and first ratings, in ``order`` (the players
    with games), then everyone else rated at the period's start, unchanged."""
    entries: dict[int, Entry] = {}
    workings: list[Working] = []
    for player_id in order:
        if player_id in rated_lines:
            entries[player_id], rated = rated_lines[player_id]
            workings.extend(rated)
        elif player_id in pools:
            pool = pools[player_id]
            entries[player_id] = initial_entry(player_id, pool, period=period, history=history)
            workings.extend(pool)
    # Everyone else rated at the period's start stays on the list unchanged.
    listed = set(history.full_list(period.previous())).union(*entrants)
    for player_id in sorted(listed - set(entries)):
        rating = at_period_start(player_id)
        if rating is not None:
            entries[player_id] = Entry(
                player_id=player_id,
                status=_listed_status(listed_before=history.listed_before(player_id, period) is not None),
                rating_before=rating,
                rating=rating,
                games=0,
                rounded_change=0,
            )
    lines = EntryColumns.of(entries)
    if rules.fide is not None:
        lines = publish_fide(lines, period)
    return ComputedList(period=period, rules_title=rules.title, entries=lines, workings=tuple(workings))


def _gather(
    events: Sequence[EventFacts],
    history: History,
    at_period_start: Callable[[int], int | None],
    fide: FideRules | None = None,
) -> dict[int, _PlayerGames]:
    """Each player's games against rated opponents, event by event: rated games for a player rated
    at the period's start, pooled games (for a first rating) for the others. A game ``fide``'s
    rules do not rate (rapid and blitz 8.3.1 from 1 December 2024) is left out for the side rated
    600 points or more from its opponent, one of them above 2600."""
    played: dict[int, _PlayerGames] = defaultdict(_PlayerGames)
    for event in sorted(events, key=lambda e: (e.start_date, e.id)):
        in_force = history.ratings_in_force(event.ratings_in_file, event.start_date)
        rated_side = _rated_side(fide, in_force, at_period_start)
        for player_id, rated_games in _rated_sides(event, in_force, rated_side).items():
            mine = played[player_id]
            period_rating = at_period_start(player_id)
            if period_rating is None:
                mine.pool.extend(
                    pooled_working(
                        player_id, event.id, game.id, opponent_id, Decimal(in_force[opponent_id] or 0), score
                    )
                    for game, opponent_id, score in rated_games
                )
                continue
            own = in_force.get(player_id)
            start = own if own is not None else period_rating  # B.02 8.2.4
            mine.events.append(
                [
                    RatedGame(game.id, event.id, opp, start, in_force[opp] or 0, score)
                    for game, opp, score in rated_games
                ]
            )
            mine.event_names.append(event.name)
    return played


def _rated_side(
    fide: FideRules | None, in_force: Mapping[int, int | None], at_period_start: Callable[[int], int | None]
) -> Callable[[int, int], bool] | None:
    """Whether ``fide``'s rules rate a player's side of a game against an opponent (rapid and blitz
    8.3.1 from 1 December 2024), from the ratings the side is rated from; None: every side."""
    if fide is None or fide.not_rated_difference is None:
        return None

    def rated_side(player_id: int, opponent_id: int) -> bool:
        period_rating = at_period_start(player_id)
        if period_rating is None:  # an unrated player's game: for a first rating
            return True
        own = in_force.get(player_id)
        start = own if own is not None else period_rating  # B.02 8.2.4
        return not game_not_rated(start, in_force[opponent_id] or 0, fide)

    return rated_side


def _rated_sides(
    event: EventFacts, in_force: Mapping[int, int | None], rated_side: Callable[[int, int], bool] | None
) -> dict[int, list[tuple[GameFacts, int, Decimal]]]:
    """Each player's played games of an event against an opponent rated at its start (B.02 8.3.1:
    only games "against a rated player" count) that ``rated_side(player, opponent)`` rates."""
    by_player: dict[int, list[tuple[GameFacts, int, Decimal]]] = defaultdict(list)
    for game in event.games:
        if not game.rated or game.white_score is None or game.black_score is None:
            continue
        for player_id, opponent_id, score in (
            (game.white, game.black, game.white_score),
            (game.black, game.white, game.black_score),
        ):
            if in_force.get(opponent_id) is not None and (
                rated_side is None or rated_side(player_id, opponent_id)
            ):
                by_player[player_id].append((game, opponent_id, score))
    return by_player


def _listed_status(*, listed_before: bool) -> EntryStatus:
    return EntryStatus.RATED if listed_before else EntryStatus.ENTERED


def _rate_players(
    rated_players: Mapping[int, int],
    played: Mapping[int, _PlayerGames],
    *,
    period: Period,
    rules: RuleSet,
    history: History,
    bulk: bool,
    workings: bool,
) -> dict[int, tuple[Entry, list[Working]]]:
    """Every player rated at the period's start: their line and the games behind it.

    K is chosen per player from their history by the rule set (the reason is stored with it); the
    array engine rates the games, the 700 rule and the rounding where it can, else the scalar core.
    """
    inputs: list[PlayerPeriod] = []
    profiles: list[PlayerProfile] = []
    listed: list[bool] = []
    official: list[bool] = []
    official_k = history.official_k.get(period, {}) if takes_fide_k(rules) else {}
    for player_id, rating in rated_players.items():
        profile, was_listed, k, is_official = k_of(
            player_id, rating, period=period, rules=rules, history=history, official_k=official_k
        )
        profiles.append(profile)
        listed.append(was_listed)
        official.append(is_official)
        inputs.append(PlayerPeriod(rating=rating, k=k, events=played[player_id].events))
    rated = None
    if bulk and bulk_figures.supports(rules):
        rated = bulk_figures.rate_players(inputs, rules=rules, game_figures=workings)
    if rated is None:
        event_names = [played[player_id].event_names for player_id in rated_players]
        rated = _rate_scalar(inputs, profiles, event_names, rules=rules, official=official)
    results, figures = rated
    columns = zip(figures.difference, figures.capped, figures.expected, figures.change, strict=True)
    ratings: dict[int, Decimal] = {}  # one decimal per rating

    def decimal(rating: int) -> Decimal:
        return ratings.get(rating) or ratings.setdefault(rating, Decimal(rating))

    lines: dict[int, tuple[Entry, list[Working]]] = {}
    for (player_id, rating), mine, was_listed, result in zip(
        rated_players.items(), inputs, listed, results, strict=True
    ):
        lines_of_games: list[Working] = []
        if workings:
            lines_of_games = [
                Working(
                    player_id=player_id,
                    game_id=game.game_id,
                    event_id=game.event_id,
                    opponent_id=game.opponent_id,
                    own_rating=decimal(game.own_rating),
                    opponent_rating=decimal(game.opponent_rating),
                    difference=difference,
                    capped=capped,
                    expected=expected,
                    score=game.score or ZERO,  # as rate_period adds a zero score
                    change=change,
                )
                for games in mine.events
                # zip takes from `games` first: it stops at the end of them, leaving the next
                # player's figures in `columns`.
                for game, (difference, capped, expected, change) in zip(games, columns, strict=False)
            ]
        lines[player_id] = (_rated_entry(player_id, rating, result, was_listed=was_listed), lines_of_games)
    return lines


def _rated_entry(player_id: int, rating: int, result: PlayerFigures, *, was_listed: bool) -> Entry:
    """A rated player's line."""
    return Entry(
        player_id=player_id,
        status=_listed_status(listed_before=was_listed),
        rating_before=rating,
        rating=result.new_rating,
        games=result.games,
        k=result.k.k,
        k_reason=k_reason(result.k),
        score=result.score,
        expected=result.expected,
        change=result.change,
        rounded_change=result.rounded_change,
    )


def _rate_scalar(
    players: Sequence[PlayerPeriod],
    profiles: Sequence[PlayerProfile],
    event_names: Sequence[Sequence[str]],
    *,
    rules: RuleSet,
    official: Sequence[bool],
) -> tuple[list[PlayerFigures], GameFigures]:
    """The scalar reference: :func:`chessrate.systems.elo.calculate.rate_period` for each player, its
    figures in the array engine's shape."""
    results: list[PlayerFigures] = []
    figures = GameFigures(difference=[], capped=[], expected=[], change=[])
    for mine, profile, names, fide_k in zip(players, profiles, event_names, official, strict=True):
        events = [
            Event(
                tuple(Game(Decimal(game.opponent_rating), game.score) for game in games),
                start_rating=Decimal(games[0].own_rating),
                name=name,
            )
            for games, name in zip(mine.events, names, strict=True)
        ]
        k = mine.k.k if fide_k else None
        result = rate_period(Decimal(mine.rating), events, rules=rules, profile=profile, k=k)
        results.append(
            PlayerFigures(
                k=as_official(result.k, mine.k) if fide_k else result.k,
                games=result.games,
                score=result.score,
                expected=result.expected,
                change=result.change,
                rounded_change=result.rounded_change,
                new_rating=int(result.new_rating),
            )
        )
        for event in result.events:
            for game in event.games:
                figures.difference.append(game.difference)
                figures.capped.append(game.capped)
                figures.expected.append(game.expected)
                assert game.change is not None  # every game of a period has a score
                figures.change.append(game.change)
    return results, figures
