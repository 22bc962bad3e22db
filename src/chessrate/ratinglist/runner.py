"""Running a rating period: load the facts, compute the lists, write them, all in one transaction.

- A run commits whole or not at all: a crash, a kill or Ctrl-C leaves the lists as they were.
- Running a period that has later periods recomputes every later one, each from the new list
  before it, and says what changed against what was published.
- A published list is never rewritten silently: a re-run of a published period is stored as a
  ``draft`` beside it; ``republish=True`` publishes the new lists and keeps the old ones as
  ``superseded``.

:func:`chessrate.ratinglist.compute.compute_period` rates each period with the numpy engine
(:mod:`chessrate.bulk`), the scalar rating core being its tested reference.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import repeat
from operator import attrgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Row

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.arrays import stable_order
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import (
    NONE,
    ComputedList,
    Entry,
    EntryColumns,
    PeriodGames,
    PooledGames,
    Working,
)
from chessrate.ratinglist.listed import NOT_LISTED, ListedSummary
from chessrate.ratinglist.loading import (
    SUMMARY,
    load_first_events,
    load_history,
    official_k,
    published_versions,
)
from chessrate.ratinglist.period_games import game_columns_apart, load_entrants, load_games
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.rows import (
    Pieces,
    bool_pieces,
    constant_pieces,
    copy_binary,
    float_pieces,
    insert_rows,
    text_pieces,
    whole_pieces,
)
from chessrate.ratinglist.schema import (
    events,
    game_workings,
    list_entries,
    list_summaries,
    list_versions,
    meta,
    players,
)
from chessrate.ratinglist.statuses import EntryStatus, ListStatus
from chessrate.ratinglist.store import WRITER_WAIT, StoreError, store_rules, write_transaction
from chessrate.runtime.gc_pause import cycle_collector_paused
from chessrate.runtime.malloc import freed_memory_kept, freed_memory_returned
from chessrate.systems.elo.presets import resolve_rule_set
from chessrate.systems.elo.ruleset import RuleSet

GLICKO2 = "glicko2"


@dataclass(frozen=True, kw_only=True)
class RatingChange:
    """A player whose line differs from the published list."""

    player_id: int
    name: str
    published: int | None
    now: int | None


@dataclass(frozen=True, kw_only=True)
class PeriodRun:
    """One period written by a run."""

    period: str
    list_date: dt.date
    status: str
    revision: int
    players: int
    rated_players: int
    games: int
    events: int
    #: Against the published list this run would replace (empty when there was none).
    changes: tuple[RatingChange, ...]
    replaced_published: bool


@dataclass(frozen=True, kw_only=True)
class RunReport:
    """What a run did, period by period."""

    rules: str
    rules_title: str
    periods: tuple[PeriodRun, ...]
    notes: tuple[str, ...]


def rule_set_for(spec: str, period: Period) -> RuleSet | None:
    """The Elo rule set of ``spec`` for a period (FIDE: in force on its first day); None: Glicko-2."""
    if spec.strip().lower() == GLICKO2:
        return None
    return resolve_rule_set(spec, as_of=period.first_day)


def run_period(
    engine: Engine,
    period: Period,
    *,
    rules: str | None = None,
    republish: bool = False,
    wait: float = WRITER_WAIT,
    on_wait: Callable[[], None] | None = None,
) -> RunReport:
    """Compute ``period`` and every published period after it, in one transaction.

    Without ``rules`` the store's default applies, but only if it is also the rule set of the lists
    the run continues or replaces: rules never change silently. Named ``rules`` that differ from
    either are applied and the report's notes say so. While another run or import holds the store,
    this one waits ``wait`` seconds at most (:func:`~chessrate.ratinglist.store.write_transaction`).
    """
    with (
        cycle_collector_paused(),
        freed_memory_kept(),
        write_transaction(engine, wait=wait, on_wait=on_wait) as connection,
    ):
        default = store_rules(connection)
        spec = rules or default
        rule_set_for(spec, period)  # refuse an unknown rule set before any work
        return _run(
            connection, period, spec=spec, default=default, named=rules is not None, republish=republish
        )


def _run(
    connection: Connection, period: Period, *, spec: str, default: str, named: bool, republish: bool
) -> RunReport:
    published = published_versions(connection)
    if published:
        first, last = min(published), max(published)
        if period > last.next():
            raise StoreError(
                f"period {period} cannot be run before {last.next()}: run the periods in order",
                code="period-order",
                params={"period": str(period), "next": str(last.next())},
            )
        if first < period and period.previous() not in published:
            raise StoreError(
                f"period {period.previous()} has no published list: run it first",
                code="period-unpublished",
                params={"period": str(period.previous())},
            )
        _check_same_kind(spec, published[last].rules)
    to_run = [period]
    while published and to_run[-1] < max(published):
        to_run.append(to_run[-1].next())
    status = (
        ListStatus.PUBLISHED if republish or not any(p in published for p in to_run) else ListStatus.DRAFT
    )

    mixing = _rules_mixing(spec, default=default, period=period, to_run=to_run, published=published)
    if mixing and not named:
        raise StoreError(
            f"{mixing[0]}, the store's default: name the rule set with --rules, the list's to keep it"
            " or another to change it",
            code="rules-mixing",
            params={"rules": spec},
        )

    # A run of one period reads the earliest event only of the players it may look it up for.
    single = len(to_run) == 1
    with game_columns_apart(connection, period) as first_games:  # (PostgreSQL: read meanwhile)
        history = load_history(connection, before=period, published=published, first_events=not single)
        if history.summary is not None:
            _keep_summary(connection, history.summary)
        notes = mixing + _notes(connection, period, published)
        entrants = load_entrants(connection, period)
        if single:
            needed = history.first_events_needed(period, entrants)
            # (most of the players: all of them, read without a list of ids)
            every = len(needed) * 4 > len(history.players)
            load_first_events(
                connection, history, only=None if every else needed.tolist(), entrants=(period, entrants)
            )
        games_of_period = load_games(connection, period, entrants=entrants, game_columns=first_games)
    # The texts the games came as, freed: given back, not left as holes the computation's
    # larger arrays cannot reuse (docs/ratinglist.md, "Speed").
    freed_memory_returned()
    written: list[PeriodRun] = []
    rules_title = ""
    for current in to_run:
        rule_set = rule_set_for(spec, current)
        period_games = games_of_period if current == period else load_games(connection, current)
        history.official_k[current] = official_k(connection, day=current.first_day)
        # The working of each rated Elo game is not stored: queries recompute it (docs/ratinglist.md).
        computed = compute_period(
            current, rules=rule_set, history=history, events=period_games, rated_workings=False
        )
        rules_title = computed.rules_title
        freed_memory_returned()  # the computation's temporaries, before the rows are written
        if current != to_run[-1]:  # the next period's history
            history.add(current, computed.entries, computed.workings)
        written.append(
            _write(
                connection,
                computed,
                players=history.players,
                spec=spec,
                status=status,
                published=published.get(current),
                period_games=period_games,
                games=int(period_games.counted().sum()),
            )
        )
    return RunReport(rules=spec, rules_title=rules_title, periods=tuple(written), notes=tuple(notes))


def _rules_mixing(
    spec: str, *, default: str, period: Period, to_run: list[Period], published: Mapping[Period, Row[Any]]
) -> list[str]:
    """Where ``spec`` differs from the store's default or from the rules of the lists this run
    continues (the period before) or replaces (the published lists it re-rates)."""

    def same(a: str, b: str) -> bool:
        return a.strip().lower() == b.strip().lower()

    said = []
    if not same(spec, default):
        said.append(f"rules {spec!r} differ from the store's default {default!r}")
    for earlier in [period.previous(), *to_run]:
        if earlier in published and not same(spec, published[earlier].rules):
            said.append(
                f"the list of period {earlier} was computed with {published[earlier].rules!r}, not {spec!r}"
            )
    return said


def _check_same_kind(spec: str, previous: str) -> None:
    if (spec.strip().lower() == GLICKO2) != (previous.strip().lower() == GLICKO2):
        raise InvalidInputError(
            "rules",
            spec,
            f"the lists before were computed with {previous!r}; Elo and Glicko-2 do not mix",
            code="rules-kind",
            params={"previous": previous},
        )


def _notes(connection: Connection, period: Period, published: Mapping[Period, Row[Any]]) -> list[str]:
    first = min([period, *published])
    early = connection.execute(
        select(func.count())
        .select_from(events)
        .where(events.c.period < str(first), events.c.replaced_by.is_(None))
    ).scalar_one()
    if early:
        return [f"{early} event(s) end before {first}, the first period of this list, and are not rated"]
    return []


def _write(
    connection: Connection,
    computed: ComputedList,
    *,
    players: NDArray[np.int64],
    spec: str,
    status: ListStatus,
    published: Row[Any] | None,
    period_games: PeriodGames,
    games: int,
) -> PeriodRun:
    period = str(computed.period)
    lines = EntryColumns.of(computed.entries)
    check_entries(lines, players, period)
    check_workings(computed.workings, players, period_games, period)
    old_drafts = select(list_versions.c.id).where(
        list_versions.c.period == period, list_versions.c.status == ListStatus.DRAFT
    )
    draft_ids = list(connection.execute(old_drafts).scalars())
    if draft_ids:  # a draft is only ever the latest re-run: replace it, its lines and workings first
        connection.execute(delete(game_workings).where(game_workings.c.version_id.in_(draft_ids)))
        connection.execute(delete(list_entries).where(list_entries.c.version_id.in_(draft_ids)))
        connection.execute(delete(list_versions).where(list_versions.c.id.in_(draft_ids)))
    changes: tuple[RatingChange, ...] = ()
    if published is not None:
        published_id = published.id
        changes = _changes(connection, published_id, computed)
        if status is ListStatus.PUBLISHED:
            connection.execute(
                update(list_versions)
                .where(list_versions.c.id == published_id)
                .values(status=ListStatus.SUPERSEDED)
            )
    revision = (
        connection.execute(
            select(func.max(list_versions.c.revision)).where(list_versions.c.period == period)
        ).scalar()
        or 0
    ) + 1
    version_id = connection.execute(
        insert(list_versions)
        .values(
            period=period,
            revision=revision,
            status=status,
            rules=spec[:300],
            rules_title=computed.rules_title[:300],
            created_at=dt.datetime.now(dt.UTC).replace(tzinfo=None),
        )
        .returning(list_versions.c.id)
    ).scalar_one()
    binary = _entry_pieces(version_id, lines) if connection.dialect.name == "postgresql" else None
    if binary is not None:
        copy_binary(connection, list_entries, *binary)
    else:
        insert_rows(connection, list_entries, *_entry_rows(version_id, lines))
    workings = computed.workings
    pooled = workings if isinstance(workings, PooledGames) else None
    pieces = None
    if pooled is not None and len(pooled) and connection.dialect.name == "postgresql":
        pieces = _pooled_pieces(version_id, pooled)
    if pieces is not None:
        copy_binary(connection, game_workings, *pieces)
    elif pooled is not None and len(pooled):
        insert_rows(
            connection,
            game_workings,
            POOLED_COLUMNS,
            _pooled_rows(version_id, pooled),
        )
    elif workings and pooled is None:  # (none in most Elo months: a round trip saved)
        insert_rows(
            connection,
            game_workings,
            ("version_id", *WORKING_COLUMNS),
            _rows(version_id, workings, WORKING_COLUMNS),
        )
    return PeriodRun(
        period=period,
        list_date=computed.period.list_date,
        status=status,
        revision=revision,
        players=len(lines),
        rated_players=int((lines.whole["rating"] != NONE).sum()),
        games=games,
        events=len(period_games.events),
        changes=changes,
        replaced_published=published is not None and status is ListStatus.PUBLISHED,
    )


def _keep_summary(connection: Connection, summary: ListedSummary) -> None:
    """Store the lines of the lists ``summary.versions`` summed up (``list_summaries``, named by
    ``meta`` key ``summary``), in the run's transaction: the next run reads one row a player."""
    columns = summary.columns

    def periods(months: NDArray[np.int64]) -> list[str | None]:
        """Each month number's period as text (None: :data:`NOT_LISTED`), each text made once."""
        distinct, codes = np.unique(months, return_inverse=True)
        texts = [
            None if month == NOT_LISTED else str(Period.from_month_number(month))
            for month in distinct.tolist()
        ]
        return list(map(texts.__getitem__, codes.reshape(-1).tolist()))

    connection.execute(delete(list_summaries))
    insert_rows(
        connection,
        list_summaries,
        ("player_id", "first_period", "entered", "games", "highest", "active_period"),
        zip(
            columns.player.tolist(),
            periods(columns.first >> 1),
            ((columns.first & 1) == 1).tolist(),
            columns.games.tolist(),
            [None if highest == NOT_LISTED else highest for highest in columns.highest.tolist()],
            periods(columns.active),
            strict=True,
        ),
    )
    value = ",".join(map(str, summary.versions))
    if connection.execute(update(meta).where(meta.c.key == SUMMARY).values(value=value)).rowcount == 0:
        connection.execute(insert(meta).values(key=SUMMARY, value=value))


