"""The opening table: mean ratings of the players who chose a move, kept from LEAST players on."""

from __future__ import annotations

import math

import chess
import chess.pgn
import pytest

from chessrate.analysis.games import GameAnalysis, build_analysis
from chessrate.strength.book import LEAST, Book, opening_plies

START = chess.Board().epd()


def test_a_move_chosen_by_enough_players_gives_their_mean_rating() -> None:
    games = [(((START, "e2e4", True),), True, 1000.0 + 100 * i) for i in range(LEAST)]
    games += [(((START, "d2d4", True),), True, 2000.0)] * (LEAST - 1)  # one player short: left out
    book = Book.fit(games)
    assert book.moves == {f"{START} e2e4": (LEAST, 1000.0 + 100 * (LEAST - 1) / 2)}
    everyone = (sum(1000.0 + 100 * i for i in range(LEAST)) + 2000.0 * (LEAST - 1)) / (2 * LEAST - 1)
    assert book.positions[START] == (2 * LEAST - 1, pytest.approx(everyone))
    features = book.features(((START, "e2e4", True),), white=True)
    assert features["book_rating"] == pytest.approx(1000.0 + 100 * (LEAST - 1) / 2)
    assert features["book_edge"] == pytest.approx(features["book_rating"] - everyone)
    assert (features["book_depth"], features["book_moves"]) == (1.0, 1.0)


def test_the_other_side_s_moves_and_unknown_moves_give_nothing() -> None:
    book = Book.fit([(((START, "e2e4", True),), True, 1500.0)] * LEAST)
    assert math.isnan(book.features(((START, "e2e4", True),), white=False)["book_rating"])
    unknown = book.features(((START, "g1f3", True),), white=True)
    assert math.isnan(unknown["book_rating"])
    assert unknown["book_moves"] == 0.0


def test_the_table_survives_its_json() -> None:
    book = Book.fit([(((START, "e2e4", True),), True, 1500.0)] * LEAST)
    assert Book.from_json(book.to_json()) == book


def _analysis(sans: str) -> GameAnalysis:
    board = chess.Board()
    for san in sans.split():
        board.push_san(san)
    game = chess.pgn.Game.from_board(board)
    return build_analysis(game, [0] * (len(board.move_stack) + 1), [""] * (len(board.move_stack) + 1), "t")


def test_keys_kept_across_games_are_the_positions_epd() -> None:
    games = ["e4 e5 Nf3 Nc6 Bb5", "e4 e5 Nf3 Nf6", "Nf3 Nc6 e4 e5 Bb5 a6", "d4 d5 c4 e6 Nc3 Nf6 Bg5"]
    known: dict[str, str] = {}
    for sans in games:
        board = chess.Board()
        expected = []
        for san in sans.split():
            move = board.parse_san(san)
            expected.append((board.epd(), move.uci(), board.turn == chess.WHITE))
            board.push(move)
        assert opening_plies(_analysis(sans), known) == tuple(expected)
    # one key per distinct sequence of moves before a move: 5 + 0 (all shared) + 5 + 6
    assert len(known) == 16
