"""Engine analysis and strength from the moves, as users ask for them: a PGN in, measures out.

``chessrate analyse``, ``chessrate strength`` and the web's "Strength from the moves" tab build an
:class:`AnalyseInputs` and call :func:`analyse_file` or :func:`strength_file`; the JSON answers are
the documents built here (one for both faces).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from chessrate.analysis import AnalysisStats, GameAnalysis, Setting, analyse_games
from chessrate.analysis.cache import check_cache
from chessrate.analysis.engine import engine_name, score_from_int
from chessrate.analysis.games import MAX_GAMES, game_keys, read_games_cut
from chessrate.analysis.runners import SCHEDULER_TIMEOUT, AnalysisStopped, Progress, Stop, check_scheduler
from chessrate.comparisons.pools import MAX_RATING, MIN_RATING, Pool, convert
from chessrate.errors import FileFormatError, InvalidInputError, RatingError, file_reason
from chessrate.formats.text import decode
from chessrate.parse import parse_count
from chessrate.service.language import Translator
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
from chessrate.service.tournament_file import MAX_FILE as MAX_FILE  # re-exported for the strength page
from chessrate.service.tournament_file import FileInput
from chessrate.strength import Estimate, PlayerEstimate, load_model, player_estimates
from chessrate.strength.estimate import check_kind, game_estimates

# A PGN analysed is held to an uploaded file's limit, tournament_file.MAX_FILE (20 MB).
#: Deepest search a request may ask for (a depth of 20 takes seconds a position).
MAX_DEPTH = 30
#: Most engine processes a request may ask for.
MAX_WORKERS = 64
#: Longest wait for a Dask scheduler a request may ask for, in seconds.
MAX_SCHEDULER_TIMEOUT = 600


@dataclass(frozen=True, kw_only=True)
class AnalyseInputs:
    """What the command line or the web sent, as text."""

    file: FileInput | None = None
    depth: str = ""
    workers: str = ""
    scheduler: str = ""
    player: str = ""
    #: SQLite file of the evaluation cache; "" for none kept.
    cache: str = ""
    #: ``no``: search every position even when the PGN has ``[%eval]`` comments.
    pgn_evals: str = ""
    #: Seconds to wait for the scheduler (``--scheduler-timeout``); "" for 10.
    scheduler_timeout: str = ""
    #: Most games read (the web's limit); None: any number.
    max_games: int | None = None
    #: Plies of each game analysed, the first ones (the web's cap); None: the whole game.
    cut_plies: int | None = None
    #: Most distinct positions one request may have searched (the web's cap); None: any number.
    max_positions: int | None = None
    #: Most seconds of engine time one request may take (the web's cap); None: no limit.
    max_seconds: float | None = None
    #: The kind of game: "online", "otb", or "" / "auto" to read it from each game's tags.
    kind: str = ""


@dataclass(frozen=True)
class GamesRead:
    games: list[chess.pgn.Game]
    #: (game number, its whole length in plies) of each game longer than the cut.
    cut: list[tuple[int, int]]


@dataclass(frozen=True)
class AnalysisResult:
    filename: str
    analyses: list[GameAnalysis]
    stats: AnalysisStats
    setting: Setting
    engine: str
    #: (game number, whole length in plies) of the games of which only the first plies were analysed.
    cut: list[tuple[int, int]] = field(default_factory=list)
    #: The plies analysed of a game that was cut.
    cut_plies: int | None = None


def analysis_notes(result: AnalysisResult, t: Translator) -> list[str]:
    """What the answer says beside the measures: games cut, games the engine could not analyse."""
    notes = [
        t.gettext(
            "game %(game)s: only its first %(plies)s plies of %(total)s were analysed",
            game=number,
            plies=result.cut_plies,
            total=total,
        )
        for number, total in result.cut
    ]
    notes += [
        t.gettext("game %(game)s, move %(move)s: the engine could not analyse this position", game=g, move=m)
        for g, m in result.stats.failed
    ]
    return notes


@dataclass(frozen=True)
class FideRange:
    """An estimate's range on the FIDE scale (an end None when open): for online games carried through
    the published pool conversions (chessrate.comparisons.pools), for over-the-board games the
    estimate's own range (fitted on FIDE ratings)."""

    low: float | None
    high: float | None
    #: The conversions used, with their sources; or the fit's source.
    conversions: str
    note: str


#: What the estimate's scale is taken as for the conversion, and why it is rough.
FIDE_NOTE = (
    "rough: the estimate's scale (Lichess 2016-17, mostly 10+0) is taken as the Lichess blitz pool of "
    "the published conversion; the range spans the fit's value and FIDE's 1 March 2024 adjustment"
)
#: Over-the-board classical games: the range is the estimate's own, no conversion.
OTB_FIDE_NOTE = (
    "fitted on 455 over-the-board classical games of 2024-25 with FIDE standard ratings; "
    "no conversion (docs/strength.md)"
)
OTB_SOURCE = "over-the-board classical games of 2024-25 [OLSON-ELO]"


