"""What a FIDE list does on publication: the one-time adjustment of 1 March 2024 and the floor of
the rules in force on the list's date (FIDE rule sets only)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal

from chessrate.fide.rules import ADJUSTMENT_2024_DAY, rules_in_force
from chessrate.ratinglist.facts import Entry
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.rounding import round_half_away_from_zero

#: [FIDE-PROP]: "(0.40) x (2000 - Rating)" for ratings below 2000.
ADJUSTMENT_FACTOR = Decimal("0.40")
ADJUSTMENT_BELOW = 2000


def publish_fide(entries: Mapping[int, Entry], period: Period) -> dict[int, Entry]:
    """The 1 March 2024 adjustment when this list is that one, then the floor of the list's date."""
    adjust = period.first_day < ADJUSTMENT_2024_DAY <= period.list_date
    floor = rules_in_force(period.list_date).rating_floor
    published: dict[int, Entry] = {}
    for player_id, entry in entries.items():
        if entry.rating is not None and adjust and entry.rating < ADJUSTMENT_BELOW:
            # [FIDE-PROP]; the text gives no rounding: 0.40 x (2000 - R) is rounded to the nearest
            # whole number (R whole, so it never ends in .5).
            adjustment = round_half_away_from_zero(ADJUSTMENT_FACTOR * (ADJUSTMENT_BELOW - entry.rating))
            entry = dataclasses.replace(entry, rating=entry.rating + adjustment, adjustment=adjustment)
        if entry.rating is not None and entry.rating < floor:
            # B.02 7.2.1: "Players whose ratings drop below 1400 are shown as unrated on the next list."
            note = f"{entry.rating} is below the floor {floor}: shown as unrated (B.02 7.2.1)"
            entry = dataclasses.replace(entry, status=EntryStatus.DROPPED, rating=None, note=note)
        published[player_id] = entry
    return published
