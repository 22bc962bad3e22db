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
from chessrate.analysis.games import GameAnalysis, analysis_of_moves, build_analysis

#: The CSV's ``winner`` column as a PGN result.
RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}


def row_tags(row: dict[str, str]) -> dict[str, str]:
    """One CSV row's tags, as :func:`row_game` writes them (the Seven Tag Roster first)."""
    headers = chess.pgn.Headers()
    minutes, _, seconds = row["increment_code"].partition("+")
    headers["Event"] = "Rated game"
    headers["Site"] = "https://lichess.org/" + row["id"]
    headers["White"] = row["white_id"]
    headers["Black"] = row["black_id"]
    headers["Result"] = RESULTS.get(row["winner"], "*")
    headers["TimeControl"] = f"{int(minutes) * 60}+{int(seconds)}"
    headers["Termination"] = row["victory_status"]
    return dict(headers)


def row_game(row: dict[str, str]) -> chess.pgn.Game:
    """One CSV row as a game (its moves, players, time control and result; no rating)."""
    board = chess.Board()
    for san in row["moves"].split():
        board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    game.headers.update(row_tags(row))
    return game


def scores_from(start: chess.Board, scores: Sequence[int]) -> list[int]:
    """White's stored scores of a game from ``start``, the first lila's ``Cp.initial`` when that is
    the standard position (as ``analyse_games`` does): :func:`row_analysis` and
    :func:`engine_analysis` both take them so.

    >>> scores_from(chess.Board(), [20, -5]), scores_from(chess.Board("8/8/8/8/8/8/8/K1k5 w - - 0 1"), [20])
    ([15, -5], [20])
    """
    scores = list(scores)
    if start.fen() == chess.STARTING_FEN:
        scores[0] = INITIAL_CP
    return scores


def row_analysis(row: dict[str, str], scores: list[int], bests: list[str]) -> GameAnalysis:
    """One CSV row analysed from its stored evaluations: :func:`engine_analysis` of
    :func:`row_game`, with the row's SAN taken as given.

    The file is Lichess's own SAN, so the board only resolves each move to its squares (UCI), which
    the features need; python-chess does not write the SAN again. The file's SAN differs from
    python-chess's only in 420 of its 711,912 moves, each disambiguated more than it needs
    ("Rad1+" for "Rd1+"): the same piece, capture, check and mate, so the same features
    (docs/strength.md, "Data": what the refit costs).
    """
    sans = row["moves"].split()
    board = chess.Board()
    scores = scores_from(board, scores)  # every row starts from the standard position
    ucis = []
    for san in sans:
        move = board.parse_san(san)
        ucis.append(move.uci())
        board.push(move)
    return analysis_of_moves(row_tags(row), sans, ucis, scores, bests, "engine", start_white=True)


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
# (``engine.score_to_int``) and the engine's best move as one integer, from + 64 x to + 4096 x
# promotion piece (squares 0-63, python-chess's piece types; NO_MOVE where the game is over).
# Arrays: ``ids`` (game ids), ``offsets`` (game i's positions are ``offsets[i]:offsets[i+1]``),
# ``scores`` (int32), ``best`` (int16), ``engine`` and ``setting`` (the cache's names for them).

#: ``best`` of a position with no move (the game is over).
NO_MOVE = -1


def encode_move(uci: str) -> int:
    """A UCI move as one integer ("" as ``NO_MOVE``)."""
    if not uci:
        return NO_MOVE
    move = chess.Move.from_uci(uci)
    return move.from_square + 64 * move.to_square + 4096 * (move.promotion or 0)


def decode_move(value: int) -> str:
    """The inverse of ``encode_move``."""
    if value == NO_MOVE:
        return ""
    promotion = value // 4096
    return chess.Move(value % 64, value // 64 % 64, promotion or None).uci()


def write_evals(
    path: Path, games: Sequence[tuple[str, list[int], list[str]]], engine: str, setting: str
) -> None:
    """(id, White's scores, best moves) per game into ``path`` (numpy's compressed npz), with the
    engine's name and setting."""
    offsets = [0]
    scores: list[int] = []
    best: list[int] = []
    for _, game_scores, game_bests in games:
        scores.extend(game_scores)
        best.extend(encode_move(uci) for uci in game_bests)
        offsets.append(len(scores))
    np.savez_compressed(
        path,
        ids=np.array([g[0] for g in games]),
        offsets=np.array(offsets, dtype=np.int64),
        scores=np.array(scores, dtype=np.int32),
        best=np.array(best, dtype=np.int16),
        engine=np.array(engine),
        setting=np.array(setting),
    )


def evals_engine(path: Path) -> tuple[str, str]:
    """The engine's name and setting recorded in ``write_evals``'s file."""
    with np.load(path) as data:
        return str(data["engine"]), str(data["setting"])


def read_evals(path: Path) -> dict[str, tuple[list[int], list[str]]]:
    """Game id -> (White's scores, best moves in UCI) from ``write_evals``'s file."""
    with np.load(path) as data:
        ids, offsets = data["ids"], data["offsets"]
        scores, best = data["scores"], data["best"]
        return {
            str(game_id): (
                scores[offsets[i] : offsets[i + 1]].tolist(),
                [decode_move(v) for v in best[offsets[i] : offsets[i + 1]].tolist()],
            )
            for i, game_id in enumerate(ids)
        }


def engine_analysis(game: chess.pgn.Game, scores: list[int], bests: list[str]) -> GameAnalysis:
    """The game analysed from stored engine evaluations, as ``analyse_games`` builds it."""
    scores = scores_from(game.board(), scores)
    return build_analysis(game, scores, bests, "engine")
