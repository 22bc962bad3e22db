"""The bulk (numpy) period computation gives the scalar path's lists and workings, figure for figure.

Every period is computed both ways from the same history (``compute_period(bulk=True)`` and
``bulk=False``, the scalar rating core per player) and every stored figure compared: ratings, K,
games, rounded changes, notes and every Elo decimal exactly as written (``str``, so the digits
stored as text are the same); Glicko-2's floats and the decimals written from them to 12
significant digits. On random periods (FIDE rules of 2022, 2024 and 2025, across the lists of
1 March 2024 and 1 October 2025; Ciabe; Glicko-2) and on the year of real files of ``test_year``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, SmallInteger, cast, insert, select, text, update
from sqlalchemy.engine import Connection

from chessrate.bulk import SCALAR_AGREEMENT, glicko2_takes
from chessrate.ratinglist import elo_period, loading, period_games, rows, runner
from chessrate.ratinglist.compute import compute_period
from chessrate.ratinglist.facts import (
    ComputedList,
    EventFacts,
    GameFacts,
    History,
    PeriodGames,
    Working,
)
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.queries import GameLine, event_view, player_view
from chessrate.ratinglist.schema import events as events_table
from chessrate.ratinglist.schema import games as games_table
from chessrate.ratinglist.schema import players
from chessrate.ratinglist.store import init_store, open_store
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.policy import game_not_rated

from .ratinglist_support import BACKENDS, DATA, fresh_database
from .test_year import build_year

#: Fields holding a float, or a decimal written from a float (Glicko-2 lists only).
GLICKO_FLOATS = {"glicko_rating", "deviation", "volatility", "expected", "own_rating", "opponent_rating"}


def same_figure(name: str, bulk: object, scalar: object, *, glicko: bool) -> bool:
    if glicko and name in GLICKO_FLOATS and bulk is not None and scalar is not None:
        # The agreement docs/bulk.md promises, with its reason (bulk.SCALAR_AGREEMENT).
        tolerance = SCALAR_AGREEMENT
        return math.isclose(float(str(bulk)), float(str(scalar)), rel_tol=tolerance, abs_tol=tolerance)
    if isinstance(bulk, Decimal) or isinstance(scalar, Decimal):
        return str(bulk) == str(scalar)  # the text stored, trailing zeros included
    return type(bulk) is type(scalar) and bulk == scalar


def assert_same_list(bulk: ComputedList, scalar: ComputedList, *, glicko: bool) -> None:
    assert bulk.rules_title == scalar.rules_title
    assert list(bulk.entries) == list(scalar.entries)  # the same players, in the same order
    pairs = [*zip(bulk.entries.values(), scalar.entries.values(), strict=True)]
    assert len(bulk.workings) == len(scalar.workings)
    pairs += [*zip(bulk.workings, scalar.workings, strict=True)]
    for ours, reference in pairs:
        for field in dataclasses.fields(ours):
            value, expected = getattr(ours, field.name), getattr(reference, field.name)
            assert same_figure(field.name, value, expected, glicko=glicko), (
                f"{type(ours).__name__} of player {ours.player_id}, {field.name}: "
                f"bulk {value!r}, scalar {expected!r}"
            )


def both_ways(
    period: Period, *, rules: RuleSet | None, history: History, events: list[EventFacts]
) -> ComputedList:
    """Both computations of one period, compared, and the bulk one from the games as columns (as a
    run loads them); the bulk one goes on."""
    ours = compute_period(period, rules=rules, history=history, events=events, bulk=True)
    reference = compute_period(period, rules=rules, history=history, events=events, bulk=False)
    assert_same_list(ours, reference, glicko=rules is None)
    columns = compute_period(period, rules=rules, history=history, events=as_columns(events), bulk=True)
    assert_same_list(columns, reference, glicko=rules is None)
    return ours


def as_columns(events: list[EventFacts]) -> PeriodGames:
    """The events' games as a run loads them: columns in game id order, scores by index."""
    games = sorted(((game, event.id) for event in events for game in event.games), key=lambda g: g[0].id)
    texts: dict[str, int] = {}  # by the text stored: 1 and 1.0 are two scores
    scores: list[Decimal] = []

    def code(score: Decimal | None) -> int:
        if score is None:
            return -1
        if str(score) not in texts:
            texts[str(score)] = len(scores)
            scores.append(score)
        return texts[str(score)]

    def column(values: list[int], dtype: type) -> np.ndarray:  # type: ignore[type-arg]
        return np.array(values, dtype=dtype)

    white_codes = [code(game.white_score) for game, _ in games]
    black_codes = [code(game.black_score) for game, _ in games]
    entrants = [
        (event.id, player, rating) for event in events for player, rating in event.ratings_in_file.items()
    ]
    return PeriodGames(
        events=tuple(dataclasses.replace(event, ratings_in_file={}, games=()) for event in events),
        entrant_event=column([event_id for event_id, _, _ in entrants], np.int64),
        entrant_player=column([player for _, player, _ in entrants], np.int64),
        entrant_rating=column([-1 if rating is None else rating for _, _, rating in entrants], np.int64),
        game_id=column([game.id for game, _ in games], np.int64),
        event_id=column([event_id for _, event_id in games], np.int64),
        white=column([game.white for game, _ in games], np.int64),
        black=column([game.black for game, _ in games], np.int64),
        white_score=column(white_codes, np.int8),
        black_score=column(black_codes, np.int8),
        rated=column([game.rated for game, _ in games], np.bool_),
        scores=tuple(scores),
    )


