"""The history a run reads (:func:`loading.load_history`): each player's earlier entries summed up by
one SQL aggregate, and only the lists still in force kept in full. It gives the lists the whole
history gives: every earlier list in full, each player's entries summed up here in plain Python.

The store is the year of real files of ``test_year`` plus a club event that starts in February
2024 and ends in May, so it is rated from the list of January 2024 (the list in force at its
start, [FIDE-CALC]): a list a run must keep in full over four periods.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, update
from sqlalchemy.engine import Connection

from chessrate.ratinglist import loading, period_games
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import Entry, History, Working
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.listed import Listed
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import rule_set_for, run_period
from chessrate.ratinglist.schema import events, game_workings, list_entries, list_summaries, list_versions
from chessrate.ratinglist.statuses import EntryStatus, ListStatus
from chessrate.ratinglist.store import check_store, init_store, open_store

from .ratinglist_support import BACKENDS, fresh_database
from .test_year import CLUB_GAME, FIRST, MONTHS, YEAR_EVENTS

#: Games of players of swiss-unplayed-rounds.trf (imported in 2024-01), from February to May 2024.
LONG_EVENT = """white,black,white_rating,black_rating,result,date
"Player, 2","Player, 3",1923,1852,1-0,2024-02-20
"Player, 3","Player, 2",1852,1923,1/2-1/2,2024-05-10
"""
LONG_START, LONG_END = dt.date(2024, 2, 20), dt.date(2024, 5, 10)


@pytest.fixture(scope="module", params=BACKENDS)
def year(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("history")
    for url in fresh_database(tmp, request.param):
        long_event = tmp / "long-event.csv"
        long_event.write_text(LONG_EVENT, encoding="utf-8")
        engine = init_store(url, rules="fide")
        club = tmp / "club-game.csv"
        club.write_text(CLUB_GAME, encoding="utf-8")
        for path, start in YEAR_EVENTS:
            import_files(engine, [path or club], start=start)
        import_files(engine, [long_event], start=LONG_START, end=LONG_END)
        period = FIRST
        for _ in range(MONTHS):
            run_period(engine, period)
            period = period.next()
        engine.dispose()
        yield url


def published_lists(connection: Connection) -> dict[Period, Mapping[int, Entry]]:
    """Every published list in full, as the lists were loaded before they were summed up."""
    found: dict[Period, Mapping[int, Entry]] = {}
    for period, row in sorted(loading.published_versions(connection).items()):
        found[period] = loading._entries(
            connection,
            select(*(list_entries.c[name] for name in loading.ENTRY_FIELDS)).where(
                list_entries.c.version_id == row.id
            ),
        )
    return found


def summed_by_hand(lists: Mapping[Period, Mapping[int, Entry]], before: Period) -> dict[int, Listed]:
    """Each player's entries on the lists before ``before``, summed up one by one."""
    rows: dict[int, list[tuple[Period, Entry]]] = {}
    for period, entries in sorted(lists.items()):
        if period < before:
            for player_id, entry in entries.items():
                rows.setdefault(player_id, []).append((period, entry))
    summed = {}
    for player_id, mine in rows.items():
        ratings = [entry.rating for _, entry in mine if entry.rating is not None]
        active = [period for period, entry in mine if entry.status is not EntryStatus.PENDING]
        summed[player_id] = Listed(
            first=mine[0][0],
            entered=mine[0][1].status is EntryStatus.ENTERED,
            games=sum(entry.games for _, entry in mine),
            highest=max(ratings) if ratings else None,
            active=active[-1] if active else None,
        )
    return summed