def fide_range(estimate: Estimate) -> FideRange:
    """The estimate's 80% range on the FIDE scale: its own for over-the-board classical games, else
    converted by every published Lichess blitz -> FIDE fit (an open end stays open)."""
    if estimate.kind == "otb":
        return FideRange(estimate.low, estimate.high, OTB_SOURCE, OTB_FIDE_NOTE)

    def converted(rating: float) -> list[tuple[float, float, str]]:
        value = max(MIN_RATING, min(MAX_RATING, rating))
        return [(c.low, c.high, c.conversion.source) for c in convert({Pool.LICHESS_BLITZ: value}, Pool.FIDE)]

    middle = converted(estimate.estimate)
    sources = "; ".join(dict.fromkeys(source for *_, source in middle))
    low = None if estimate.low is None else min(low for low, _, _ in converted(estimate.low))
    high = None if estimate.high is None else max(high for _, high, _ in converted(estimate.high))
    return FideRange(low, high, sources, FIDE_NOTE)


@dataclass(frozen=True)
class StrengthResult:
    analysis: AnalysisResult
    players: list[PlayerEstimate]
    #: Per game: (White's, Black's) estimate from that game alone.
    games: list[tuple[Estimate, Estimate]] = field(default_factory=list)


@dataclass(frozen=True)
class _EngineChoices:
    """The analysis options as checked: the engine's setting, where it runs, and what it may read."""

    setting: Setting
    workers: int
    scheduler: str | None
    scheduler_timeout: float
    pgn_evals: bool


def _engine_choices(inputs: AnalyseInputs, problems: Problems, *, strength: bool) -> _EngineChoices:
    """The options of ``inputs``, each bad one kept as a problem of its field."""
    model_depth = load_model().depth if strength else None
    depth = _whole(problems, "depth", inputs.depth, 1, MAX_DEPTH)
    workers = _whole(problems, "workers", inputs.workers, 1, MAX_WORKERS) or 1
    timeout = _whole(problems, "scheduler_timeout", inputs.scheduler_timeout, 1, MAX_SCHEDULER_TIMEOUT)
    scheduler = inputs.scheduler.strip() or None
    if scheduler is not None:
        problems.attempt(("scheduler",), scheduler, lambda: check_scheduler(scheduler))
    return _EngineChoices(
        setting=Setting(depth=depth or model_depth or Setting().depth),
        workers=workers,
        scheduler=scheduler,
        scheduler_timeout=float(timeout or SCHEDULER_TIMEOUT),
        pgn_evals=inputs.pgn_evals.strip().lower() not in {"no", "false", "0", "off"},
    )


def analyse_file(
    inputs: AnalyseInputs,
    problems: Problems,
    *,
    progress: Progress | None = None,
    strength: bool = False,
    stop: Stop | None = None,
) -> Outcome[AnalysisResult]:
    """Read the PGN and analyse every game; problems kept per field.

    A game the engine cannot analyse is left out and said (:func:`analysis_notes`); when none can
    be, the file is refused. ``stop`` ends the analysis early (a client gone).
    """
    choices = _engine_choices(inputs, problems, strength=strength)
    read = _read(inputs, problems)
    if inputs.cache:
        problems.attempt(("cache",), inputs.cache, lambda: check_cache(inputs.cache))
    if problems or read is None:
        return Outcome(None, problems)
    if inputs.max_positions is not None and not _positions_within(read, inputs, problems):
        return Outcome(None, problems)
    assert inputs.file is not None
    file_name = inputs.file.name
    stats = AnalysisStats()
    stop = stop or Stop(inputs.max_seconds)
    if stop.seconds is None:
        stop.seconds = inputs.max_seconds
    try:
        analyses = analyse_games(
            read.games,
            setting=choices.setting,
            cache_path=inputs.cache or ":memory:",
            workers=choices.workers,
            scheduler=choices.scheduler,
            # The estimator was fitted on the engine's own evaluations at its depth.
            use_pgn_evals=choices.pgn_evals and not strength,
            progress=progress,
            stats=stats,
            stop=stop,
            scheduler_timeout=choices.scheduler_timeout,
        )
        name = engine_name(None) if stats.positions else "[%eval] comments of the PGN"
    except (AnalysisStopped, RatingError, OSError) as error:
        _refuse_analysis(error, file_name, choices.scheduler, problems)
        return Outcome(None, problems)
    if not analyses and stats.failed:
        game, move = stats.failed[0]
        reason = f"the engine could not analyse any game (game {game}, move {move} first)"
        problems.add(
            ("file",),
            file_name,
            InvalidInputError(
                "file", file_name, reason, code="engine-failed", params={"game": game, "move": move}
            ),
        )
        return Outcome(None, problems)
    result = AnalysisResult(file_name, analyses, stats, choices.setting, name, read.cut, inputs.cut_plies)
    return Outcome(result, problems)


