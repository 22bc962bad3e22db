"""The facts a period is computed from and the lists it gives: events and games as imported, each
player's line of a list, the games behind it, and the history of the lists before a period.

Pure data: :mod:`chessrate.ratinglist.runner` loads and writes them, :mod:`.compute` computes.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from chessrate.errors import CodedError
from chessrate.ratinglist.arrays import distinct, stable_order
from chessrate.ratinglist.listed import Listed, ListedColumns, ListedSummary, first_listed
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.refusals import coded_refusal
from chessrate.ratinglist.statuses import EntryStatus

ZERO = Decimal(0)


class GameFacts(NamedTuple):
    """A game of an imported event (a named tuple: a period loads millions)."""

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

    @classmethod
    def of(
        cls,
        event: EventHeader,
        ratings_in_file: Mapping[int, int | None] | None = None,
        games: Iterable[GameFacts] = (),
    ) -> EventFacts:
        """The facts of ``event`` (a stored event's row, or facts of it) with these players and games."""
        return cls(
            id=event.id,
            name=event.name,
            start_date=event.start_date,
            end_date=event.end_date,
            ratings_in_file={} if ratings_in_file is None else ratings_in_file,
            games=tuple(games),
        )


class EventHeader(Protocol):
    """What an event's row gives of it (:meth:`EventFacts.of`)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def start_date(self) -> dt.date: ...
    @property
    def end_date(self) -> dt.date: ...


@dataclass(frozen=True, kw_only=True, eq=False)
class PeriodEntrants:
    """A period's events (``ratings_in_file`` and ``games`` left empty) and their players as
    columns: each entrant is an event, a player and the rating the file gives (-1: none)."""

    events: tuple[EventFacts, ...]
    entrant_event: NDArray[np.int64]
    entrant_player: NDArray[np.int64]
    entrant_rating: NDArray[np.int64]


@dataclass(frozen=True, kw_only=True, eq=False)
class PeriodGames(PeriodEntrants):
    """A period's events and entrants (:class:`PeriodEntrants`) and their games as columns, the
    games in game id order.

    A score is an index into ``scores`` (the decimals the stored texts give, -1: none), so a
    period of millions of games holds no object per game. The ids (``game_id``, ``event_id``,
    ``white``, ``black``) are 32-bit where every one fits, else 64-bit (:func:`.arrays.narrow`).
    :meth:`event_facts` gives the events with their players and games, as the scalar paths and
    Glicko-2 read them.
    """

    game_id: NDArray[np.int32] | NDArray[np.int64]
    event_id: NDArray[np.int32] | NDArray[np.int64]
    white: NDArray[np.int32] | NDArray[np.int64]
    black: NDArray[np.int32] | NDArray[np.int64]
    white_score: NDArray[np.int8]
    black_score: NDArray[np.int8]
    rated: NDArray[np.bool_]
    scores: tuple[Decimal, ...]

    def counted(self) -> NDArray[np.bool_]:
        """The games that count for rating: rated, with both scores."""
        return self.rated & (self.white_score >= 0) & (self.black_score >= 0)

    def event_facts(self) -> list[EventFacts]:
        """The events with their players and games (a :class:`GameFacts` each)."""
        entrants: dict[int, dict[int, int | None]] = defaultdict(dict)
        for event_id, player_id, rating in zip(
            self.entrant_event.tolist(),
            self.entrant_player.tolist(),
            self.entrant_rating.tolist(),
            strict=True,
        ):
            entrants[event_id][player_id] = None if rating < 0 else rating
        scores = [*self.scores, None]  # index -1: no score
        by_event: dict[int, list[GameFacts]] = defaultdict(list)
        for game_id, event_id, white, black, white_score, black_score, rated in zip(
            self.game_id.tolist(),
            self.event_id.tolist(),
            self.white.tolist(),
            self.black.tolist(),
            self.white_score.tolist(),
            self.black_score.tolist(),
            self.rated.tolist(),
            strict=True,
        ):
            by_event[event_id].append(
                GameFacts(game_id, white, black, scores[white_score], scores[black_score], rated)
            )
        return [EventFacts.of(event, entrants[event.id], by_event[event.id]) for event in self.events]


@dataclass(frozen=True, kw_only=True)
class Entry:
    """One player's line of a list."""

    player_id: int
    status: EntryStatus
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


#: A whole-number column's "none" in :class:`EntryColumns` (no rating, no K, ...).
NONE = int(np.iinfo(np.int64).min)
#: The fields of :class:`Entry` by kind, as :class:`EntryColumns` keeps them.
WHOLE_FIELDS = ("rating_before", "rating", "games", "k", "rounded_change", "adjustment")
FLOAT_FIELDS = ("glicko_rating", "deviation", "volatility")
CODED_FIELDS = ("status", "k_reason", "score", "expected", "change", "note")


class Coded(NamedTuple):
    """A column of few distinct values (statuses, texts, decimals): each line's value as its index
    in ``values``. Values are told apart by identity, not equality: ``Decimal("1")`` and
    ``Decimal("1.0")`` are equal but are written as two texts."""

    codes: NDArray[np.int64]
    values: tuple[object, ...]

    @classmethod
    def of(cls, values: Iterable[object]) -> Coded:
        index: dict[int, int] = {}
        distinct: list[object] = []
        codes: list[int] = []
        for value in values:
            code = index.get(id(value))
            if code is None:
                code = index[id(value)] = len(distinct)
                distinct.append(value)  # held here, so its id stays its own
            codes.append(code)
        return cls(np.array(codes, dtype=np.int64), tuple(distinct))

    @classmethod
    def same(cls, value: object, lines: int) -> Coded:
        """``lines`` lines of one value."""
        return cls(np.zeros(lines, dtype=np.int64), (value,))

    def objects(self, convert: Callable[[object], object] | None = None) -> list[object]:
        """Each line's value (``convert``: each distinct value converted once)."""
        values = self.values if convert is None else [convert(value) for value in self.values]
        table = np.empty(len(values), dtype=object)
        table[:] = values
        return list(table[self.codes].tolist())


@dataclass(frozen=True, eq=False)
class EntryColumns(Mapping[int, Entry]):
    """A list's lines as columns, one value per line in each (a period of 10^5 players makes no
    object per line): whole numbers with :data:`NONE`, floats with NaN for none, the other fields
    :class:`Coded`. A mapping of player ids to their :class:`Entry`, in the order of the lines,
    each :class:`Entry` made when asked for; :meth:`values_of` and :meth:`rows` read the columns."""

    player_id: NDArray[np.int64]
    whole: Mapping[str, NDArray[np.int64]]
    floats: Mapping[str, NDArray[np.float64]]
    coded: Mapping[str, Coded]
    _index: dict[int, int] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, entries: Mapping[int, Entry]) -> EntryColumns:
        """The lines of ``entries`` (as they are, if they already are columns)."""
        if isinstance(entries, EntryColumns):
            return entries
        lines = list(entries.values())
        return cls(
            player_id=np.array([entry.player_id for entry in lines], dtype=np.int64),
            whole={
                name: np.array(
                    [NONE if value is None else value for value in map(attrgetter(name), lines)],
                    dtype=np.int64,
                )
                for name in WHOLE_FIELDS
            },
            floats={
                name: np.array(
                    [np.nan if value is None else value for value in map(attrgetter(name), lines)],
                    dtype=np.float64,
                )
                for name in FLOAT_FIELDS
            },
            coded={name: Coded.of(map(attrgetter(name), lines)) for name in CODED_FIELDS},
        )

    @classmethod
    def joined(cls, parts: Sequence[EntryColumns]) -> EntryColumns:
        """The lines of ``parts``, one after the other."""

        def codes(name: str) -> Coded:
            offsets = np.cumsum([0] + [len(part.coded[name].values) for part in parts])[:-1].tolist()
            return Coded(
                np.concatenate(
                    [part.coded[name].codes + offset for part, offset in zip(parts, offsets, strict=True)]
                ),
                tuple(value for part in parts for value in part.coded[name].values),
            )

        return cls(
            player_id=np.concatenate([part.player_id for part in parts]),
            whole={name: np.concatenate([part.whole[name] for part in parts]) for name in WHOLE_FIELDS},
            floats={name: np.concatenate([part.floats[name] for part in parts]) for name in FLOAT_FIELDS},
            coded={name: codes(name) for name in CODED_FIELDS},
        )

    def taken(self, lines: NDArray[np.int64]) -> EntryColumns:
        """These lines (indices), in this order."""
        return EntryColumns(
            player_id=self.player_id[lines],
            whole={name: column[lines] for name, column in self.whole.items()},
            floats={name: column[lines] for name, column in self.floats.items()},
            coded={name: Coded(column.codes[lines], column.values) for name, column in self.coded.items()},
        )

    def values_of(self, name: str, convert: Callable[[object], object] | None = None) -> list[object]:
        """Each line's value of the field ``name``, in order (None where it has none);
        ``convert``: of the coded fields, each distinct value converted once."""
        if name == "player_id":
            return list(self.player_id.tolist())
        if name in self.coded:
            return self.coded[name].objects(convert)
        column: NDArray[Any] = self.whole[name] if name in self.whole else self.floats[name]
        missing = column == NONE if name in self.whole else np.isnan(column)
        if not missing.any():
            return list(column.tolist())
        values = column.astype(object)  # Python numbers
        values[missing] = None
        return list(values.tolist())

    def has(self, name: str) -> bool:
        """Whether any line has a value of the field ``name``."""
        if name in self.coded:
            column = self.coded[name]
            return any(column.values[code] is not None for code in np.unique(column.codes).tolist())
        if name in self.whole:
            return bool((self.whole[name] != NONE).any())
        return bool((~np.isnan(self.floats[name])).any())

    def _line(self, player_id: int) -> int:
        if not self._index and len(self.player_id):
            self._index.update(zip(self.player_id.tolist(), range(len(self.player_id)), strict=True))
        return self._index[player_id]

    def __getitem__(self, player_id: int) -> Entry:
        line = self._line(player_id)
        values: dict[str, object] = {
            name: column.values[column.codes[line]] for name, column in self.coded.items()
        }
        for name, column in self.whole.items():
            value = int(column[line])
            values[name] = None if value == NONE else value
        for name, floats in self.floats.items():
            number = float(floats[line])
            values[name] = None if np.isnan(number) else number
        return Entry(player_id=player_id, **values)  # type: ignore[arg-type]

    def __contains__(self, player_id: object) -> bool:
        try:
            self._line(player_id)  # type: ignore[arg-type]
        except (KeyError, TypeError):
            return False
        return True

    def __iter__(self) -> Iterator[int]:
        return iter(self.player_id.tolist())

    def __len__(self) -> int:
        return len(self.player_id)


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