def test_the_summed_history_gives_the_lists_of_the_whole_history(year: str) -> None:
    """Period by period: the SQL summary is the entries summed up by hand, the lists kept in full
    are the latest and the one the long event needs, and the list computed from this history is
    the one computed from every earlier list in full, and the one published."""
    engine = open_store(year)
    with engine.connect() as connection:
        lists = published_lists(connection)
        assert len(lists) == MONTHS
        published = loading.published_versions(connection)
        for period in sorted(lists):
            history = loading.load_history(connection, before=period, published=published)
            assert history.listed == summed_by_hand(lists, period)
            kept = {period.previous()} & set(lists)
            if Period(2024, 2) <= period <= Period.of(LONG_END):
                kept.add(Period(2024, 1))  # in force at the long event's start
            assert set(history.lists) == kept
            whole = whole_history(connection, history, lists={p: e for p, e in lists.items() if p < period})
            whole.listed = summed_by_hand(lists, period)
            events = period_games.load_games(connection, period)
            rules = rule_set_for("fide", period)
            summed = compute_period(period, rules=rules, history=history, events=events)
            reference = compute_period(period, rules=rules, history=whole, events=events)
            assert summed.entries == reference.entries
            assert summed.workings == reference.workings
            assert dict(summed.entries) == lists[period]
            # As a run of one period reads it: the earliest event only of the players it may need.
            few = loading.load_history(connection, before=period, published=published, first_events=False)
            needed = few.first_events_needed(period, events)
            loading.load_first_events(connection, few, only=needed.tolist())
            assert set(few.first_events) < set(history.first_events) or period == FIRST
            # ... the period's own entrants taken as already read, the other periods' read.
            apart = loading.load_history(connection, before=period, published=published, first_events=False)
            entrants = (period, period_games.load_entrants(connection, period))
            loading.load_first_events(connection, apart, only=needed.tolist(), entrants=entrants)
            assert apart.first_events == few.first_events
            assert apart.entry_ratings == few.entry_ratings
            loading.load_first_events(connection, apart, only=None, entrants=entrants)
            assert apart.first_events == history.first_events
            assert apart.entry_ratings == history.entry_ratings
            restricted = compute_period(period, rules=rules, history=few, events=events)
            assert restricted.entries == reference.entries
            assert restricted.workings == reference.workings
    engine.dispose()


def test_the_games_a_run_stores_for_first_ratings_are_the_scalar_paths(year: str) -> None:
    """Each published list's stored workings, read back, are the games the scalar reference
    (``bulk=False``: one ``Working`` a game) pools for first ratings, game for game and in its
    order: the run wrote them from columns (SQLite rows, PostgreSQL binary ``COPY``)."""
    engine = open_store(year)
    pooled_games = 0
    with engine.connect() as connection:
        published = loading.published_versions(connection)
        for period in sorted(published_lists(connection)):
            history = loading.load_history(connection, before=period, published=published)
            games = period_games.load_games(connection, period)
            reference = compute_period(
                period,
                rules=rule_set_for("fide", period),
                history=history,
                events=games.event_facts(),
                bulk=False,
            )
            rows = connection.execute(
                select(game_workings)
                .where(game_workings.c.version_id == published[period].id)
                .order_by(game_workings.c.id)
            )
            stored = [loading.working(row) for row in rows]
            assert stored == [w for w in reference.workings if w.difference is None]
            pooled_games += len(stored)
    engine.dispose()
    assert pooled_games  # the year has unrated players with games


def whole_history(
    connection: Connection, history: History, *, lists: Mapping[Period, Mapping[int, Entry]]
) -> History:
    """``history`` with every list given kept in full (``keep=None``) and the pending players'
    games of every one of them."""
    published = loading.published_versions(connection)
    pending_games: dict[Period, Mapping[int, tuple[Working, ...]]] = {}
    for period in lists:
        rows = connection.execute(
            select(game_workings)
            .join(
                list_entries,
                (list_entries.c.version_id == game_workings.c.version_id)
                & (list_entries.c.player_id == game_workings.c.player_id),
            )
            .where(
                game_workings.c.version_id == published[period].id,
                list_entries.c.status == EntryStatus.PENDING,
            )
            .order_by(game_workings.c.id)
        )
        by_player: dict[int, list[Working]] = {}
        for row in rows:
            by_player.setdefault(row.player_id, []).append(loading.working(row))
        pending_games[period] = {player_id: tuple(games) for player_id, games in by_player.items()}
    return History(
        entry_ratings=history.entry_ratings,
        first_events=history.first_events,
        birth_years=history.birth_years,
        lists=dict(lists),
        summarized=set(lists),
        pending_games=pending_games,
    )


