"""An Elo period of a rating list (FIDE on the period's date, a club's TOML, ``ciabe``).

- Each event is rated from the ratings in force at its start: the list published before its start
  [FIDE-CALC]. A player unrated at the event's start but rated by the period's start is
  rated with the period's rating and counts as unrated for the opponents (B.02 8.2.4).
- A player rated at the period's start is rated as :func:`chessrate.systems.elo.calculate.rate_period` rates
  them: K chosen once for the period from the player's history (games rated so far, highest
  published rating, birth year; B.02 8.3.3), cut by the 700 rule over all the period's games; the
  change rounded once per period (B.02 8.3.4) or per tournament, as the rule set says. The array
  engine (:mod:`chessrate.bulk.figures`) rates every such player at once, from the period's games
  as columns; the scalar calculation per player is the reference (:mod:`.elo_period_reference`),
  which also rates what the engine does not (the logistic expected score, unusual scores).
- An unrated player's games against rated opponents feed a first rating (:mod:`.initial`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from chessrate.bulk import figures as bulk_figures
from chessrate.bulk.figures import GameFigures
from chessrate.ratinglist.arrays import distinct, narrow, stable_order
from chessrate.ratinglist.facts import (
    CODED_FIELDS,
    FLOAT_FIELDS,
    NONE,
    WHOLE_FIELDS,
    ZERO,
    Coded,
    ComputedList,
    EntryColumns,
    EventFacts,
    History,
    PeriodGames,
    PooledGames,
    Working,
    looked_up,
)
from chessrate.ratinglist.initial import initial_entries
from chessrate.ratinglist.k_reasons import k_reason_text
from chessrate.ratinglist.listed import NOT_LISTED
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.publish import publish_fide
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile
from chessrate.systems.fide.policy import game_not_rated

#: No rating (in the columns below).
_NONE = -1


def elo_period(
    period: Period, *, rules: RuleSet, history: History, games: PeriodGames, workings: bool
) -> ComputedList | None:
    """The list of ``period`` under ``rules`` (rules the array engine rates,
    :func:`.bulk.figures.supports`) from its games as columns; ``workings``: with the working of
    each rated game. ``None`` when a score is not 1, ½ or 0 (the reference rates that period).

    The sides are gathered as the reference gathers them (:mod:`.elo_period_reference`), with
    numpy: each game gives two sides (White's, then Black's); a side counts when the game is rated,
    has both scores and the opponent was rated at the event's start (B.02 8.3.1). Sides are taken
    in the order the reference meets them (events by start date, games in order), so the players,
    their games and the 2022 rule's "first such game" come in the same order."""
    events = sorted(games.events, key=lambda event: (event.start_date, event.id))
    ids = np.array([event.id for event in events], dtype=np.int64)
    player, opponent, score, side_event, side_game, opponent_rating, own_in_force = _sides(
        games, events, ids, history
    )
    fide = rules.fide
    if fide is not None and fide.not_rated_difference is not None:
        # FIDE rapid and blitz 8.3.1 (1 December 2024): a side rated from a rating (at the event's
        # start, else the period's, B.02 8.2.4) 600 points or more from the opponent's, one of
        # them above 2600, is not rated; as _gather leaves it out, before the players are grouped.
        at_start = history.ratings_in_force_columns(player, period.first_day)
        own = np.where(own_in_force != _NONE, own_in_force, at_start)
        pooled = at_start == _NONE  # unrated at the period's start: a first rating's game, kept
        kept = pooled | ~np.asarray(game_not_rated(own, opponent_rating, fide), dtype=np.bool_)
        if not kept.all():
            player, opponent, score, side_event, side_game, opponent_rating, own_in_force = (
                column[kept]
                for column in (player, opponent, score, side_event, side_game, opponent_rating, own_in_force)
            )

    # The players with games, in the order they are first met; their ratings at the period's start.
    # One stable sort groups the sides by player, each player's in the order met.
    by_player = stable_order(player)
    sorted_players = player[by_player]
    starts = np.flatnonzero(np.diff(sorted_players, prepend=sorted_players[:1] - 1))
    sizes = np.diff(starts, append=len(player))
    unique, first = sorted_players[starts], by_player[starts]
    inverse = np.empty(len(player), dtype=np.int32 if len(unique) < 1 << 31 else np.int64)
    inverse[by_player] = np.repeat(np.arange(len(unique)), sizes)
    del sorted_players
    met = stable_order(first)
    start_of_unique = history.ratings_in_force_columns(unique, period.first_day)

    def at_period_start(player_id: int) -> int | None:
        return history.rating_in_force(player_id, period.first_day)

    rated_unique = met[start_of_unique[met] != _NONE]  # in the order met
    who_of_unique = np.full(len(unique), _NONE, dtype=inverse.dtype)
    who_of_unique[rated_unique] = np.arange(len(rated_unique))
    who = who_of_unique[inverse]
    rated_side = who != _NONE

    halves = np.array([_HALVES_OF.get(value, _NONE) for value in games.scores] + [_NONE], dtype=np.int64)
    if (halves[score[rated_side]] == _NONE).any():  # a score other than 1, ½, 0: the reference's
        return None
    own_rating = narrow(np.where(own_in_force != _NONE, own_in_force, start_of_unique[inverse]))
    # The unrated players' sides, player by player in the order met, each player's in the order met.
    pooled_sides = np.flatnonzero(~rated_side)
    rank_met = np.empty(len(unique), dtype=np.int64)
    rank_met[met] = np.arange(len(unique))
    pooled_sides = pooled_sides[stable_order(rank_met[inverse[pooled_sides]])]
    pools = PooledGames(
        player_id=player[pooled_sides],
        game_id=side_game[pooled_sides],
        event_id=side_event[pooled_sides],
        opponent_id=opponent[pooled_sides],
        opponent_rating=opponent_rating[pooled_sides],
        score=score[pooled_sides].astype(np.int64),
        scores=games.scores,
    )
    del pooled_sides, rank_met
    # The rated sides player by player, each player's in the order met; the rest let go.
    # (each rated player's group of ``by_player``, in the order met)
    sizes = sizes[rated_unique]
    rated = by_player[
        np.arange(int(sizes.sum())) + np.repeat(starts[rated_unique] - np.cumsum(sizes) + sizes, sizes)
    ]
    del by_player
    # Each game's own columns only where its working is given.
    sides = _RatedSides(
        who=who[rated],
        game_id=side_game[rated] if workings else None,
        event_id=side_event[rated],
        opponent_id=opponent[rated] if workings else None,
        own_rating=own_rating[rated],
        opponent_rating=opponent_rating[rated],
        score=score[rated],
    )
    del player, opponent, score, opponent_rating, own_in_force, own_rating, side_game
    del side_event, inverse, who, rated_side, rated
    rated_lines, rated_games = _rate_columns(
        unique[rated_unique],
        start_of_unique[rated_unique],
        sides,
        scores=games.scores,
        period=period,
        rules=rules,
        history=history,
        workings=workings,
    )
    del sides
    return _listed_columns(
        period,
        rules=rules,
        history=history,
        order=unique[met],
        rated=rated_lines,
        rated_games=rated_games,
        pools=pools,
        entrants=distinct(games.entrant_player),
        rated_workings=workings,
    )