def _refuse_analysis(
    error: AnalysisStopped | RatingError | OSError, file_name: str, scheduler: str | None, problems: Problems
) -> None:
    """An analysis that ended early or could not run, as the problem of its field."""
    if isinstance(error, AnalysisStopped):
        refusal = InvalidInputError("file", file_name, str(error), code=error.code, params=error.params)
        problems.add(("file",), file_name, refusal)
    elif isinstance(error, InvalidInputError):
        problems.add((error.field,) if error.field == "scheduler" else ("engine",), error.value, error)
    elif isinstance(error, RatingError):
        problems.add(("engine",), "", error)
    elif scheduler:  # a scheduler that stops answering: said by a code (the system's words are English)
        refusal = InvalidInputError(
            "scheduler", scheduler, "the connection to the Dask scheduler failed", code="scheduler-lost"
        )
        problems.add(("scheduler",), scheduler, refusal)
    else:  # an engine that will not start: the system's reason a code (errors.file_reason), not strerror
        reason = file_reason(error)
        refusal = InvalidInputError(
            "engine",
            "",
            f"the engine could not be run: {reason.english}",
            code="engine-not-run",
            params={"reason": reason.code},
        )
        problems.add(("engine",), "", refusal)


def _positions_within(read: GamesRead, inputs: AnalyseInputs, problems: Problems) -> bool:
    """Whether the games' distinct positions are within ``inputs.max_positions`` (else a problem)."""
    assert inputs.file is not None
    assert inputs.max_positions is not None
    count = len({key for game in read.games for key in game_keys(game)[0]})
    if count <= inputs.max_positions:
        return True
    limit = inputs.max_positions
    reason = f"{count} positions to analyse, more than the {limit} one request may have"
    problems.add(
        ("file",),
        inputs.file.name,
        InvalidInputError(
            "file",
            inputs.file.name,
            reason,
            code="too-many-positions",
            params={"count": count, "limit": limit},
        ),
    )
    return False


def check_file(inputs: AnalyseInputs, problems: Problems) -> bool:
    """Whether the PGN can be read (the games' moves legal) and is within the caps; problems kept
    under ``file``."""
    read = _read(inputs, problems)
    if read is None:
        return False
    return inputs.max_positions is None or _positions_within(read, inputs, problems)


def strength_file(
    inputs: AnalyseInputs, problems: Problems, *, progress: Progress | None = None, stop: Stop | None = None
) -> Outcome[StrengthResult]:
    """Analyse at the model's depth and estimate every player (or ``inputs.player``)."""
    kind = problems.attempt(("kind",), inputs.kind, lambda: check_kind(inputs.kind))
    outcome = analyse_file(inputs, problems, progress=progress, strength=True, stop=stop)
    if outcome.result is None:
        return Outcome(None, problems)
    analyses = outcome.result.analyses
    player = inputs.player.strip() or None
    estimates = problems.attempt(
        ("player",), inputs.player, lambda: player_estimates(analyses, player, kind=kind)
    )
    if estimates is None:
        return Outcome(None, problems)
    if not estimates:
        problems.add(
            ("file",),
            outcome.result.filename,
            InvalidInputError(
                "file", outcome.result.filename, "no move to judge in the games", code="no-moves"
            ),
        )
        return Outcome(None, problems)
    per_game = [game_estimates(a, kind=kind) for a in analyses if a.white.moves and a.black.moves]
    return Outcome(StrengthResult(outcome.result, estimates, per_game), problems)


def _whole(problems: Problems, name: str, text: str, low: int, high: int) -> int | None:
    return problems.optional(
        (name,), text, lambda value: parse_count(value, field=name, minimum=low, maximum=high)
    )


def _read(inputs: AnalyseInputs, problems: Problems) -> GamesRead | None:
    upload, max_games = inputs.file, inputs.max_games
    if upload is None:
        problems.missing.append(("file",))
        return None
    if upload.too_large or upload.size > MAX_FILE:
        problems.add(("file",), upload.name, f"larger than {MAX_FILE} bytes")
        return None
    text = decode(upload.data)[0]
    if not text.strip():
        problems.add(("file",), upload.name, "empty")
        return None
    try:
        # One game over the cap is enough to refuse: reading stops there.
        read = read_games_cut(text, cut=inputs.cut_plies, max_games=max_games or MAX_GAMES)
    except FileFormatError as error:
        if error.code == "too-many-games" and max_games is not None:
            problems.add(
                ("file",),
                upload.name,
                f"more than {max_games} games",
                message=problems.t.gettext(
                    "At most %(count)s games at a time here; "
                    "the command line (chessrate strength) takes any number.",
                    count=max_games,
                ),
            )
            return None
        reason = f"not a PGN we can analyse: {error}"
        problems.add(
            ("file",),
            upload.name,
            InvalidInputError("file", upload.name, reason, code=error.code, params=dict(error.params)),
        )
        return None
    cut = inputs.cut_plies
    longer = [(n, p) for n, p in enumerate(read.plies, start=1) if cut is not None and p > cut]
    return GamesRead(read.games, longer)