def check_entries(lines: EntryColumns, players: NDArray[np.int64], period: str) -> None:
    """Refuse the run if a line names a player the store does not have: the list's player ids
    against every player id the run read, in its transaction and under the store's lock, in one
    set operation (``list_entries`` has no foreign keys: migration 0004; ``list check`` runs the
    same check in SQL over every list)."""
    missing = lines.player_id[~np.isin(lines.player_id, players)]
    if len(missing):
        raise StoreError(
            f"the list of period {period}: {len(missing)} line(s) name a player the store does not have"
            f" (player id {int(missing.min())}); nothing was written",
            code="list-missing-players",
            params={"period": period, "count": len(missing), "player": int(missing.min())},
        )


def check_workings(
    workings: Sequence[Working], players: NDArray[np.int64], period_games: PeriodGames, period: str
) -> None:
    """Refuse the run if a game's working names a player, game or event the store does not have:
    its keys against the players, and the period's games and events, the run read in its
    transaction and under the store's lock, one set operation a key (``game_workings`` has no
    foreign keys: migration 0007). Said as a database refuses a foreign key (``run-database``)."""
    if not workings:
        return
    event_ids = np.fromiter((event.id for event in period_games.events), dtype=np.int64)
    for name, known in (
        ("player_id", players),
        ("opponent_id", players),
        ("game_id", period_games.game_id),
        ("event_id", event_ids),
    ):
        named = (
            getattr(workings, name)
            if isinstance(workings, PooledGames)
            else np.fromiter(map(attrgetter(name), workings), dtype=np.int64, count=len(workings))
        )
        missing = named[~np.isin(named, known)]
        if len(missing):
            reason = f"FOREIGN KEY constraint failed: a game's working names {name} {int(missing.min())}"
            raise StoreError(
                f"period {period}: the database refused the run ({reason}); nothing was written",
                code="run-database",
                params={"period": period, "reason": reason},
            )


