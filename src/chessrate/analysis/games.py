"""Games analysed move by move: evaluations before and after each move, Lichess's measures per player.

Evaluations come from ``[%eval]`` comments when the PGN has one for every move (Lichess exports
do), else from the engine through the cache and a runner. Per move: the mover's win% before and
after, Lichess's move accuracy, the centipawn loss (both scores capped at +-1000 as lila caps them,
a mate counting as the cap) and lila's judgement. Per player: Lichess's game accuracy, the average
centipawn loss (ACPL), and the counts of inaccuracies, mistakes and blunders.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn
from chess.engine import Score

from chessrate.analysis import accuracy as acc
from chessrate.analysis.cache import EvaluationCache
from chessrate.analysis.engine import (
    Evaluation,
    Setting,
    board_from_key,
    engine_name,
    position_key,
    score_from_int,
    score_to_int,
    terminal_evaluation,
)
from chessrate.analysis.runners import SCHEDULER_TIMEOUT, Progress, Stop, run_batches
from chessrate.errors import FileFormatError, file_reason

#: Games per batch sent to a process or a Dask worker.
GAMES_PER_BATCH = 8
#: At most this many games in one file.
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class MoveAnalysis:
    """One move, seen by its mover."""

    ply: int
    san: str
    uci: str
    white: bool
    before: int  # White's score before the move (``engine.score_to_int``)
    after: int  # White's score after it
    best: str  # the engine's best move before it (UCI), "" when the evaluations came from the PGN
    win_before: float
    win_after: float
    accuracy: float
    cp_loss: int
    judgement: acc.Judgement | None


@dataclass(frozen=True)
class PlayerSummary:
    """One player's measures in one game."""

    name: str
    white: bool
    moves: int
    accuracy: float | None
    weighted_accuracy: float | None
    harmonic_accuracy: float | None
    acpl: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True)
class GameAnalysis:
    """A whole game: its tags, every move, and both players."""

    headers: dict[str, str]
    moves: tuple[MoveAnalysis, ...]
    white: PlayerSummary
    black: PlayerSummary
    source: str  # "engine" or "pgn"
    white_scores: tuple[int, ...] = field(repr=False, default=())

    def player(self, colour: chess.Color) -> PlayerSummary:
        return self.white if colour == chess.WHITE else self.black

    def player_moves(self, colour: chess.Color) -> list[MoveAnalysis]:
        return [m for m in self.moves if m.white == colour]


#: The longest game the rules allow: the 75-move rule ends any game within 8,848.5 moves.
MAX_LEGAL_PLIES = 17_697


class GameTooLong(Exception):
    """A game's main line goes past ``MAX_LEGAL_PLIES`` (raised while reading, to stop at once)."""


class QuietGameBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder keeping errors in ``game.errors`` without logging them.

    After ``cut`` plies of the main line the rest is only counted, not parsed nor kept (its
    variations skipped), so a long game costs the cut's memory; past ``MAX_LEGAL_PLIES`` reading
    stops (:class:`GameTooLong`).
    """

    cut: int | None = None

    def begin_game(self) -> None:
        super().begin_game()
        self.plies = 0
        self.san = ""
        self.depth = 0

    def begin_variation(self) -> chess.pgn.SkipType | None:  # type: ignore[override]
        if self.cut is not None and self.plies > self.cut:
            return chess.pgn.SKIP
        self.depth += 1
        return super().begin_variation()

    def end_variation(self) -> None:
        self.depth -= 1
        super().end_variation()

    def begin_parse_san(self, board: chess.Board, san: str) -> chess.pgn.SkipType | None:
        self.san = san  # the move a refusal names (handle_error)
        if self.depth:
            return None
        self.plies += 1
        if self.plies > MAX_LEGAL_PLIES:
            raise GameTooLong
        if self.cut is not None and self.plies > self.cut:
            return chess.pgn.SKIP
        return None

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        if not move and not self.depth:  # "--", "Z0": a null move
            self.game.errors.append(NullMove(board.fullmove_number))
        super().visit_move(board, move)

    def handle_error(self, error: Exception) -> None:
        kind = _REFUSAL_KINDS.get(type(error))
        self.game.errors.append(RefusedMove(kind, self.san, error) if kind else error)


#: python-chess's refusals of a move in SAN, by the kind of problem each is.
_REFUSAL_KINDS: dict[type[Exception], str] = {
    chess.IllegalMoveError: "illegal",
    chess.InvalidMoveError: "invalid",
    chess.AmbiguousMoveError: "ambiguous",
}


class RefusedMove(Exception):
    """A move python-chess refused (``kind``: illegal, invalid or ambiguous), with its SAN."""

    def __init__(self, kind: str, san: str, error: Exception) -> None:
        super().__init__(str(error))
        self.kind = kind
        self.san = san


class NullMove(Exception):
    """A null move in a game's main line, at move ``number``."""

    def __init__(self, number: int) -> None:
        super().__init__(f"move {number} is a null move")
        self.number = number


