"""``chessrate analyse`` on real Lichess games with [%eval] comments, and its errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chessrate.cli.strength_commands import evaluation_graph

EVALS = Path(__file__).parent / "data" / "lichess-export-evals.pgn"


def test_analyse_json_uses_the_pgn_evaluations(cli: Any) -> None:
    run = cli("analyse", str(EVALS), "--json")
    assert run.code == 0, run.err
    data = run.json()
    assert {"file", "engine", "setting", "positions", "searched", "cache_hit_rate", "games"} <= set(data)
    assert data["searched"] == 0
    assert len(data["games"]) == 17
    first = data["games"][0]
    assert first["source"] == "pgn"
    assert (first["white"]["name"], first["black"]["name"], first["result"]) == (
        "indianstar",
        "varunvar",
        "1-0",
    )
    assert len(first["moves"]) == 37
    assert first["moves"][0] == {
        "ply": 1,
        "san": "Nf3",
        "cp": 26,  # the file's [%eval 0.26]
        "mate": None,
        "white_win_percent": 52.39,  # 100 / (1 + e^(-0.00368208 * 26)), bc -l: 52.3915...
        "accuracy": 100.0,
        "cp_loss": 0,
        "judgement": None,
    }
    white = first["white"]
    assert white["moves"] == 19
    assert white["blunders"] == sum(m["judgement"] == "blunder" for m in first["moves"][0::2])


def test_analyse_table_and_graph(cli: Any) -> None:
    run = cli("analyse", str(EVALS))
    assert run.code == 0, run.err
    assert "accuracy %" in run.out
    assert "ACPL" in run.out
    assert "White's win%, 37 plies" in run.out


def test_evaluation_graph_marks_the_middle_and_fits_the_width() -> None:
    graph = evaluation_graph([50.0, 100.0, 0.0] * 100, width=60)
    lines = graph.splitlines()
    assert len(lines) == 9
    assert lines[0].startswith("100%")
    assert all(len(line) <= 6 + 60 + 40 for line in lines)
    assert evaluation_graph([]) == ""


def test_bad_input_is_one_line_and_exit_2(cli: Any, tmp_path: Path) -> None:
    missing = cli("analyse", str(tmp_path / "none.pgn"))
    assert missing.code == 2
    assert missing.err.count("\n") == 1
    assert "file" in missing.err
    bad = tmp_path / "bad.pgn"
    bad.write_text('[White "a"]\n\n1. e4 e4 *\n', encoding="utf-8")
    run = cli("analyse", str(bad))
    assert run.code == 2
    assert "game 1" in run.err
    assert run.err.count("\n") == 1  # python-chess's own log of the illegal move is not shown
    depth = cli("analyse", str(EVALS), "--depth", "99")
    assert depth.code == 2
    assert "depth" in depth.err
    scheduler = cli("analyse", str(EVALS), "--scheduler", "nowhere")
    assert scheduler.code == 2
    assert "scheduler" in scheduler.err


def test_a_cache_that_cannot_be_used_is_one_line_naming_it(cli: Any, tmp_path: Path) -> None:
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("not a database, " * 100, encoding="utf-8")
    for cache, why in (
        (tmp_path / "no" / "such" / "cache.sqlite", "its folder does not exist or cannot be written"),
        (not_sqlite, "not a SQLite file"),
    ):
        run = cli("analyse", str(EVALS), "--cache", str(cache))
        assert run.code == 2
        assert run.err.count("\n") == 1
        assert f"invalid --cache '{cache}'" in run.err
        assert why in run.err