def test_a_rerun_of_every_period_keeps_the_lists_it_needs_and_gives_the_published_ones(year: str) -> None:
    """Re-running the whole year adds each list it computes to the history (the summary updated, the
    lists no later event needs let go): every draft is the list published period by period."""
    engine = open_store(year)
    report = run_period(engine, FIRST)
    assert [run.status for run in report.periods] == [ListStatus.DRAFT] * MONTHS
    assert all(not run.changes for run in report.periods)
    with engine.connect() as connection:
        by_status: dict[str, dict[str, dict[int, tuple[object, ...]]]] = {}
        for row in connection.execute(
            select(list_versions.c.period, list_versions.c.status.label("version_status"), list_entries).join(
                list_entries, list_entries.c.version_id == list_versions.c.id
            )
        ):
            line = tuple(row._mapping[name] for name in loading.ENTRY_FIELDS)
            by_status.setdefault(row.version_status, {}).setdefault(row.period, {})[row.player_id] = line
    assert by_status[ListStatus.DRAFT] == by_status[ListStatus.PUBLISHED]
    assert len(by_status[ListStatus.DRAFT]) == MONTHS
    engine.dispose()


def test_a_list_let_go_is_never_read_as_empty() -> None:
    """A list summed up but not kept in full is refused, never taken for no list."""
    entry = Entry(player_id=1, status=EntryStatus.ENTERED, rating_before=None, rating=2000, games=0)
    history = History(keep={})
    history.add(Period(2024, 1), {1: entry}, [])
    history.add(Period(2024, 2), {1: entry}, [])
    assert set(history.lists) == {Period(2024, 2)}
    assert history.rating_in_force(1, dt.date(2024, 3, 5)) == 2000
    with pytest.raises(LookupError, match="2024-01"):
        history.rating_in_force(1, dt.date(2024, 2, 5))
    with pytest.raises(ValueError, match="2024-02"):
        history.listed_before(1, Period(2024, 2))
    assert history.listed_before(1, Period(2024, 3)) == Listed(
        first=Period(2024, 1), entered=True, games=0, highest=2000, active=Period(2024, 2)
    )


# --- the summary runs keep (list_summaries) -------------------------------------------------------


def stored_summary(connection: Connection) -> tuple[tuple[int, ...], dict[int, Listed]]:
    """The lists ``list_summaries`` sums (version ids) and its rows, as :class:`Listed`."""
    return loading._summarized(connection), loading._stored_summary(connection, None).listed()


def published_before(connection: Connection, period: Period) -> tuple[int, ...]:
    return tuple(row.id for p, row in sorted(loading.published_versions(connection).items()) if p < period)


def test_each_run_keeps_the_lists_before_it_summed_and_the_next_run_reads_them(
    db: str, tmp_path: Path
) -> None:
    """Period by period, as a federation runs them: each run stores the lines of the lists before
    its period summed up (one row a player), which equals those lines summed by hand; the next run
    reads that sum and adds only the latest list, and its history is the one summed from every
    list; ``list check`` finds the summary sound."""
    engine = build_store(db, tmp_path)
    period = FIRST
    for _ in range(MONTHS):
        run_period(engine, period)
        with engine.connect() as connection:
            lists = published_lists(connection)
            versions, summary = stored_summary(connection)
            assert versions == published_before(connection, period)
            assert summary == summed_by_hand(lists, period)
            following = loading.load_history(
                connection, before=period.next(), published=loading.published_versions(connection)
            )
            assert following.listed == summed_by_hand(lists, period.next())
            assert following.summary is not None
            assert following.summary.versions == published_before(connection, period.next())
        assert check_store(db) == (True, ("ok",))
        period = period.next()
    engine.dispose()


def build_store(db: str, tmp_path: Path) -> Engine:
    """The year's events imported, nothing run."""
    engine = init_store(db, rules="fide")
    club = tmp_path / "club-game.csv"
    club.write_text(CLUB_GAME, encoding="utf-8")
    for path, start in YEAR_EVENTS:
        import_files(engine, [path or club], start=start)
    return engine


