"""``chessrate analyse FILE.pgn`` and ``chessrate strength FILE.pgn``: the moves judged by Stockfish.

Both read the PGN into the request layer's :class:`~chessrate.service.strength.AnalyseInputs`,
as the web's "Strength from the moves" tab does; ``--json`` prints the same document as the API.
Progress goes to standard error as a Rich progress bar, so ``--json`` output stays clean.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from chessrate.cli import fetch_options as by_user
from chessrate.cli.app import app
from chessrate.cli.files import read_checked
from chessrate.cli.options import result_of
from chessrate.cli.output import fmt, print_document, print_table
from chessrate.service.language import ENGLISH
from chessrate.service.problems import Problems
from chessrate.service.strength import (
    AnalyseInputs,
    AnalysisResult,
    analyse_file,
    analysis_document,
    analysis_notes,
    strength_document,
    strength_file,
)
from chessrate.service.tournament_file import MAX_FILE, FileInput

# Read as text and checked by the request layer (parse_count), so that a bad value is said with
# its option's name and bounds, as on the web.
DepthOpt = Annotated[
    str | None,
    typer.Option(
        "--depth", metavar="N", help="Search depth, 1 to 30 (default 8; strength: the model's depth)."
    ),
]
WorkersOpt = Annotated[
    str, typer.Option("--workers", metavar="N", help="Engine processes on this machine, 1 to 64.")
]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", help="A Dask scheduler, tcp://HOST:PORT, to run the searches on.")
]
SchedulerTimeoutOpt = Annotated[
    str,
    typer.Option(
        "--scheduler-timeout", metavar="SECONDS", help="Longest wait for the scheduler to answer, 1 to 600."
    ),
]
CacheOpt = Annotated[
    Path | None, typer.Option("--cache", help="SQLite file that keeps evaluations between runs.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
#: Height of the terminal evaluation graph, in lines.
GRAPH_LINES = 8

err = Console(stderr=True)


def _file(path: Path) -> FileInput:
    data = read_checked(path, "file", MAX_FILE)
    return FileInput(name=str(path), data=data, size=len(data))


def _inputs(
    file: Path | FileInput,
    workers: str,
    scheduler: str | None,
    timeout: str,
    cache: Path | None,
    *,
    depth: str = "",
    player: str = "",
    kind: str = "",
) -> AnalyseInputs:
    """The options both commands share, as the request layer takes them (text, as typed)."""
    return AnalyseInputs(
        file=_file(file) if isinstance(file, Path) else file,
        depth=depth,
        workers=workers,
        scheduler=scheduler or "",
        scheduler_timeout=timeout,
        cache=str(cache) if cache else "",
        player=player,
        kind=kind,
    )


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar on standard error (hidden when it is not a terminal)."""
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@app.command()
def analyse(
    file: Annotated[Path | None, typer.Argument(help="A PGN file.", show_default=False)] = None,
    depth: DepthOpt = None,
    workers: WorkersOpt = "1",
    scheduler: SchedulerOpt = None,
    scheduler_timeout: SchedulerTimeoutOpt = "10",
    cache: CacheOpt = None,
    as_json: JsonOpt = False,
    lichess: by_user.LichessOpt = None,
    chesscom: by_user.ChesscomOpt = None,
    max_games: by_user.MaxOpt = "",
    speed: by_user.SpeedOpt = "",
    since: by_user.SinceOpt = "",
) -> None:
    """Every game judged by Stockfish: accuracy, ACPL, inaccuracies, mistakes, blunders, a graph."""
    source = by_user.fetched_games(file, lichess, chesscom, max_games, speed, since)  # issue 31: by username
    inputs = _inputs(source, workers, scheduler, scheduler_timeout, cache, depth=depth or "")
    with _progress("Analysing") as update:
        result = result_of(analyse_file(inputs, Problems(ENGLISH), progress=update))
    _say_notes(result)
    document = analysis_document(result)
    if as_json:
        print_document(document)
        return
    for number, game in enumerate(document.games, start=1):
        title = f"Game {number}: {game.white.name} - {game.black.name} {game.result} ({game.source})"
        rows = [
            [p.colour, p.name[:28], fmt(p.accuracy), fmt(p.acpl), str(p.inaccuracies), str(p.mistakes),
             str(p.blunders), str(p.moves)]
            for p in (game.white, game.black)
        ]  # fmt: skip
        columns = ["", "name", "accuracy %", "ACPL", "inaccuracies", "mistakes", "blunders", "moves"]
        print_table(title, columns, rows)
        sys.stdout.write(evaluation_graph([m.white_win_percent for m in game.moves]) + "\n\n")
    sys.stdout.write(
        f"{document.engine}, {document.setting}: {document.positions} positions, "
        f"{document.searched} searched, cache hit rate {document.cache_hit_rate:.0%}\n"
    )


