"""One rating period of a rating list, computed from the lists before it and the period's events.

Pure: no database here. :mod:`chessrate.ratinglist.runner` loads the facts, calls
:func:`compute_period` for each period and writes the results.

Elo rule sets (FIDE on the period's date, a club's TOML, ``ciabe``):

- Each event is rated from the ratings in force at its start: the list published before its
  start ([FIDE-CALC] F-P02, F-P03; [FIDE-TR-2024 §1.4.6]). A player unrated at the event's start
  but rated by the period's start is rated with the period's rating and counts as unrated for the
  opponents (B.02 8.2.4).
- A player rated at the period's start is rated by :func:`chessrate.calculate.rate_period`: K
  chosen once for the period from the player's history (games rated so far, highest published
  rating, birth year; B.02 8.3.3), cut by the 700 rule over all the period's games; the change
  rounded once per period (B.02 8.3.4) or per tournament, as the rule set says.
- An unrated player's games against rated opponents are pooled over at most 26 consecutive monthly
  periods (B.02 7.1.4); the initial rating is :func:`chessrate.fide.performance.initial_rating`
  under the FIDE rules in force at the period's start (club rule sets use them too).
- The list dated 1 March 2024 gets the one-time adjustment R + 0.40 x (2000 - R) for ratings
  below 2000 (fide.md §2.9), FIDE rule sets only.
- A rating below the floor of the FIDE rules in force on the list's date is shown as unrated
  (B.02 7.2.1); FIDE rule sets only.

Glicko-2 (``glicko2``): every player of the period rated from the ratings at its start
(:func:`chessrate.glicko2.rate_whole_period`), newcomers as the paper's unrated player.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

from chessrate import _glicko2_steps as steps
from chessrate import bulk as numpy_bulk
from chessrate import glicko2
from chessrate.calculate import Event, Game, PeriodResult, rate_period
from chessrate.fide.k_factor import PlayerProfile
from chessrate.fide.performance import initial_rating
from chessrate.fide.rules import ADJUSTMENT_2024_DAY, rules_in_force
from chessrate.parse import MAX_RATING, MIN_RATING
from chessrate.ratinglist import bulk_elo
from chessrate.ratinglist.bulk_elo import RatedGame
from chessrate.ratinglist.periods import Period
from chessrate.rounding import round_half_away_from_zero
from chessrate.ruleset import RuleSet

ZERO = Decimal(0)
#: B.02 7.1.4: "Results from other tournaments played within consecutive rating periods of not
#: more than 26 months are pooled": this period and the 25 before it.
POOL_MONTHS = 26
#: fide.md §2.9: "(0.40) x (2000 - Rating)" for ratings below 2000.
ADJUSTMENT_FACTOR = Decimal("0.40")
ADJUSTMENT_BELOW = 2000


@dataclass(frozen=True, kw_only=True)
class GameFacts:
    """A game of an imported event."""

    id: int
    white: int
    black: int
    white_score: Decimal | None
    black_score: Decimal | None
    rated: bool


@dataclass(frozen=True, kw_only=True)
class EventFacts:
    """An imported event: its dates, its players with the rating the file gave, its games."""

    id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    ratings_in_file: Mapping[int, int | None]
    games: tuple[GameFacts, ...]


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One player's line of a list."""

    player_id: int
    status: str
    rating_before: int | None
    rating: int | None
    games: int
    k: int | None = None
    k_reason: str | None = None
    score: Decimal | None = None
    expected: Decimal | None = None
    change: Decimal | None = None
    rounded_change: int | None = None
    adjustment: int | None = None
    glicko_rating: float | None = None
    deviation: float | None = None
    volatility: float | None = None
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class Working:
    """One game behind a list entry, with the figures it was rated with."""

    player_id: int
    game_id: int
    event_id: int
    opponent_id: int
    own_rating: Decimal | None
    opponent_rating: Decimal
    difference: Decimal | None
    capped: bool
    expected: Decimal | None
    score: Decimal
    change: Decimal | None


@dataclass(frozen=True, kw_only=True)
class ComputedList:
    """A period's list: one entry per listed player, and the games behind them."""

    period: Period
    rules_title: str
    entries: Mapping[int, Entry]
    workings: tuple[Working, ...]