@dataclass(frozen=True)
class ReadGames:
    """The games read, and each one's whole length in plies (more than it holds when it was cut)."""

    games: list[chess.pgn.Game]
    plies: list[int]


def read_games(text: str) -> list[chess.pgn.Game]:
    """Every game of a PGN text; an illegal or unreadable move is an error naming the game."""
    return read_games_cut(text).games


def read_games_cut(text: str, *, cut: int | None = None, max_games: int = MAX_GAMES) -> ReadGames:
    """Every game of a PGN text, each main line kept to its first ``cut`` plies (None: all).

    Refused, naming the game: a move that is illegal, unreadable or null, a start position that
    cannot arise (``Board.status()``), a variant, a game longer than any legal game; more than
    ``max_games`` games stop the reading at the first one over.
    """
    handle = io.StringIO(text)
    games: list[chess.pgn.Game] = []
    plies: list[int] = []
    builder = QuietGameBuilder()

    def visitor() -> QuietGameBuilder:
        nonlocal builder
        builder = QuietGameBuilder()
        builder.cut = cut
        return builder

    while True:
        number = len(games) + 1
        try:
            game = chess.pgn.read_game(handle, Visitor=visitor)
        except GameTooLong:
            raise FileFormatError(
                f"game {number}: more than {MAX_LEGAL_PLIES} plies, longer than any legal game",
                code="game-too-long",
                params=(("game", number), ("plies", MAX_LEGAL_PLIES)),
            ) from None
        except Exception as error:  # python-chess 1.11.2 fails on an unbalanced ")" (IndexError)
            raise FileFormatError(
                f"game {number}: unreadable movetext ({type(error).__name__})",
                code="unreadable-movetext",
                params=(("game", number),),
            ) from None
        if game is None:
            break
        if game.errors:
            raise _move_error(number, game.errors[0])
        if game.headers.get("Variant", "Standard").lower() not in {
            "standard",
            "chess",
            "normal",
            "from position",
        }:
            variant = game.headers["Variant"]
            raise FileFormatError(
                f"game {number}: variant {variant!r} is not standard chess",
                code="variant",
                params=(("game", number), ("variant", variant)),
            )
        if game.board().status() != chess.STATUS_VALID:
            raise FileFormatError(
                f"game {number}: its start position cannot arise in a game",
                code="impossible-position",
                params=(("game", number),),
            )
        games.append(game)
        plies.append(builder.plies)
        if len(games) > max_games:
            raise FileFormatError(
                f"more than {max_games} games", code="too-many-games", params=(("count", max_games),)
            )
    if not games:
        raise FileFormatError("no game found in the PGN", code="no-game")
    return ReadGames(games, plies)


def _move_error(number: int, error: Exception) -> FileFormatError:
    """The first error python-chess kept for game ``number``: a refused move, or else the position."""
    if isinstance(error, NullMove):
        return FileFormatError(
            f"game {number}: {error}", code="null-move", params=(("game", number), ("move", error.number))
        )
    if isinstance(error, RefusedMove):
        return FileFormatError(
            f"game {number}: {error}",
            code=f"{error.kind}-move",
            params=(("game", number), ("move", error.san)),
        )
    return FileFormatError(f"game {number}: {error}", code="unreadable-game", params=(("game", number),))


def read_games_file(path: str | Path) -> list[chess.pgn.Game]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as error:
        reason = file_reason(error)  # a code, said in every language; strerror is English
        raise FileFormatError(f"cannot read {path}: {reason.english}", code=reason.code) from error
    return read_games(text)