ENTRY_COLUMNS = tuple(Entry.__dataclass_fields__)
WORKING_COLUMNS = tuple(Working.__dataclass_fields__)


def _entry_rows(version_id: int, lines: EntryColumns) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """The columns of ``lines`` to write and their rows as the driver stores them: decimals and
    statuses as their text, none as NULL. A field no line has is left to its NULL default (fewer
    values to hand over); the lines go in player id order, so each index of the table grows at
    one end."""
    lines = lines.taken(stable_order(lines.player_id))
    names = ["player_id", *(name for name in ENTRY_COLUMNS[1:] if lines.has(name))]
    columns = [lines.values_of(name, _stored) for name in names]
    return ["version_id", *names], zip(repeat(version_id), *columns)


def _entry_pieces(version_id: int, lines: EntryColumns) -> tuple[list[str], list[Pieces]] | None:
    """PostgreSQL: the columns of :func:`_entry_rows`, the same values, in the binary ``COPY``
    format (:func:`.rows.copy_binary`: no Python object a line). None when a whole number does
    not fit in an ``integer`` (the rows then go as text, which the server refuses)."""
    lines = lines.taken(stable_order(lines.player_id))
    names = ["player_id", *(name for name in ENTRY_COLUMNS[1:] if lines.has(name))]
    count = len(lines.player_id)
    version = whole_pieces(np.array([version_id], dtype=np.int64))
    fields: list[Pieces | None] = [version if version is None else constant_pieces(version, count)]
    for name in names:
        if name == "player_id":
            fields.append(whole_pieces(lines.player_id))
        elif name in lines.whole:
            column = lines.whole[name]
            fields.append(whole_pieces(column, column == NONE))
        elif name in lines.floats:
            fields.append(float_pieces(lines.floats[name]))
        else:
            coded = lines.coded[name]
            texts = [None if value is None else str(_stored(value)) for value in coded.values]
            fields.append(text_pieces(coded.codes, texts))
    if any(field is None for field in fields):
        return None
    return ["version_id", *names], [field for field in fields if field is not None]


