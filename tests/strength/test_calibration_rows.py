"""The refit reads each calibration row's moves as the file writes them (its SAN taken as given,
the board only resolving each move to its squares): the same features, opening plies and
measures as the game python-chess reads and writes out again (``engine_analysis(row_game(row))``),
without python-chess writing a SAN. The file's SAN is disambiguated more than python-chess's in
some moves (game P8j1Sblw: "Rad1+" for "Rd1+")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import chess
import pytest

from chessrate.analysis.games import GameAnalysis
from chessrate.strength.book import opening_plies
from chessrate.strength.calibration import engine_analysis, read_evals, read_rows, row_analysis, row_game
from chessrate.strength.features import game_features

DATA = Path(__file__).resolve().parents[2] / "data" / "lichess-calibration"
#: A game whose SAN says more than it needs (its knights and rooks), and the first rows of the file.
OVERSAID = "P8j1Sblw"
FIRST = 150


def _without_san(analysis: GameAnalysis) -> GameAnalysis:
    return dataclasses.replace(analysis, moves=tuple(dataclasses.replace(m, san="") for m in analysis.moves))


def _features(analysis: GameAnalysis) -> str:
    # repr: the features hold NaNs, which == never finds equal; repr writes every float exactly.
    return repr((game_features(analysis), opening_plies(analysis)))


def test_a_row_read_from_its_own_san_is_the_game_python_chess_writes_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    evals = read_evals(DATA / "evals.npz")
    everyone = read_rows(DATA / "calibration.csv")
    rows = [row for row in everyone[:FIRST] if row["id"] in evals]
    rows += [row for row in everyone if row["id"] == OVERSAID]
    assert len(rows) > FIRST // 2
    assert rows[-1]["id"] == OVERSAID
    read = [engine_analysis(row_game(row), *evals[row["id"]]) for row in rows]

    def no_san(*_: object) -> str:
        raise AssertionError("python-chess wrote a SAN")

    monkeypatch.setattr(chess.Board, "san", no_san)
    given = [row_analysis(row, *evals[row["id"]]) for row in rows]

    assert [_features(a) for a in given] == [_features(a) for a in read]
    assert [_without_san(a) for a in given] == [_without_san(a) for a in read]
    # The SAN is the file's: python-chess's but for the moves it says with more than it needs.
    for ours, theirs in zip(read[:-1], given[:-1], strict=True):
        assert [m.san for m in theirs.moves] == [m.san for m in ours.moves]
    pairs = zip(read[-1].moves, given[-1].moves, strict=True)
    assert ("Rd1+", "Rad1+") in {(m.san, n.san) for m, n in pairs if m.san != n.san}