def game_keys(game: chess.pgn.Game) -> tuple[list[str], list[chess.Move]]:
    """The positions of a game's main line (start and after each move) and its moves."""
    board = game.board()
    keys = [position_key(board)]
    moves = list(game.mainline_moves())
    for move in moves:
        board.push(move)
        keys.append(position_key(board))
    return keys, moves


def pgn_scores(game: chess.pgn.Game) -> list[int] | None:
    """White's scores from the ``[%eval]`` comments, start position first, or None if any is missing.

    The standard start position has no comment; it takes lila's ``Cp.initial``. A final position
    that is over (mate, stalemate) needs none.
    """
    board = game.board()
    if board.fen() != chess.STARTING_FEN:
        return None
    scores = [acc.INITIAL_CP]
    nodes = list(game.mainline())
    for node in nodes:
        pov = node.eval()
        if pov is None:
            finished = terminal_evaluation(node.board()) if node is nodes[-1] else None
            if finished is None:
                return None
            scores.append(finished.score)
        else:
            scores.append(score_to_int(pov.white()))
    return scores if nodes else None


def build_analysis(
    game: chess.pgn.Game, white_scores: Sequence[int], bests: Sequence[str], source: str
) -> GameAnalysis:
    """The per-move and per-player measures from White's scores of every position (start first)."""
    board = game.board()
    start_white = board.turn == chess.WHITE
    sans: list[str] = []
    ucis: list[str] = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        ucis.append(move.uci())
        board.push(move)
    return analysis_of_moves(
        dict(game.headers), sans, ucis, white_scores, bests, source, start_white=start_white
    )


def analysis_of_moves(
    headers: dict[str, str],
    sans: Sequence[str],
    ucis: Sequence[str],
    white_scores: Sequence[int],
    bests: Sequence[str],
    source: str,
    *,
    start_white: bool,
) -> GameAnalysis:
    """:func:`build_analysis` from a game's moves already written out, SAN and UCI (no board): the
    player to move alternates from White (``start_white``) or Black."""
    moves: list[MoveAnalysis] = []
    for ply, (san, uci) in enumerate(zip(sans, ucis, strict=True), start=1):
        white = (ply % 2 == 1) == start_white
        before, after = score_from_int(white_scores[ply - 1]), score_from_int(white_scores[ply])
        mover_before: Score = before if white else -before
        mover_after: Score = after if white else -after
        win_before, win_after = acc.win_percent(mover_before), acc.win_percent(mover_after)
        moves.append(
            MoveAnalysis(
                ply=ply,
                san=san,
                uci=uci,
                white=white,
                before=white_scores[ply - 1],
                after=white_scores[ply],
                best=bests[ply - 1],
                win_before=win_before,
                win_after=win_after,
                accuracy=acc.move_accuracy(win_before, win_after),
                cp_loss=max(0, acc.capped_cp(mover_before) - acc.capped_cp(mover_after)),
                judgement=acc.judgement(mover_before, mover_after),
            )
        )
    win_percents = [acc.win_percent(score_from_int(s)) for s in white_scores]
    white_acc, black_acc = acc.game_accuracy(win_percents, white_moves_first=start_white)

    def summary(white: chess.Color, accuracy: acc.GameAccuracy | None) -> PlayerSummary:
        own = [m for m in moves if m.white == white]
        judged = [m.judgement for m in own]
        return PlayerSummary(
            name=headers.get("White" if white else "Black", "?"),
            white=white,
            moves=len(own),
            accuracy=accuracy.accuracy if accuracy else None,
            weighted_accuracy=accuracy.weighted if accuracy else None,
            harmonic_accuracy=accuracy.harmonic if accuracy else None,
            acpl=sum(m.cp_loss for m in own) / len(own) if own else None,
            inaccuracies=judged.count(acc.Judgement.INACCURACY),
            mistakes=judged.count(acc.Judgement.MISTAKE),
            blunders=judged.count(acc.Judgement.BLUNDER),
        )

    return GameAnalysis(
        headers=headers,
        moves=tuple(moves),
        white=summary(chess.WHITE, white_acc),
        black=summary(chess.BLACK, black_acc),
        source=source,
        white_scores=tuple(white_scores),
    )