def _listed_columns(
    period: Period,
    *,
    rules: RuleSet,
    history: History,
    order: NDArray[np.int64],
    rated: EntryColumns,
    rated_games: Sequence[list[Working]],
    pools: PooledGames,
    entrants: NDArray[np.int64],
    rated_workings: bool,
) -> ComputedList:
    """The reference's ``_listed`` from columns: the rated players' lines (``rated``, the games
    behind each in ``rated_games`` when given) and first ratings in ``order`` (the players with games), then
    everyone else rated at the period's start, unchanged. The games pooled for the first ratings
    (``pools``) are the list's workings as they are, unless the rated games' are given too
    (``rated_workings``: each player's games then, in the order met)."""
    first_ratings = initial_entries(pools, period=period, history=history)
    # Everyone else rated at the period's start stays on the list unchanged.
    before = history.full_list(period.previous())
    listed = distinct(np.concatenate([np.fromiter(before, dtype=np.int64, count=len(before)), entrants]))
    others = listed[~np.isin(listed, order)]
    ratings = history.ratings_in_force_columns(others, period.first_day)
    others, ratings = others[ratings != _NONE], ratings[ratings != _NONE]
    was_listed = np.isin(others, history.listed_columns(period))
    unchanged = EntryColumns(
        player_id=others,
        whole={
            **{name: np.full(len(others), NONE, dtype=np.int64) for name in WHOLE_FIELDS},
            "rating_before": ratings,
            "rating": ratings,
            "games": np.zeros(len(others), dtype=np.int64),
            "rounded_change": np.zeros(len(others), dtype=np.int64),
        },
        floats={name: np.full(len(others), np.nan) for name in FLOAT_FIELDS},
        coded={
            **{name: Coded.same(None, len(others)) for name in CODED_FIELDS},
            "status": _statuses(was_listed),
        },
    )
    # The players with games in the order met, then the others (in id order).
    lines = EntryColumns.joined([rated, first_ratings, unchanged])
    place = np.full(len(lines), len(order), dtype=np.int64)
    met = stable_order(order)
    with_games = len(rated) + len(first_ratings)
    place[:with_games] = met[np.searchsorted(order, lines.player_id[:with_games], sorter=met)]
    lines = lines.taken(stable_order(place))
    workings: Sequence[Working] = pools
    if rated_workings:  # each player's games in the order met: rated, or pooled
        games_of: dict[int, Sequence[Working]] = dict(zip(rated.player_id.tolist(), rated_games, strict=True))
        pooled_players, starts = pools.players()
        for player_id, start, end in zip(pooled_players, starts, starts[1:], strict=False):
            games_of[player_id] = [pools[index] for index in range(start, end)]
        workings = tuple(working for player_id in order.tolist() for working in games_of.get(player_id, ()))
    if rules.fide is not None:
        lines = publish_fide(lines, period)
    return ComputedList(period=period, rules_title=rules.title, entries=lines, workings=workings)


