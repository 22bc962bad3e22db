"""FIDE's list on the command line (issue 17): ``report --players-list``, ``list import-fide`` then a run.

The lists are written for these tests in FIDE's layout (made-up K values for real FIDE ids, so that
the K used can only have come from the list): see tests/data/fide-list and docs/fide-list.md.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

from chessrate.formats import read_tournament
from chessrate.formats.fide_list import ListType
from chessrate.formats.fide_list_synthetic import SyntheticEntry, write_txt

from .ratinglist_support import DATA

CANDIDATES = DATA / "pgn/candidates-2022.pgn"
EXAMPLE = DATA / "trf/fide-example.trf"
K_CYCLE = (40, 20, 10)


def write_list(
    path: Path, tournament: Path, *, list_type: ListType | None = None, shift: int = 0
) -> dict[int, int]:
    """A FIDE list of the tournament's players, K 40, 20, 10 in turn; returns K by FIDE id."""
    read = read_tournament(tournament)
    entries, ks = [], {}
    for index, player in enumerate(p for p in read.tournament.players if p.fide_id):
        assert player.fide_id is not None
        k = K_CYCLE[index % 3]
        ks[player.fide_id] = k
        rating = player.rating + shift if player.rating else None
        entries.append(
            SyntheticEntry(
                fide_id=player.fide_id,
                name=player.name,
                federation="FID",
                sex="M",
                lists=dict.fromkeys(("standard", "rapid", "blitz"), (rating, 3, k)),
                birth_year=1980,
            )
        )
    with path.open("wb") as handle:
        write_txt(handle, entries, list_type=list_type, month=dt.date(2022, 6, 1))
    return ks


def test_report_of_the_2005_example_with_a_players_list(cli: Any, tmp_path: Path) -> None:
    listed = tmp_path / "players_list_foa.txt"
    ks = write_list(listed, EXAMPLE)
    run = cli("report", str(EXAMPLE), "--players-list", str(listed), "--format", "json")
    assert run.code == 0, run.err
    body = run.json()
    assert body["warnings"][0].startswith("rules: the tournament is of 2005-07-28, before 2008-07-01")
    assert (body["players_list"], body["list_type"]) == ("players_list_foa.txt", "standard")
    rated = [p for p in body["players"] if p["rating"] is not None and p["games"]]
    assert {p["k"] for p in rated} == {40, 20, 10}
    for player in rated:
        assert (player["k"], player["k_source"]) == (ks[player["fide_id"]], "fide-list")
        assert player["k_explanation"] == f"K {player['k']}, from FIDE’s standard rating list."
        change = player["k"] * (Decimal(str(player["score"])) - Decimal(str(player["expected"])))
        assert Decimal(str(player["change"])) == change
    table = cli("report", str(EXAMPLE), "--players-list", str(listed))
    assert "fide-list" in table.out
    assert "warning: rules: the tournament is of 2005-07-28" in table.err


def test_report_list_errors_name_the_options(cli: Any, tmp_path: Path) -> None:
    single = tmp_path / "standard_jun22frl.txt"
    write_list(single, EXAMPLE, list_type="standard")
    wrong = cli("report", str(EXAMPLE), "--players-list", str(single), "--list-type", "rapid")
    assert (wrong.code, wrong.err.count("\n")) == (2, 1)
    assert "invalid --list-type 'rapid'" in wrong.err
    bad = cli("report", str(EXAMPLE), "--players-list", str(EXAMPLE))
    assert bad.code == 2
    assert "invalid --players-list" in bad.err
    assert "not a FIDE rating list" in bad.err
    assert cli("report", str(EXAMPLE), "--list-type", "bullet").err.startswith(
        "chessrate: error: invalid --list-type 'bullet'"
    )
    no_k = cli("report", str(CANDIDATES), "--rules", "elo")
    assert (no_k.code, no_k.err.strip()) == (
        2,
        "chessrate: error: missing --k: the rule set 'elo' has no rule for K, so K must be given",
    )
    with_k = cli("report", str(CANDIDATES), "--rules", "elo", "--k", "20", "--format", "json").json()
    assert {(p["k"], p["k_source"]) for p in with_k["players"]} == {(20, "given")}


def test_import_fide_then_a_period_run_uses_the_lists_k(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "national.db")
    listed = tmp_path / "standard_jun22frl.txt"
    ks = write_list(listed, CANDIDATES, list_type="standard")
    assert cli("list", "init", "--db", db).code == 0
    assert cli("list", "import", str(CANDIDATES), "--db", db).code == 0
    imported = cli("list", "import-fide", str(listed), "--db", db, "--json")
    assert imported.code == 0, imported.err
    assert imported.json()["imported"] | {"file": "-", "warnings": []} == {
        "list_type": "standard", "month": "2022-06", "file": "-", "players": 8, "new_players": 0,
        "refreshed_players": 8, "already_imported": False, "warnings": [],
    }  # fmt: skip
    again = cli("list", "import-fide", str(listed), "--db", db, "--json").json()["imported"]
    assert again["already_imported"]
    run = cli("list", "run", "2022-07", "--db", db, "--json")
    assert run.code == 0, run.err
    player_ids = {p["fide_id"]: p for p in cli("list", "show", "--db", db, "--json").json()["players"]}
    for fide_id, k in ks.items():
        history = cli("list", "player", str(fide_id), "--db", db, "--json").json()
        line = history["history"][0]
        assert (line["k"], player_ids[fide_id]["k"]) == (k, k)
        assert (line["k_reason"], line["k_params"]) == ("k-fide-list-in-force", {})
        change = Decimal(str(line["change"]))
        assert change == k * (Decimal(str(line["score"])) - Decimal(str(line["expected"])))
        assert history["fide_ratings"][0] | {"file": "-"} == {
            "list_type": "standard", "month": "2022-06", "rating": player_ids[fide_id]["previous"],
            "games": 3, "k": k, "flag": "", "file": "-",
        }  # fmt: skip


def test_a_newer_fide_list_keeps_both_months(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "national.db")
    june = tmp_path / "standard_jun22frl.txt"
    july = tmp_path / "standard_jul22frl.txt"
    ks = write_list(june, CANDIDATES, list_type="standard")
    read = read_tournament(CANDIDATES)
    entries = [
        SyntheticEntry(
            fide_id=p.fide_id or 0,
            name=p.name,
            federation="FID",
            sex="M",
            lists={"standard": ((p.rating or 0) + 5, 0, 10)},
            birth_year=1980,
        )
        for p in read.tournament.players
    ]
    with july.open("wb") as handle:
        write_txt(handle, entries, list_type="standard", month=dt.date(2022, 7, 1))
    cli("list", "init", "--db", db)
    assert cli("list", "import-fide", str(june), "--db", db).code == 0
    assert cli("list", "import-fide", str(july), "--db", db).code == 0
    nepo = cli("list", "player", "4168119", "--db", db, "--json").json()
    assert [(line["month"], line["rating"], line["k"]) for line in nepo["fide_ratings"]] == [
        ("2022-07", 2771, 10),
        ("2022-06", 2766, ks[4168119]),
    ]
    assert (
        "FIDE standard list of 2022-07: rating 2771, K 10" in cli("list", "player", "4168119", "--db", db).out
    )
