"""The calibration data: the Lichess CSV read as games (ratings kept apart) and the shipped evaluations.

Each row becomes a python-chess game with the tags ``chessrate strength`` reads (players,
``TimeControl`` from ``increment_code`` "minutes+seconds", result); the ratings are returned
beside the game, never written into it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from pathlib import Path

import chess
import chess.pgn
import numpy as np

from chessrate.analysis.accuracy import INITIAL_CP
from chessrate.analysis.games import GameAnalysis, build_analysis

#: The CSV's ``winner`` column as a PGN result.
RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}


def row_game(row: dict[str, str]) -> chess.pgn.Game:
    """One CSV row as a game (its moves, players, time control and result; no rating)."""
    board = chess.Board()
    for san in row["moves"].split():
        board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    minutes, _, seconds = row["increment_code"].partition("+")
    game.headers["Event"] = "Rated game"
    game.headers["Site"] = "https://lichess.org/" + row["id"]
    game.headers["White"] = row["white_id"]
    game.headers["Black"] = row["black_id"]
    game.headers["Result"] = RESULTS.get(row["winner"], "*")
    game.headers["TimeControl"] = f"{int(minutes) * 60}+{int(seconds)}"
    game.headers["Termination"] = row["victory_status"]
    return game


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def csv_games(path: Path) -> Iterator[tuple[dict[str, str], chess.pgn.Game]]:
    """(row, game) for every row of the file."""
    for row in read_rows(path):
        yield row, row_game(row)


# --- the shipped evaluations (data/lichess-calibration/evals.npz) ----------------------------------
#
# Per analysed game, every position of its main line (the start, then after each ply): White's score
# (``engine.score_to_int``) and the engine's best move, written as its index among the position's
# legal moves in UCI order (NO_MOVE where the game is over). Arrays: ``ids`` (game ids), ``offsets``
# (game i's positions are ``offsets[i]:offsets[i+1]``), ``scores`` (int32), ``best`` (uint8).

#: ``best`` of a position with no move (the game is over).
NO_MOVE = 255


def legal_ucis(board: chess.Board) -> list[str]:
    return sorted(move.uci() for move in board.legal_moves)


def encode_game(game: chess.pgn.Game, scores: list[int], bests: list[str]) -> list[int]:
    """The best moves of a game's positions as indices (``NO_MOVE`` for none)."""
    board = game.board()
    moves = list(game.mainline_moves())
    out = []
    for ply, best in enumerate(bests):
        out.append(legal_ucis(board).index(best) if best else NO_MOVE)
        if ply < len(moves):
            board.push(moves[ply])
    return out


def decode_game(game: chess.pgn.Game, indices: Sequence[int]) -> list[str]:
    """The inverse of ``encode_game``: the best moves as UCI ("" for none)."""
    board = game.board()
    moves = list(game.mainline_moves())
    out = []
    for ply, index in enumerate(indices):
        out.append("" if index == NO_MOVE else legal_ucis(board)[index])
        if ply < len(moves):
            board.push(moves[ply])
    return out


def write_evals(
    path: Path, games: Sequence[tuple[str, chess.pgn.Game, list[int], list[str]]], engine: str, setting: str
) -> None:
    """(id, game, White's scores, best moves) per game into ``path`` (numpy's compressed npz), with the
    engine's name and setting."""
    offsets = [0]
    scores: list[int] = []
    best: list[int] = []
    for _, game, game_scores, game_bests in games:
        scores.extend(game_scores)
        best.extend(encode_game(game, game_scores, game_bests))
        offsets.append(len(scores))
    np.savez_compressed(
        path,
        ids=np.array([g[0] for g in games]),
        offsets=np.array(offsets, dtype=np.int64),
        scores=np.array(scores, dtype=np.int32),
        best=np.array(best, dtype=np.uint8),
        engine=np.array(engine),
        setting=np.array(setting),
    )


def evals_engine(path: Path) -> tuple[str, str]:
    """The engine's name and setting recorded in ``write_evals``'s file."""
    with np.load(path) as data:
        return str(data["engine"]), str(data["setting"])


def read_evals(path: Path) -> dict[str, tuple[list[int], list[int]]]:
    """Game id -> (White's scores, best-move indices) from ``write_evals``'s file."""
    with np.load(path) as data:
        ids, offsets = data["ids"], data["offsets"]
        scores, best = data["scores"], data["best"]
        return {
            str(game_id): (
                scores[offsets[i] : offsets[i + 1]].tolist(),
                best[offsets[i] : offsets[i + 1]].tolist(),
            )
            for i, game_id in enumerate(ids)
        }


def engine_analysis(game: chess.pgn.Game, scores: list[int], bests: list[str]) -> GameAnalysis:
    """The game analysed from stored engine evaluations, as ``analyse_games`` builds it."""
    scores = list(scores)
    if game.board().fen() == chess.STARTING_FEN:
        scores[0] = INITIAL_CP  # as analyse_games does (lila's Cp.initial)
    return build_analysis(game, scores, bests, "engine")
