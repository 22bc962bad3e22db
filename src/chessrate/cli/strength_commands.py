"""``chessrate analyse FILE.pgn`` and ``chessrate strength FILE.pgn``: the moves judged by Stockfish.

Both read the PGN into the request layer's :class:`~chessrate.service.strength.AnalyseInputs`,
as the web's "Strength from the moves" tab does; ``--json`` prints the same document as the API.
Progress goes to standard error as a Rich progress bar, so ``--json`` output stays clean.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from chessrate.cli import fetch_options as by_user
from chessrate.cli.app import app
from chessrate.cli.files import read_checked
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.options import result_of
from chessrate.cli.output import fmt, number, print_document, print_table
from chessrate.service.problems import Problems
from chessrate.service.strength import (
    AnalyseInputs,
    AnalysisResult,
    StrengthDocument,
    StrengthResult,
    analyse_file,
    analysis_document,
    analysis_notes,
    fide_range,
    strength_document,
    strength_file,
)
from chessrate.service.tournament_file import MAX_FILE, FileInput

# Read as text and checked by the request layer (parse_count), so that a bad value is said with
# its option's name and bounds, as on the web.
DepthOpt = Annotated[
    str | None,
    typer.Option(
        "--depth", metavar="N", help=N_("Search depth, 1 to 30 (default 8; strength: the model's depth).")
    ),
]
WorkersOpt = Annotated[
    str, typer.Option("--workers", metavar="N", help=N_("Engine processes on this machine, 1 to 64."))
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help=N_("A Dask scheduler, tcp://HOST:PORT, to run the searches on.")),
]
SchedulerTimeoutOpt = Annotated[
    str,
    typer.Option(
        "--scheduler-timeout",
        metavar="SECONDS",
        help=N_("Longest wait for the scheduler to answer, 1 to 600."),
    ),
]
CacheOpt = Annotated[
    Path | None, typer.Option("--cache", help=N_("SQLite file that keeps evaluations between runs."))
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print the result as JSON."))]
#: A player's side, as the analysis table says it.
COLOURS = {"white": N_("white"), "black": N_("black")}
#: Where a game's evaluations came from (``analysis.games``): the engine, or the PGN's own.
SOURCES = {"engine": N_("engine"), "pgn": N_("pgn")}
#: Height of the terminal evaluation graph, in lines.
GRAPH_LINES = 8

err = Console(stderr=True)


def _file(path: Path) -> FileInput:
    data = read_checked(path, "file", MAX_FILE)
    return FileInput(name=str(path), data=data, size=len(data))


FileArg = Annotated[Path | None, typer.Argument(help=N_("A PGN file."), show_default=False)]

#: The options both commands share, each with its default, in the order ``--help`` shows them
#: after the command's own: the engine's, then the games fetched by username (issue 31).
SHARED_OPTIONS: tuple[tuple[str, Any, object], ...] = (
    ("workers", WorkersOpt, "1"),
    ("scheduler", SchedulerOpt, None),
    ("scheduler_timeout", SchedulerTimeoutOpt, "10"),
    ("cache", CacheOpt, None),
    ("as_json", JsonOpt, False),
    ("lichess", by_user.LichessOpt, None),
    ("chesscom", by_user.ChesscomOpt, None),
    ("max_games", by_user.MaxOpt, ""),
    ("speed", by_user.SpeedOpt, ""),
    ("since", by_user.SinceOpt, ""),
)


@dataclass(frozen=True, kw_only=True)
class Games:
    """The games a command judges (a PGN file, or a user's fetched), with the shared options."""

    source: Path | FileInput
    #: The user whose games were fetched (None: a file).
    user: str | None
    workers: str
    scheduler: str | None
    scheduler_timeout: str
    cache: Path | None
    as_json: bool

    def inputs(self, *, depth: str = "", player: str = "", kind: str = "") -> AnalyseInputs:
        """The request layer's inputs (text, as typed)."""
        return AnalyseInputs(
            file=_file(self.source) if isinstance(self.source, Path) else self.source,
            depth=depth,
            workers=self.workers,
            scheduler=self.scheduler or "",
            scheduler_timeout=self.scheduler_timeout,
            cache=str(self.cache) if self.cache else "",
            player=player,
            kind=kind,
        )


def with_games(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command the PGN FILE argument and the shared options; it receives them as ``games``.

    The shared options come after the command's own, before its keyword-only ones (``--both``)."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "games"]
    leading = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    trailing = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
    file = inspect.Parameter(
        "file", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=FileArg, default=None
    )
    shared = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
        for name, annotation, default in SHARED_OPTIONS
    ]

    @functools.wraps(command)
    def run(**given: Any) -> None:
        lichess, chesscom = given.pop("lichess"), given.pop("chesscom")
        fetched = (given.pop("max_games"), given.pop("speed"), given.pop("since"))
        source = by_user.fetched_games(given.pop("file"), lichess, chesscom, *fetched)  # issue 31
        games = Games(
            source=source,
            user=None if isinstance(source, Path) else lichess or chesscom,
            **{
                name: given.pop(name)
                for name in ("workers", "scheduler", "scheduler_timeout", "cache", "as_json")
            },
        )
        command(games=games, **given)

    run.__signature__ = inspect.Signature([file, *leading, *shared, *trailing])  # type: ignore[attr-defined]
    return run


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None]]:
    """A Rich progress bar on standard error (hidden when it is not a terminal)."""
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(_("positions")),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@app.command(
    help=N_("Every game judged by Stockfish: accuracy, ACPL, inaccuracies, mistakes, blunders, a graph.")
)
@with_games
def analyse(depth: DepthOpt = None, *, games: Games) -> None:
    inputs = games.inputs(depth=depth or "")
    with _progress(_("Analysing")) as update:
        result = result_of(analyse_file(inputs, Problems(words()), progress=update))
    _say_notes(result)
    document = analysis_document(result)
    if games.as_json:
        print_document(document)
        return
    for place, game in enumerate(document.games, start=1):
        title = _(
            "Game %(number)s: %(white)s - %(black)s %(result)s (%(source)s)",
            number=place,
            white=game.white.name,
            black=game.black.name,
            result=game.result,
            source=_(SOURCES.get(game.source, game.source)),
        )
        rows = [
            [_(COLOURS[p.colour]), p.name[:28], fmt(p.accuracy), fmt(p.acpl), str(p.inaccuracies),
             str(p.mistakes), str(p.blunders), str(p.moves)]
            for p in (game.white, game.black)
        ]  # fmt: skip
        columns = [
            "",
            N_("name"),
            N_("accuracy %"),
            N_("ACPL"),
            N_("inaccuracies"),
            N_("mistakes"),
            N_("blunders"),
            N_("moves"),
        ]
        print_table(title, columns, rows)
        sys.stdout.write(evaluation_graph([m.white_win_percent for m in game.moves]) + "\n\n")
    sys.stdout.write(
        _(
            "%(engine)s, %(setting)s: %(positions)s positions, %(searched)s searched, "
            "cache hit rate %(rate)s",
            engine=document.engine,
            setting=document.setting,
            positions=document.positions,
            searched=document.searched,
            rate=number(f"{document.cache_hit_rate:.0%}"),
        )
        + "\n"
    )


