"""The tournament-file report as users ask for it: a TRF, PGN or CSV file in, every player's change out.

The command line's ``report``, the web page (``/report``), its CSV download and the API
(``POST /api/report``) all build a :class:`ReportInputs` and call :func:`tournament_file`, so they
share one validation. The file arrives as bytes, is read by
:func:`chessrate.formats.read_tournament`, and rated by :func:`chessrate.report.report_tournament`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass

from chessrate.errors import FileFormatError, RatingError
from chessrate.fide.rules import rules_in_force
from chessrate.formats import ReadResult, read_tournament, sniff_format
from chessrate.formats.text import decode
from chessrate.report import TournamentReport, read_k_file, report_tournament
from chessrate.requests import explanations
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


@dataclass(frozen=True, kw_only=True)
class FileInput:
    """A file as the user sent it: its name and bytes (cut at the limit when ``too_large``)."""

    name: str
    data: bytes
    size: int
    too_large: bool = False


@dataclass(frozen=True, kw_only=True)
class ReportInputs:
    """What the form or the API sent, as sent."""

    file: FileInput | None = None
    k_file: FileInput | None = None
    #: ``on``/``true``: refuse a file with any error (the command line's ``--strict``).
    strict: str = ""
    options: OptionInputs = dataclasses.field(default_factory=OptionInputs)


@dataclass(frozen=True, kw_only=True)
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
                reason=explanations.file_problem(error.code, error.params, error.reason, t),
            ),
        )
    except ValueError as error:  # a RatingError; also a reader's own slip on odd text (int("¹0"))
        return refuse(
            str(error), t.gettext("“%(name)s” could not be read: %(reason)s", name=name, reason=str(error))
        )
    if not read.tournament.players:
        reasons = "; ".join(
            explanations.file_problem(problem.code, problem.params, problem.message, t)
            for problem in read.errors
        ) or t.gettext("no players")
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
            start.isoformat(),
            error,
            message=problems.t.gettext(
                "The tournament started on %(day)s, before the first FIDE rules we know (1 July 2014): "
                "give the day whose rules to use.",
                day=problems.t.date(start),
            ),
        )
        return None
    return start
