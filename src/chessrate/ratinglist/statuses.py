"""The statuses of a list and of a player's line on it: the values the code writes and compares,
and the ones the store's CHECK constraints allow (:mod:`chessrate.ratinglist.schema`)."""

from __future__ import annotations

from enum import StrEnum


class ListStatus(StrEnum):
    """One computed list of a period. At most one is published per period; a re-run of a published
    period is a draft until ``--republish``, which marks the old one superseded."""

    PUBLISHED = "published"
    SUPERSEDED = "superseded"
    DRAFT = "draft"


class EntryStatus(StrEnum):
    """A player's line of a list."""

    RATED = "rated"  # on the list
    ENTERED = "entered"  # first listed with the rating a file gives
    NEW = "new"  # a first rating (FIDE B.02 8.2)
    DROPPED = "dropped"  # fell below the floor, shown unrated (B.02 7.2.1)
    PENDING = "pending"  # unrated, games pooled for a first rating (B.02 7.1.4)


def check_in(column: str, statuses: type[StrEnum]) -> str:
    """The SQL condition ``column IN ('a', 'b', ...)`` over every value of ``statuses``."""
    return f"{column} IN ({', '.join(repr(str(status)) for status in statuses)})"