# --- random periods ------------------------------------------------------------------------------

#: First periods of three consecutive months: the 2022 rules (one capped game per tournament,
#: floor 1000), the lists of 1 March 2024 (adjustment, then the 2024 rules and floor 1400), and
#: the 2025 rules from 1 October 2025 (the 400-point rule only below 2650).
STARTS = [Period(2023, 5), Period(2024, 1), Period(2025, 8)]
#: With ``fide-rapid``: the rapid and blitz chapter's K 20 for everyone (to September 2022) and its
#: standard K from October 2022, and, from 1 December 2024, its games not rated (8.3.1).
RAPID_STARTS = [Period(2022, 8), Period(2024, 11)]
MONTHS = 3
#: Scores written several ways, as files give them: the stored text keeps its trailing zeros.
WINS = [Decimal("1"), Decimal("1.0")]
DRAWS = [Decimal("0.5"), Decimal("0.50")]
LOSSES = [Decimal("0"), Decimal("0.0")]


def random_store(seed: int, first: Period) -> tuple[History, dict[Period, list[EventFacts]]]:
    """Players (a few unrated, some near 2650, ratings far apart) and events over the months."""
    rng = np.random.default_rng(seed)
    players = int(rng.integers(6, 30))
    strength = rng.choice([rng.integers(900, 2900), 2650, 2649, 1000, 1399], size=players)
    strength = np.where(rng.random(players) < 0.6, rng.integers(900, 2900, size=players), strength)
    unrated = rng.random(players) < 0.2
    by_period: dict[Period, list[EventFacts]] = {}
    event_id = game_id = 0
    period = first
    for _ in range(MONTHS):
        by_period[period] = []
        for _ in range(int(rng.integers(1, 4))):
            event_id += 1
            # Some events start in the month before: rated from the list before that month.
            start = period.first_day - dt.timedelta(days=int(rng.integers(-20, 10)))
            size = int(rng.integers(2, min(players, 12) + 1))
            entrants = [int(p) for p in rng.choice(players, size=size, replace=False)]
            ratings = {
                p + 1: None if unrated[p] else int(np.clip(strength[p] + rng.integers(-30, 31), 0, 4000))
                for p in entrants
            }
            games = []
            for _ in range(int(rng.integers(1, 3 * size))):
                white, black = (int(p) + 1 for p in rng.choice(entrants, size=2, replace=False))
                outcome = int(rng.integers(0, 3))
                white_score, black_score = [(LOSSES, WINS), (DRAWS, DRAWS), (WINS, LOSSES)][outcome]
                game_id += 1
                forfeit = rng.random() < 0.05
                games.append(
                    GameFacts(
                        id=game_id,
                        white=white,
                        black=black,
                        white_score=None if forfeit else white_score[int(rng.integers(0, 2))],
                        black_score=None if forfeit else black_score[int(rng.integers(0, 2))],
                        rated=rng.random() > 0.05,
                    )
                )
            by_period[period].append(
                EventFacts(
                    id=event_id,
                    name=f"event {event_id}",
                    start_date=start,
                    end_date=period.first_day + dt.timedelta(days=int(rng.integers(10, 27))),
                    ratings_in_file=ratings,
                    games=tuple(games),
                )
            )
        period = period.next()
    # As the runner loads it: each player's earliest event and the rating its file gives.
    earliest: dict[int, tuple[dt.date, int, int | None]] = {}
    for events in by_period.values():
        for event in events:
            for player_id, rating in event.ratings_in_file.items():
                mine = (event.start_date, event.id, rating)
                earliest[player_id] = min(earliest.get(player_id, mine), mine, key=lambda x: x[:2])
    history = History(
        entry_ratings={p: value[2] for p, value in earliest.items()},
        first_events={p: value[1] for p, value in earliest.items()},
        birth_years={
            p + 1: int(rng.integers(1950, 2015)) if rng.random() < 0.7 else None for p in range(players)
        },
    )
    return history, by_period


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(STARTS), spec=st.sampled_from(["fide", "ciabe"]))
def test_a_period_needs_the_earliest_event_only_of_the_players_it_names(
    seed: int, first: Period, spec: str
) -> None:
    """A run of one period reads each player's earliest event only for the players
    :meth:`History.first_events_needed` names: with only theirs, every random period (unrated
    players pooling games, events begun the month before, players below the floor) gives the list
    and workings it gives with every player's."""
    history, by_period = random_store(seed, first)
    for period, events in by_period.items():
        rules = runner.rule_set_for(spec, period)
        games = as_columns(events)
        needed = set(history.first_events_needed(period, games).tolist())
        few = dataclasses.replace(
            history,
            entry_ratings={p: r for p, r in history.entry_ratings.items() if p in needed},
            first_events={p: e for p, e in history.first_events.items() if p in needed},
            lists=dict(history.lists),
            _columns={},
        )
        computed = compute_period(period, rules=rules, history=history, events=games)
        restricted = compute_period(period, rules=rules, history=few, events=games)
        assert_same_list(restricted, computed, glicko=False)
        history.add(period, computed.entries, computed.workings)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    case=st.one_of(
        st.tuples(st.sampled_from(STARTS), st.sampled_from(["fide", "ciabe"])),
        st.tuples(st.sampled_from(STARTS + RAPID_STARTS), st.just("fide-rapid")),
    ),
)
def test_random_elo_periods_are_the_scalar_paths(seed: int, case: tuple[Period, str]) -> None:
    first, spec = case
    history, by_period = random_store(seed, first)
    for period, events in by_period.items():
        computed = both_ways(period, rules=runner.rule_set_for(spec, period), history=history, events=events)
        history.add(period, computed.entries, computed.workings)


