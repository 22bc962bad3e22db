"""The tournament-file report as users ask for it: a TRF, PGN or CSV file in, every player's change out.

Its JSON document (:func:`report_document`) is the API's answer and ``report --format json``.

The command line's ``report``, the web page (``/report``), its CSV download and the API
(``POST /api/report``) all build a :class:`ReportInputs` and call :func:`tournament_file`, so they
share one validation. The file arrives as bytes, is read by
:func:`chessrate.formats.read_tournament`, and rated by :func:`chessrate.tournament.report.report_tournament`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict  # pydantic reads only this one on Python 3.11

from chessrate.errors import FileFormatError, InvalidInputError
from chessrate.formats import ReadResult, read_tournament, sniff_format
from chessrate.formats.fide_list import LIST_TYPES, ListType
from chessrate.formats.model import Problem as FileProblem
from chessrate.formats.text import decode
from chessrate.parse import parse_date
from chessrate.service import explanations
from chessrate.service.documents import Number, RuleSetDocument, number, rule_set_document
from chessrate.service.language import Translator, said
from chessrate.service.options import OptionInputs, Options, Outcome, resolve_options
from chessrate.service.problems import Problems, input_reason
from chessrate.systems.elo.ruleset import RuleSet
from chessrate.systems.fide.k_factor import KFactor
from chessrate.systems.fide.regulations import versions_of
from chessrate.tournament.k_file import read_k_file
from chessrate.tournament.report import (
    RULES_OLDEST_KEPT,
    PlayerReport,
    PlayersList,
    TournamentReport,
    players_list_for,
    report_rule_set,
    report_tournament,
)
from chessrate.tournament.report_csv import report_row

#: Largest tournament file read: 20 MB. Our largest real TRF is 97 kB; a PGN of a big open with
#: every move is a few MB.
MAX_FILE = 20_000_000
#: Largest K file (``player,k`` lines) read.
MAX_SMALL_FILE = 1_000_000
#: Largest FIDE list uploaded: 64 MB, for FIDE's zipped combined list (``players_list.zip``, every
#: player with the three ratings; docs/fide-list.md, "Size"). The command line reads any size from disk.
MAX_LIST_FILE = 64_000_000
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
    #: FIDE's rating list: an upload, or a file on disk (the command line).
    players_list: FileInput | Path | None = None
    #: Which of the list's lists: ``standard`` (blank), ``rapid`` or ``blitz``.
    list_type: str = ""
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
    #: The FIDE list's name, when one was given.
    players_list_name: str = ""
    #: The players found in it, as a small list in FIDE's layout (the download form sends it back),
    #: and a name for it that keeps the list's month.
    players_list_text: str = ""
    players_list_text_name: str = "players_list.txt"
    #: With a FIDE list: how many of the file's players it holds, of those with a FIDE id.
    players_found: int = 0
    players_with_fide_id: int = 0
    list_type: ListType = "standard"
    #: The tournament is older than the oldest FIDE rules kept, which were used (the report warns).
    before_oldest_rules: bool = False


@dataclass(frozen=True)
class _ReportDay:
    """The day a report is of: the one typed, else the file's start; before the oldest FIDE rules
    kept, the options are resolved on that oldest day and the typed day is kept aside."""

    asked: dt.date | None
    from_file: bool
    is_fide: bool
    before_rules: bool
    option_inputs: OptionInputs
    resolve_at: dt.date

    @classmethod
    def of(
        cls, inputs: ReportInputs, read: ReadResult | None, list_type: ListType | None, *, today: dt.date
    ) -> _ReportDay:
        start = read.tournament.start_date if read is not None else None
        from_file = not inputs.options.as_of.strip() and start is not None
        asked = start if from_file else _asked_day(inputs.options.as_of)
        oldest = versions_of(list_type or "standard")[0].effective_from
        is_fide = (inputs.options.rules.strip().lower() or "fide") == "fide"
        before_rules = is_fide and asked is not None and asked < oldest
        return cls(
            asked=asked,
            from_file=from_file,
            is_fide=is_fide,
            before_rules=before_rules,
            option_inputs=dataclasses.replace(inputs.options, as_of="") if before_rules else inputs.options,
            resolve_at=oldest if before_rules else (start if from_file and start else today),
        )


def tournament_file(inputs: ReportInputs, problems: Problems, *, today: dt.date) -> Outcome[ReportResult]:
    """Read the file, resolve the rule options and rate every player; problems kept per field.

    A tournament older than the oldest FIDE rules kept is rated under those rules, with a warning
    (:func:`chessrate.tournament.report.report_rule_set`): its date is never asked for again.
    """
    strict = _strict(inputs.strict, problems)
    read, text = _read(inputs.file, problems, strict=strict)
    k_text, k_by_player = _k_file(inputs.k_file, problems)
    list_type = _list_type(inputs.list_type, problems)
    day = _ReportDay.of(inputs, read, list_type, today=today)
    options = resolve_options(day.option_inputs, problems, today=day.resolve_at)
    players_list = _players_list(inputs.players_list, read, list_type, problems)
    if problems or read is None or options is None or list_type is None:
        return Outcome(None, problems, options)
    options, notes = _rules_of_the_list(
        options, list_type, asked=day.asked if day.before_rules else None, is_fide=day.is_fide
    )
    report = report_tournament(
        read,
        rules=options.rules,
        as_of=options.day,
        k_by_player=k_by_player,
        k_for_everyone=options.k,  # one K for every player, unless the K file gives theirs
        players_list=players_list,
        notes=notes,
    )
    assert inputs.file is not None  # read is None without a file
    listed = inputs.players_list
    result = ReportResult(
        filename=inputs.file.name,
        text=text,
        k_text=k_text,
        read=read,
        report=report,
        options=options,
        day_from_file=day.from_file,
        players_list_name=listed.name if listed is not None else "",
        players_list_text=_extract_text(players_list),
        players_list_text_name=_extract_name(players_list),
        players_found=len(players_list.players) if players_list is not None else 0,
        players_with_fide_id=sum(1 for player in read.tournament.players if player.fide_id),
        list_type=list_type,
        before_oldest_rules=day.before_rules,
    )
    return Outcome(result, problems, options)


def _rules_of_the_list(
    options: Options, list_type: ListType, *, asked: dt.date | None, is_fide: bool
) -> tuple[Options, list[FileProblem]]:
    """FIDE's rules of the list (rapid and blitz have their own chapter); for a tournament of
    ``asked``, older than the oldest rules kept, those oldest rules, with the report's warning."""
    if asked is not None:
        rules, note = report_rule_set(None, day=asked, list_type=list_type)
        options = dataclasses.replace(options, rules=_with_user_choices(rules, options), day=asked)
        return options, [note] if note is not None else []
    if is_fide and list_type != "standard":
        rules, _ = report_rule_set(None, day=options.day, list_type=list_type)
        return dataclasses.replace(options, rules=_with_user_choices(rules, options)), []
    return options, []


