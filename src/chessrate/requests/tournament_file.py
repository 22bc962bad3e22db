"""The tournament-file report as users ask for it: a TRF, PGN or CSV file in, every player's change out.

Its JSON document (:func:`report_document`) is the API's answer and ``report --format json``.

The command line's ``report``, the web page (``/report``), its CSV download and the API
(``POST /api/report``) all build a :class:`ReportInputs` and call :func:`tournament_file`, so they
share one validation. The file arrives as bytes, is read by
:func:`chessrate.formats.read_tournament`, and rated by :func:`chessrate.report.report_tournament`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chessrate.calculate import GameWorking
from chessrate.errors import FileFormatError, RatingError
from chessrate.fide.rules import rules_in_force
from chessrate.formats import ReadResult, read_tournament, sniff_format
from chessrate.formats.model import RatedGame
from chessrate.formats.text import decode
from chessrate.report import PlayerReport, TournamentReport, read_k_file, report_row, report_tournament
from chessrate.requests import explanations
from chessrate.requests.documents import Number, RuleSetDocument, maybe, number, rule_set_document
from chessrate.requests.language import Translator
from chessrate.requests.options import OptionInputs, Options, Outcome, resolve_options
from chessrate.requests.problems import Problems

#: Largest tournament file read: 20 MB. Our largest real TRF is 97 kB; a PGN of a big open with
#: every move is a few MB.
MAX_FILE = 20_000_000
#: Largest K file (``player,k`` lines) read.
MAX_SMALL_FILE = 1_000_000
_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"", "0", "false", "off", "no"}


@dataclass(kw_only=True)
class FileInput:
    """A file as the user sent it: its name and bytes (cut at the limit when ``too_large``)."""

    name: str
    data: bytes
    size: int
    too_large: bool = False


@dataclass(kw_only=True)
class ReportInputs:
    """What the form or the API sent, as sent."""

    file: FileInput | None = None
    k_file: FileInput | None = None
    #: ``on``/``true``: refuse a file with any error (the command line's ``--strict``).
    strict: str = ""
    options: OptionInputs = dataclasses.field(default_factory=OptionInputs)


@dataclass(kw_only=True)
class ReportResult:
    filename: str
    #: The file's text, sent back by the download form.
    text: str
    k_text: str
    read: ReadResult
    report: TournamentReport
    options: Options
    #: True when the rules' day is the tournament's start date (the date was left blank).
    day_from_file: bool


def tournament_file(inputs: ReportInputs, problems: Problems, *, today: dt.date) -> Outcome[ReportResult]:
    """Read the file, resolve the rule options and rate every player; problems kept per field."""
    strict = _strict(inputs.strict, problems)
    read, text = _read(inputs.file, problems, strict=strict)
    k_text, k_by_player = _k_file(inputs.k_file, problems)
    start = read.tournament.start_date if read is not None else None
    day_from_file = not inputs.options.as_of.strip() and start is not None
    default_day = _default_day(start, inputs.options, problems) if day_from_file else today
    options = resolve_options(inputs.options, problems, today=default_day or today)
    if problems or read is None or options is None:
        return Outcome(None, problems, options)
    if options.k is not None:  # one K for every player, unless the K file gives theirs
        k_by_player = {str(player.number): options.k for player in read.tournament.players} | k_by_player
    report = report_tournament(read, rules=options.rules, as_of=options.day, k_by_player=k_by_player)
    assert inputs.file is not None  # read is None without a file
    result = ReportResult(
        filename=inputs.file.name,
        text=text,
        k_text=k_text,
        read=read,
        report=report,
        options=options,
        day_from_file=day_from_file,
    )
    return Outcome(result, problems, options)


def _strict(text: str, problems: Problems) -> bool:
    value = text.strip().lower()
    if value in _FALSE:
        return False
    if value not in _TRUE:
        problems.add(("strict",), text, "use true or false")
    return True


def _read(upload: FileInput | None, problems: Problems, *, strict: bool) -> tuple[ReadResult | None, str]:
    """The file read, and its text; None with the problem under ``file``."""
    t = problems.t
    if upload is None:
        problems.missing.append(("file",))
        return None, ""
    name = upload.name

    def refuse(reason: str, message: str) -> tuple[None, str]:
        problems.add(("file",), name, reason, message=message)
        return None, ""

    if upload.too_large:
        size = t.fixed(max(upload.size, MAX_FILE + 1) / 1_000_000, 1)
        return refuse(
            f"larger than {MAX_FILE} bytes",
            t.gettext(
                "“%(name)s” is larger than %(limit)s MB (%(size)s MB): choose a smaller file.",
                name=name,
                limit=MAX_FILE // 1_000_000,
                size=size,
            ),
        )
    if not upload.data.strip():
        return refuse("empty", t.gettext("“%(name)s” is empty.", name=name))
    if b"\x00" in upload.data[:65536]:  # an image, a zip, a spreadsheet: no TRF, PGN or CSV has a NUL byte
        return refuse(
            "not a text file", t.gettext("“%(name)s” is not a text file.", name=name) + " " + _kinds(t)
        )
    text = decode(upload.data)[0]
    found = sniff_format(text, name=name)
    if found is None:
        return refuse(
            "not a TRF, PGN or CSV file",
            t.gettext("“%(name)s” is not a tournament file we know.", name=name) + " " + _kinds(t),
        )
    try:
        read = read_tournament(upload.data, format=found, strict=strict)
    except FileFormatError as error:  # strict: the first error refuses the file
        return refuse(
            str(error),
            t.gettext(
                "Refused, as asked, because the file has an error: %(where)s: %(reason)s",
                where=line_label(error.line, t),
                reason=error.reason,
            ),
        )
    except ValueError as error:  # a RatingError; also a reader's own slip on odd text (int("¹0"))
        return refuse(
            str(error), t.gettext("“%(name)s” could not be read: %(reason)s", name=name, reason=str(error))
        )
    if not read.tournament.players:
        reasons = "; ".join(problem.message for problem in read.errors) or "no players"
        return refuse(reasons, t.gettext("“%(name)s” has no players: %(reason)s", name=name, reason=reasons))
    return read, text


def _kinds(t: Translator) -> str:
    return t.gettext("Choose a FIDE TRF file (.trf), a PGN file (.pgn) or a CSV game list (.csv).")


def line_label(line: int | None, t: Translator) -> str:
    """``line 12`` or ``the whole file``, in the user's language."""
    return t.gettext("the whole file") if line is None else t.gettext("line %(line)s", line=line)