@dataclass
class AnalysisStats:
    """What one run did: positions needed, found in the cache, searched."""

    positions: int = 0
    cached: int = 0
    searched: int = 0
    from_pgn: int = 0
    #: Games left out because the engine could not analyse one of their positions:
    #: (game number from 1, move number of that position).
    failed: list[tuple[int, int]] = field(default_factory=list)

    @property
    def hit_rate(self) -> float:
        needed = self.cached + self.searched
        return self.cached / needed if needed else 1.0


def analyse_games(
    games: Sequence[chess.pgn.Game],
    *,
    setting: Setting | None = None,
    engine_path: str | None = None,
    cache_path: str | Path = ":memory:",
    workers: int = 1,
    scheduler: object | None = None,
    use_pgn_evals: bool = True,
    progress: Progress | None = None,
    stats: AnalysisStats | None = None,
    stop: Stop | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT,
) -> list[GameAnalysis]:
    """Analyse every game; the engine searches only positions that neither the PGN nor the cache has.

    A game with a position the engine could not analyse (it died there) is left out of the answer
    and named in ``stats.failed``; the other games go on.
    """
    setting = setting or Setting()
    stats = stats if stats is not None else AnalysisStats()
    from_pgn = _scores_from_pgn(games, stats) if use_pgn_evals else {}
    per_game = [game_keys(g)[0] for g in games]
    needed = [per_game[i] for i in range(len(games)) if i not in from_pgn]
    evaluations: dict[str, Evaluation] = {}
    if needed:
        name = engine_name(engine_path)
        with EvaluationCache(cache_path, engine=name, setting=setting.key) as cache:
            wanted = _wanted(needed, stats)
            evaluations = cache.get_many(wanted)
            stats.cached += len(evaluations)
            missing = [k for k in wanted if k not in evaluations]
            stats.searched += len(missing)
            batches = _batches(missing, needed)
            if batches:
                found = run_batches(
                    batches,
                    engine_path=engine_path,
                    setting=setting,
                    workers=workers,
                    scheduler=scheduler,
                    progress=progress,
                    on_batch=cache.put_many,
                    stop=stop,
                    scheduler_timeout=scheduler_timeout,
                )
                evaluations.update(found)
    analyses = []
    for i, game in enumerate(games):
        if i in from_pgn:
            analyses.append(build_analysis(game, from_pgn[i], [""] * len(from_pgn[i]), "pgn"))
            continue
        keys = per_game[i]
        lost = next((ply for ply, k in enumerate(keys) if k not in evaluations), None)
        if lost is not None:
            stats.failed.append((i + 1, _move_number(game, lost)))
            continue
        scores = [evaluations[k].score for k in keys]
        if board_from_key(keys[0]).fen() == chess.STARTING_FEN:
            scores[0] = acc.INITIAL_CP  # lila's Cp.initial, as with [%eval] games
        analyses.append(build_analysis(game, scores, [evaluations[k].best for k in keys], "engine"))
    return analyses


def _scores_from_pgn(games: Sequence[chess.pgn.Game], stats: AnalysisStats) -> dict[int, list[int]]:
    """The games whose every position has an ``[%eval]`` comment, by index, with those scores."""
    from_pgn: dict[int, list[int]] = {}
    for i, game in enumerate(games):
        scores = pgn_scores(game)
        if scores is not None:
            from_pgn[i] = scores
            stats.from_pgn += len(scores)
    return from_pgn


def _wanted(needed: Sequence[Sequence[str]], stats: AnalysisStats) -> list[str]:
    """The distinct positions of the games the engine is needed for, counted in ``stats``."""
    wanted = list(dict.fromkeys(k for keys in needed for k in keys))
    stats.positions += len(wanted)
    return wanted


def _move_number(game: chess.pgn.Game, ply: int) -> int:
    """The move number of the position after ``ply`` plies of the game (the move about to be made)."""
    board = game.board()
    return board.fullmove_number + (ply + (0 if board.turn == chess.WHITE else 1)) // 2


def _batches(missing: Sequence[str], games: Sequence[Sequence[str]]) -> list[list[str]]:
    """The missing positions cut into batches of about ``GAMES_PER_BATCH`` games, in game order."""
    todo = set(missing)
    batches: list[list[str]] = []
    current: list[str] = []
    for count, keys in enumerate(games, start=1):
        for key in keys:
            if key in todo:
                current.append(key)
                todo.discard(key)
        if count % GAMES_PER_BATCH == 0 and current:
            batches.append(current)
            current = []
    if current:
        batches.append(current)
    return batches
