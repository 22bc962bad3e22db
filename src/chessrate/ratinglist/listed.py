"""What a player's entries on the lists before a period add up to (:class:`Listed`), one by one or as
columns (:class:`ListedColumns`), as :class:`chessrate.ratinglist.facts.History` keeps them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from chessrate.ratinglist.arrays import stable_order
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.statuses import EntryStatus

if TYPE_CHECKING:
    from chessrate.ratinglist.facts import Entry


class Listed(NamedTuple):
    """What a player's entries on the lists before a period add up to, as the next period needs it."""

    #: The first list the player is on, and whether they entered it with a file's rating.
    first: Period
    entered: bool
    #: Their games over all their entries (B.02 8.3.3: games rated so far).
    games: int
    #: Their highest published rating (None: never rated on a list).
    highest: int | None
    #: The last list on which they were not pending (None: pending on every one; B.02 7.1.4 pooling).
    active: Period | None

    def with_entry(self, period: Period, entry: Entry) -> Listed:
        """This summary with the player's entry on the list of ``period``, a later list."""
        highest = self.highest
        if entry.rating is not None and (highest is None or entry.rating > highest):
            highest = entry.rating
        return Listed(
            first=self.first,
            entered=self.entered,
            games=self.games + entry.games,
            highest=highest,
            active=self.active if entry.status is EntryStatus.PENDING else period,
        )


#: No value, in the columns of :class:`ListedColumns` (ratings and month numbers are not negative).
NOT_LISTED = -1


class ListedColumns(NamedTuple):
    """Players' lines summed up (:class:`Listed`) as columns, one row a player: the first list as
    its month number × 2 + 1 if they entered it with a file's rating, their games, their highest
    rating and their last list not pending as a month number (:data:`NOT_LISTED`: none)."""

    player: NDArray[np.int64]
    first: NDArray[np.int64]
    games: NDArray[np.int64]
    highest: NDArray[np.int64]
    active: NDArray[np.int64]

    @classmethod
    def merged(cls, parts: Sequence[ListedColumns]) -> ListedColumns:
        """The sums of ``parts`` (each of other lists), player by player, players in id order."""
        joined = [np.concatenate([getattr(part, name) for part in parts]) for name in cls._fields]
        order = stable_order(joined[0])
        player, first, games, highest, active = (column[order] for column in joined)
        if not len(player):
            return cls(player, first, games, highest, active)
        starts = np.flatnonzero(np.diff(player, prepend=player[0] - 1))
        return cls(
            player[starts],
            np.minimum.reduceat(first, starts),
            np.add.reduceat(games, starts),
            np.maximum.reduceat(highest, starts),
            np.maximum.reduceat(active, starts),
        )

    @classmethod
    def of(cls, listed: dict[int, Listed]) -> ListedColumns:
        """The columns of ``listed`` (each player's :class:`Listed`), players in id order."""
        players = sorted(listed)
        mine = [listed[player] for player in players]

        def column(values: list[int]) -> NDArray[np.int64]:
            return np.array(values, dtype=np.int64).reshape(-1)

        return cls(
            column(players),
            column([one.first.month_number * 2 + int(one.entered) for one in mine]),
            column([one.games for one in mine]),
            column([NOT_LISTED if one.highest is None else one.highest for one in mine]),
            column([NOT_LISTED if one.active is None else one.active.month_number for one in mine]),
        )

    def listed(self) -> dict[int, Listed]:
        """Each player's :class:`Listed` (one :class:`Period` a month met)."""
        first_month = self.first >> 1
        months = np.concatenate([first_month, self.active[self.active != NOT_LISTED]])
        periods = {month: Period.from_month_number(month) for month in np.unique(months).tolist()}
        actives: dict[int, Period | None] = {**periods, NOT_LISTED: None}
        return dict(
            zip(
                self.player.tolist(),
                map(
                    Listed._make,
                    zip(
                        map(periods.__getitem__, first_month.tolist()),
                        (self.first & 1).astype(np.bool_).tolist(),
                        self.games.tolist(),
                        [None if highest == NOT_LISTED else highest for highest in self.highest.tolist()],
                        map(actives.__getitem__, self.active.tolist()),
                        strict=True,
                    ),
                ),
                strict=True,
            )
        )


class ListedSummary(NamedTuple):
    """The sum of the lists ``versions`` (version ids, oldest period first), to keep in the store."""

    columns: ListedColumns
    versions: tuple[int, ...]


def first_listed(period: Period, entry: Entry) -> Listed:
    """The summary of a player whose first entry is ``entry``, on the list of ``period``."""
    return Listed(
        first=period,
        entered=entry.status is EntryStatus.ENTERED,
        games=entry.games,
        highest=entry.rating,
        active=None if entry.status is EntryStatus.PENDING else period,
    )