def _asked_day(text: str) -> dt.date | None:
    """The day typed in ``as_of``, when it is one (its errors are resolve_options' to report)."""
    try:
        return parse_date(text, field="as_of") if text.strip() else None
    except InvalidInputError:
        return None


def _with_user_choices(rules: RuleSet, options: Options) -> RuleSet:
    """The oldest rules kept, with the user's choices of expected score and 400-point rule."""
    expected = options.rules.expected
    return rules.with_expected(expected).with_cap(options.cap_mode)


def _extract_text(players_list: PlayersList | None) -> str:
    if players_list is None:
        return ""
    # Only with a FIDE list: its writer imports xml.sax, whose urllib and ssl slow every start.
    from chessrate.formats.fide_list_synthetic import extract_text

    return extract_text(players_list.players.values())


def _extract_name(players_list: PlayersList | None) -> str:
    month = players_list.month if players_list else None
    return f"players_list_{month:%b%y}.txt".lower() if month else "players_list.txt"


def _list_type(text: str, problems: Problems) -> ListType | None:
    value = text.strip().lower() or "standard"
    for kind in LIST_TYPES:
        if value == kind:
            return kind
    problems.add(
        ("list_type",),
        text,
        "use standard, rapid or blitz",
        message=problems.t.gettext("Choose the standard, rapid or blitz list."),
    )
    return None