def _stored(value: object) -> object:
    """A value of a coded column as the driver stores it."""
    if isinstance(value, Decimal):
        return str(value)  # as schema.DecimalText writes it
    if isinstance(value, EntryStatus):
        return value.value
    return value


def _rows(
    version_id: int, items: Iterable[Entry | Working], columns: tuple[str, ...]
) -> Iterator[tuple[object, ...]]:
    """Each item's row as the driver stores it, after ``version_id``: decimals and statuses as
    their text (the columns whose type says so), the rest as they are."""
    values = attrgetter(*columns)
    fields = {**Entry.__dataclass_fields__, **Working.__dataclass_fields__}
    texts = [
        place
        for place, name in enumerate(columns, start=1)
        if "Decimal" in str(fields[name].type) or "Status" in str(fields[name].type)
    ]
    # One text per object: the same decimals recur (the computation shares them) and a status is
    # one of a few. By identity, as equal decimals may be written differently (1, 1.0); the items
    # hold every object while this runs.
    written: dict[int, str] = {}
    for item in items:
        row = [version_id, *values(item)]
        for place in texts:
            value = row[place]
            if value is not None:
                text = written.get(id(value))
                if text is None:
                    text = written[id(value)] = str(value)
                row[place] = text
        yield tuple(row)


#: The columns a game pooled for a first rating has a value in; the rest (the player's own
#: rating, the difference, expected score and change: an unrated player has none) stay NULL.
POOLED_COLUMNS = (
    "version_id",
    "player_id",
    "game_id",
    "event_id",
    "opponent_id",
    "opponent_rating",
    "capped",
    "score",
)