def _statuses(was_listed: NDArray[np.bool_]) -> Coded:
    """``rated`` where the player was listed before the period, else ``entered`` (first listed)."""
    return Coded(was_listed.astype(np.int64), (EntryStatus.ENTERED, EntryStatus.RATED))


def _sides(
    games: PeriodGames, events: Sequence[EventFacts], ids: NDArray[np.int64], history: History
) -> tuple[NDArray[Any], ...]:
    """The sides :func:`elo_period` rates or pools, in the order the reference's ``_gather`` meets
    them: player, opponent, score code, event, game, the opponent's and the player's ratings at
    the event's start (-1: none). Events are ranked as in ``events`` (by start date, then id)."""
    by_id = np.argsort(ids)

    def rank_of(event_id: NDArray[np.int32] | NDArray[np.int64]) -> NDArray[Any]:
        return by_id[np.searchsorted(ids, event_id, sorter=by_id)] if len(ids) else event_id

    game_rank = rank_of(games.event_id)
    # The rating in force at each event's start, per (event, entrant) key: the list before the
    # month it starts in, looked up for the events of each such month at once.
    entrant_rank = rank_of(games.entrant_event)
    start_month = np.array([Period.of(event.start_date).month_number for event in events], dtype=np.int64)
    in_force = np.full(len(entrant_rank), _NONE, dtype=np.int64)
    for month in np.unique(start_month).tolist():
        here = start_month[entrant_rank] == month
        day = events[int(np.argmax(start_month == month))].start_date
        in_force[here] = history.ratings_in_force_columns(games.entrant_player[here], day)
    most = max(games.white.max(initial=0), games.black.max(initial=0), games.entrant_player.max(initial=0))
    span = int(most) + 1
    keys = entrant_rank * span + games.entrant_player
    key_order = stable_order(keys)
    keys, ratings_by_key = keys[key_order], in_force[key_order]
    del entrant_rank, in_force, key_order

    def rating_at_event(rank: NDArray[np.int64], player: NDArray[np.int64]) -> NDArray[np.int64]:
        wanted = rank * span + player
        if not len(keys):
            return np.full(len(wanted), _NONE, dtype=np.int64)
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        return np.where(keys[at] == wanted, ratings_by_key[at], _NONE)

    order = stable_order(game_rank)  # then by game id: the games come in game id order
    sides = len(order) * 2

    def both(white: NDArray[Any], black: NDArray[Any]) -> NDArray[Any]:
        return np.stack([white[order], black[order]], axis=1).reshape(sides)

    def swapped(column: NDArray[Any]) -> NDArray[Any]:  # each side's value of the other side
        return column.reshape(-1, 2)[:, ::-1].reshape(sides)

    player = both(games.white, games.black)
    side_rank = np.repeat(game_rank[order], 2)
    own_in_force = narrow(rating_at_event(side_rank, player))
    opponent_rating = swapped(own_in_force)
    valid = np.repeat(games.counted()[order], 2) & (opponent_rating != _NONE)
    opponent = swapped(player)[valid]
    player, side_rank, own_in_force, opponent_rating = (
        player[valid],
        side_rank[valid],
        own_in_force[valid],
        opponent_rating[valid],
    )
    score = both(games.white_score, games.black_score)[valid]
    side_game = np.repeat(games.game_id[order], 2)[valid]
    side_event = ids[side_rank] if len(ids) else side_rank
    return player, opponent, score, side_event, side_game, opponent_rating, own_in_force