@dataclass(frozen=True, kw_only=True, eq=False)
class PooledGames(Sequence[Working]):
    """The games of unrated players kept for a first rating (B.02 7.1.4), as columns: player by
    player, each player's games in the order met (a month of 10^6 games pools some 176,000: no
    object a game). A sequence of their :class:`Working`, each made when asked for; a score is an
    index into ``scores``."""

    player_id: NDArray[np.int64]
    game_id: NDArray[np.int64]
    event_id: NDArray[np.int64]
    opponent_id: NDArray[np.int64]
    opponent_rating: NDArray[np.int64]
    score: NDArray[np.int64]
    scores: tuple[Decimal, ...]

    def players(self) -> tuple[list[int], list[int]]:
        """The players in order and where each one's games start (then one past the last game)."""
        starts = np.flatnonzero(np.diff(self.player_id, prepend=self.player_id[:1] - 1))
        return self.player_id[starts].tolist(), [*starts.tolist(), len(self.player_id)]

    def opponent_ratings(self) -> list[Decimal]:
        """Each game's opponent rating as a decimal (one object a distinct rating)."""
        distinct, index = np.unique(self.opponent_rating, return_inverse=True)
        decimals = np.empty(len(distinct), dtype=object)
        decimals[:] = [Decimal(rating) for rating in distinct.tolist()]
        return list(decimals[index].tolist())

    def game_scores(self) -> list[Decimal]:
        """Each game's score (the decimals of ``scores``)."""
        decimals = np.empty(len(self.scores), dtype=object)
        decimals[:] = self.scores
        return list(decimals[self.score].tolist())

    def __getitem__(self, index: int) -> Working:  # type: ignore[override]
        return pooled_working(
            int(self.player_id[index]),
            int(self.event_id[index]),
            int(self.game_id[index]),
            int(self.opponent_id[index]),
            Decimal(int(self.opponent_rating[index])),
            self.scores[int(self.score[index])],
        )

    def __iter__(self) -> Iterator[Working]:
        columns = zip(
            self.player_id.tolist(),
            self.event_id.tolist(),
            self.game_id.tolist(),
            self.opponent_id.tolist(),
            self.opponent_ratings(),
            self.game_scores(),
            strict=True,
        )
        for player_id, event_id, game_id, opponent_id, rating, score in columns:
            yield pooled_working(player_id, event_id, game_id, opponent_id, rating, score)

    def __len__(self) -> int:
        return len(self.player_id)