def _say_notes(result: AnalysisResult) -> None:
    """Games cut or left out (the engine failed on them), one line each on standard error."""
    for note in analysis_notes(result, words()):
        err.print(_("warning: %(note)s", note=note), markup=False, highlight=False, soft_wrap=True)


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
    plies = _("White's win%%, %(plies)s plies", plies=len(white_win_percents))
    lines.append("     └" + "─" * len(values) + " " + plies)
    return "\n".join(lines)


def interval_text(low: int | None, high: int | None) -> str:
    """An 80% interval as the terminal shows it: "1450 – 1900", "at least 2400", "at most 1100"."""
    if low is None and high is None:
        return _("open")
    if high is None:
        return _("at least %(rating)s", rating=low)
    if low is None:
        return _("at most %(rating)s", rating=high)
    return f"{low} – {high}"


@app.command(help=N_("Each player's playing strength estimated from the moves alone, with an 80% interval."))
@with_games
def strength(
    player: Annotated[
        str | None, typer.Option("--player", help=N_("Only this player (name as in the PGN)."))
    ] = None,
    kind: Annotated[
        str,
        typer.Option(
            "--kind",
            metavar="KIND",
            help=N_(
                "The kind of game: online (Lichess scale), otb (over-the-board classical, FIDE scale) "
                "or auto (from the TimeControl and Site tags)."
            ),
        ),
    ] = "auto",
    *,
    both: by_user.BothOpt = False,
    games: Games,
) -> None:
    if games.user is not None and player is None and not both:  # the user's, as --player USER
        player = games.user
    inputs = games.inputs(player=player or "", kind=kind)
    with _progress(_("Analysing")) as update:
        result = result_of(strength_file(inputs, Problems(words()), progress=update))
    _say_notes(result.analysis)
    document = strength_document(result)
    if games.as_json:
        if player is not None:
            print_document(document.players[0])
        else:
            print_document(document)
        return
    rows = [
        [p.player[:28], str(p.estimate), interval_text(p.low, p.high), str(p.games),
         _("over the board") if p.kind == "otb" else _("online"), interval_text(p.fide_low, p.fide_high)]
        for p in document.players
    ]  # fmt: skip
    lines = _notes_in_english(document) if words().language == "en" else _notes(result)
    columns = [N_("name"), N_("estimate"), N_("80% interval"), N_("games"), N_("kind of game"), "FIDE"]
    print_table(_("Strength from the moves"), columns, rows, caption="\n".join(lines))