def _k_file(upload: FileInput | None, problems: Problems) -> tuple[str, dict[str, int]]:
    if upload is None:
        return "", {}
    t = problems.t
    if upload.too_large:
        problems.add(
            ("k_file",),
            upload.name,
            "too large",
            message=t.gettext(
                "“%(name)s” is larger than %(limit)s MB: choose a smaller file.", name=upload.name, limit=1
            ),
        )
        return "", {}
    text = upload.data.decode("utf-8-sig", errors="replace")
    table = problems.attempt(("k_file",), upload.name, lambda: read_k_file(text, origin=upload.name))
    if table is None:
        problem = problems.errors[("k_file",)]
        problems.errors[("k_file",)] = dataclasses.replace(
            problem, message=t.gettext("The K file could not be read: %(reason)s", reason=problem.reason)
        )
        return "", {}
    return text, table


def _default_day(start: dt.date | None, options: OptionInputs, problems: Problems) -> dt.date | None:
    """The tournament's start date, when the FIDE rules of that day are known; else the error."""
    if start is None:
        return None
    if (options.rules.strip().lower() or "fide") != "fide":
        return start
    try:
        rules_in_force(start)
    except RatingError as error:
        problems.add(
            ("as_of",),
            "",  # left blank: the day was the tournament's start
            f"the tournament started on {start.isoformat()}, but {getattr(error, 'reason', error)}: "
            "give the day whose rules to use",
            message=problems.t.gettext(
                "The tournament started on %(day)s, before the first FIDE rules we know (1 July 2014): "
                "give the day whose rules to use.",
                day=start.isoformat(),
            ),
        )
        return None
    return start