def _say_notes(result: AnalysisResult) -> None:
    """Games cut or left out (the engine failed on them), one line each on standard error."""
    for note in analysis_notes(result, ENGLISH):
        err.print(f"warning: {note}", markup=False, highlight=False, soft_wrap=True)


def evaluation_graph(white_win_percents: Sequence[float], width: int = 100) -> str:
    """White's win% after each ply as columns of blocks, 50% marked; at most ``width`` columns."""
    if not white_win_percents:
        return ""
    step = max(1, -(-len(white_win_percents) // width))
    values = [white_win_percents[i] for i in range(0, len(white_win_percents), step)]
    lines = []
    for row in range(GRAPH_LINES, 0, -1):
        threshold = (row - 0.5) * 100 / GRAPH_LINES
        middle = row == GRAPH_LINES // 2
        cells = ["█" if v >= threshold else ("─" if middle else " ") for v in values]
        label = "100%" if row == GRAPH_LINES else (" 50%" if middle else "    ")
        lines.append(f"{label} │{''.join(cells)}")
    lines.append("     └" + "─" * len(values) + f" White's win%, {len(white_win_percents)} plies")
    return "\n".join(lines)


def interval_text(low: int | None, high: int | None) -> str:
    """An 80% interval as the terminal shows it: "1450 – 1900", "at least 2400", "at most 1100"."""
    if low is None and high is None:
        return "open"
    if high is None:
        return f"at least {low}"
    if low is None:
        return f"at most {high}"
    return f"{low} – {high}"


@app.command()
def strength(
    file: Annotated[Path | None, typer.Argument(help="A PGN file.", show_default=False)] = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only this player (name as in the PGN).")
    ] = None,
    kind: Annotated[
        str,
        typer.Option(
            "--kind",
            metavar="KIND",
            help="The kind of game: online (Lichess scale), otb (over-the-board classical, FIDE scale) "
            "or auto (from the TimeControl and Site tags).",
        ),
    ] = "auto",
    workers: WorkersOpt = "1",
    scheduler: SchedulerOpt = None,
    scheduler_timeout: SchedulerTimeoutOpt = "10",
    cache: CacheOpt = None,
    as_json: JsonOpt = False,
    lichess: by_user.LichessOpt = None,
    chesscom: by_user.ChesscomOpt = None,
    max_games: by_user.MaxOpt = "",
    speed: by_user.SpeedOpt = "",
    since: by_user.SinceOpt = "",
    both: by_user.BothOpt = False,
) -> None:
    """Each player's playing strength estimated from the moves alone, with an 80% interval."""
    source = by_user.fetched_games(file, lichess, chesscom, max_games, speed, since)  # issue 31: by username
    if not isinstance(source, Path) and player is None and not both:  # the user's, as --player USER
        player = lichess or chesscom
    inputs = _inputs(source, workers, scheduler, scheduler_timeout, cache, player=player or "", kind=kind)
    with _progress("Analysing") as update:
        result = result_of(strength_file(inputs, Problems(ENGLISH), progress=update))
    _say_notes(result.analysis)
    document = strength_document(result)
    if as_json:
        if player is not None:
            print_document(document.players[0])
        else:
            print_document(document)
        return
    rows = [
        [p.player[:28], str(p.estimate), interval_text(p.low, p.high), str(p.games),
         "over the board" if p.kind == "otb" else "online", interval_text(p.fide_low, p.fide_high)]
        for p in document.players
    ]  # fmt: skip
    lines = [f"Scale: {scale}." for scale in dict.fromkeys(p.scale for p in document.players)]
    lines += [
        f"FIDE: {note}; {source}."
        for note, source in dict.fromkeys((p.fide_note, p.fide_conversion) for p in document.players)
    ]
    lines += [
        f"Kind of game {'over the board' if kind == 'otb' else 'online'}: {reason}."
        for kind, reason in dict.fromkeys((p.kind, p.kind_reason) for p in document.players)
    ]
    lines += [f"{p.player}: {p.reach}." for p in document.players if p.reach]
    columns = ["name", "estimate", "80% interval", "games", "kind of game", "FIDE"]
    print_table("Strength from the moves", columns, rows, caption="\n".join(lines))