def _pooled_rows(version_id: int, pooled: PooledGames) -> Iterator[tuple[object, ...]]:
    """The rows of the games pooled for first ratings in :data:`POOLED_COLUMNS`, as :func:`_rows`
    writes their workings, from the columns: a rating's text is its number's."""
    distinct, index = np.unique(pooled.opponent_rating, return_inverse=True)
    rating_texts = np.array([str(rating) for rating in distinct.tolist()], dtype=object)
    score_texts = np.array([str(score) for score in pooled.scores], dtype=object)
    return zip(
        repeat(version_id),
        pooled.player_id.tolist(),
        pooled.game_id.tolist(),
        pooled.event_id.tolist(),
        pooled.opponent_id.tolist(),
        rating_texts[index].tolist(),
        repeat(object=False),  # capped
        score_texts[pooled.score].tolist(),
    )


def _pooled_pieces(version_id: int, pooled: PooledGames) -> tuple[list[str], list[Pieces]] | None:
    """PostgreSQL: the rows of :func:`_pooled_rows` in the binary ``COPY`` format (no Python
    object a game); the columns an unrated player's game has no value in are left NULL. None when
    an id does not fit in an ``integer`` (the rows then go as text, which the server refuses)."""
    count = len(pooled)
    ids = [pooled.player_id, pooled.game_id, pooled.event_id, pooled.opponent_id]
    version = np.full(count, version_id, dtype=np.int64)
    whole = [whole_pieces(column) for column in [version, *ids]]
    if any(field is None for field in whole):
        return None
    distinct, index = np.unique(pooled.opponent_rating, return_inverse=True)
    fields = [
        *(field for field in whole if field is not None),
        text_pieces(index, [str(rating) for rating in distinct.tolist()]),
        bool_pieces(np.zeros(count, dtype=np.bool_)),
        text_pieces(pooled.score, [str(score) for score in pooled.scores]),
    ]
    return list(POOLED_COLUMNS), fields


def _changes(connection: Connection, published_id: int, computed: ComputedList) -> tuple[RatingChange, ...]:
    rows = connection.execute(
        select(list_entries.c.player_id, list_entries.c.rating, list_entries.c.status, players.c.name)
        .join(players, players.c.id == list_entries.c.player_id)
        .where(list_entries.c.version_id == published_id)
    ).all()
    before = {row.player_id: (row.rating, row.name) for row in rows}
    lines = EntryColumns.of(computed.entries)
    now: dict[int, int | None] = dict(
        zip(lines.player_id.tolist(), lines.values_of("rating"), strict=True)  # type: ignore[arg-type]
    )
    names = {row.id: row.name for row in connection.execute(select(players.c.id, players.c.name))}
    changes = []
    for player_id in sorted(set(before) | set(now)):
        old = before.get(player_id, (None, ""))[0]
        new = now.get(player_id)
        if old != new or (player_id in before) != (player_id in now):
            changes.append(RatingChange(player_id=player_id, name=names[player_id], published=old, now=new))
    return tuple(changes)


__all__ = ["GLICKO2", "PeriodRun", "RatingChange", "RunReport", "rule_set_for", "run_period"]