@dataclass(kw_only=True)
class History:
    """What the lists before a period say, as the computation of the next period needs it.

    Lists are added oldest first with :meth:`add`.
    """

    #: The rating each player's earliest event file gives (None: unrated there).
    entry_ratings: Mapping[int, int | None] = field(default_factory=dict)
    #: Each player's earliest event.
    first_events: Mapping[int, int] = field(default_factory=dict)
    birth_years: Mapping[int, int | None] = field(default_factory=dict)
    #: The lists, period by period.
    lists: dict[Period, Mapping[int, Entry]] = field(default_factory=dict)
    #: The games of pending (unrated) players, period by period, for pooling.
    pending_games: dict[Period, Mapping[int, tuple[Working, ...]]] = field(default_factory=dict)
    _rows: dict[int, list[tuple[Period, Entry]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, period: Period, entries: Mapping[int, Entry], workings: Sequence[Working]) -> None:
        """Add the list of ``period``, the period after the last one added."""
        self.lists[period] = entries
        for player_id, entry in entries.items():
            self._rows[player_id].append((period, entry))
        pending: dict[int, list[Working]] = defaultdict(list)
        for working in workings:
            if entries[working.player_id].status == "pending":
                pending[working.player_id].append(working)
        self.pending_games[period] = {key: tuple(value) for key, value in pending.items()}

    def rating_in_force(self, player_id: int, day: dt.date) -> int | None:
        """The player's rating on the list in force on ``day``; the file's before any list of theirs."""
        listed = Period.of(day).previous()
        entry = self.lists.get(listed, {}).get(player_id)
        if entry is not None:
            return entry.rating
        rows = self._rows.get(player_id)
        if not rows or rows[0][0] > listed:
            return self.entry_ratings.get(player_id)
        return None

    def rows(self, player_id: int, before: Period) -> list[tuple[Period, Entry]]:
        """The player's entries on the lists before ``before``, oldest first."""
        return [(period, entry) for period, entry in self._rows.get(player_id, ()) if period < before]


def compute_period(
    period: Period,
    *,
    rules: RuleSet | None,
    history: History,
    events: Sequence[EventFacts],
    bulk: bool = True,
) -> ComputedList:
    """The list of ``period``: Elo under ``rules``, or Glicko-2 when ``rules`` is None.

    ``bulk`` rates the period's games with the numpy engine (:mod:`chessrate.bulk`); False
    rates each player with the scalar rating core, the reference the bulk path is tested against
    (``tests/ratinglist/test_bulk_equivalence.py``). Both give the same lists and workings.
    """
    if rules is None:
        return _glicko2_period(period, history=history, events=events, bulk=bulk)
    return _elo_period(period, rules=rules, history=history, events=events, bulk=bulk)


@dataclass(kw_only=True)
class _PlayerGames:
    events: list[list[RatedGame]] = field(default_factory=list)  # tournament by tournament
    event_names: list[str] = field(default_factory=list)
    pool: list[Working] = field(default_factory=list)


def _elo_period(
    period: Period, *, rules: RuleSet, history: History, events: Sequence[EventFacts], bulk: bool
) -> ComputedList:
    start_ratings: dict[int, int | None] = {}

    def at_period_start(player_id: int) -> int | None:
        if player_id not in start_ratings:
            start_ratings[player_id] = history.rating_in_force(player_id, period.first_day)
        return start_ratings[player_id]

    played: dict[int, _PlayerGames] = defaultdict(_PlayerGames)
    for event in sorted(events, key=lambda e: (e.start_date, e.id)):
        in_force = {pid: history.rating_in_force(pid, event.start_date) for pid in event.ratings_in_file}
        by_player: dict[int, list[tuple[GameFacts, int, Decimal]]] = defaultdict(list)
        for game in event.games:
            if not game.rated or game.white_score is None or game.black_score is None:
                continue
            for player_id, opponent_id, score in (
                (game.white, game.black, game.white_score),
                (game.black, game.white, game.black_score),
            ):
                if in_force.get(opponent_id) is None:
                    continue  # B.02 8.3.1: only games "against a rated player" count
                by_player[player_id].append((game, opponent_id, score))
        for player_id, rated_games in by_player.items():
            period_rating = at_period_start(player_id)
            if period_rating is None:
                played[player_id].pool.extend(
                    Working(
                        player_id=player_id,
                        game_id=game.id,
                        event_id=event.id,
                        opponent_id=opponent_id,
                        own_rating=None,
                        opponent_rating=Decimal(in_force[opponent_id] or 0),
                        difference=None,
                        capped=False,
                        expected=None,
                        score=score,
                        change=None,
                    )
                    for game, opponent_id, score in rated_games
                )
                continue
            own = in_force.get(player_id)
            start = own if own is not None else period_rating  # B.02 8.2.4
            played[player_id].events.append(
                [
                    RatedGame(game.id, event.id, opp, start, in_force[opp] or 0, score)
                    for game, opp, score in rated_games
                ]
            )
            played[player_id].event_names.append(event.name)

    rated_players = {
        player_id: rating
        for player_id, mine in played.items()
        if mine.events and (rating := at_period_start(player_id)) is not None
    }
    rated_lines = None
    if bulk and bulk_elo.supports(rules):
        rated_lines = _rate_players_bulk(rated_players, played, period=period, rules=rules, history=history)
    entries: dict[int, Entry] = {}
    workings: list[Working] = []
    for player_id, mine in played.items():
        period_rating = rated_players.get(player_id)
        if period_rating is not None:
            if rated_lines is not None:
                entry, rated = rated_lines[player_id]
            else:
                entry, rated = _rate_player(
                    player_id, mine, period=period, rules=rules, history=history, rating=period_rating
                )
            entries[player_id] = entry
            workings.extend(rated)
        elif mine.pool:
            entries[player_id] = _initial(player_id, mine.pool, period=period, history=history)
            workings.extend(mine.pool)
    # Everyone else rated at the period's start stays on the list unchanged.
    listed = set(history.lists.get(period.previous(), {})) | {
        pid for event in events for pid in event.ratings_in_file
    }
    for player_id in sorted(listed - set(entries)):
        rating = at_period_start(player_id)
        if rating is not None:
            entries[player_id] = Entry(
                player_id=player_id,
                status=_rated_status(player_id, period, history),
                rating_before=rating,
                rating=rating,
                games=0,
                rounded_change=0,
            )
    if rules.fide is not None:
        entries = _publish_fide(entries, period)
    return ComputedList(period=period, rules_title=rules.title, entries=entries, workings=tuple(workings))


def _rated_status(player_id: int, period: Period, history: History) -> str:
    return "rated" if history.rows(player_id, period) else "entered"


def _profile(player_id: int, *, period: Period, history: History, rating: int) -> tuple[PlayerProfile, bool]:
    """The player's history as K needs it (B.02 8.3.3), and whether the store lists them before."""
    rows = history.rows(player_id, period)
    entered = not rows or rows[0][1].status == "entered"
    published = [entry.rating for _, entry in rows if entry.rating is not None]
    profile = PlayerProfile(
        birth_year=history.birth_years.get(player_id),
        # A player first listed with a file's rating has a history the store does not know:
        # taken as 30 games or more, as the tournament report does.
        rated_games=None if entered else sum(entry.games for _, entry in rows),
        highest_rating=max([*published, rating]),
    )
    return profile, bool(rows)


def _rate_player(
    player_id: int, mine: _PlayerGames, *, period: Period, rules: RuleSet, history: History, rating: int
) -> tuple[Entry, list[Working]]:
    """The scalar reference: :func:`chessrate.calculate.rate_period` for one player."""
    profile, listed = _profile(player_id, period=period, history=history, rating=rating)
    events = [
        Event(
            tuple(Game(Decimal(game.opponent_rating), game.score) for game in games),
            start_rating=Decimal(games[0].own_rating),
            name=name,
        )
        for games, name in zip(mine.events, mine.event_names, strict=True)
    ]
    result: PeriodResult = rate_period(Decimal(rating), events, rules=rules, profile=profile)
    workings = [
        Working(
            player_id=player_id,
            game_id=rated.game_id,
            event_id=rated.event_id,
            opponent_id=rated.opponent_id,
            own_rating=event.start_rating,
            opponent_rating=game.opponent,
            difference=game.difference,
            capped=game.capped,
            expected=game.expected,
            score=game.score or ZERO,
            change=game.change,
        )
        for event, games in zip(result.events, mine.events, strict=True)
        for game, rated in zip(event.games, games, strict=True)
    ]
    entry = Entry(
        player_id=player_id,
        status="rated" if listed else "entered",
        rating_before=rating,
        rating=int(result.new_rating),
        games=result.games,
        k=result.k.k,
        k_reason=f"{result.k.reason} ({result.k.article})",
        score=result.score,
        expected=result.expected,
        change=result.change,
        rounded_change=result.rounded_change,
    )
    return entry, workings


def _rate_players_bulk(
    rated_players: Mapping[int, int],
    played: Mapping[int, _PlayerGames],
    *,
    period: Period,
    rules: RuleSet,
    history: History,
) -> dict[int, tuple[Entry, list[Working]]] | None:
    """Every rated player at once with the numpy engine; None when it cannot (the scalar path then).

    K is chosen per player from their history by the rule set (a few per player, scalar: the
    reason is stored with it); the games, the 700 rule and the rounding go through the arrays.
    """
    inputs: list[bulk_elo.PlayerPeriod] = []
    listed: list[bool] = []
    for player_id, rating in rated_players.items():
        profile, was_listed = _profile(player_id, period=period, history=history, rating=rating)
        listed.append(was_listed)
        inputs.append(
            bulk_elo.PlayerPeriod(
                rating=rating, k=rules.k_for(Decimal(rating), profile), events=played[player_id].events
            )
        )
    rated = bulk_elo.rate_players(inputs, rules=rules)
    if rated is None:
        return None
    results, figures = rated
    columns = zip(figures.difference, figures.capped, figures.expected, figures.change, strict=True)
    ratings: dict[int, Decimal] = {}  # one decimal per rating
    lines: dict[int, tuple[Entry, list[Working]]] = {}
    for (player_id, rating), mine, was_listed, result in zip(
        rated_players.items(), inputs, listed, results, strict=True
    ):
        workings = [
            Working(
                player_id=player_id,
                game_id=game.game_id,
                event_id=game.event_id,
                opponent_id=game.opponent_id,
                own_rating=ratings.get(game.own_rating)
                or ratings.setdefault(game.own_rating, Decimal(game.own_rating)),
                opponent_rating=ratings.get(game.opponent_rating)
                or ratings.setdefault(game.opponent_rating, Decimal(game.opponent_rating)),
                difference=difference,
                capped=capped,
                expected=expected,
                score=game.score or ZERO,  # as the scalar path writes a zero
                change=change,
            )
            for games in mine.events
            # zip takes from `games` first: it stops at the end of them, leaving the next
            # player's figures in `columns`.
            for game, (difference, capped, expected, change) in zip(games, columns, strict=False)
        ]
        entry = Entry(
            player_id=player_id,
            status="rated" if was_listed else "entered",
            rating_before=rating,
            rating=result.new_rating,
            games=result.games,
            k=result.k.k,
            k_reason=f"{result.k.reason} ({result.k.article})",
            score=result.score,
            expected=result.expected,
            change=result.change,
            rounded_change=result.rounded_change,
        )
        lines[player_id] = (entry, workings)
    return lines


def _initial(player_id: int, games: list[Working], *, period: Period, history: History) -> Entry:
    """A first rating from the games pooled over 26 months (B.02 7.1.4, 8.2), or a pending entry."""
    since = period.minus_months(POOL_MONTHS - 1)
    for earlier, entry in history.rows(player_id, period):
        if entry.status != "pending":
            since = max(since, earlier.next())  # pool only since the player was last listed
    pool = [
        working
        for earlier, by_player in sorted(history.pending_games.items())
        if since <= earlier < period
        for working in by_player.get(player_id, ())
    ] + games
    first_event = pool[0].event_id
    dropped = ""
    if first_event == history.first_events.get(player_id):
        first_score = sum((w.score for w in pool if w.event_id == first_event), ZERO)
        if first_score == 0 and any(w.event_id != first_event for w in pool):
            # B.02 8.2.1: "If an unrated player scores zero in their first event this score is
            # disregarded."
            pool = [w for w in pool if w.event_id != first_event]
            dropped = "; a zero score in the first event is disregarded (B.02 8.2.1)"
    rules = rules_in_force(period.first_day)
    points = sum((w.score for w in pool), ZERO)
    result = initial_rating([w.opponent_rating for w in pool], points, rules=rules)
    pooled = f"{len(pool)} games against rated opponents from {since} to {period}{dropped}"
    note = f"{result.reason}; {pooled} ({result.article}, {rules.name})"
    return Entry(
        player_id=player_id,
        status="pending" if result.rating is None else "new",
        rating_before=None,
        rating=result.rating,
        games=len(games),
        score=sum((w.score for w in games), ZERO),
        note=note,
    )


def _publish_fide(entries: Mapping[int, Entry], period: Period) -> dict[int, Entry]:
    """The 1 March 2024 adjustment when this list is that one, then the floor of the list's date."""
    adjust = period.first_day < ADJUSTMENT_2024_DAY <= period.list_date
    floor = rules_in_force(period.list_date).rating_floor
    published: dict[int, Entry] = {}
    for player_id, entry in entries.items():
        if entry.rating is not None and adjust and entry.rating < ADJUSTMENT_BELOW:
            # fide.md §2.9; the text gives no rounding: 0.40 x (2000 - R) is rounded to the nearest
            # whole number (R whole, so it never ends in .5).
            adjustment = round_half_away_from_zero(ADJUSTMENT_FACTOR * (ADJUSTMENT_BELOW - entry.rating))
            entry = dataclasses.replace(entry, rating=entry.rating + adjustment, adjustment=adjustment)
        if entry.rating is not None and entry.rating < floor:
            # B.02 7.2.1: "Players whose ratings drop below 1400 are shown as unrated on the next list."
            note = f"{entry.rating} is below the floor {floor}: shown as unrated (B.02 7.2.1)"
            entry = dataclasses.replace(entry, status="dropped", rating=None, note=note)
        published[player_id] = entry
    return published


def _glicko2_period(
    period: Period, *, history: History, events: Sequence[EventFacts], bulk: bool
) -> ComputedList:
    previous = history.lists.get(period.previous(), {})
    start = {
        player_id: glicko2.Glicko2Rating(entry.glicko_rating, entry.deviation, entry.volatility)
        for player_id, entry in previous.items()
        if entry.glicko_rating is not None and entry.deviation is not None and entry.volatility is not None
    }
    newcomer = glicko2.Glicko2Rating()  # Step 1: 1500, RD 350, volatility 0.06
    period_games: list[glicko2.PeriodGame[int]] = []
    sides: list[tuple[int, int, GameFacts, int, Decimal]] = []  # player, opponent, game, event, score
    for event in sorted(events, key=lambda e: (e.start_date, e.id)):
        for game in event.games:
            if not game.rated or game.white_score is None or game.black_score is None:
                continue
            period_games.append(glicko2.PeriodGame(game.white, game.black, float(game.white_score)))
            sides.append((game.white, game.black, game, event.id, game.white_score))
            sides.append((game.black, game.white, game, event.id, game.black_score))
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
    workings: list[Working] = []
    scores: dict[int, list[Decimal]] = defaultdict(list)
    expected: dict[int, float] = defaultdict(float)
    for (player_id, opponent_id, game, event_id, score), e in zip(sides, side_expected, strict=True):
        expected[player_id] += e
        scores[player_id].append(score)
        workings.append(
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
        )
    entries: dict[int, Entry] = {}
    for player_id, rating in after.items():
        was = start.get(player_id)
        games = len(scores.get(player_id, ()))
        entries[player_id] = Entry(
            player_id=player_id,
            status="rated" if was is not None else "new",
            rating_before=_whole(was.rating) if was is not None else None,
            rating=_whole(rating.rating),
            games=games,
            score=sum(scores.get(player_id, ()), ZERO) if games else None,
            expected=Decimal(repr(expected[player_id])) if games else None,
            rounded_change=_whole(rating.rating) - _whole(was.rating) if was is not None else None,
            glicko_rating=rating.rating,
            deviation=rating.deviation,
            volatility=rating.volatility,
            note=None if games else "no games: the deviation grows (Glicko-2 Step 6)",
        )
    return ComputedList(
        period=period, rules_title="Glicko-2 (Glickman), tau 0.5", entries=entries, workings=tuple(workings)
    )


def _glicko2_bulk(
    start: Mapping[int, glicko2.Glicko2Rating],
    games: Sequence[glicko2.PeriodGame[int]],
    *,
    newcomer: glicko2.Glicko2Rating,
) -> tuple[dict[int, glicko2.Glicko2Rating], list[float]] | None:
    """The period with :func:`chessrate.bulk.rate_glicko2_period`: every player's new rating (in
    :func:`glicko2.rate_whole_period`'s order) and each side's expected score (Step 3's E, White's
    then Black's per game). None when the engine cannot take it (a rating outside 0-4000 or a
    score other than 1, ½, 0): the scalar path then."""
    index = {player_id: i for i, player_id in enumerate(start)}
    for game in games:
        for key in (game.white, game.black):
            index.setdefault(key, len(index))
    before = [start.get(player_id, newcomer) for player_id in index]
    rating = np.array([value.rating for value in before])
    if len(rating) and not (float(rating.min()) >= MIN_RATING and float(rating.max()) <= MAX_RATING):
        return None
    if any(game.white_score not in (0.0, 0.5, 1.0) for game in games):
        return None
    deviation = np.array([value.deviation for value in before])
    white = np.array([index[game.white] for game in games], dtype=np.intp)
    black = np.array([index[game.black] for game in games], dtype=np.intp)
    halves = np.array([2 * game.white_score for game in games], dtype=np.int8)
    result = numpy_bulk.rate_glicko2_period(
        white, black, halves, rating, deviation, np.array([value.volatility for value in before])
    )
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
