"""What a FIDE list does on publication: the one-time adjustment of 1 March 2024 and the floor of
the rules in force on the list's date (FIDE rule sets only)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal

import numpy as np

from chessrate.ratinglist.facts import NONE, Coded, Entry, EntryColumns
from chessrate.ratinglist.notes import note_text
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.systems.fide.regulations import ADJUSTMENT_2024_DAY, rules_in_force
from chessrate.systems.rounding import round_half_away_from_zero

#: [FIDE-PROP]: "(0.40) x (2000 - Rating)" for ratings below 2000.
ADJUSTMENT_FACTOR = Decimal("0.40")
ADJUSTMENT_BELOW = 2000


def publish_fide(entries: Mapping[int, Entry], period: Period) -> EntryColumns:
    """The 1 March 2024 adjustment when this list is that one, then the floor of the list's date:
    on the lines as columns, each distinct rating's adjustment and note worked out once."""
    lines = EntryColumns.of(entries)
    adjust = period.first_day < ADJUSTMENT_2024_DAY <= period.list_date
    floor = rules_in_force(period.list_date).rating_floor
    rating = lines.whole["rating"].copy()
    adjustment = lines.whole["adjustment"].copy()
    rated = rating != NONE
    if adjust:
        below = rated & (rating < ADJUSTMENT_BELOW)
        for before in np.unique(rating[below]).tolist():  # each rating once
            # [FIDE-PROP]; the text gives no rounding: 0.40 x (2000 - R) is rounded to the nearest
            # whole number (R whole, so it never ends in .5).
            added = round_half_away_from_zero(ADJUSTMENT_FACTOR * (ADJUSTMENT_BELOW - before))
            here = below & (lines.whole["rating"] == before)
            rating[here] = before + added
            adjustment[here] = added
    # A floor not read for the list's day (before 1 July 2009, docs/fide.md) drops no one.
    dropped = rated & (rating < (floor if floor is not None else NONE))
    status, note = lines.coded["status"], lines.coded["note"]
    if dropped.any():
        # B.02 7.2.1: "Players whose ratings drop below 1400 are shown as unrated on the next list."
        shown = np.unique(rating[dropped])
        notes = tuple(
            note_text([("below-floor", {"rating": value, "floor": floor, "article": "B.02 7.2.1"})])
            for value in shown.tolist()
        )
        note_codes = note.codes.copy()
        note_codes[dropped] = len(note.values) + np.searchsorted(shown, rating[dropped])
        note = Coded(note_codes, note.values + notes)
        status_codes = status.codes.copy()
        status_codes[dropped] = len(status.values)
        status = Coded(status_codes, (*status.values, EntryStatus.DROPPED))
        rating[dropped] = NONE
    return dataclasses.replace(
        lines,
        whole={**lines.whole, "rating": rating, "adjustment": adjustment},
        coded={**lines.coded, "status": status, "note": note},
        _index={},
    )
