"""A Glicko-2 period of a rating list: every player of the period rated from the ratings at its
start (:func:`chessrate.systems.glicko.glicko2.rate_whole_period`, or the array engine
:func:`chessrate.bulk.rate_glicko2_period`), newcomers as the paper's unrated player."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal

import numpy as np

from chessrate import bulk as numpy_bulk
from chessrate.ratinglist.facts import ZERO, ComputedList, Entry, EventFacts, GameFacts, History, Working
from chessrate.ratinglist.notes import note_text
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.systems.glicko import glicko2
from chessrate.systems.glicko import glicko2_steps as steps
from chessrate.systems.rounding import round_half_away_from_zero

_Side = tuple[int, int, GameFacts, int, Decimal]  # player, opponent, game, event, score

#: A player without games: the deviation grows (Glickman, Glicko-2 Step 6), said from the catalogs.
GLICKO2_NO_GAMES = note_text([("glicko2-no-games", {})])


def glicko2_period(
    period: Period, *, history: History, events: Sequence[EventFacts], bulk: bool
) -> ComputedList:
    """The list of ``period``; ``bulk``: with the array engine where it can, else the scalar core."""
    previous = history.full_list(period.previous())
    start = {
        player_id: glicko2.Glicko2Rating(entry.glicko_rating, entry.deviation, entry.volatility)
        for player_id, entry in previous.items()
        if entry.glicko_rating is not None and entry.deviation is not None and entry.volatility is not None
    }
    newcomer = glicko2.Glicko2Rating()  # Step 1: 1500, RD 350, volatility 0.06
    period_games, sides = _games(events)
    rated = _glicko2_bulk(start, period_games, newcomer=newcomer) if bulk else None
    if rated is None:
        after = glicko2.rate_whole_period(start, period_games, newcomer=newcomer)
        before = {pid: start.get(pid, newcomer) for pid in after}
        side_expected = [
            glicko2.expected_score(before[mine].rating, before[theirs].rating, before[theirs].deviation)
            for mine, theirs, *_ in sides
        ]
    else:
        after, side_expected = rated
        before = {pid: start.get(pid, newcomer) for pid in after}
    written = {pid: Decimal(repr(rating.rating)) for pid, rating in before.items()}
    workings = [
        Working(
            player_id=player_id,
            game_id=game.id,
            event_id=event_id,
            opponent_id=opponent_id,
            own_rating=written[player_id],
            opponent_rating=written[opponent_id],
            difference=None,
            capped=False,
            expected=Decimal(repr(e)),
            score=score,
            change=None,
        )
        for (player_id, opponent_id, game, event_id, score), e in zip(sides, side_expected, strict=True)
    ]
    by_player: dict[int, list[tuple[Decimal, float]]] = defaultdict(list)  # score, expected
    for side, e in zip(sides, side_expected, strict=True):
        by_player[side[0]].append((side[4], e))
    entries = {
        player_id: _entry(player_id, start.get(player_id), rating, by_player.get(player_id, []))
        for player_id, rating in after.items()
    }
    return ComputedList(
        period=period, rules_title="Glicko-2 (Glickman), tau 0.5", entries=entries, workings=tuple(workings)
    )


def _games(events: Sequence[EventFacts]) -> tuple[list[glicko2.PeriodGame[int]], list[_Side]]:
    """The period's played games, and each game's two sides (White's, then Black's)."""
    period_games: list[glicko2.PeriodGame[int]] = []
    sides: list[_Side] = []
    for event in sorted(events, key=lambda e: (e.start_date, e.id)):
        for game in event.games:
            if not game.rated or game.white_score is None or game.black_score is None:
                continue
            period_games.append(glicko2.PeriodGame(game.white, game.black, float(game.white_score)))
            sides.append((game.white, game.black, game, event.id, game.white_score))
            sides.append((game.black, game.white, game, event.id, game.black_score))
    return period_games, sides


def _entry(
    player_id: int,
    was: glicko2.Glicko2Rating | None,
    rating: glicko2.Glicko2Rating,
    mine: Sequence[tuple[Decimal, float]],
) -> Entry:
    """A player's line: ``mine`` holds the score and expected score of each of their games."""
    games = len(mine)
    expected = 0.0
    for _, e in mine:
        expected += e  # in the order of the games, as summed before
    return Entry(
        player_id=player_id,
        status=EntryStatus.RATED if was is not None else EntryStatus.NEW,
        rating_before=_whole(was.rating) if was is not None else None,
        rating=_whole(rating.rating),
        games=games,
        score=sum((score for score, _ in mine), ZERO) if games else None,
        expected=Decimal(repr(expected)) if games else None,
        rounded_change=_whole(rating.rating) - _whole(was.rating) if was is not None else None,
        glicko_rating=rating.rating,
        deviation=rating.deviation,
        volatility=rating.volatility,
        note=None if games else GLICKO2_NO_GAMES,
    )


def _glicko2_bulk(
    start: Mapping[int, glicko2.Glicko2Rating],
    games: Sequence[glicko2.PeriodGame[int]],
    *,
    newcomer: glicko2.Glicko2Rating,
) -> tuple[dict[int, glicko2.Glicko2Rating], list[float]] | None:
    """The period with :func:`chessrate.bulk.rate_glicko2_period`: every player's new rating (in
    :func:`glicko2.rate_whole_period`'s order) and each side's expected score (Step 3's E, White's
    then Black's per game). None when the engine cannot take it (a rating outside 0-4000, an RD or
    a volatility outside glicko2's bounds, or a score other than 1, ½, 0): the scalar path then."""
    index = {player_id: i for i, player_id in enumerate(start)}
    for game in games:
        for key in (game.white, game.black):
            index.setdefault(key, len(index))
    before = [start.get(player_id, newcomer) for player_id in index]
    rating = np.array([value.rating for value in before])
    deviation = np.array([value.deviation for value in before])
    volatility = np.array([value.volatility for value in before])
    if not numpy_bulk.glicko2_takes(rating, deviation, volatility):
        return None
    if any(game.white_score not in (0.0, 0.5, 1.0) for game in games):
        return None
    white = np.array([index[game.white] for game in games], dtype=np.intp)
    black = np.array([index[game.black] for game in games], dtype=np.intp)
    halves = np.array([2 * game.white_score for game in games], dtype=np.int8)
    result = numpy_bulk.rate_glicko2_period(white, black, halves, rating, deviation, volatility)
    after = {
        player_id: glicko2.Glicko2Rating(r, d, v)
        for player_id, r, d, v in zip(
            index, result.rating.tolist(), result.deviation.tolist(), result.volatility.tolist(), strict=True
        )
    }
    # Step 3's E for each side, from the ratings at the period start; as glicko2.expected_score.
    mu = (rating - steps.CENTRE) / steps.SCALE
    phi = deviation / steps.SCALE
    g = 1.0 / np.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))
    z = np.empty(2 * len(white))
    z[0::2] = g[black] * (mu[white] - mu[black])
    z[1::2] = g[white] * (mu[black] - mu[white])
    with np.errstate(over="ignore"):
        ez = np.exp(-np.abs(z))  # 1 / (1 + e^-z), without overflow for either sign
    side_expected = np.where(z >= 0, 1.0 / (1.0 + ez), ez / (1.0 + ez))
    return after, side_expected.tolist()


def _whole(value: float) -> int:
    return round_half_away_from_zero(Decimal(repr(value)))
