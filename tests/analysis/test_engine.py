"""Real Stockfish analysis at a low depth, the cache, N processes and a Dask LocalCluster."""

from __future__ import annotations

import chess
import distributed
import pytest
from chess.engine import Cp, Mate, MateGiven
from hypothesis import given
from hypothesis import strategies as st

from chessrate.analysis import AnalysisStats, Setting, analyse_games, read_games
from chessrate.analysis.engine import (
    Engine,
    position_key,
    score_from_int,
    score_to_int,
    terminal_evaluation,
)
from chessrate.errors import FileFormatError, InvalidInputError

LOW = Setting(depth=4)


@given(st.integers(-20_000, 20_000))
def test_centipawns_round_trip(cp):
    assert score_from_int(score_to_int(Cp(cp))) == Cp(cp)


@given(st.integers(1, 500))
def test_mates_round_trip(n):
    assert score_from_int(score_to_int(Mate(n))) == Mate(n)
    assert score_from_int(score_to_int(Mate(-n))) == Mate(-n)


def test_mated_positions_round_trip_and_order():
    assert score_from_int(score_to_int(MateGiven)) == MateGiven
    assert score_from_int(score_to_int(Mate(-0))) == Mate(-0)
    assert score_to_int(Mate(-0)) < score_to_int(Mate(-1)) < score_to_int(Cp(-5000))
    assert score_to_int(MateGiven) > score_to_int(Mate(1)) > score_to_int(Cp(5000))


def test_finished_positions_scored_from_the_rules():
    fools_mate = chess.Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        fools_mate.push_san(san)
    finished = terminal_evaluation(fools_mate)
    assert finished is not None
    assert finished.white == Mate(-0)  # White is mated
    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert terminal_evaluation(stalemate) == terminal_evaluation(chess.Board("8/8/8/8/8/8/8/K6k w - - 0 1"))
    assert terminal_evaluation(chess.Board()) is None


def test_position_key_drops_the_move_number():
    board = chess.Board()
    assert position_key(board) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"


def test_setting_is_checked():
    with pytest.raises(InvalidInputError, match="depth"):
        Setting(depth=0)
    with pytest.raises(InvalidInputError, match="setting"):
        Setting(depth=None, nodes=None)
    assert Setting(depth=None, nodes=5000).key.startswith("nodes=5000;")


def test_an_evaluation_depends_only_on_the_position():
    board = chess.Board()
    board.push_san("e4")
    key = position_key(board)
    with Engine(setting=LOW) as engine:
        first = engine.evaluate(key)
        engine.evaluate(position_key(chess.Board()))  # another search between the two
        assert engine.evaluate(key) == first
        assert engine.name.startswith("Stockfish")


def test_real_analysis_and_the_cache(short_games, tmp_path):
    cache = tmp_path / "evals.sqlite"
    first_stats, second_stats = AnalysisStats(), AnalysisStats()
    first = analyse_games(short_games, setting=LOW, cache_path=cache, stats=first_stats)
    second = analyse_games(short_games, setting=LOW, cache_path=cache, stats=second_stats)
    assert first == second
    assert first_stats.searched > 0
    assert second_stats.searched == 0
    assert second_stats.hit_rate == 1.0
    for analysis, game in zip(first, short_games, strict=True):
        assert analysis.source == "engine"
        assert len(analysis.moves) == len(list(game.mainline_moves()))
        for player in (analysis.white, analysis.black):
            own = analysis.player_moves(player.white)
            assert player.moves == len(own)
            assert player.acpl == pytest.approx(sum(m.cp_loss for m in own) / len(own))
            assert player.accuracy is not None
            assert 0 <= player.accuracy <= 100
            assert player.blunders == sum(
                m.judgement is not None and m.judgement.name == "BLUNDER" for m in own
            )
        assert all(m.best for m in analysis.moves)


def test_a_checkmate_ends_at_the_cap(short_games):
    analysis = analyse_games(short_games[1:], setting=LOW)[0]
    last = analysis.moves[-1]
    assert last.san.endswith("#")
    assert score_from_int(last.after) == Mate(-0) or score_from_int(last.after) == MateGiven


def test_two_workers_give_the_single_process_result(short_games):
    assert analyse_games(short_games, setting=LOW, workers=2) == analyse_games(short_games, setting=LOW)


def test_dask_local_cluster_gives_the_single_process_result(short_games, tmp_path):
    single = analyse_games(short_games, setting=LOW)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, protocol="tcp://"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        on_cluster = analyse_games(short_games, setting=LOW, scheduler=cluster.scheduler_address)
    assert on_cluster == single


def test_pgn_evaluations_are_used_instead_of_the_engine(eval_games, lichess_games):
    stats = AnalysisStats()
    analyses = analyse_games(eval_games, stats=stats, engine_path="/nonexistent/engine")
    assert {a.source for a in analyses} == {"pgn"}
    assert stats.searched == 0
    assert stats.from_pgn == sum(len(list(g.mainline_moves())) + 1 for g in eval_games)
    # The file's evaluations are Stockfish 15.1 at depth 10: the engine gives them again.
    shortest = min(range(len(eval_games)), key=lambda i: len(list(eval_games[i].mainline_moves())))
    engine = analyse_games([lichess_games[shortest]], setting=Setting(depth=10))[0]
    assert [m.after for m in engine.moves] == [m.after for m in analyses[shortest].moves]
    assert engine.white.accuracy == analyses[shortest].white.accuracy


def test_bad_pgn_names_the_game():
    with pytest.raises(FileFormatError, match="game 2"):
        read_games('[White "a"]\n\n1. e4 e5 *\n\n[White "b"]\n\n1. e4 e4 *\n')
    with pytest.raises(FileFormatError, match="no game"):
        read_games("")
    with pytest.raises(FileFormatError, match="variant"):
        read_games('[Variant "Atomic"]\n\n1. e4 *\n')
