"""``chessrate list ...`` through the command line: JSON out, one-line errors with exit code 2."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from .ratinglist_support import DATA

CANDIDATES = str(DATA / "pgn/candidates-2022.pgn")
NEPO_GAME = str(DATA / "pgn/nepomniachtchi-liren-game1.pgn")


def test_list_workflow(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    assert cli("list", "init", "--db", db, "--json").code == 0
    imported = cli("list", "import", CANDIDATES, NEPO_GAME, "--db", db, "--json")
    assert imported.code == 0, imported.err
    assert [e["period"] for e in imported.json()["imported"]] == ["2022-07", "2023-04"]

    # Ciabe rules; the Candidates (17 June - 4 July 2022) are rated in 2022-07 from the files' ratings.
    run = cli("list", "run", "2022-07", "--db", db, "--rules", "ciabe", "--json")
    assert run.code == 0, run.err
    assert run.json()["periods"][0]["status"] == "published"

    shown = cli("list", "show", "--db", db, "--json").json()
    assert shown["list_date"] == "2022-08-01"
    nepo = next(p for p in shown["players"] if p["fide_id"] == 4168119)
    # 2766 + 10 x (9.5 - 6.86) = 2792.4 -> 2792 (see test_year.py for the game-by-game working)
    assert (nepo["previous"], nepo["rating"], nepo["change"], nepo["k"]) == (2766, 2792, 26, 10)

    player = cli("list", "player", "4168119", "--db", db, "--json").json()
    assert player["history"][0]["games_rated"][0]["expected"] == 0.44  # D -40 vs Ding: table .44

    exported = cli("list", "export", "2022-07", "--db", db, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(exported.out)))
    assert rows[0]["rank"] == "1"
    assert len(rows) == 8
    assert cli("list", "export", "2022-07", "--db", db, "--format", "json").json()["period"] == "2022-07"
    assert len(cli("list", "events", "--db", db, "--json").json()["events"]) == 2


def test_duplicate_import_exits_2_with_one_line(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    cli("list", "init", "--db", db)
    assert cli("list", "import", CANDIDATES, "--db", db).code == 0
    again = cli("list", "import", CANDIDATES, "--db", db)
    assert again.code == 2
    assert again.err.count("\n") == 1
    assert "already imported" in again.err


def test_errors_name_the_field(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    assert "create it with chessrate list init" in cli("list", "show", "--db", db).err
    cli("list", "init", "--db", db)
    cases = [
        (("list", "run", "2024-13", "--db", db), "invalid period '2024-13'"),
        (("list", "run", "2024-01", "--db", db, "--rules", "nope"), "unknown rule set 'nope'"),
        (("list", "show", "2024-01", "--db", db), "period 2024-01 has no published list"),
        (("list", "player", "abc", "--db", db), "invalid player 'abc'"),
        (("list", "export", "2024-01", "--db", db, "--format", "xml"), "invalid format 'xml'"),
        (("list", "import", CANDIDATES, "--db", db, "--start", "5 May"), "invalid --start '5 May'"),
        (("list", "import", str(DATA / "pgn/kasparov-deep-blue-1997.pgn"), "--db", db), "invalid start"),
    ]
    for args, message in cases:
        result = cli(*args)
        assert result.code == 2, (args, result.err)
        assert message in result.err, (args, result.err)


def test_demo_builds_a_list_from_the_shipped_files(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "demo.db")
    assert cli("list", "demo", "--db", db, "--json").json()["periods"] == "2025-09 to 2026-02"
    shown = cli("list", "show", "--db", db, "--json").json()
    assert shown["list_date"] == "2026-03-01"
    assert len(shown["players"]) > 50
    assert cli("list", "demo", "--db", db).code == 2  # not on a store that holds events


def test_list_run_with_the_rapid_rules_of_2022(cli: Any, tmp_path: Path) -> None:
    """``--rules fide-rapid``: the rapid and blitz chapter in force on 1 July 2022, K 20 for every
    player [SCAC] where the standard rules give Nepomniachtchi (2766, above 2400) K 10:
    2766 + 20 x (9.5 - 6.86) = 2818.8 -> 2819 (14 games: 20 x 14 <= 700, no cut)."""
    db = str(tmp_path / "rapid.db")
    assert cli("list", "init", "--db", db, "--json").code == 0
    assert cli("list", "import", CANDIDATES, "--db", db, "--json").code == 0
    run = cli("list", "run", "2022-07", "--db", db, "--rules", "fide-rapid", "--json")
    assert run.code == 0, run.err
    assert run.json()["rules_title"] == "FIDE rapid and blitz 2022-01-01 (in force on 2022-07-01)"
    shown = cli("list", "show", "--db", db, "--json").json()
    nepo = next(p for p in shown["players"] if p["fide_id"] == 4168119)
    assert (nepo["previous"], nepo["rating"], nepo["k"]) == (2766, 2819, 20)
    assert {p["k"] for p in shown["players"] if p["k"] is not None} == {20}