class _RatedSides(NamedTuple):
    """The rated sides as columns, player by player: ``who`` is the player's index among those
    rated; ``game_id`` and ``opponent_id`` are kept only where each game's working is given."""

    who: NDArray[np.int64]
    game_id: NDArray[np.int64] | None
    event_id: NDArray[np.int64]
    opponent_id: NDArray[np.int64] | None
    own_rating: NDArray[np.int64]
    opponent_rating: NDArray[np.int64]
    score: NDArray[np.int8]


def _rate_columns(
    player_ids: NDArray[np.int64],
    ratings: NDArray[np.int64],
    sides: _RatedSides,
    *,
    scores: Sequence[Decimal],
    period: Period,
    rules: RuleSet,
    history: History,
    workings: bool,
) -> tuple[EntryColumns, list[list[Working]]]:
    """The reference's ``_rate_players`` from columns: one row per rated side, ``who`` its player's
    index in ``player_ids`` (rated at the period's start with ``ratings``), player by player. The players
    are rated :data:`RATE_CHUNK` sides at a time at most (each player's sides in one chunk), so
    the engine's arrays stay bounded. Their lines come as columns; the games behind each player's
    line (when ``workings``) as a list a player, else none."""
    who, game_id, event_id, opponent_id, own_rating, opponent_rating, score = sides
    official_k = history.official_k.get(period, {}) if takes_fide_k(rules) else {}
    listed, coded_ks = _ks_of(
        player_ids, ratings, period=period, rules=rules, history=history, official_k=official_k
    )
    ks: list[KFactor] = list(coded_ks.values)  # type: ignore[arg-type]
    halves = np.array([_HALVES_OF.get(value, _NONE) for value in scores] + [_NONE], dtype=np.int8)
    exponents = np.array([_exponent(value) for value in scores] + [0], dtype=np.int64)
    parts: list[bulk_figures.PlayerColumns] = []
    figures = GameFigures(difference=[], capped=[], expected=[], change=[])
    first_side = np.searchsorted(who, np.arange(len(player_ids) + 1))
    start = 0
    while start < len(player_ids):
        # At least one player; then as many whole players as fit in a chunk.
        end = max(start + 1, int(np.searchsorted(first_side, first_side[start] + RATE_CHUNK, "right")) - 1)
        chunk = slice(int(first_side[start]), int(first_side[end]))
        part, chunk_figures = bulk_figures.rate_sides(
            (who[chunk] - start).astype(np.intp),
            event_id[chunk].astype(np.intp, copy=False),
            own_rating[chunk].astype(np.int64),
            opponent_rating[chunk].astype(np.int64),
            halves[score[chunk]],
            exponents[score[chunk]],
            ratings=ratings[start:end].tolist(),
            k=ks,
            k_codes=coded_ks.codes[start:end],
            rules=rules,
            game_figures=workings,
        )
        parts.append(part)
        if chunk_figures is not None:
            for name in ("difference", "capped", "expected", "change"):
                getattr(figures, name).extend(getattr(chunk_figures, name))
        start = end
    rated = bulk_figures.PlayerColumns.joined(parts)
    games_of: list[list[Working]] = []
    if workings:
        games_of = [[] for _ in range(len(player_ids))]
        decimals: dict[int, Decimal] = {}

        def decimal(rating: int) -> Decimal:
            return decimals.get(rating) or decimals.setdefault(rating, Decimal(rating))

        assert game_id is not None  # given with workings
        assert opponent_id is not None
        ids = player_ids.tolist()
        for index, game, event, opponent, own, other, code, difference, capped, expected, change in zip(
            who.tolist(),
            game_id.tolist(),
            event_id.tolist(),
            opponent_id.tolist(),
            own_rating.tolist(),
            opponent_rating.tolist(),
            score.tolist(),
            figures.difference,
            figures.capped,
            figures.expected,
            figures.change,
            strict=True,
        ):
            games_of[index].append(
                Working(
                    player_id=ids[index],
                    game_id=game,
                    event_id=event,
                    opponent_id=opponent,
                    own_rating=decimal(own),
                    opponent_rating=decimal(other),
                    difference=difference,
                    capped=capped,
                    expected=expected,
                    score=scores[code] or ZERO,  # as rate_period adds a zero score
                    change=change,
                )
            )
    # One reason text per K object (the same few recur, in every chunk): each once, by identity.
    distinct = Coded.of(rated.k_values)
    k_objects = Coded(distinct.codes[rated.k], distinct.values)
    k_factors = [factor for factor in k_objects.values if isinstance(factor, KFactor)]
    players = len(player_ids)
    lines = EntryColumns(
        player_id=player_ids,
        whole={
            "rating_before": ratings,
            "rating": rated.new_rating,
            "games": rated.games,
            "k": np.array([factor.k for factor in k_factors], dtype=np.int64)[k_objects.codes],
            "rounded_change": rated.rounded_change,
            "adjustment": np.full(players, NONE, dtype=np.int64),
        },
        floats={name: np.full(players, np.nan) for name in FLOAT_FIELDS},
        coded={
            "status": _statuses(listed),
            "k_reason": Coded(k_objects.codes, tuple(map(k_reason, k_factors))),
            "score": Coded(*bulk_figures.decimals(rated.score, rated.score_exponent)),
            "expected": Coded(*bulk_figures.decimals(rated.expected, rated.expected_exponent)),
            "change": Coded(*bulk_figures.decimals(rated.change, rated.change_exponent)),
            "note": Coded.same(None, players),
        },
    )
    return lines, games_of