def pooled_working(
    player_id: int, event_id: int, game_id: int, opponent_id: int, opponent_rating: Decimal, score: Decimal
) -> Working:
    """A game of an unrated player, kept for a first rating (B.02 7.1.4): not rated itself (no own
    rating, expectation or change)."""
    return Working(
        player_id=player_id,
        game_id=game_id,
        event_id=event_id,
        opponent_id=opponent_id,
        own_rating=None,
        opponent_rating=opponent_rating,
        difference=None,
        capped=False,
        expected=None,
        score=score,
        change=None,
    )


@dataclass(frozen=True, kw_only=True)
class ComputedList:
    """A period's list: one entry per listed player, and the games behind them."""

    period: Period
    rules_title: str
    entries: Mapping[int, Entry]
    #: The games behind the entries (an Elo run's: the pooled games alone, as columns).
    workings: Sequence[Working]


#: No rating, in a column of ratings.
NO_RATING = -1


def looked_up(
    keys: NDArray[np.int64], values: NDArray[np.int64], wanted: NDArray[np.int64], *, missing: int = NO_RATING
) -> NDArray[np.int64]:
    """The value of each of ``wanted`` among sorted ``keys`` (``missing`` where absent)."""
    if not len(keys):
        return np.full(len(wanted), missing, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], missing)


