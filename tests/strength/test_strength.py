"""The shipped estimator: data only, the moves alone (never the ratings), intervals that narrow."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from chessrate.analysis import Setting, analyse_games
from chessrate.errors import InvalidInputError
from chessrate.strength import SCALE, load_model, player_estimates
from chessrate.strength.features import FEATURES, feature_row, time_control
from chessrate.strength.model import FIDE_SCALE, MODEL_DIR

LICHESS = Path(__file__).parents[1] / "data" / "pgn" / "lichess-export.pgn"


@pytest.fixture(scope="module")
def short_games() -> list[chess.pgn.Game]:
    with LICHESS.open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return sorted(games, key=lambda g: len(list(g.mainline_moves())))[:2]


def test_the_model_is_data_that_runs_no_code():
    assert sorted(p.name for p in MODEL_DIR.iterdir()) == ["model.json", "model.txt"]
    text = (MODEL_DIR / "model.txt").read_text(encoding="ascii")
    assert text.startswith("tree\n")  # LightGBM's text format: numbers, no pickle
    meta = json.loads((MODEL_DIR / "model.json").read_text(encoding="utf-8"))
    assert meta["features"] == list(FEATURES)
    assert meta["kinds"]["online"]["scale"] == SCALE
    assert meta["kinds"]["otb"]["scale"] == FIDE_SCALE
    assert meta["engine"] == "Stockfish 15.1"
    assert meta["setting"] == Setting(depth=8).key


def test_the_interval_narrows_with_the_number_of_games(short_games):
    model = load_model()
    analysis = analyse_games(short_games[1:], setting=Setting(depth=model.depth))[0]
    row = feature_row(analysis, chess.WHITE)
    for kind in ("online", "otb"):
        estimates = [model.estimate([row] * n, kind) for n in (1, 5, 25)]
        lows = [-math.inf if e.low is None else e.low for e in estimates]
        highs = [math.inf if e.high is None else e.high for e in estimates]
        # The same evidence, more often: the interval never widens, and 25 games narrow it (an open
        # end stays open when the evidence is beyond the fit's reach; the closed one then moves in).
        assert lows == sorted(lows), kind
        assert highs == sorted(highs, reverse=True), kind
        assert lows[2] > lows[0] or highs[2] < highs[0], kind
        for e in estimates:
            assert e.low is None or e.low <= e.estimate
            assert e.high is None or e.estimate <= e.high


def _strip_and_falsify(game: chess.pgn.Game, white: str | None, black: str | None) -> chess.pgn.Game:
    copy = chess.pgn.read_game(io.StringIO(str(game)))
    assert copy is not None
    for tag, value in (("WhiteElo", white), ("BlackElo", black)):
        if value is None:
            copy.headers.pop(tag, None)
        else:
            copy.headers[tag] = value
    return copy


def test_ratings_in_the_file_are_never_read(short_games, tmp_path):
    setting = Setting(depth=load_model().depth)
    cache = tmp_path / "evals.sqlite"  # the same positions: searched once
    base = player_estimates(analyse_games(short_games, setting=setting, cache_path=cache))
    stripped = [_strip_and_falsify(g, None, None) for g in short_games]
    falsified = [_strip_and_falsify(g, "800", "2900") for g in short_games]
    assert {g.headers["WhiteElo"] for g in falsified} == {"800"}
    for variant in (stripped, falsified):
        assert player_estimates(analyse_games(variant, setting=setting, cache_path=cache)) == base
    for estimate in base:
        assert estimate.estimate.games == 1
        assert math.isfinite(estimate.estimate.estimate)


def test_features_come_from_the_moves(short_games):
    analysis = analyse_games(short_games[:1], setting=Setting(depth=4))[0]
    row = feature_row(analysis, chess.WHITE)
    named = dict(zip(FEATURES, row, strict=True))
    assert named["white"] == 1.0
    assert named["moves"] == analysis.white.moves
    assert named["acpl"] == pytest.approx(analysis.white.acpl)
    assert named["opponent_accuracy"] == pytest.approx(analysis.black.accuracy)
    assert (named["clock_base"], named["clock_increment"]) == time_control(analysis.headers["TimeControl"])


def test_time_control():
    assert time_control("600+5") == (600.0, 5.0)
    assert all(math.isnan(v) for v in time_control("-"))
    assert all(math.isnan(v) for v in time_control("40/7200:20/3600"))
    assert all(math.isnan(v) for v in time_control(None))


def test_unknown_player_is_an_error(short_games):
    analyses = analyse_games(short_games[:1], setting=Setting(depth=4))
    with pytest.raises(InvalidInputError, match="player"):
        player_estimates(analyses, "nobody")


def test_strength_cli_json_keys(cli: Any, tmp_path: Path, short_games) -> None:
    path = tmp_path / "two.pgn"
    path.write_text("\n\n".join(str(g) for g in short_games) + "\n", encoding="utf-8")
    name = short_games[0].headers["White"]
    cache = str(tmp_path / "evals.sqlite")
    run = cli("strength", str(path), "--player", name.upper(), "--json", "--cache", cache)
    assert run.code == 0, run.err
    data = run.json()
    keys = {"player", "estimate", "low", "high", "games", "scale", "kind", "kind_reason", "reach", "fide_low"}
    assert keys <= set(data)
    # A Lichess export: TimeControl of one period under 1,500 s.
    assert data["kind"] == "online"
    assert "TimeControl" in data["kind_reason"]
    assert "POOLS-MT88" in data["fide_conversion"]
    if data["low"] is not None:
        # Carried to FIDE by [POOLS-MT88]: 0.8399 x Lichess blitz + 179.89, and FIDE's 2024 adjustment.
        low_fit = 0.8399 * data["low"] + 179.89
        assert data["fide_low"] == round(min(low_fit, low_fit + 0.4 * max(0.0, 2000 - low_fit)))
    else:
        assert data["fide_low"] is None
        assert data["reach"].startswith("open below")
    if data["high"] is None:
        assert data["fide_high"] is None
        assert "open above" in data["reach"]
    assert data["player"] == name
    assert data["games"] == 1
    otb = cli("strength", str(path), "--player", name, "--json", "--cache", cache, "--kind", "otb").json()
    assert otb["kind"] == "otb"
    assert otb["scale"] == FIDE_SCALE
    assert (otb["fide_low"], otb["fide_high"]) == (otb["low"], otb["high"])
    everyone = cli("strength", str(path), "--json", "--cache", cache).json()
    assert len(everyone["players"]) == 4
    table = cli("strength", str(path), "--cache", cache)
    assert "80% interval" in table.out
    assert "Lichess" in table.out
    assert "kind of game" in table.out
    unknown = cli("strength", str(path), "--player", "nobody", "--cache", cache)
    assert unknown.code == 2
    assert "player" in unknown.err
    bad = cli("strength", str(path), "--kind", "blitz", "--cache", cache)
    assert bad.code == 2
    assert "kind" in bad.err
    assert "blitz" in bad.err


def test_the_terminal_says_at_least_and_at_most() -> None:
    from chessrate.cli.strength_commands import interval_text

    assert interval_text(2400, None) == "at least 2400"
    assert interval_text(None, 1100) == "at most 1100"
    assert interval_text(1450, 1900) == "1450 – 1900"