#: Rated sides handed to the array engine at a time (each player's all in one call).
RATE_CHUNK = 1 << 18

#: A score as half points (the array engine's encoding).
_HALVES_OF = {Decimal(0): 0, Decimal("0.5"): 1, Decimal(1): 2}


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


#: What K needs of a player's history (``PlayerProfile``'s fields: birth year, games rated so far,
#: highest published rating).
ProfileFields = tuple[int | None, int | None, int]


def _profile(player_id: int, *, period: Period, history: History, rating: int) -> tuple[ProfileFields, bool]:
    """The player's history as K needs it (B.02 8.3.3), and whether the store lists them before."""
    mine = history.listed_before(player_id, period)
    if mine is None:
        return (history.birth_years.get(player_id), None, rating), False
    return (
        history.birth_years.get(player_id),
        # A player first listed with a file's rating has a history the store does not know:
        # taken as 30 games or more, as the tournament report does.
        None if mine.entered else mine.games,
        rating if mine.highest is None else max(mine.highest, rating),
    ), True


def k_of(
    player_id: int,
    rating: int,
    *,
    period: Period,
    rules: RuleSet,
    history: History,
    official_k: Mapping[int, int],
) -> tuple[PlayerProfile, bool, KFactor, bool]:
    """A rated player's profile, whether the store lists them before, their K before the 700
    rule, and whether it is FIDE's (a player with no history here, docs/ratinglist.md)."""
    fields, was_listed = _profile(player_id, period=period, history=history, rating=rating)
    fide_k = None if was_listed else official_k.get(player_id)
    birth_year, rated_games, highest = fields
    profile = PlayerProfile(birth_year=birth_year, rated_games=rated_games, highest_rating=highest)
    if fide_k is not None:
        return profile, was_listed, official_k_factor(fide_k), True
    return profile, was_listed, rules.k_for(Decimal(rating), profile), False


