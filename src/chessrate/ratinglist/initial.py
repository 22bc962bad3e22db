"""A player's first rating: the games against rated opponents pooled over 26 months (FIDE B.02
7.1.4) and the initial rating of the FIDE rules in force at the period's start (B.02 8.2; club rule
sets use them too)."""

from __future__ import annotations

from decimal import Decimal

from chessrate.ratinglist.facts import ZERO, Entry, EntryColumns, History, PooledGames, Working
from chessrate.ratinglist.notes import initial_clauses, note_text
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.systems.fide.performance import initial_rating
from chessrate.systems.fide.regulations import rules_in_force

#: B.02 7.1.4: "Results from other tournaments played within consecutive rating periods of not
#: more than 26 months are pooled": this period and the 25 before it.
POOL_MONTHS = 26


def initial_entry(player_id: int, games: list[Working], *, period: Period, history: History) -> Entry:
    """A first rating from the games pooled over 26 months (B.02 7.1.4, 8.2), or a pending entry."""
    since, earlier = _pooled_before(player_id, period=period, history=history)
    pool = earlier + games
    return _first_rating(
        player_id,
        [w.event_id for w in pool],
        [w.opponent_rating for w in pool],
        [w.score for w in pool],
        games=len(games),
        since=since,
        period=period,
        history=history,
    )


def initial_entries(pooled: PooledGames, *, period: Period, history: History) -> EntryColumns:
    """:func:`initial_entry` of each player of ``pooled`` (their games of the period as columns),
    in its order, as columns."""
    players, starts = pooled.players()
    events = pooled.event_id.tolist()
    ratings = pooled.opponent_ratings()
    scores = pooled.game_scores()
    entries: dict[int, Entry] = {}
    for player_id, start, end in zip(players, starts, starts[1:], strict=False):
        since, earlier = _pooled_before(player_id, period=period, history=history)
        entries[player_id] = _first_rating(
            player_id,
            [w.event_id for w in earlier] + events[start:end],
            [w.opponent_rating for w in earlier] + ratings[start:end],
            [w.score for w in earlier] + scores[start:end],
            games=end - start,
            since=since,
            period=period,
            history=history,
        )
    return EntryColumns.of(entries)


def _pooled_before(player_id: int, *, period: Period, history: History) -> tuple[Period, list[Working]]:
    """The first month pooled and the player's games pooled before ``period`` (B.02 7.1.4)."""
    since = period.minus_months(POOL_MONTHS - 1)
    mine = history.listed_before(player_id, period)
    if mine is not None and mine.active is not None:
        since = max(since, mine.active.next())  # pool only since the player was last listed
    earlier = [
        working
        for earlier, by_player in sorted(history.pending_games.items())
        if since <= earlier < period
        for working in by_player.get(player_id, ())
    ]
    return since, earlier


def _first_rating(
    player_id: int,
    events: list[int],
    opponents: list[Decimal],
    scores: list[Decimal],
    *,
    games: int,
    since: Period,
    period: Period,
    history: History,
) -> Entry:
    """The entry of a first rating from the pool's games, oldest first, as three columns (event,
    opponent's rating, score), the last ``games`` of them the period's."""
    period_score = sum(scores[len(scores) - games :], ZERO)
    first_event = events[0]
    dropped = False
    if first_event == history.first_events.get(player_id):
        first_score = sum(
            (score for event, score in zip(events, scores, strict=True) if event == first_event), ZERO
        )
        if first_score == 0 and any(event != first_event for event in events):
            # B.02 8.2.1: "If an unrated player scores zero in their first event this score is
            # disregarded."
            kept = [place for place, event in enumerate(events) if event != first_event]
            opponents = [opponents[place] for place in kept]
            scores = [scores[place] for place in kept]
            dropped = True
    rules = rules_in_force(period.first_day)
    points = sum(scores, ZERO)
    result = initial_rating(opponents, points, rules=rules)
    pooled = {
        "n": len(opponents),
        "first": str(since),
        "last": str(period),
        "source": f"{result.article}, {rules.name}",
    }
    note = note_text([*initial_clauses(result, rules), ("pooled", {**pooled, "dropped": dropped})])
    return Entry(
        player_id=player_id,
        status=EntryStatus.PENDING if result.rating is None else EntryStatus.NEW,
        rating_before=None,
        rating=result.rating,
        games=games,
        score=period_score,
        note=note,
    )
