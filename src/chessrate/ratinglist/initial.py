"""A player's first rating: the games against rated opponents pooled over 26 months (FIDE B.02
7.1.4) and the initial rating of the FIDE rules in force at the period's start (B.02 8.2; club rule
sets use them too)."""

from __future__ import annotations

from chessrate.ratinglist.facts import ZERO, Entry, History, Working
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
    since = period.minus_months(POOL_MONTHS - 1)
    mine = history.listed_before(player_id, period)
    if mine is not None and mine.active is not None:
        since = max(since, mine.active.next())  # pool only since the player was last listed
    pool = [
        working
        for earlier, by_player in sorted(history.pending_games.items())
        if since <= earlier < period
        for working in by_player.get(player_id, ())
    ] + games
    first_event = pool[0].event_id
    dropped = False
    if first_event == history.first_events.get(player_id):
        first_score = sum((w.score for w in pool if w.event_id == first_event), ZERO)
        if first_score == 0 and any(w.event_id != first_event for w in pool):
            # B.02 8.2.1: "If an unrated player scores zero in their first event this score is
            # disregarded."
            pool = [w for w in pool if w.event_id != first_event]
            dropped = True
    rules = rules_in_force(period.first_day)
    points = sum((w.score for w in pool), ZERO)
    result = initial_rating([w.opponent_rating for w in pool], points, rules=rules)
    pooled = {
        "n": len(pool),
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
        games=len(games),
        score=sum((w.score for w in games), ZERO),
        note=note,
    )