# --- the JSON documents ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MoveDocument:
    ply: int
    san: str
    #: White's evaluation after the move: centipawns, or null with ``mate`` set.
    cp: int | None
    mate: int | None
    white_win_percent: float
    accuracy: float
    cp_loss: int
    judgement: str | None


@dataclass(frozen=True, kw_only=True)
class PlayerDocument:
    name: str
    colour: str
    moves: int
    accuracy: float | None
    acpl: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


@dataclass(frozen=True, kw_only=True)
class GameDocument:
    white: PlayerDocument
    black: PlayerDocument
    result: str
    source: str
    moves: list[MoveDocument]


@dataclass(frozen=True, kw_only=True)
class AnalysisDocument:
    file: str
    engine: str
    setting: str
    positions: int
    searched: int
    cache_hit_rate: float
    games: list[GameDocument]


@dataclass(frozen=True, kw_only=True)
class EstimateDocument:
    player: str
    estimate: int
    #: The 80% interval; an end is null when open (see ``reach``).
    low: int | None
    high: int | None
    games: int
    scale: str
    #: The kind of game assumed ("online" or "otb") and why.
    kind: str
    kind_reason: str
    #: Why an end is open, or which features lay beyond the range fitted on; null when neither.
    reach: str | None
    #: The 80% range on the FIDE scale (for online games rough; see ``fide_note``).
    fide_low: int | None
    fide_high: int | None
    fide_conversion: str
    fide_note: str


@dataclass(frozen=True, kw_only=True)
class StrengthDocument:
    players: list[EstimateDocument]


def _round(value: float | None, places: int = 1) -> float | None:
    return None if value is None else round(value, places)


def _player(summary: GameAnalysis, white: chess.Color) -> PlayerDocument:
    p = summary.player(white)
    return PlayerDocument(
        name=p.name,
        colour="white" if white else "black",
        moves=p.moves,
        accuracy=_round(p.accuracy),
        acpl=_round(p.acpl),
        inaccuracies=p.inaccuracies,
        mistakes=p.mistakes,
        blunders=p.blunders,
    )


def move_document(
    ply: int, san: str, after: int, win: float, accuracy: float, loss: int, judged: str | None
) -> MoveDocument:
    score = score_from_int(after)
    return MoveDocument(
        ply=ply,
        san=san,
        cp=None if score.is_mate() else score.score(),
        mate=score.mate() if score.is_mate() else None,
        white_win_percent=round(win, 2),
        accuracy=round(accuracy, 1),
        cp_loss=loss,
        judgement=judged,
    )


def analysis_document(result: AnalysisResult) -> AnalysisDocument:
    games = []
    for analysis in result.analyses:
        moves = [
            move_document(
                m.ply,
                m.san,
                m.after,
                m.win_after if m.white else 100 - m.win_after,
                m.accuracy,
                m.cp_loss,
                m.judgement.name.lower() if m.judgement else None,
            )
            for m in analysis.moves
        ]
        games.append(
            GameDocument(
                white=_player(analysis, chess.WHITE),
                black=_player(analysis, chess.BLACK),
                result=analysis.headers.get("Result", "*"),
                source=analysis.source,
                moves=moves,
            )
        )
    stats = result.stats
    return AnalysisDocument(
        file=Path(result.filename).name,
        engine=result.engine,
        setting=result.setting.key,
        positions=stats.positions,
        searched=stats.searched,
        cache_hit_rate=round(stats.hit_rate, 4),
        games=games,
    )


def _rounded(value: float | None) -> int | None:
    return None if value is None else round(value)


def estimate_document(player: str, estimate: Estimate, kind_reason: str = "") -> EstimateDocument:
    fide = fide_range(estimate)
    return EstimateDocument(
        player=player,
        estimate=round(estimate.estimate),
        low=_rounded(estimate.low),
        high=_rounded(estimate.high),
        games=estimate.games,
        scale=estimate.scale,
        kind=estimate.kind,
        kind_reason=kind_reason,
        reach=estimate.reach or None,
        fide_low=_rounded(fide.low),
        fide_high=_rounded(fide.high),
        fide_conversion=fide.conversions,
        fide_note=fide.note,
    )


def strength_document(result: StrengthResult) -> StrengthDocument:
    return StrengthDocument(
        players=[estimate_document(p.player, p.estimate, p.kind_reason) for p in result.players]
    )
