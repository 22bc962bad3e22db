"""The games behind a published Elo list line, recomputed on demand.

A run stores one line per player and period (``list_entries``) but not the working of each game an
Elo list rated: two rows a game would be most of a run's time and of the store. That working is a
function of what is stored — the period's games, the lists published before it, the files' ratings
and birth years — so the same computation, :func:`chessrate.ratinglist.compute.compute_period`,
gives it again, figure for figure, for the players a page shows: their events of the period and
the history of the players in those events is all it loads. The games pooled for a first rating
(facts for the periods after) and the Glicko-2 workings are stored (``game_workings``).
``tests/ratinglist/test_bulk_equivalence.py`` checks the figures shown equal those rated.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from sqlalchemy import select
from sqlalchemy.engine import Connection

from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import Working
from chessrate.ratinglist.loading import load_events, load_history, published_versions
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.schema import event_players, events
from chessrate.systems.elo.presets import resolve_rule_set

GLICKO2 = "glicko2"


def rated_workings(
    connection: Connection, period: Period, spec: str, player_ids: Collection[int]
) -> list[Working]:
    """The working of every game the published Elo list of ``period`` (rules ``spec``) rated for
    ``player_ids``, in the order the run rates them; [] for Glicko-2 (stored)."""
    if spec.strip().lower() == GLICKO2 or not player_ids:
        return []
    rules = resolve_rule_set(spec, as_of=period.first_day)
    event_ids = _events_of(connection, period, player_ids)
    if not event_ids:
        return []
    period_events = load_events(connection, period, only=event_ids)
    involved = {player for event in period_events for player in event.ratings_in_file}
    history = load_history(connection, before=period, published=published_versions(connection), only=involved)
    computed = compute_period(period, rules=rules, history=history, events=period_events)
    wanted = set(player_ids)
    return [
        working
        for working in computed.workings
        if working.player_id in wanted and working.difference is not None
    ]


def _events_of(connection: Connection, period: Period, player_ids: Iterable[int]) -> list[int]:
    """The events rated in ``period`` that any of the players played."""
    rows = connection.execute(
        select(events.c.id)
        .distinct()
        .join(event_players, event_players.c.event_id == events.c.id)
        .where(
            events.c.period == str(period),
            events.c.replaced_by.is_(None),
            event_players.c.player_id.in_(list(player_ids)),
        )
    )
    return list(rows.scalars())