@pytest.mark.parametrize(
    ("field", "value"),
    [("deviation", 600.0), ("deviation", 500.5), ("volatility", 1.5), ("volatility", 0.0005)],
)
def test_a_previous_entry_outside_the_engines_bounds_is_rated_as_the_scalar_path_rates_it(
    field: str, value: float
) -> None:
    """An RD above 500 or a volatility outside 0.001 to 1 on the list before (one the bulk engine
    does not take: bulk.glicko2_takes) rates the period as the scalar path does, not refused."""
    history, by_period = random_store(7, STARTS[0])
    (first, events), (second, later) = list(by_period.items())[:2]
    computed = both_ways(first, rules=None, history=history, events=events)
    playing = {player for event in later for game in event.games for player in (game.white, game.black)}
    player = next(p for p in computed.entries if p in playing)
    entries = dict(computed.entries)
    entries[player] = dataclasses.replace(entries[player], **{field: value})
    assert not glicko2_takes(
        [entry.glicko_rating for entry in entries.values()],
        [entry.deviation for entry in entries.values()],
        [entry.volatility for entry in entries.values()],
    )
    history.add(first, entries, computed.workings)
    after = both_ways(second, rules=None, history=history, events=later)
    assert after.entries[player].games, after.entries[player]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(STARTS))