def _players_list(
    source: FileInput | Path | None, read: ReadResult | None, list_type: ListType | None, problems: Problems
) -> PlayersList | None:
    """FIDE's list looked up for the tournament's players; None, with the problem, when it cannot be."""
    if source is None or read is None or list_type is None:
        return None
    t = problems.t
    if isinstance(source, FileInput) and source.too_large:
        problems.add(
            ("players_list",),
            source.name,
            f"larger than {MAX_LIST_FILE} bytes",
            message=t.gettext(
                "“%(name)s” is larger than %(limit)s MB: choose a smaller file, or the zipped list.",
                name=source.name,
                limit=MAX_LIST_FILE // 1_000_000,
            ),
        )
        return None
    try:
        if isinstance(source, FileInput):
            return players_list_for(read, source.data, name=source.name, list_type=list_type)
        return players_list_for(read, source, list_type=list_type)
    except InvalidInputError as error:
        name = source.name
        problems.add(
            (error.field,),
            error.value,
            error.reason,
            message=t.gettext(
                "“%(name)s” is not a FIDE rating list we can use: %(reason)s",
                name=name,
                reason=input_reason(error.code, error.params, error.reason, t),
            ),
        )
        return None


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


#: A report's note or problem after its severity (Spanish, Catalan: as the command line prints it).
_SEVERITIES = {"warning": said("warning: %(note)s"), "error": said("error: %(note)s")}


def report_problems(report: TournamentReport) -> list[FileProblem]:
    """The report's notes and problems in the order of its English ``warnings``: the rules' note,
    the file's problems, the list's, the other notes."""
    first = [note for note in report.notes if note.code == RULES_OLDEST_KEPT]
    rest = [note for note in report.notes if note.code != RULES_OLDEST_KEPT]
    return [*first, *report.file_problems, *report.list_warnings, *rest]


def _said_where(problem: FileProblem, t: Translator) -> str:
    """A note or problem where it is (``line 12: …``), said from its code in ``t``'s language."""
    said = explanations.file_problem(problem.code, problem.params, problem.message, t)
    return said if problem.line is None else f"{line_label(problem.line, t)}: {said}"


def warning_lines(report: TournamentReport, t: Translator) -> list[str]:
    """The report's notes and problems, one line each, in ``t``'s language: in English the core's
    lines (``report.warnings``, unchanged: ``line 12: warning: …``, where the command line prints
    ``warning: line 12: …``); in another, each said from its code after its severity, as the command
    line prints it (``aviso: línea 12: …``)."""
    if t.language == "en":
        return list(report.warnings)
    return [
        _SEVERITIES[problem.severity.value](t, {"note": _said_where(problem, t)})
        for problem in report_problems(report)
    ]


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
            problem, message=t.gettext("The K file could not be read: %(reason)s", reason=problem.said)
        )
        return "", {}
    return text, table


# --- the JSON document --------------------------------------------------------------------------


@dataclass(kw_only=True, eq=False)
class TournamentInfo:
    name: str | None
    file: str
    format: str
    start_date: str | None
    end_date: str | None
    rounds: int | None


class RatedGameDocument(TypedDict):
    """One game that counts: a record (a dict) rather than a dataclass, as a report has one per game
    and side: pydantic-core writes a dict twice as fast (``docs/ratinglist.md``)."""

    round: int | None
    opponent: int
    opponent_rating: int | None
    score: Number
    #: The working, when the player is rated (else null).
    difference: Number | None
    raw_difference: Number | None
    capped: bool | None
    expected: Number | None
    change: Number | None


@dataclass(kw_only=True, eq=False)
class PlayerDocument:
    """A player's line: the CSV's columns, K in words and each game that counts."""

    start_number: int
    name: str
    fide_id: int | None
    title: str | None
    federation: str | None
    rating: int | None
    #: ``file``, or ``fide-list`` where the file has none and FIDE's list gave it.
    rating_source: str | None
    birth_year: int | None
    k: int | None
    #: Why K is what it is: the reason's code (docs/codes.md) and its values.
    k_reason: str | None
    k_params: dict[str, object] | None
    #: ``fide-list``, ``k-file``, ``profile`` or ``rating only``.
    k_source: str | None
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
    #: The problem in the request's language (the API's negotiated one; English on the command line).
    message: str
    #: The reader's own words, in English, whatever the language.
    reason: str