def _notes_in_english(document: StrengthDocument) -> list[str]:
    """What the estimates rest on, in the strength model's own words."""
    lines = [f"Scale: {scale}." for scale in dict.fromkeys(p.scale for p in document.players)]
    lines += [
        f"FIDE: {note}; {source}."
        for note, source in dict.fromkeys((p.fide_note, p.fide_conversion) for p in document.players)
    ]
    lines += [
        f"Kind of game {'over the board' if kind == 'otb' else 'online'}: {reason}."
        for kind, reason in dict.fromkeys((p.kind, p.kind_reason) for p in document.players)
    ]
    return lines + [f"{p.player}: {p.reach}." for p in document.players if p.reach]


#: What the estimates of a kind of game rest on, said from the catalogs (the strength model's
#: ``SCALE`` and ``FIDE_SCALE``, the request layer's ``FIDE_NOTE`` and ``OTB_FIDE_NOTE``).
SCALES = {
    "online": N_("Scale: Lichess rating (Glicko-2), 2016-17 pool, mostly 10+0 games."),
    "otb": N_("Scale: FIDE standard rating, over-the-board classical games of 2024-25."),
}
FIDE_NOTES = {
    "online": N_(
        "FIDE: rough: the estimate's scale (Lichess 2016-17, mostly 10+0) is taken as the Lichess blitz "
        "pool of the published conversion; the range spans the fit's value and FIDE's 1 March 2024 "
        "adjustment; %(source)s."
    ),
    "otb": N_(
        "FIDE: fitted on 455 over-the-board classical games of 2024-25 with FIDE standard ratings; "
        "no conversion (docs/strength.md); %(source)s."
    ),
}
KINDS = {
    "online": N_(
        "Kind of game online: a TimeControl under 1500 s (base + 40 x increment, lila's rule), or a "
        "web address in Site."
    ),
    "otb": N_(
        "Kind of game over the board: a classical TimeControl (1500 s or more), or none and no web "
        "address in Site."
    ),
}
KIND_NAMES = {"online": N_("online rapid/blitz"), "otb": N_("over-the-board classical")}


def _notes(result: StrengthResult) -> list[str]:
    """What the estimates rest on, in the command line's language: the scale, the FIDE range and
    the kind of each kind of game, and where an interval is open or a game beyond the fit."""
    estimates = [(p.player, p.estimate) for p in result.players]
    kinds = list(dict.fromkeys(estimate.kind for _player, estimate in estimates))
    lines = [_(SCALES[kind]) for kind in kinds]
    for kind in kinds:
        for source in dict.fromkeys(fide_range(e).conversions for _player, e in estimates if e.kind == kind):
            lines.append(_(FIDE_NOTES[kind], source=source))
    lines += [_(KINDS[kind]) for kind in kinds]
    for player, estimate in estimates:
        notes = []
        if estimate.high is None:
            notes.append(_(OPEN_ABOVE, player=player, rating=round(estimate.reach_high)))
        if estimate.low is None:
            notes.append(_(OPEN_BELOW, player=player, rating=round(estimate.reach_low)))
        if estimate.beyond:
            kind = _(KIND_NAMES[estimate.kind])
            features = ", ".join(estimate.beyond)
            notes.append(_(BEYOND, player=player, kind=kind, features=features))
        lines += notes
    return lines


#: The web's words for an open end (templates/strength.html), and the fit's range.
OPEN_ABOVE = N_(
    "%(player)s: open above: these moves fit the strongest players the model was fitted on (about "
    "%(rating)s and above), so it cannot tell how much stronger."
)
OPEN_BELOW = N_(
    "%(player)s: open below: these moves fit the weakest players the model was fitted on (about "
    "%(rating)s and below), so it cannot tell how much weaker."
)
BEYOND = N_("%(player)s: beyond the range of the %(kind)s games fitted on: %(features)s.")