def test_a_corrected_period_republished_makes_the_next_run_sum_every_list_again(
    db: str, tmp_path: Path
) -> None:
    """A past period corrected and republished replaces lists the summary sums: the next run does
    not read that summary (its lists are no longer the published ones), sums every list again and
    keeps that sum; a draft re-run changes no published list and the summary stays in use. The
    lists then computed are those a history summed from every list gives."""
    engine = build_store(db, tmp_path)
    last = Period(2024, 6)
    period = FIRST
    while period <= last:
        run_period(engine, period)
        period = period.next()
    with engine.connect() as connection:
        kept = stored_summary(connection)
    run_period(engine, Period(2024, 1))  # drafts: nothing published changes
    with engine.connect() as connection:
        assert stored_summary(connection) == kept
        published = loading.published_versions(connection)
        upcoming = loading.load_history(connection, before=last.next(), published=published)
        assert upcoming.summary is not None  # the summary read, the latest list added: kept

    # The arbiter of the January 2024 event corrects round 2: Player 2 and Player 11 drew.
    swiss = next(path for path, start in YEAR_EVENTS if start == dt.date(2024, 1, 13))
    assert swiss is not None
    lines = swiss.read_bytes().split(b"\n")
    two = next(i for i, line in enumerate(lines) if line.startswith(b"001    2 "))
    eleven = next(i for i, line in enumerate(lines) if line.startswith(b"001   11 "))
    lines[two] = lines[two].replace(b"   11 b 1  ", b"   11 b =  ").replace(b" 4.0 ", b" 3.5 ")
    lines[eleven] = lines[eleven].replace(b"    2 w 0  ", b"    2 w =  ").replace(b" 4.5 ", b" 5.0 ")
    corrected = tmp_path / "swiss-corrected.trf"
    corrected.write_bytes(b"\n".join(lines))
    assert corrected.read_bytes() != swiss.read_bytes()
    with engine.connect() as connection:
        event_id = connection.execute(
            select(events.c.id).where(events.c.start_date == dt.date(2024, 1, 13))
        ).scalar_one()
    import_files(engine, [corrected], start=dt.date(2024, 1, 13), replaces=event_id)
    report = run_period(engine, Period(2024, 1), republish=True)
    assert any(run.changes for run in report.periods)  # the correction changed published lines
    with engine.connect() as connection:
        # The summary names lists no longer published: the next run does not read it.
        versions, _ = stored_summary(connection)
        assert versions == kept[0]
        assert versions != published_before(connection, last)

    run_period(engine, last.next())
    with engine.connect() as connection:
        lists = published_lists(connection)
        versions, summary = stored_summary(connection)
        assert versions == published_before(connection, last.next())
        assert summary == summed_by_hand(lists, last.next())
        published = loading.published_versions(connection)
        history = loading.load_history(connection, before=last.next().next(), published=published)
        assert history.listed == summed_by_hand(lists, last.next().next())
        # Computed from this history and from one with every earlier list in full: the same list.
        period = last.next()
        history = loading.load_history(connection, before=period, published=published)
        earlier = {p: e for p, e in lists.items() if p < period}
        whole = whole_history(connection, history, lists=earlier)
        whole.listed = summed_by_hand(lists, period)
        games = period_games.load_games(connection, period)
        rules = rule_set_for("fide", period)
        ours = compute_period(period, rules=rules, history=history, events=games)
        reference = compute_period(period, rules=rules, history=whole, events=games)
        assert ours.entries == reference.entries == lists[period]
    assert check_store(db) == (True, ("ok",))
    engine.dispose()


def test_list_check_finds_a_summary_that_is_not_its_lists_summed(db: str, tmp_path: Path) -> None:
    engine = build_store(db, tmp_path)
    for period in (FIRST, FIRST.next(), FIRST.next().next()):
        run_period(engine, period)
    assert check_store(db) == (True, ("ok",))
    with engine.begin() as connection:
        connection.execute(update(list_summaries).values(games=list_summaries.c.games + 1))
    sound, lines = check_store(db)
    assert not sound
    assert lines == ("list_summaries: not the sum of the lists it names: the next run sums them again",)
    engine.dispose()