def test_random_glicko2_periods_are_the_scalar_paths(seed: int, first: Period) -> None:
    history, by_period = random_store(seed, first)
    for period, events in by_period.items():
        computed = both_ways(period, rules=None, history=history, events=events)
        history.add(period, computed.entries, computed.workings)


def test_the_random_periods_reach_every_rule() -> None:
    """The random stores above do meet the cases they are there for (a test that could not fail
    otherwise): capped games, players spared by the 2650 limit, pooled first ratings, floors."""
    seen: set[str] = set()
    for seed in range(40):
        first = STARTS[seed % len(STARTS)]
        history, by_period = random_store(seed, first)
        for period, events in by_period.items():
            computed = both_ways(
                period, rules=runner.rule_set_for("fide", period), history=history, events=events
            )
            history.add(period, computed.entries, computed.workings)
            rated = [w for w in computed.workings if w.difference is not None]
            if any(w.capped for w in rated):
                seen.add("capped")
            if period >= Period(2025, 10) and any(
                w.own_rating is not None and w.own_rating >= 2650 and abs(w.difference or 0) > 400
                for w in rated
            ):
                seen.add("spared")
            statuses = {entry.status for entry in computed.entries.values()}
            seen |= statuses & {"new", "pending", "dropped", "entered", "rated"}
            if any(entry.adjustment for entry in computed.entries.values()):
                seen.add("adjustment")
    assert seen >= {"capped", "spared", "new", "pending", "dropped", "entered", "rated", "adjustment"}


def test_the_random_rapid_periods_leave_out_the_600_point_games() -> None:
    """B02RBRegulations2024 8.3.1, from 1 December 2024: "Games played between players with a rating
    difference of 600 points or more shall not be rated if at least one of the players is rated
    above 2600 on the relevant list." The random stores do have such games (rated under the
    standard rules of the same month); under ``fide-rapid`` both engines leave every one out."""
    met = 0
    for seed in range(12):
        history, by_period = random_store(seed, Period(2024, 12))
        period, events = next(iter(by_period.items()))
        rapid = runner.rule_set_for("fide-rapid", period)
        assert rapid is not None
        assert rapid.fide is not None
        standard = compute_period(
            period, rules=runner.rule_set_for("fide", period), history=history, events=events
        )
        far = {
            (w.player_id, w.game_id)
            for w in standard.workings
            if w.own_rating is not None
            and w.difference is not None
            and game_not_rated(w.own_rating, w.opponent_rating, rapid.fide)
        }
        met += len(far)
        computed = both_ways(period, rules=rapid, history=history, events=events)
        rated = {(w.player_id, w.game_id) for w in computed.workings if w.difference is not None}
        assert not rated & far
        assert rated <= {(w.player_id, w.game_id) for w in standard.workings}
    assert met > 0


SWISS = DATA / "trf/swiss-unplayed-rounds.trf"
CANDIDATES = DATA / "pgn/candidates-2022.pgn"

# --- the year of real files ------------------------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(tmp_path, request.param)


class Comparing:
    """The runner's computation, checked: each period computed both ways (bulk and scalar) from the
    events with their games, and as the run stores it, from the games as columns (the column path
    of an Elo period); the reference lists kept for the pages."""

    def __init__(self) -> None:
        self.compared: list[Period] = []
        self.rated: dict[Period, ComputedList] = {}

    def __call__(
        self,
        period: Period,
        *,
        rules: RuleSet | None,
        history: History,
        events: PeriodGames,
        rated_workings: bool,
    ) -> ComputedList:
        self.compared.append(period)
        assert isinstance(events, PeriodGames)  # what the runner loads
        reference = both_ways(period, rules=rules, history=history, events=events.event_facts())
        # The column path with every working, figure for figure as the scalar path's.
        columns = compute_period(period, rules=rules, history=history, events=events, bulk=True)
        assert_same_list(columns, reference, glicko=rules is None)
        self.rated[period] = reference
        # What the run stores: the same list, and the workings it keeps (first-rating pools, Glicko-2).
        stored = compute_period(
            period, rules=rules, history=history, events=events, rated_workings=rated_workings
        )
        assert stored.entries == reference.entries
        # (an Elo run's pooled games come as columns: compared game by game)
        assert tuple(stored.workings) == tuple(
            w for w in reference.workings if rules is None or w.difference is None
        )
        return stored


