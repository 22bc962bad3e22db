"""A year of monthly rating periods (September 2023 to August 2024) built from the real files.

How the year is built: each real file is imported once with ``--start`` moved into the month below
(the file's own length kept; the files are not changed), and the periods are run in order:

    2023-09  Candidates 2022 (candidates-2022.pgn)          8 players, all entered with the file's ratings
    2023-10  FIDE's example tournament (fide-example.trf)    284 players, 138 of them unrated
    2023-11  Nepomniachtchi - Ding, game 1 (PGN)             rated from the store's lists, not the file's
    2024-01  A club Swiss (swiss-unplayed-rounds.trf)         unrated players start pooling games
    2024-04  One club game written here (CSV)                 "Player, 9" gets a pooled first rating
    2024-06  The tie-break exercise Swiss (swiss-9-rounds)
    2024-08  XX Open Internacional de Gros (javafo-sample2)

The list of 1 March 2024 (period 2024-02) carries FIDE's one-time adjustment. Hand-checked values
below are worked from table 8.1.2 [FIDE-RR-2024 §8.1.2] and 8.1.1 [FIDE-RR-2024 §8.1.1] in the comments.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.queries import list_view, player_view
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import list_entries, list_versions
from chessrate.ratinglist.store import init_store
from chessrate.systems.glicko import glicko2

from .ratinglist_support import BACKENDS, DATA, fresh_database

CLUB_GAME = """white,black,white_rating,black_rating,result,date
"Player, 9","Player, 2",,1923,1-0,2024-04-06
"""

YEAR_EVENTS = (
    (DATA / "pgn/candidates-2022.pgn", dt.date(2023, 9, 5)),
    (DATA / "trf/fide-example.trf", dt.date(2023, 10, 5)),
    (DATA / "pgn/nepomniachtchi-liren-game1.pgn", dt.date(2023, 11, 10)),
    (DATA / "trf/swiss-unplayed-rounds.trf", dt.date(2024, 1, 13)),
    (None, dt.date(2024, 4, 6)),  # the club game above
    (DATA / "trf/swiss-9-rounds.trf", dt.date(2024, 6, 1)),
    (DATA / "trf/javafo-sample2.trf", dt.date(2024, 8, 2)),
)
FIRST = Period(2023, 9)
MONTHS = 12

NEPO, DING = "4168119", "8603677"


def build_year(db: str, tmp_path: Path, *, rules: str) -> None:
    engine = init_store(db, rules=rules)
    club = tmp_path / "club-game.csv"
    club.write_text(CLUB_GAME, encoding="utf-8")
    for path, start in YEAR_EVENTS:
        import_files(engine, [path or club], start=start)
    period = FIRST
    for _ in range(MONTHS):
        run_period(engine, period)
        period = period.next()
    engine.dispose()


@pytest.fixture(scope="module", params=BACKENDS)
def year_dir(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("year")
    yield from ((url, tmp) for url in fresh_database(tmp, request.param))


@pytest.fixture(scope="module")
def fide_year(year_dir: tuple[str, Path]) -> str:
    url, tmp = year_dir
    build_year(url, tmp, rules="fide")
    return url


def history(db: str, player: str) -> dict[str, Any]:
    from chessrate.ratinglist.store import open_store

    return {line.period: line for line in player_view(open_store(db), player).history}


def row_of(db: str, period: str, name: str) -> Any:
    from chessrate.ratinglist.store import open_store

    view = list_view(open_store(db), period)
    return next(row for row in view.rows if row.name == name)


def test_fide_candidates_nepomniachtchi_by_hand(fide_year: str) -> None:
    # Table 8.1.2, D = 2766 - opponent (file ratings: every player enters with the file's rating):
    #  Ding 2806 D -40 -> .44 (twice), Caruana 2783 -17 -> .48 (twice), Radjabov 2753 +13 -> .52
    #  (twice), Firouzja 2793 -27 -> .46 (twice), Nakamura 2760 +6 -> .51 (twice), Duda 2750 +16
    #  -> .52 (twice), Rapport 2764 +2 -> .50 (twice): sum of PD = 6.86; score 9.5.
    #  K 10 (rated 2400 or more, B.02 8.3.3); 10 x (9.5 - 6.86) = 26.4 -> 26; 2766 + 26 = 2792.
    line = history(fide_year, NEPO)["2023-09"]
    assert (line.rating_before, line.k, line.games) == (2766, 10, 14)
    assert (line.score, line.expected, line.change) == (Decimal("9.5"), Decimal("6.86"), Decimal("26.4"))
    assert (line.rounded_change, line.rating, line.status) == (26, 2792, "entered")
    assert len(line.game_lines) == 14


def test_fide_ding_candidates_then_the_match_game_from_the_stores_lists(fide_year: str) -> None:
    # Ding 2806 in the Candidates: PD .56 .58 .56 .53 .57 .56 .52 .56 .58 .56 .53 .57 .52 .56
    # (D 40 56 42 23 53 46 13 40 56 42 23 53 13 46) = 7.76; score 8; 10 x 0.24 = 2.4 -> 2: 2808.
    ding = history(fide_year, DING)
    assert (ding["2023-09"].expected, ding["2023-09"].rating) == (Decimal("7.76"), 2808)
    # November: the file says 2795 and 2788, but the list of 1 November says Nepomniachtchi 2792,
    # Ding 2808. D = -16 -> .48 for Nepomniachtchi, .52 for Ding; a draw: +0.02 x 10 = +0.2 -> 0
    # and -0.2 -> 0.
    nepo = history(fide_year, NEPO)["2023-11"]
    (game,) = nepo.game_lines
    assert (game.own_rating, game.opponent_rating, game.expected) == (2792, 2808, Decimal("0.48"))
    assert (nepo.change, nepo.rounded_change, nepo.rating) == (Decimal("0.2"), 0, 2792)
    assert ding["2023-11"].change == Decimal("-0.2")
    # Rated 2400 or more: no adjustment on the list of 1 March 2024 [FIDE-PROP].
    assert history(fide_year, NEPO)["2024-02"].rating == 2792


def test_fide_club_player_then_the_march_2024_adjustment(fide_year: str) -> None:
    # "Player, 2", 1923 in the file, enters in January 2024 (FIDE 2022 rules, K 20: rated games
    # unknown, no birth year). Rated opponents (ratings in force at the start, here their files'):
    #  P11 1388: D 535 > 400, the largest: the one game capped (2022: one per event) -> 400 -> .92, won
    #  P7 1516: D 407 -> .92, won;  P1 2240: D -317 -> .13, won;  P5 1734: D 189 -> .75, lost.
    #  sum (S - PD) = .08 + .08 + .87 - .75 = 0.28; x 20 = 5.6 -> 6; 1923 + 6 = 1929.
    jan = row_of(fide_year, "2024-01", "Player, 2")
    assert (jan.rating_before, jan.k, jan.games, jan.rating) == (1923, 20, 4, 1929)
    # List of 1 March 2024: 1929 + 0.40 x (2000 - 1929) = 1929 + 28.4 -> 28 = 1957 [FIDE-PROP].
    march = row_of(fide_year, "2024-02", "Player, 2")
    assert (march.rating_before, march.adjustment, march.rating) == (1929, 28, 1957)


def test_fide_pooled_initial_rating_over_months(fide_year: str) -> None:
    # "Player, 9" is unrated. January 2024: 4 games against rated players (too few, B.02 7.1.4):
    #  P2 1923 won, P5 1734 draw, P3 1852 draw, P1 2240 draw (P6 is unrated: not counted).
    jan = row_of(fide_year, "2024-01", "Player, 9")
    assert (jan.status, jan.rating, jan.games) == ("pending", None, 4)
    # April 2024 (2024 rules): beats P2, 1957 on the list of 1 April. Pooled: 5 games, 3.5 points.
    #  Ra = (1923 + 1734 + 1852 + 2240 + 1957 + 2 x 1800) / 7 = 13306 / 7 = 1900.857...
    #  p = (3.5 + 1) / 7 = .643 -> .64 -> dp 102 (table 8.1.1); Ru = 2002.857 -> 2003.
    april = row_of(fide_year, "2024-04", "Player, 9")
    assert (april.status, april.rating, april.games) == ("new", 2003, 1)
    # The game against an unrated player does not count for P2 (B.02 8.3.1).
    assert row_of(fide_year, "2024-04", "Player, 2").rating == 1957


def test_fide_lists_every_month_and_one_published_version_each(fide_year: str) -> None:
    from chessrate.ratinglist.store import open_store

    engine = open_store(fide_year)
    with engine.connect() as connection:
        periods = list(
            connection.execute(
                select(list_versions.c.period)
                .where(list_versions.c.status == "published")
                .order_by(list_versions.c.period)
            ).scalars()
        )
        assert periods == [str(FIRST.minus_months(-i)) for i in range(MONTHS)]
        # Below the floor nobody stays listed with a rating.
        low = connection.execute(select(list_entries.c.rating).where(list_entries.c.rating < 1000)).all()
        assert low == []


def test_fide_adjustment_applied_once_and_only_on_the_march_2024_list(fide_year: str) -> None:
    from chessrate.ratinglist.store import open_store

    engine = open_store(fide_year)
    with engine.connect() as connection:
        adjusted = connection.execute(
            select(list_versions.c.period)
            .join(list_entries, list_entries.c.version_id == list_versions.c.id)
            .where(list_entries.c.adjustment.is_not(None))
            .distinct()
        ).all()
    assert [row.period for row in adjusted] == ["2024-02"]


@pytest.fixture(scope="module")
def ciabe_year(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("ciabe")
    url = str(tmp / "ciabe.db")
    build_year(url, tmp, rules="ciabe")
    return url


def test_ciabe_club_rules_over_the_year(ciabe_year: str) -> None:
    # [CIABE]: K 10 from 1825, no 400-point rule, rounded per tournament, no 1 March adjustment.
    # "Player, 2" 1923 in January: P11 D 535 -> .97; P7 407 -> .92; P1 -317 -> .13; P5 189 -> .75.
    #  .03 + .08 + .87 - .75 = 0.23; x 10 = 2.3 -> 2: 1925, and still 1925 on 1 March 2024.
    jan = row_of(ciabe_year, "2024-01", "Player, 2")
    assert (jan.k, jan.rating) == (10, 1925)
    assert row_of(ciabe_year, "2024-02", "Player, 2").adjustment is None
    assert row_of(ciabe_year, "2024-02", "Player, 2").rating == 1925
    # Nepomniachtchi: K 10 as under FIDE; one tournament, so 26.4 -> 26 either way: 2792.
    assert history(ciabe_year, NEPO)["2023-09"].rating == 2792
    # First ratings follow FIDE's rule of the day: Ra = (13306 - 1957 + 1925) / 7 = 1896.29,
    # p .64 -> dp 102: 1998.29 -> 1998.
    assert row_of(ciabe_year, "2024-04", "Player, 9").rating == 1998


@pytest.fixture(scope="module")
def glicko_year(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("glicko")
    url = str(tmp / "glicko.db")
    build_year(url, tmp, rules="glicko2")
    return url


def test_glicko2_list_over_the_year(glicko_year: str) -> None:
    # Step 1: everyone starts at 1500, RD 350, volatility 0.06. A lone drawn game between two
    # newcomers leaves both at 1500 (Delta = v g (s - E) = 0 when s = E = 0.5), with a smaller RD.
    line = history(glicko_year, NEPO)
    sept, october = line["2023-09"], line["2023-10"]
    assert sept.rating_before is None
    assert sept.games == 14
    # Step 6 for an idle period: RD* = sqrt(RD^2 + (173.7178 sigma)^2), rating and sigma unchanged.
    volatility = _volatility(glicko_year, "2023-09", NEPO)
    expected = (sept.deviation**2 + (173.7178 * volatility) ** 2) ** 0.5
    assert october.deviation == pytest.approx(expected, rel=1e-9)
    assert october.rating == sept.rating
    assert october.games == 0


def test_glicko2_period_is_the_whole_period_reference(glicko_year: str) -> None:
    # The store's list equals rate_whole_period on the same games (every player rated from the
    # ratings at the period's start).
    from chessrate.formats import read_tournament

    tournament = read_tournament(DATA / "pgn/candidates-2022.pgn").tournament
    games = [glicko2.PeriodGame(g.white, g.black, float(g.white_score or 0)) for g in tournament.played_games]
    after = glicko2.rate_whole_period({}, games, newcomer=glicko2.Glicko2Rating())
    nepo = next(p.number for p in tournament.players if str(p.fide_id) == NEPO)
    line = history(glicko_year, NEPO)["2023-09"]
    assert line.deviation == pytest.approx(after[nepo].deviation, rel=1e-12)
    assert line.rating == round(after[nepo].rating)


def test_draw_between_newcomers_keeps_1500(tmp_path: Path) -> None:
    engine = init_store(str(tmp_path / "g.db"), rules="glicko2")
    import_files(engine, [DATA / "pgn/nepomniachtchi-liren-game1.pgn"])
    run_period(engine, Period(2023, 4))
    rows = list_view(engine, "2023-04").rows
    assert [row.rating for row in rows] == [1500, 1500]
    assert all(row.deviation is not None and row.deviation < 350 for row in rows)


def _volatility(db: str, period: str, fide_id: str) -> float:
    from chessrate.ratinglist.schema import players
    from chessrate.ratinglist.store import open_store

    with open_store(db).connect() as connection:
        value = connection.execute(
            select(list_entries.c.volatility)
            .join(list_versions, list_versions.c.id == list_entries.c.version_id)
            .join(players, players.c.id == list_entries.c.player_id)
            .where(list_versions.c.period == period, players.c.fide_id == int(fide_id))
        ).scalar_one()
    return float(value)