def _ratings(lines: Mapping[int, Entry]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each line's player and rating (:data:`NO_RATING`: none), as two columns."""
    if isinstance(lines, EntryColumns):
        rating = lines.whole["rating"]
        return lines.player_id, np.where(rating == NONE, NO_RATING, rating)
    return (
        np.fromiter(lines, dtype=np.int64, count=len(lines)),
        np.array(
            [NO_RATING if entry.rating is None else entry.rating for entry in lines.values()], dtype=np.int64
        ),
    )


class HistoryOrderError(CodedError, ValueError):
    """A list added to a history, or the lists before a period asked of it, out of period order
    (``history-order``, ``history-later-lists``: the runner runs the periods in order)."""


class ListNotKeptError(CodedError, LookupError):
    """A list the history has summed up but not kept in full (``history-not-kept``)."""


#: The key of the players' file ratings (``entry_ratings``) among the columns a history keeps.
ENTRY_RATINGS = "entry ratings"


@dataclass(kw_only=True)
class History:
    """What the lists before a period say, as the computation of the next period needs it: each
    player's entries summed up (:class:`Listed`), and in full only the latest list and those
    still in force at the start of an event to rate (``keep``).

    Lists are added oldest first with :meth:`add`.
    """

    #: Every player the store has (sorted ids), as read with the history (``only``: those asked for).
    players: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    #: The rating each player's earliest event file gives (None: unrated there).
    entry_ratings: Mapping[int, int | None] = field(default_factory=dict)
    #: Each player's earliest event.
    first_events: Mapping[int, int] = field(default_factory=dict)
    birth_years: Mapping[int, int | None] = field(default_factory=dict)
    #: The lists kept in full, period by period.
    lists: dict[Period, Mapping[int, Entry]] = field(default_factory=dict)
    #: The lists kept in full besides the latest, each with the last period whose events start
    #: while it is in force; None: every list.
    keep: Mapping[Period, Period] | None = None
    #: Each listed player's entries so far, summed up.
    listed: dict[int, Listed] = field(default_factory=dict)
    #: Every list summed up in ``listed``.
    summarized: set[Period] = field(default_factory=set)
    #: ``listed`` as the store should keep it (``list_summaries``), when it does not yet.
    summary: ListedSummary | None = None
    #: The games of pending (unrated) players, period by period, for pooling.
    pending_games: dict[Period, Mapping[int, tuple[Working, ...]]] = field(default_factory=dict)
    #: Per period, each player's K on the FIDE list in force at its start (``list import-fide``):
    #: the K of a player with no history in this list (docs/ratinglist.md).
    official_k: dict[Period, Mapping[int, int]] = field(default_factory=dict)
    _latest: Period | None = field(default=None, repr=False, compare=False)
    #: The columns :meth:`ratings_in_force_columns` looks players up in, made once (until :meth:`add`).
    _columns: dict[object, tuple[NDArray[np.int64], NDArray[np.int64]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    #: ``listed`` and ``birth_years`` as columns (:meth:`listed_sums`, :meth:`birth_columns`),
    #: each with the mapping it was made from: good while that mapping is the one held, until :meth:`add`.
    _listed_sums: tuple[object, ListedColumns] | None = field(default=None, repr=False, compare=False)
    _birth_columns: tuple[object, tuple[NDArray[np.int64], NDArray[np.int64]]] | None = field(
        default=None, repr=False, compare=False
    )

    def listed_sums(self) -> ListedColumns:
        """``listed`` as columns, players in id order (made once, or given by the loader)."""
        if self._listed_sums is None or self._listed_sums[0] is not self.listed:
            self._listed_sums = (self.listed, ListedColumns.of(self.listed))
        return self._listed_sums[1]

    def birth_columns(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``birth_years`` as columns: the players in id order and each one's birth year
        (:data:`NONE`: unknown), made once or given by the loader."""
        if self._birth_columns is None or self._birth_columns[0] is not self.birth_years:
            players = np.array(sorted(self.birth_years), dtype=np.int64).reshape(-1)
            years = [self.birth_years[player] for player in players.tolist()]
            self._birth_columns = (
                self.birth_years,
                (players, np.array([NONE if year is None else year for year in years], dtype=np.int64)),
            )
        return self._birth_columns[1]

    def given_columns(
        self, listed: ListedColumns, births: tuple[NDArray[np.int64], NDArray[np.int64]]
    ) -> None:
        """The loader's columns of ``listed`` and ``birth_years`` (as :meth:`listed_sums` and
        :meth:`birth_columns` would make them), kept for them."""
        self._listed_sums = (self.listed, listed)
        self._birth_columns = (self.birth_years, births)

    def given_entry_ratings(self, players: NDArray[np.int64], ratings: NDArray[np.int64]) -> None:
        """``entry_ratings`` as the loader read it, as columns (:data:`NO_RATING`: none): kept for
        :meth:`ratings_in_force_columns` (until :meth:`add`)."""
        order = stable_order(players)
        self._columns[ENTRY_RATINGS] = (players[order], ratings[order])

    def add(self, period: Period, entries: Mapping[int, Entry], workings: Sequence[Working]) -> None:
        """Add the list of ``period``, the period after the last one added; let go of the lists
        no later period needs in full."""
        latest = self.latest()
        if latest is not None and period <= latest:
            raise coded_refusal(HistoryOrderError, "history-order", period=str(period), latest=str(latest))
        self._columns.clear()
        self._listed_sums = None
        listed = self.listed
        for player_id, entry in entries.items():
            mine = listed.get(player_id)
            listed[player_id] = (
                first_listed(period, entry) if mine is None else mine.with_entry(period, entry)
            )
        self.summarized.add(period)
        self._latest = period
        self.lists[period] = entries
        if self.keep is not None:
            upcoming = period.next()
            for kept in [earlier for earlier in self.lists if earlier != period]:
                needed_until = self.keep.get(kept)
                if needed_until is None or needed_until < upcoming:
                    del self.lists[kept]
        pending: dict[int, list[Working]] = defaultdict(list)
        for working in workings:
            if entries[working.player_id].status is EntryStatus.PENDING:
                pending[working.player_id].append(working)
        self.pending_games[period] = {key: tuple(value) for key, value in pending.items()}

    def listed_before(self, player_id: int, before: Period) -> Listed | None:
        """The player's entries on the lists before ``before`` summed up (None: on none); the
        history holds no list of ``before`` or later."""
        latest = self.latest()
        if latest is not None and before <= latest:
            raise coded_refusal(
                HistoryOrderError, "history-later-lists", latest=str(latest), before=str(before)
            )
        return self.listed.get(player_id)

    def latest(self) -> Period | None:
        """The last list added (None: none)."""
        if self._latest is None and self.summarized:
            self._latest = max(self.summarized)
        return self._latest

    def full_list(self, period: Period) -> Mapping[int, Entry]:
        """The list of ``period`` in full ({}: none was published)."""
        if period in self.lists:
            return self.lists[period]
        if period in self.summarized:
            raise coded_refusal(ListNotKeptError, "history-not-kept", period=str(period))
        return {}

    def rating_in_force(self, player_id: int, day: dt.date) -> int | None:
        """The player's rating on the list in force on ``day``; the file's before any list of theirs."""
        return self.ratings_in_force([player_id], day)[player_id]

    def ratings_in_force(self, player_ids: Iterable[int], day: dt.date) -> dict[int, int | None]:
        """:meth:`rating_in_force` of each player, for one day."""
        listed = Period.of(day).previous()
        on_list = self.full_list(listed)
        found: dict[int, int | None] = {}
        for player_id in player_ids:
            entry = on_list.get(player_id)
            if entry is not None:
                found[player_id] = entry.rating
                continue
            mine = self.listed.get(player_id)
            before_any = mine is None or mine.first > listed
            found[player_id] = self.entry_ratings.get(player_id) if before_any else None
        return found

    def listed_columns(self, before: Period) -> NDArray[np.int64]:
        """The players on a list before ``before`` (sorted ids: those :meth:`listed_before` finds);
        the history holds no list of ``before`` or later."""
        latest = self.latest()
        if latest is not None and before <= latest:
            raise coded_refusal(
                HistoryOrderError, "history-later-lists", latest=str(latest), before=str(before)
            )
        return self._first_listed()[0]

    def _first_listed(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Each listed player (sorted ids) and their first list, as a month number."""
        sums = self.listed_sums()  # the first list as its month number x 2 + 1 if entered
        return self._column("first listed", lambda: (sums.player, sums.first >> 1))

    def first_events_needed(self, period: Period, games: PeriodEntrants) -> NDArray[np.int64]:
        """The players of ``period``'s events whose earliest event the computation of ``period``
        may look up (:attr:`entry_ratings`, :attr:`first_events`), as sorted ids: those without a
        rating on the list before the period (rated from their first file, or pooling games for a
        first rating, B.02 7.1.4, 8.2.1) and those first listed after the list in force at the start
        of one of their events. Every other player of the period is rated from the lists."""
        ids = np.array([event.id for event in games.events], dtype=np.int64)
        months = np.array(
            [Period.of(event.start_date).month_number for event in games.events], dtype=np.int64
        )
        by_id = stable_order(ids)
        start = months[by_id[np.searchsorted(ids, games.entrant_event, sorter=by_id)]] if len(ids) else ids
        on_list, rating = _ratings(self.full_list(period.previous()))
        rated = np.isin(games.entrant_player, on_list[rating != NO_RATING])
        listed_ids, first = self._first_listed()
        first_of = looked_up(listed_ids, first, games.entrant_player, missing=np.iinfo(np.int64).max)
        return distinct(games.entrant_player[~rated | (first_of >= start)])

    def ratings_in_force_columns(self, player_ids: NDArray[np.int64], day: dt.date) -> NDArray[np.int64]:
        """:meth:`ratings_in_force` of each player as a column (-1: none), looked up with numpy."""
        listed = Period.of(day).previous()
        on_list, list_rating = self._column(listed, lambda: _ratings(self.full_list(listed)))
        # Off that list: the file's rating before any list of the player's, else none.
        listed_from, first_listed = self._first_listed()
        in_file, file_rating = self._column(
            ENTRY_RATINGS,
            lambda: (
                (player_id, NO_RATING if rating is None else rating)
                for player_id, rating in self.entry_ratings.items()
            ),
        )
        found = looked_up(in_file, file_rating, player_ids)
        first = looked_up(listed_from, first_listed, player_ids, missing=listed.month_number + 1)
        found[first <= listed.month_number] = NO_RATING
        listed_at = np.isin(player_ids, on_list)
        found[listed_at] = looked_up(on_list, list_rating, player_ids[listed_at])
        return found

    def _column(
        self,
        key: object,
        pairs: Callable[[], Iterable[tuple[int, int]] | tuple[NDArray[np.int64], NDArray[np.int64]]],
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Player ids (sorted) and a value each, made from ``pairs`` (or two columns) once."""
        if key not in self._columns:
            made = pairs()
            if isinstance(made, tuple):
                ids, values = made
            else:
                flat = np.array([value for pair in made for value in pair], dtype=np.int64).reshape(-1, 2)
                ids, values = flat[:, 0], flat[:, 1]
            order = stable_order(ids)
            self._columns[key] = (ids[order], values[order])
        return self._columns[key]
