"""Rule sets never mix silently in a list: a run whose rules differ from the store's default or from
the lists it continues or replaces needs ``--rules`` and says so; ``list show`` names each list's rules."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import func, select

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import list_versions
from chessrate.ratinglist.store import StoreError, init_store

from .ratinglist_support import DATA

SWISS = DATA / "trf/swiss-9-rounds.trf"
UNPLAYED = DATA / "trf/swiss-unplayed-rounds.trf"
MAY, JUNE = Period(2024, 5), Period(2024, 6)


def versions(engine: Any) -> int:
    with engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(list_versions)).scalar_one())


def two_months(db: str, default: str | None = None) -> Any:
    engine = init_store(db, rules=default)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    import_files(engine, [UNPLAYED], start=dt.date(2024, 6, 8))
    return engine


def test_named_rules_other_than_the_default_are_applied_and_said(db: str) -> None:
    engine = two_months(db)  # default: fide
    report = run_period(engine, MAY, rules="ciabe")
    assert report.rules == "ciabe"
    assert report.notes == ("rules 'ciabe' differ from the store's default 'fide'",)


def test_a_rerun_without_rules_does_not_fall_back_to_the_default(db: str) -> None:
    engine = two_months(db)
    run_period(engine, MAY, rules="ciabe")
    before = versions(engine)
    for republish in (False, True):
        with pytest.raises(StoreError, match=r"2024-05 was computed with 'ciabe', not 'fide'.*--rules"):
            run_period(engine, MAY, republish=republish)
    assert versions(engine) == before  # nothing written


def test_the_next_period_without_rules_is_refused_too(db: str) -> None:
    engine = two_months(db)
    run_period(engine, MAY, rules="ciabe")
    with pytest.raises(StoreError, match="period 2024-05 was computed with 'ciabe'"):
        run_period(engine, JUNE)
    report = run_period(engine, JUNE, rules="ciabe")
    assert report.periods[0].status == "published"
    assert report.notes == ("rules 'ciabe' differ from the store's default 'fide'",)


def test_changing_the_rules_of_a_list_is_allowed_by_name_and_said(db: str) -> None:
    engine = two_months(db)
    run_period(engine, MAY, rules="ciabe")
    report = run_period(engine, MAY, rules="fide", republish=True)
    assert report.notes == ("the list of period 2024-05 was computed with 'ciabe', not 'fide'",)
    assert [run.status for run in report.periods] == ["published"]


def test_the_stores_own_default_needs_no_rules(db: str) -> None:
    engine = two_months(db, default="ciabe")
    assert run_period(engine, MAY).notes == ()
    assert run_period(engine, JUNE).notes == ()
    assert run_period(engine, MAY, rules="CIABE").notes == ()  # names are not case-sensitive


def test_cli_says_which_rules_and_refuses_a_silent_change(cli: Any, tmp_path: Any) -> None:
    db = str(tmp_path / "club.db")
    assert cli("list", "init", "--db", db).code == 0
    assert cli("list", "import", "--db", db, str(SWISS), "--start", "2024-05-04").code == 0
    ran = cli("list", "run", "--db", db, "2024-05", "--rules", "ciabe")
    assert ran.code == 0
    assert "note: rules 'ciabe' differ from the store's default 'fide'" in ran.err
    shown = cli("list", "show", "--db", db, "2024-05")
    assert "rules ciabe" in shown.out
    assert cli("list", "show", "--db", db, "2024-05", "--json").json()["rules"] == "ciabe"
    refused = cli("list", "run", "--db", db, "2024-05", "--republish")
    assert refused.code == 2
    assert refused.out == ""
    lines = refused.err.strip().splitlines()
    assert len(lines) == 1
    assert "--rules" in lines[0]
    assert "'ciabe'" in lines[0]
