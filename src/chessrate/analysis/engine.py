"""Stockfish through python-chess: one position at a time, the same answer wherever it runs.

Each position is searched from a cleared engine (``ucinewgame`` before every search, one thread, a
fixed hash), so its evaluation depends only on the position, the engine and the setting. That is
what lets a cache key on the position, and lets several processes or a Dask cluster share the work
and still give exactly the single-process result (tests/analysis/test_engine.py checks that a
search gives the same answer after another one, and that 2 processes and a Dask cluster give the
single-process result).

A position is keyed by the first five FEN fields (pieces, side to move, castling, en passant,
halfmove clock); the fullmove number does not change a search. Positions that are over (mate,
stalemate, insufficient material) are scored from the board, not by the engine.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass

import chess
import chess.engine
from chess.engine import Cp, Mate, MateGiven, Score

from chessrate.errors import InvalidInputError

#: Debian's package (``apt-get install stockfish``) puts the binary here.
DEFAULT_ENGINE = "/usr/games/stockfish"
#: Default search depth: see docs/strength.md ("Choosing the setting").
DEFAULT_DEPTH = 8
#: One thread and a fixed hash, so that a search is reproducible.
ENGINE_OPTIONS: dict[str, int] = {"Threads": 1, "Hash": 16}
#: What an engine that dies or misbehaves on a position raises: that position is not analysed,
#: the engine is started again for the next one.
ENGINE_FAULTS: tuple[type[Exception], ...] = (
    chess.engine.EngineError,
    chess.engine.EngineTerminatedError,
    TimeoutError,
    OSError,
)
#: A mate score stored as an integer: MATE_BASE - n for "mate in n", -(MATE_BASE - n) for "mated in n".
MATE_BASE = 100_000


@dataclass(frozen=True)
class Setting:
    """How deep the engine looks: a depth or a node count (one of them)."""

    depth: int | None = DEFAULT_DEPTH
    nodes: int | None = None

    def __post_init__(self) -> None:
        if (self.depth is None) == (self.nodes is None):
            raise InvalidInputError("setting", (self.depth, self.nodes), "give a depth or a node count")
        if self.depth is not None and not 1 <= self.depth <= 60:
            raise InvalidInputError("depth", self.depth, "must be between 1 and 60")
        if self.nodes is not None and not 1 <= self.nodes <= 100_000_000:
            raise InvalidInputError("nodes", self.nodes, "must be between 1 and 100000000")

    @property
    def limit(self) -> chess.engine.Limit:
        return chess.engine.Limit(depth=self.depth, nodes=self.nodes)

    @property
    def key(self) -> str:
        """The setting as the cache records it, with the engine options."""
        search = f"depth={self.depth}" if self.depth is not None else f"nodes={self.nodes}"
        options = ",".join(f"{k}={v}" for k, v in sorted(ENGINE_OPTIONS.items()))
        return f"{search};{options}"


@dataclass(frozen=True)
class Evaluation:
    """A position's score from White's point of view, and the engine's best move (UCI, or "")."""

    score: int
    best: str = ""

    @property
    def white(self) -> Score:
        return score_from_int(self.score)


def score_to_int(score: Score) -> int:
    """A python-chess score (White's view) as one integer: centipawns, or +-(MATE_BASE - n) for mates."""
    value = score.score(mate_score=MATE_BASE)
    assert value is not None
    return value


def score_from_int(value: int) -> Score:
    """The inverse of ``score_to_int``."""
    if value >= MATE_BASE:
        return MateGiven
    if value <= -MATE_BASE:
        return Mate(-0)
    if value > MATE_BASE // 2:
        return Mate(MATE_BASE - value)
    if value < -MATE_BASE // 2:
        return Mate(-(MATE_BASE + value))
    return Cp(value)


def position_key(board: chess.Board) -> str:
    """The first five FEN fields: what a search depends on."""
    return " ".join(board.fen().split()[:5])


def board_from_key(key: str) -> chess.Board:
    return chess.Board(key + " 1")


def terminal_evaluation(board: chess.Board) -> Evaluation | None:
    """The score of a finished position, from the rules alone; None if the game can go on."""
    if board.is_checkmate():
        # The side to move is mated: Mate(-0) from its side, MateGiven from the other.
        return Evaluation(score_to_int(Mate(-0) if board.turn == chess.WHITE else MateGiven))
    if board.is_stalemate() or board.is_insufficient_material():
        return Evaluation(0)
    return None


def find_engine(path: str | None = None) -> str:
    """The engine's path: ``path``, else Debian's, else ``stockfish`` on PATH."""
    for candidate in (path, DEFAULT_ENGINE, "stockfish"):
        if candidate and shutil.which(candidate):
            return str(shutil.which(candidate))
    raise InvalidInputError(
        "engine", path or DEFAULT_ENGINE, "Stockfish not found (apt-get install stockfish)"
    )


class Engine:
    """One Stockfish process. Use as a context manager."""

    def __init__(self, path: str | None = None, setting: Setting | None = None) -> None:
        self.path = find_engine(path)
        self.setting = setting or Setting()
        self._engine = self._start()
        self.name = str(self._engine.id.get("name", self.path))

    def _start(self) -> chess.engine.SimpleEngine:
        engine = chess.engine.SimpleEngine.popen_uci(self.path)
        engine.configure(ENGINE_OPTIONS)
        return engine

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Quit the engine; one that already died is only waited for."""
        try:
            self._engine.quit()
        except ENGINE_FAULTS:
            self._engine.close()

    def restart(self) -> None:
        """A fresh process in place of one that died or misbehaved."""
        self.close()
        self._engine = self._start()

    def evaluate(self, key: str) -> Evaluation:
        board = board_from_key(key)
        finished = terminal_evaluation(board)
        if finished is not None:
            return finished
        # A new "game" object for every search makes python-chess send ucinewgame first.
        info = self._engine.analyse(board, self.setting.limit, game=object())
        pv = info.get("pv") or []
        return Evaluation(score_to_int(info["score"].white()), pv[0].uci() if pv else "")

    def evaluate_many(self, keys: Iterable[str]) -> dict[str, Evaluation]:
        return {key: self.evaluate(key) for key in keys}


def engine_name(path: str | None = None) -> str:
    """The engine's UCI name (e.g. ``Stockfish 15.1``), which the cache records.

    Asked of the binary once while it stays the same file (path, size and time of change): every
    analysis names its engine, and starting one only to read its name cost each web request
    0.2–0.5 s on this 2-core machine.
    """
    found = find_engine(path)
    status = os.stat(found)
    return _named(found, status.st_size, status.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _named(path: str, size: int, changed: int) -> str:
    with Engine(path) as engine:
        return engine.name
