"""One rating period of a rating list, computed from the lists before it and the period's events.

Pure: no database here. :mod:`chessrate.ratinglist.runner` loads the facts
(:mod:`.facts`), calls :func:`compute_period` for each period and writes the results. Each part
is written once:

- Elo (FIDE on the period's date, a club's TOML, ``ciabe``): :mod:`.elo_period`, players rated at
  the period's start, with the array engine or the scalar core;
- first ratings, the games pooled over 26 months (B.02 7.1.4, 8.2): :mod:`.initial`;
- the 1 March 2024 adjustment and the floor of a FIDE list ([FIDE-PROP], B.02 7.2.1):
  :mod:`.publish`;
- Glicko-2 (``glicko2``): :mod:`.glicko2_period`.
"""

from __future__ import annotations

from collections.abc import Sequence

from chessrate.bulk.figures import supports
from chessrate.ratinglist.elo_period import elo_period
from chessrate.ratinglist.elo_period_reference import elo_period_reference
from chessrate.ratinglist.facts import ComputedList, EventFacts, History, PeriodGames
from chessrate.ratinglist.glicko2_period import glicko2_period
from chessrate.ratinglist.periods import Period
from chessrate.systems.elo.ruleset import RuleSet


def compute_period(
    period: Period,
    *,
    rules: RuleSet | None,
    history: History,
    events: Sequence[EventFacts] | PeriodGames,
    bulk: bool = True,
    rated_workings: bool = True,
) -> ComputedList:
    """The list of ``period``: Elo under ``rules``, or Glicko-2 when ``rules`` is None.

    ``bulk`` rates the period's games with the numpy engine (:mod:`chessrate.bulk`); False
    rates each player with the scalar rating core, the reference the bulk path is tested against
    (``tests/ratinglist/test_bulk_equivalence.py``). Both give the same lists and workings.
    ``rated_workings=False`` leaves out the working of each game an Elo list rated (a run does not
    store it: :mod:`.workings` recomputes it on demand); the games pooled for a first rating and
    the Glicko-2 workings are always given. ``events`` may be a period's games as columns
    (:class:`PeriodGames`, as a run loads them): the array engine then rates an Elo period from
    them without an object per game.
    """
    if rules is None:
        if isinstance(events, PeriodGames):
            events = events.event_facts()
        return glicko2_period(period, history=history, events=events, bulk=bulk)
    if isinstance(events, PeriodGames) and bulk and supports(rules):
        computed = elo_period(period, rules=rules, history=history, games=events, workings=rated_workings)
        if computed is not None:
            return computed
    if isinstance(events, PeriodGames):
        events = events.event_facts()
    return elo_period_reference(
        period, rules=rules, history=history, events=events, bulk=bulk, rated_workings=rated_workings
    )