@dataclass(kw_only=True, eq=False)
class ReportDocument:
    tournament: TournamentInfo
    #: The rule set's title, in the request's language (English on the command line).
    rules: str
    rule_set: RuleSetDocument
    as_of: str
    #: True when the rules' day is the tournament's start (no day was given).
    as_of_from_file: bool
    players: list[PlayerDocument]
    problems: list[FileProblemDocument]
    #: The report's own notes (``rules-oldest-kept``, ``game-not-rated``, ``k-file-unknown-player``),
    #: each coded, in the request's language, with the English ``reason``.
    notes: list[FileProblemDocument]
    #: FIDE's list's problems and the ratings in it that differ from the file's
    #: (``list-rating-differs``); a ``line`` is the list's.
    list_problems: list[FileProblemDocument]
    #: Every note and problem as one line in the request's language (:func:`warning_lines`).
    warnings: list[str]
    unknown_k_players: list[str]
    #: FIDE's list given (``--players-list``), or None.
    players_list: str | None = None
    #: The list of it used: standard, rapid or blitz.
    list_type: str | None = None


def report_document(result: ReportResult, t: Translator) -> ReportDocument:
    report = result.report
    tournament = report.tournament
    numbers, explained = _Numbers(), dict[KFactor, str]()
    return ReportDocument(
        tournament=TournamentInfo(
            name=tournament.name,
            file=result.filename,
            format=tournament.source_format,
            start_date=tournament.start_date.isoformat() if tournament.start_date else None,
            end_date=tournament.end_date.isoformat() if tournament.end_date else None,
            rounds=tournament.rounds,
        ),
        rules=explanations.report_rules_title(report.rules, report.as_of, t),
        rule_set=rule_set_document(report.rules, t),
        as_of=report.as_of.isoformat(),
        as_of_from_file=result.day_from_file,
        players=[player_document(player, t, numbers, explained) for player in report.players],
        problems=[_problem_document(p, t) for p in result.read.problems],
        notes=[_problem_document(p, t) for p in report.notes],
        list_problems=[_problem_document(p, t) for p in report.list_warnings],
        warnings=warning_lines(report, t),
        unknown_k_players=list(report.unknown_k_keys),
        players_list=result.players_list_name or None,
        list_type=result.list_type if result.players_list_name else None,
    )


def _problem_document(problem: FileProblem, t: Translator) -> FileProblemDocument:
    return FileProblemDocument(
        line=problem.line,
        severity=problem.severity.value,
        code=problem.code,
        message=explanations.file_problem(problem.code, problem.params, problem.message, t),
        reason=problem.message,
    )


class _Numbers(dict[Decimal | None, Any]):
    """:func:`~chessrate.service.documents.number` of each decimal (None stays None), worked out
    once per document: a report of 70,000 games writes the same few scores, expected scores and
    changes again and again (equal decimals give the same number, whatever their exponent)."""

    def __missing__(self, value: Decimal | None) -> Number | None:
        self[value] = converted = None if value is None else number(value)
        return converted


def player_document(
    player: PlayerReport,
    t: Translator,
    numbers: _Numbers | None = None,
    k_explanations: dict[KFactor, str] | None = None,
) -> PlayerDocument:
    """The CSV's line (:func:`chessrate.tournament.report_csv.report_row`), K in words and each game
    that counts, with its working when the player was rated. ``numbers`` and ``k_explanations`` keep what a
    whole report writes again and again (a few K reasons for thousands of players)."""
    n = _Numbers() if numbers is None else numbers
    explained = {} if k_explanations is None else k_explanations
    k = player.k
    if k is not None and k not in explained:
        explained[k] = explanations.k_reason(k, t)
    line: dict[str, Any] = {
        key: n[value] if isinstance(value, Decimal) else value for key, value in report_row(player).items()
    }
    games = player.rated_games
    rated: list[RatedGameDocument] = [
        {
            "round": g.round,
            "opponent": g.opponent,
            "opponent_rating": g.opponent_rating,
            "score": n[g.score],
            "difference": n[g.difference],
            "raw_difference": n[g.raw_difference],
            "capped": g.capped,
            "expected": n[g.expected],
            "change": n[g.change],
        }
        for g in games
    ]
    return PlayerDocument(
        **line,
        k_explanation=explained[k] if k is not None else None,
        games_rated=rated,
    )
