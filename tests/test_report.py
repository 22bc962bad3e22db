"""Every player's rating change from real tournament files, checked by hand against table 8.1.2."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from chessrate.formats import read_tournament
from chessrate.systems.elo.presets import resolve_rule_set
from chessrate.systems.fide.performance import InitialOutcome
from chessrate.tournament.report import TournamentReport, report_tournament

DATA = Path(__file__).parent / "data"
D = Decimal


def _report(path: str, day: dt.date, **kwargs: Any) -> TournamentReport:
    read = read_tournament(DATA / path)
    return report_tournament(read, rules=resolve_rule_set("fide", as_of=day), as_of=day, **kwargs)


def _player(report: TournamentReport, name: str) -> Any:
    return next(p for p in report.players if p.name.startswith(name))


CANDIDATES = "pgn/candidates-2022.pgn"


def test_candidates_2022_nepomniachtchi_by_hand() -> None:
    # Nepomniachtchi 2766, 9.5/14, each opponent twice (table 8.1.2, H/L by sign):
    # Duda 2750 (D +16 -> .52), Rapport 2764 (+2 -> .50), Ding 2806 (-40 -> .44), Caruana 2783
    # (-17 -> .48), Nakamura 2760 (+6 -> .51), Radjabov 2753 (+13 -> .52), Firouzja 2793 (-27 -> .46):
    # sum 3.43 x 2 = 6.86; K 10 (rated 2400+); 10 x (9.5 - 6.86) = +26.4 -> 2792.
    nepo = _player(_report(CANDIDATES, dt.date(2022, 6, 17)), "Nepomniachtchi")
    assert (nepo.rating, nepo.games, nepo.score, nepo.expected) == (2766, 14, D("9.5"), D("6.86"))
    assert (nepo.k.k, nepo.change, nepo.rounded_change, nepo.new_rating) == (10, D("26.4"), 26, 2792)
    assert nepo.fide_id == 4168119


def test_candidates_2022_duda_by_hand() -> None:
    # Duda 2750, 5.5/14: Rapport -14 .48, Ding -56 .42, Nepomniachtchi -16 .48, Caruana -33 .45,
    # Nakamura -10 .49, Radjabov -3 .50, Firouzja -43 .44: 3.26 x 2 = 6.52; 10 x (5.5 - 6.52) = -10.2.
    duda = _player(_report(CANDIDATES, dt.date(2022, 6, 17)), "Duda")
    assert (duda.expected, duda.change, duda.new_rating) == (D("6.52"), D("-10.2"), 2740)


FIDE_EXAMPLE = "trf/fide-example.trf"


@pytest.mark.parametrize(
    ("day", "expected", "change", "capped"),
    [(dt.date(2025, 1, 1), "6.08", "-0.8", 3), (dt.date(2023, 1, 1), "6.11", "-1.1", 1)],
    ids=["cap-every-game-2024", "cap-one-game-2022"],
)
def test_fide_example_vasquez_by_hand(day: dt.date, expected: str, change: str, capped: int) -> None:
    # Line 14: Vasquez 2558, 6/7 against 1895, 2079, 2149, 2302, 2346 (wins), 2251, 2219 (draws).
    # Differences 663, 479, 409, 256, 212, 307, 339. With the cap on every game (2024): .92 x 3, .81,
    # .77, .86, .88 = 6.08; 10 x (6 - 6.08) = -0.8. With one upgrade per tournament (2022), only
    # 663 is capped: .92, .95 (479), .92 (409), .81, .77, .86, .88 = 6.11 -> -1.1.
    vasquez = _player(_report(FIDE_EXAMPLE, day), "Vasquez")
    assert (vasquez.expected, vasquez.change, vasquez.capped_games) == (D(expected), D(change), capped)


def test_unrated_player_gets_a_reason_or_an_initial_rating() -> None:
    report = _report(FIDE_EXAMPLE, dt.date(2025, 1, 1))
    engel = _player(report, "Engel")
    assert engel.rating is None
    assert engel.games_against_unrated == 3
    assert engel.initial is not None
    assert engel.initial.rating is None
    # B.02 7.1.4 (2024): a first rating needs at least 5 games against rated opponents.
    assert engel.initial.outcome is InitialOutcome.TOO_FEW_GAMES
    assert any(p.initial is not None and p.initial.rating is not None for p in report.players)


def test_k_given_per_player_overrides_the_rules() -> None:
    report = _report(CANDIDATES, dt.date(2022, 6, 17), k_by_player={"4168119": 20})
    assert _player(report, "Nepomniachtchi").change == D("52.8")


def test_cli_report_formats(cli: Any, tmp_path: Path) -> None:
    path = str(DATA / CANDIDATES)
    data = cli("report", path, "--format", "json").json()
    assert {"start_number", "name", "fide_id", "rating", "k", "games", "score", "expected", "change",
            "new_rating"} <= set(data["players"][0])  # fmt: skip
    assert data["warnings"] == []
    csv_out = cli("report", path, "--format", "csv").out.splitlines()
    assert csv_out[0].startswith("start_number,name,fide_id")
    assert len(csv_out) == 9
    assert "<table>" in cli("report", path, "--format", "html").out
    assert "2792" in cli("report", path).out  # Nepomniachtchi's new rating
    k_file = tmp_path / "k.csv"
    k_file.write_text("player,k\n4168119,20\n", encoding="utf-8")
    with_k = cli("report", path, "--k-file", str(k_file), "--format", "json").json()
    assert next(p for p in with_k["players"] if p["fide_id"] == 4168119)["change"] == 52.8


def test_cli_report_errors(cli: Any, tmp_path: Path) -> None:
    broken = tmp_path / "broken.trf"
    broken.write_bytes((DATA / "trf/swiss-9-rounds.trf").read_bytes().replace(b" 1 ", b" 7 ", 1))
    lenient = cli("report", str(broken), "--format", "json")
    assert lenient.code == 0
    strict = cli("report", str(broken), "--strict")
    assert strict.code == 2
    assert "line" in strict.err
    assert cli("report", str(tmp_path / "missing.trf")).code == 2
    assert cli("report", str(DATA / CANDIDATES), "--format", "xml").code == 2
    bad_k = tmp_path / "k.csv"
    bad_k.write_text("id,k\n1,20\n", encoding="utf-8")
    run = cli("report", str(DATA / CANDIDATES), "--k-file", str(bad_k))
    assert (run.code, "--k-file" in run.err) == (2, True)