def _ks_of(
    player_ids: NDArray[np.int64],
    ratings: NDArray[np.int64],
    *,
    period: Period,
    rules: RuleSet,
    history: History,
    official_k: Mapping[int, int],
) -> tuple[NDArray[np.bool_], Coded]:
    """:func:`k_of` of each player (rated ``ratings`` at the period's start): whether the store
    lists them before, and their K before the 700 rule as codes into the K objects. The same as
    :func:`k_of` a player, with the history as columns: each distinct rating and history (what
    :func:`_profile` gives) is handed to the rule set's K once (B.02 8.3.3), and each distinct K
    from FIDE's list once (a player with no history here)."""
    if len(player_ids):
        history.listed_before(int(player_ids[0]), period)  # refuses a history with later lists
    listed = history.listed_sums()
    # NONE where a player is not found: never a first list (a month number and a bit, >= 0) nor
    # a K from FIDE's list.
    first = looked_up(listed.player, listed.first, player_ids, missing=NONE)
    was_listed = first != NONE
    games = looked_up(listed.player, listed.games, player_ids, missing=NONE)
    highest = looked_up(listed.player, listed.highest, player_ids, missing=NONE)
    # A player first listed with a file's rating has a history the store does not know: taken as
    # 30 games or more (rated_games None), as the tournament report does.
    rated_games = np.where(was_listed & (first & 1 == 0), games, NONE)
    highest = np.where(was_listed & (highest != NOT_LISTED), np.maximum(highest, ratings), ratings)
    born, years = history.birth_columns()
    birth_year = looked_up(born, years, player_ids, missing=NONE)
    fide_ids = np.fromiter(official_k, dtype=np.int64, count=len(official_k))
    order = np.argsort(fide_ids, kind="stable")
    fide_ks = np.fromiter(official_k.values(), dtype=np.int64, count=len(official_k))[order]
    fide_k = looked_up(fide_ids[order], fide_ks, player_ids, missing=NONE)
    fide = ~was_listed & (fide_k != NONE)
    codes = np.empty(len(player_ids), dtype=np.int64)
    keys = np.stack([ratings, birth_year, rated_games, highest], axis=1)[~fide]
    distinct_keys, inverse = np.unique(keys, axis=0, return_inverse=True)
    codes[~fide] = inverse.reshape(-1)
    values: list[KFactor] = []
    for rating, birth, games, high in distinct_keys.tolist():
        profile = PlayerProfile(
            birth_year=None if birth == NONE else birth,
            rated_games=None if games == NONE else games,
            highest_rating=high,
        )
        values.append(rules.k_for(Decimal(rating), profile))
    distinct_fide, fide_inverse = np.unique(fide_k[fide], return_inverse=True)
    codes[fide] = fide_inverse.reshape(-1) + len(values)
    values.extend(official_k_factor(k) for k in distinct_fide.tolist())
    # The rule set gives a new K object for each rating and history, of a few distinct Ks: each
    # once, by what the list writes of it (K and its stored reason; uncut, the 700 rule comes after).
    index: dict[tuple[int, str], int] = {}
    kept: list[KFactor] = []
    same: list[int] = []
    for factor in values:
        code = index.setdefault((factor.k, k_reason(factor)), len(kept))
        if code == len(kept):
            kept.append(factor)
        same.append(code)
    return was_listed, Coded(np.array(same, dtype=np.int64)[codes], tuple(kept))


def k_reason(k: KFactor) -> str:
    """A line's K reason: its code and values, with the article (:mod:`chessrate.ratinglist.k_reasons`)."""
    return k_reason_text(k)


def takes_fide_k(rules: RuleSet) -> bool:
    """FIDE's K serves FIDE's rules and rule sets that need a K; a club's K bands keep their own."""
    return rules.fide is not None or rules.k_policy is None


def official_k_factor(k: int) -> KFactor:
    """A K from FIDE's list in force at the period's start [FIDE-RR-2024 §7.1.2]."""
    return KFactor(k=k, code="k-fide-list-in-force", article="FIDE rating list")


def as_official(computed: KFactor, official: KFactor) -> KFactor:
    """The scalar core's K for a K given (``k-given``, maybe cut by the 700 rule), said as FIDE's."""
    return dataclasses.replace(computed, code=official.code, params=official.params, article=official.article)