@pytest.mark.parametrize("rules", ["fide", "ciabe", "glicko2"])
def test_the_year_of_real_files_is_the_scalar_paths(
    rules: str, db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The year of ``test_year`` (2023-09 to 2024-08: the 2022 rules, the list of 1 March 2024, the
    2024 rules), every period run by the runner and compared there; then the pages."""
    comparing = Comparing()
    monkeypatch.setattr(runner, "compute_period", comparing)
    build_year(db, tmp_path, rules=rules)
    assert len(comparing.compared) == 12
    assert_pages_show_what_was_rated(open_store(db), comparing.rated)


def test_a_corrected_period_rerun_and_republished_is_the_scalar_paths(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corrected event (a result changed) re-run over the later periods and republished: every
    period computed both ways again, and the pages show the new lists' games."""
    comparing = Comparing()
    monkeypatch.setattr(runner, "compute_period", comparing)
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    import_files(engine, [CANDIDATES], start=dt.date(2024, 6, 3))
    for month in (5, 6, 7):
        runner.run_period(engine, Period(2024, month))
    corrected = tmp_path / "swiss-corrected.trf"
    lines = SWISS.read_bytes().split(b"\n")
    two = next(i for i, line in enumerate(lines) if line.startswith(b"001    2 "))
    eleven = next(i for i, line in enumerate(lines) if line.startswith(b"001   11 "))
    lines[two] = lines[two].replace(b"   11 b 1  ", b"   11 b =  ").replace(b" 4.0 ", b" 3.5 ")
    lines[eleven] = lines[eleven].replace(b"    2 w 0  ", b"    2 w =  ").replace(b" 4.5 ", b" 5.0 ")
    corrected.write_bytes(b"\n".join(lines))
    import_files(engine, [corrected], start=dt.date(2024, 5, 4), replaces=1)
    report = runner.run_period(engine, Period(2024, 5), republish=True)
    assert [run.status for run in report.periods] == ["published"] * 3
    assert comparing.compared == [Period(2024, 5), Period(2024, 6), Period(2024, 7)] * 2
    assert_pages_show_what_was_rated(engine, comparing.rated)


def figures(line: GameLine | Working) -> tuple[object, ...]:
    """What a page shows of a game behind a list line."""
    return (
        line.event_id,
        line.opponent_id,
        line.own_rating,
        line.opponent_rating,
        line.difference,
        line.capped,
        line.expected,
        line.score,
        line.change,
    )


def sample_players(rated: dict[Period, ComputedList]) -> set[int]:
    """Players whose pages are checked (each page recomputes every period of theirs): per period, one
    with a capped game, the one with the most tournaments, one first rated, one pooled."""
    chosen: set[int] = set()
    for computed in rated.values():
        rated_games = [w for w in computed.workings if w.difference is not None]
        capped = sorted(w.player_id for w in rated_games if w.capped)
        events: dict[int, set[int]] = {}
        for w in rated_games:
            events.setdefault(w.player_id, set()).add(w.event_id)
        busiest = sorted(events, key=lambda pid: (-len(events[pid]), pid))
        by_status = {
            status: sorted(pid for pid, e in computed.entries.items() if e.status == status)
            for status in ("new", "pending")
        }
        for group in (capped, busiest, by_status["new"], by_status["pending"]):
            chosen.update(group[:1])
    return chosen


def assert_pages_show_what_was_rated(engine: Engine, rated: dict[Period, ComputedList]) -> None:
    """Every game behind every line on the player pages (``list player``) and the event pages is the
    working the period was rated with, figure for figure; those of rated Elo games are recomputed
    on demand (ratinglist/workings.py), the others stored."""
    for player_id in sorted(sample_players(rated)):
        view = player_view(engine, str(player_id))
        for line in view.history:
            expected = [w for w in rated[Period.parse(line.period)].workings if w.player_id == player_id]
            shown = [figures(g) for g in line.game_lines]
            assert shown == [figures(w) for w in expected], f"player {player_id}, {line.period}"
            # the very decimals, trailing zeros included
            assert [[str(f) for f in row] for row in shown] == [
                [str(f) for f in figures(w)] for w in expected
            ]
    for computed in rated.values():
        for event_id in sorted({w.event_id for w in computed.workings}):
            view = event_view(engine, event_id)
            totals: dict[int, tuple[int, Decimal | None]] = {}
            for w in computed.workings:
                if w.event_id == event_id:
                    count, total = totals.get(w.player_id, (0, None))
                    if w.change is not None:
                        total = (total or Decimal(0)) + w.change
                    totals[w.player_id] = (count + 1, total)
            assert {pid: (count, total) for pid, _, _, count, total in view.results} == totals


# --- the run's fast paths: columns read by the driver, the engine a chunk at a time ---------------


def test_the_columns_a_run_reads_are_the_events_the_pages_read(db: str, tmp_path: Path) -> None:
    """What a run loads as columns (:func:`period_games.load_games`, read through ``group_concat`` or
    ``string_agg`` of ``int8send``) is, event by event, what the pages load row by row
    (:func:`loading.load_events`): the same players with the same file ratings, the same games and the
    same score texts; with a score stored otherwise than 0, 0.5, 1 (``1.0``), read by its text; and the
    same history."""
    build_year(db, tmp_path, rules="fide")
    engine = open_store(db)
    with engine.begin() as connection:
        periods = sorted(
            Period.parse(p) for p in connection.execute(select(events_table.c.period).distinct()).scalars()
        )
        assert len(periods) >= 5
        for period in periods:
            assert_same_events(connection, period)
        # A score written otherwise, as another importer could store it: the exact text is kept.
        connection.execute(
            update(games_table)
            .where(games_table.c.white_score == Decimal(1))
            .values(white_score=Decimal("1.0"))
        )
        loaded = assert_same_events(connection, periods[0])
        assert "1.0" in {str(score) for score in loaded.scores}
        published = loading.published_versions(connection)
        fast = loading.load_history(connection, before=Period(2024, 3), published=published)
        players = list(fast.entry_ratings)
        few = loading.load_history(connection, before=Period(2024, 3), published=published, only=players[:5])
        assert fast.entry_ratings
        assert fast.first_events
        assert fast.birth_years
        for player_id in players[:5]:
            assert few.entry_ratings[player_id] == fast.entry_ratings[player_id]
            assert few.first_events[player_id] == fast.first_events[player_id]
            assert few.birth_years[player_id] == fast.birth_years[player_id]
    engine.dispose()


def test_ids_too_wide_to_pair_are_read_one_a_column(tmp_path: Path) -> None:
    """Game, event and player ids are read two in one number (id × 2^32 + id) while they are below
    2^31; a SQLite store whose rowids grew past that (PostgreSQL's ``integer`` ids cannot) is read
    one id a column, and gives the same columns as the pages' reader."""
    db = str(tmp_path / "wide.db")
    engine = init_store(db)
    with engine.begin() as connection:
        connection.execute(
            insert(players).values(
                id=2**31 + 5, name="Wide", name_key="wide", created_at=dt.datetime(2024, 1, 1)
            )
        )
    import_files(engine, [DATA / "trf/swiss-unplayed-rounds.trf"], start=dt.date(2024, 5, 4))
    with engine.begin() as connection:
        assert not period_games._fit_in_pairs(connection)
        period = Period(2024, 5)
        loaded = assert_same_events(connection, period)
        assert int(loaded.white.max()) > 2**31
    engine.dispose()


@pytest.mark.parametrize(("player_id", "columns"), [(2**27 - 1000, 2), (2**27, 3), (2**30 + 3, 3)])
def test_ids_too_wide_for_two_columns_are_read_in_three(
    db: str, player_id: int, columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While every player id has at most 27 bits, a game's five numbers are read as two (its id
    and event; its players and codes); a wider player id (still below 2^31, as PostgreSQL's
    ``integer`` ids are) sends them as three: the same columns as the pages' reader either way."""
    engine = init_store(db)
    with engine.begin() as connection:
        connection.execute(
            insert(players).values(
                id=player_id, name="Wide", name_key="wide", created_at=dt.datetime(2024, 1, 1)
            )
        )
        if connection.dialect.name == "postgresql":  # new players' ids follow it, as SQLite's do
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('players', 'id'), {player_id})"))
    import_files(engine, [DATA / "trf/swiss-unplayed-rounds.trf"], start=dt.date(2024, 5, 4))
    send = period_games.sent_int_columns
    widths: list[int] = []

    def counted(connection: Connection, query: Any) -> Any:
        names = list(query.selected_columns.keys())
        if "game_event" in names or "white" in names:  # the games' query
            widths.append(len(names))
        return send(connection, query)

    monkeypatch.setattr(period_games, "sent_int_columns", counted)
    with engine.begin() as connection:
        assert period_games._fit_in_pairs(connection)
        loaded = assert_same_events(connection, Period(2024, 5))
        assert int(loaded.white.max()) > player_id
    assert widths == [columns]
    engine.dispose()