# --- the JSON document --------------------------------------------------------------------------


@dataclass(kw_only=True, eq=False)
class TournamentInfo:
    name: str | None
    file: str
    format: str
    start_date: str | None
    end_date: str | None
    rounds: int | None


@dataclass(kw_only=True, eq=False)
class RatedGameDocument:
    round: int | None
    opponent: int
    opponent_rating: int | None
    score: Number
    #: The working, when the player is rated.
    difference: Number | None = None
    raw_difference: Number | None = None
    capped: bool | None = None
    expected: Number | None = None
    change: Number | None = None


@dataclass(kw_only=True, eq=False)
class PlayerDocument:
    """A player's line: the CSV's columns, K in words and each game that counts."""

    start_number: int
    name: str
    fide_id: int | None
    title: str | None
    federation: str | None
    rating: int | None
    k: int | None
    k_reason: str | None
    k_explanation: str | None
    games: int
    games_against_unrated: int
    score: Number
    expected: Number | None
    capped_games: int
    change: Number | None
    rounded_change: int | None
    new_rating: Number | None
    performance: int | None
    initial_rating: int | None
    initial_reason: str | None
    games_rated: list[RatedGameDocument]


@dataclass(kw_only=True, eq=False)
class FileProblemDocument:
    line: int | None
    severity: str
    code: str
    message: str


@dataclass(kw_only=True, eq=False)
class ReportDocument:
    tournament: TournamentInfo
    #: The rule set's title (English).
    rules: str
    rule_set: RuleSetDocument
    as_of: str
    #: True when the rules' day is the tournament's start (no day was given).
    as_of_from_file: bool
    players: list[PlayerDocument]
    problems: list[FileProblemDocument]
    #: The problems as lines: ``line 12: …``.
    warnings: list[str]
    unknown_k_players: list[str]


def report_document(result: ReportResult, t: Translator) -> ReportDocument:
    report = result.report
    tournament = report.tournament
    return ReportDocument(
        tournament=TournamentInfo(
            name=tournament.name,
            file=result.filename,
            format=tournament.source_format,
            start_date=tournament.start_date.isoformat() if tournament.start_date else None,
            end_date=tournament.end_date.isoformat() if tournament.end_date else None,
            rounds=tournament.rounds,
        ),
        rules=report.rules.title,
        rule_set=rule_set_document(report.rules, t),
        as_of=report.as_of.isoformat(),
        as_of_from_file=result.day_from_file,
        players=[player_document(player, t) for player in report.players],
        problems=[
            FileProblemDocument(line=p.line, severity=p.severity.value, code=p.code, message=p.message)
            for p in result.read.problems
        ],
        warnings=list(report.warnings),
        unknown_k_players=list(report.unknown_k_keys),
    )


def player_document(player: PlayerReport, t: Translator) -> PlayerDocument:
    """The CSV's line (:func:`chessrate.report.report_row`), K in words and each game that counts."""
    worked = player.working.event.games if player.working else ()
    line: dict[str, Any] = {
        key: number(value) if isinstance(value, Decimal) else value
        for key, value in report_row(player).items()
    }
    return PlayerDocument(
        **line,
        k_explanation=explanations.k_reason(player.k, t) if player.k else None,
        games_rated=[
            _rated_game(game, worked[index] if index < len(worked) else None)
            for index, game in enumerate(player.rated_games)
        ],
    )


def _rated_game(game: RatedGame, working: GameWorking | None) -> RatedGameDocument:
    base = RatedGameDocument(
        round=game.round,
        opponent=game.opponent,
        opponent_rating=game.opponent_rating,
        score=number(game.score),
    )
    if working is None:
        return base
    return dataclasses.replace(
        base,
        difference=number(working.difference),
        raw_difference=number(working.raw_difference),
        capped=working.capped,
        expected=number(working.expected),
        change=maybe(working.change),
    )