def assert_same_events(connection: Connection, period: Period) -> PeriodGames:
    columns = period_games.load_games(connection, period)
    rows = loading.load_events(connection, period)
    assert rows
    assert columns.event_facts() == rows
    for ours, reference in zip(columns.event_facts(), rows, strict=True):
        for game, expected in zip(ours.games, reference.games, strict=True):
            assert (str(game.white_score), str(game.black_score)) == (
                str(expected.white_score),
                str(expected.black_score),
            )
    return columns


def test_a_null_is_refused_by_the_column_reader(db: str) -> None:
    """:func:`rows.int_columns` reads whole numbers only: a NULL is refused, never read as a number."""
    engine = init_store(db)
    with engine.begin() as connection:
        assert [len(c) for c in rows.int_columns(connection, select(players.c.id.label("id")))] == [0]
        connection.execute(
            insert(players).values(
                name="A", name_key="a", created_at=dt.datetime(2025, 1, 1), birth_year=None
            )
        )
        (ids,) = rows.int_columns(connection, select(players.c.id.label("id")))
        assert ids.tolist() == [1]
        with pytest.raises(ValueError, match="NULL"):
            rows.int_columns(connection, select(players.c.id.label("id"), players.c.birth_year.label("year")))
    engine.dispose()


def test_the_column_reader_reads_whole_numbers_of_every_width_and_sign(db: str) -> None:
    """:func:`rows.int_columns` reads 2, 4 and 8-byte whole numbers, negative ones too (PostgreSQL
    sends them in its binary array format), each column's values in the same row order."""
    engine = init_store(db)
    people = [(2**40 + 3, 1950), (7, -12), (2**31 + 1, 0)]
    with engine.begin() as connection:
        for fide_id, year in people:
            connection.execute(
                insert(players).values(
                    name="A",
                    name_key="a",
                    created_at=dt.datetime(2025, 1, 1),
                    fide_id=fide_id,
                    birth_year=year,
                )
            )
        fide, year, small = rows.int_columns(
            connection,
            select(
                players.c.fide_id.label("fide"),
                players.c.birth_year.label("year"),
                cast(players.c.birth_year, SmallInteger).label("small"),
            ),
        )
    assert sorted(zip(fide.tolist(), year.tolist(), small.tolist(), strict=True)) == sorted(
        (fide_id, born, born) for fide_id, born in people
    )
    engine.dispose()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(STARTS), chunk=st.integers(1, 12))
def test_rating_a_chunk_of_players_at_a_time_changes_nothing(seed: int, first: Period, chunk: int) -> None:
    """The column path hands the engine a few players' sides at a time (``RATE_CHUNK``, each
    player whole): tiny chunks give the scalar path's lists and workings, figure for figure."""
    history, by_period = random_store(seed, first)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(elo_period, "RATE_CHUNK", chunk)
        for period, events in by_period.items():
            rules = runner.rule_set_for("fide", period)
            reference = compute_period(period, rules=rules, history=history, events=events, bulk=False)
            chunked = compute_period(period, rules=rules, history=history, events=as_columns(events))
            assert_same_list(chunked, reference, glicko=False)
            history.add(period, chunked.entries, chunked.workings)
