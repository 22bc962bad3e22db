"""FIDE Tournament Report Files, TRF16 and TRF26 (with JaVaFo's and bbpPairings' extensions).

Columns and codes follow [TRF16] and [TRF26]: the ``001`` player record (identical in TRF16 and
TRF26), the ``xx2`` header records, and the quirks of real files [TRF-FILES]. Every
line is read on its own: a bad line becomes a :class:`~chessrate.formats.model.Problem` with its
number and the rest of the file is still read. The round cells of all the players are read at once
(:mod:`.trf_cells`), then made games, the pairings checked from both sides (:mod:`.trf_games`).
One read gives both the :class:`Tournament` (:func:`read_trf`) and the event an import stores
(:func:`read_trf_event`).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

from chessrate.formats import trf_games
from chessrate.formats.model import (
    EventRead,
    Player,
    Problem,
    ProblemLog,
    ReadResult,
    RoundCell,
    Severity,
    Tournament,
)
from chessrate.formats.scoring import Scoring
from chessrate.formats.text import (
    check_control_characters,
    control_character,
    decode,
    parse_loose_date,
    shown,
    split_lines,
)
from chessrate.formats.trf_cells import (
    COLOURS,
    FIRST_ROUND,
    KINDS,
    Cells,
    check_width,
    read_cells,
)
from chessrate.formats.trf_header import (
    TRF26_RECORDS,
    Header,
    check_counts,
    check_rounds,
    read_header,
    settle_dates,
)
from chessrate.parse import MAX_RATING, MIN_RATING, is_digits

#: One-letter and short titles seen in real files (``g``, ``m``, ``f``, ``wf``; [TRF-FILES]) read as FIDE
#: titles. No source spells the letters out; we read them the way the full titles
#: abbreviate.
TITLES = {
    "g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM",
    "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM", "wgm": "WGM", "wim": "WIM", "wfm": "WFM",
    "wcm": "WCM",
}  # fmt: skip
#: Errors, and warnings, with a line kept per file; beyond this they are counted (docs/security.md:
#: a hostile file of a few MB must not keep a problem a line in memory), as ``fide_list.MAX_PROBLEMS``.
#: Counted apart, so that a file's errors are listed after any number of warnings.
MAX_PROBLEMS = 1000


class _BoundedLog(ProblemLog):
    """A :class:`ProblemLog` keeping the first :data:`MAX_PROBLEMS` errors and warnings with a
    line each and counting the others (whole-file problems are all kept)."""

    def __init__(self) -> None:
        super().__init__(strict=False)
        self.kept = {Severity.ERROR: 0, Severity.WARNING: 0}
        self.left_out = 0
        self.errors_left_out = False

    def room(self) -> dict[Severity, int]:
        """How many more errors, and warnings, with a line are kept."""
        return {severity: MAX_PROBLEMS - kept for severity, kept in self.kept.items()}

    def keep(self, problems: list[Problem]) -> None:
        """Count ``problems`` kept outside :meth:`error` and :meth:`warning`."""
        for problem in problems:
            self.kept[problem.severity] += 1

    def leave_out(self, left_out: tuple[int, bool]) -> None:
        """``left_out``: how many problems, and whether an error is among them."""
        count, errors = left_out
        self.left_out += count
        self.errors_left_out |= errors

    def error(self, line: int | None, code: str, message: str, **params: object) -> None:
        if self._full(line, Severity.ERROR):
            return
        super().error(line, code, message, **params)

    def warning(self, line: int | None, code: str, message: str, **params: object) -> None:
        if self._full(line, Severity.WARNING):
            return
        super().warning(line, code, message, **params)

    def _full(self, line: int | None, severity: Severity) -> bool:
        """Whether a problem on ``line`` is left out (counted); else it is counted as kept."""
        if line is None:
            return False
        if self.kept[severity] >= MAX_PROBLEMS:
            self.leave_out((1, severity is Severity.ERROR))
            return True
        self.kept[severity] += 1
        return False

    def summary(self) -> None:
        """One whole-file problem saying how many were left out: an error if any of them was."""
        if not self.left_out:
            return
        message = (
            f"{self.left_out} more problems not listed (the first {MAX_PROBLEMS} errors and the first "
            f"{MAX_PROBLEMS} warnings are)"
        )
        params = {"count": self.left_out, "limit": MAX_PROBLEMS}
        if self.errors_left_out:
            super().error(None, "more-problems", message, **params)
        else:
            super().warning(None, "more-problems", message, **params)


def read_trf(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read a TRF16 or TRF26 file into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).

    With ``strict``, the first error raises :class:`~chessrate.errors.FileFormatError` (with its
    line).
    """
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    text, encoding = decode(source) if isinstance(source, bytes) else (source, "str")
    read = _read(text, strict=strict, encoding=encoding)
    header = read.header
    values = header.values
    tournament = Tournament(
        source_format=header.version,
        players=_with_cells(read.cells, read.lineup),
        games=read.games.games(header.round_dates),
        name=values.get("012"),
        place=values.get("022"),
        federation=values.get("032"),
        start_date=header.start_date,
        end_date=header.end_date,
        planned_rounds=header.planned_rounds,
        rounds=read.lineup.rounds,
        round_dates=header.round_dates,
        tournament_type=values.get("092"),
        chief_arbiter=values.get("102"),
        deputy_arbiters=tuple(header.deputies),
        time_control=values.get("122"),
        declared_players=header.declared_players,
        declared_rated_players=header.declared_rated,
        encoding=encoding,
    )
    return ReadResult(tournament, read.problems)


def read_trf_event(source: bytes) -> EventRead:
    """The event of a TRF file, its games as columns: ``EventRead.of(read_trf(source))`` but its
    players' round cells, from the same read."""
    text, encoding = decode(source)
    read = _read(text, strict=False, encoding=encoding)
    header = read.header
    return EventRead(
        source_format=header.version,
        name=header.values.get("012"),
        start_date=header.start_date,
        end_date=header.end_date,
        players=tuple(read.lineup.players),
        games=read.games.columns(),
        problems=read.problems,
    )


@dataclass
class _Records:
    """The ``001`` records read but their round cells, a list a field: the player, the line (cut
    at :data:`MAX_ROUNDS`), the scoring its cells are read under, and how many problems were found
    before them (theirs come next: :func:`_with_cell_problems`)."""

    players: list[Player] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    scorings: list[Scoring] = field(default_factory=list)
    problems_before: list[int] = field(default_factory=list)


class _Read(NamedTuple):
    """A TRF file read once: what both :func:`read_trf` and :func:`read_trf_event` are made of."""

    header: Header
    cells: Cells
    lineup: trf_games.Lineup
    games: trf_games.Games
    problems: tuple[Problem, ...]


def _read(text: str, *, strict: bool, encoding: str) -> _Read:
    """Every line read, then the round cells, the pairings and the declared counts and points.

    The problems are found in the order a reader going through the file line by line meets them
    (each cell's where its line's cells are), and returned in line order; with ``strict``, the first
    error found is raised.
    """
    log = _BoundedLog()
    header = Header()
    records = _Records()
    lines = split_lines(text)
    if encoding == "windows-1252":
        _utf8_lines(lines, log)
    if not any(line.strip() for line in lines):
        log.error(None, "empty-file", "the file is empty")
    if control_character(text) is not None:
        check_control_characters(lines, log)
    for number, line in enumerate(lines, start=1):
        _read_line(line, number, header, records, log)
    cells, cell_problems, left_out = read_cells(records.bodies, records.lines, records.scorings, log.room())
    log.leave_out(left_out)
    _with_cell_problems(log, records.problems_before, cell_problems)
    settle_dates(header, log)
    lineup = trf_games.lineup(*_unique_players(records.players, log), cells)
    check_rounds(header, lineup.rounds, log)
    games = trf_games.pair_games(cells, lineup, log)
    trf_games.check_points(cells, lineup, header.scoring.for_cell("", None), log)
    check_counts(header, list(lineup.players), log)
    if not records.players:
        log.error(None, "no-players", "the file has no 001 player record")
    log.summary()
    if strict:
        for problem in log.problems:
            if problem.severity is Severity.ERROR:
                raise problem.as_error()
    return _Read(header, cells, lineup, games, log.sorted())


def _utf8_lines(lines: list[str], log: ProblemLog) -> None:
    """In a file read as Windows-1252 (it is not all UTF-8), each line that is UTF-8 read as UTF-8
    (``Müller``, not ``MÃ¼ller``, its columns where its writer put them), with a warning."""
    for at, line in enumerate(lines):
        if line.isascii():
            continue
        try:
            utf8 = line.encode("cp1252").decode("utf-8")
        except UnicodeError:
            continue  # not UTF-8: Windows-1252 indeed
        lines[at] = utf8
        word = shown(next((word for word in utf8.split() if not word.isascii()), utf8.strip()))
        log.warning(
            at + 1,
            "mixed-encoding",
            f"this line is UTF-8 in a file that is not: read as UTF-8 ({word!r})",
            value=word,
        )


def _with_cell_problems(log: _BoundedLog, before: list[int], cell_problems: dict[int, list[Problem]]) -> None:
    """The problems of each line's cells put among the others where its cells are read."""
    if not cell_problems:
        return
    problems, done = [], 0
    for row, found in sorted(cell_problems.items()):
        problems += log.problems[done : before[row]] + found
        done = before[row]
        log.keep(found)
    log.problems[:] = problems + log.problems[done:]


def _unique_players(players: list[Player], log: ProblemLog) -> tuple[list[Player], list[int]]:
    """The players with distinct starting numbers and the places of their lines; a repeated number
    is an error (the first is kept)."""
    seen: dict[int, Player] = {}
    places = []
    for place, player in enumerate(players):
        first = seen.get(player.number)
        if first is not None:
            log.error(
                player.line,
                "repeated-player",
                f"starting number {player.number} already used on line {first.line}",
                player=player.number,
                other_line=first.line,
            )
            continue
        seen[player.number] = player
        places.append(place)
    return list(seen.values()), places


def _with_cells(cells: Cells, lineup: trf_games.Lineup) -> tuple[Player, ...]:
    """The players with their round cells as :class:`RoundCell` objects."""
    start, kept = lineup.start, lineup.kept
    opponent, colour, code = cells.opponent.tolist(), cells.colour.tolist(), cells.code.tolist()
    kind, points = cells.kind.tolist(), cells.points
    players = []
    for player, first, count in zip(lineup.players, start.tolist(), kept.tolist(), strict=True):
        line = player.line or 0
        round_cells = tuple(
            RoundCell(
                index - first + 1,
                opponent[index] or None,
                COLOURS[colour[index]],
                chr(code[index]).strip(),
                KINDS[kind[index]],
                points[index],
                line,
            )
            for index in range(first, first + count)
        )
        players.append(replace(player, cells=round_cells))
    return tuple(players)


def _read_line(line: str, number: int, header: Header, records: _Records, log: ProblemLog) -> None:
    if line.startswith("001") and (len(line) == 3 or line[3] == " "):
        _read_player(line, number, header, records, log)
        return
    if not line.strip() or line.startswith("###"):
        return  # blank lines and TRF26 comments
    record = line[:3]
    if (len(line) > 3 and line[3] != " ") or record[0] == " ":
        if re.fullmatch(r"[\d ]+", line):
            return  # a column ruler: "         1         2" or "1234567890..."
        log.warning(number, "unknown-line", f"not a TRF record: {shown(line)!r}", value=shown(line))
        return
    value = line[4:]
    if re.fullmatch(r"([A-Z])\1\1", record):
        return  # a legend such as "DDD SSSS sTTT NNNN..." (Sharly-Chess and TieBreakServer files)
    if record in TRF26_RECORDS:
        header.version = "TRF26"
        read_header(record, value, number, header, log)
    elif re.fullmatch(r"\d{3}|XX[A-Z]|BB[A-Z]", record):
        read_header(record, value, number, header, log)
    elif re.fullmatch(r"[A-Z]{3}", record) and re.fullmatch(r" *\d+", line[4:8]):
        return  # TRF26 national rating record: federation code and the 001 layout (§2.3)
    else:
        log.warning(number, "unknown-record", f"unknown record {record!r}", record=record)


def _read_player(line: str, number: int, header: Header, records: _Records, log: ProblemLog) -> None:
    """A ``001`` record: the player, their round cells to read."""
    padded = line.ljust(FIRST_ROUND)
    start_rank = padded[4:8].strip()
    if not is_digits(start_rank) or int(start_rank) == 0:
        log.error(
            number,
            "invalid-player",
            f"invalid starting number {start_rank!r} (columns 5-8)",
            value=start_rank,
            columns="5-8",
        )
        return
    sex = padded[9].strip().lower() or None
    if sex == "f":
        sex = "w"  # Sharly-Chess writes f for women; TRF16/TRF26 write w
    if sex not in (None, "m", "w"):
        log.warning(
            number, "invalid-sex", f"unknown sex {padded[9]!r} (column 10)", value=padded[9], columns="10"
        )
        sex = None
    title_text = padded[10:13].strip()
    title = TITLES.get(title_text.lower()) if title_text else None
    if title_text and title is None:
        log.warning(
            number,
            "unknown-title",
            f"unknown title {title_text!r} (columns 11-13)",
            value=title_text,
            columns="11-13",
        )
    name = padded[14:47].strip()
    if not name:
        log.warning(
            number,
            "no-name",
            f"player {int(start_rank)} has no name (columns 15-47)",
            player=int(start_rank),
            columns="15-47",
        )
    birth_year, birth_date = _birth(padded[69:79].strip(), number, log)
    body = check_width(line, number, "cells", log)
    problems_before = len(log.problems)
    # Whole numbers read in place where they are plain digits (as :func:`_number` reads them).
    rating, fide_id, rank = padded[48:52].strip(), padded[57:68].strip(), padded[85:89].strip()
    player = Player(
        number=int(start_rank),
        name=name,
        rating=_rating(rating, number, log),
        fide_id=(int(fide_id) or None)
        if fide_id.isdigit() and fide_id.isascii()
        else _number(fide_id, "FIDE ID", "58-68", number, log, zero_is_none=True),
        federation=padded[53:56].strip() or None,
        sex=sex,
        title=title,
        birth_year=birth_year,
        birth_date=birth_date,
        points=_points(padded[80:84], number, log),
        rank=(int(rank) or None)
        if rank.isdigit() and rank.isascii()
        else _number(rank, "rank", "86-89", number, log, zero_is_none=True),
        line=number,
    )
    records.players.append(player)
    records.bodies.append(body)
    records.lines.append(number)
    records.scorings.append(header.scoring)
    records.problems_before.append(problems_before)


def _rating(text: str, line: int, log: ProblemLog) -> int | None:
    """The rating of columns 49-52: ``None`` when blank or ``0``; above :data:`~chessrate.parse.MAX_RATING`
    an error (``invalid-rating``), as the PGN and CSV readers refuse it."""
    rating = (int(text) or None) if text.isdigit() and text.isascii() else None
    if rating is None:
        return _number(text, "rating", "49-52", line, log, zero_is_none=True)
    if rating > MAX_RATING:
        log.error(
            line,
            "invalid-rating",
            f"invalid rating {text!r} (columns 49-52): a rating is between {MIN_RATING} and {MAX_RATING}",
            value=text,
            columns="49-52",
            field="rating",
        )
        return None
    return rating


def _number(
    text: str, field_name: str, columns: str, line: int, log: ProblemLog, *, zero_is_none: bool
) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not is_digits(text):
        log.error(
            line,
            f"invalid-{field_name.lower().replace(' ', '-')}",
            f"invalid {field_name} {text!r} (columns {columns})",
            value=text,
            columns=columns,
            field=field_name,
        )
        return None
    value = int(text)
    return None if zero_is_none and value == 0 else value


def _points(text: str, line: int, log: ProblemLog) -> Decimal | None:
    text = text.strip()
    if not text:
        return None
    value = _points_value(text)
    if value is None:
        log.error(
            line,
            "invalid-points",
            f"invalid points {text!r} (columns 81-84)",
            value=text,
            columns="81-84",
        )
    return value


#: Declared points as TRF16 writes them, "in the form 11.5" [TRF16] (a comma too, as some files):
#: ASCII digits only, so no sign, exponent (``1e9``), ``nan`` or ``inf`` is taken for points.
_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


@functools.lru_cache(maxsize=1024)
def _points_value(text: str) -> Decimal | None:
    """Declared points (``8.5``, ``8,5``), ``None`` if not a number of points; each text read once:
    a file's players repeat a few scores."""
    if _POINTS.fullmatch(text) is None:
        return None
    return Decimal(text.replace(",", "."))


def _birth(text: str, line: int, log: ProblemLog) -> tuple[int | None, dt.date | None]:
    """Birth date: ``1969.12.06``, ``1990/01/01``, ``1978``, ``0000/00/00``, ``1987/00/00``."""
    if not text:
        return None, None
    birth = _birth_value(text)
    if birth is None:
        log.warning(
            line,
            "unreadable-birth-date",
            f"cannot read birth date {text!r} (columns 70-79)",
            value=text,
            columns="70-79",
        )
        return None, None
    return birth


@functools.lru_cache(maxsize=4096)
def _birth_value(text: str) -> tuple[int | None, dt.date | None] | None:
    """Year and date of a birth date, ``None`` if unreadable; each text read once (``0000/00/00``
    and the like repeat)."""
    match = _BIRTH.fullmatch(text)
    if match is None:
        return None
    year = int(match.group(1)) or None
    if year is None:
        return None, None  # 0000/00/00: not given
    if not BIRTH_YEARS[0] <= year <= BIRTH_YEARS[1]:
        return None  # 9999/99/99: no one's birth
    if match.group(2) is None:
        return year, None
    month, day = int(match.group(2)), int(match.group(3))
    if month == 0 or day == 0:
        return (year, None) if month <= 12 else None  # 1987/00/00: the year alone
    born = parse_loose_date(text)
    return None if born is None else (year, born)


#: The birth years taken as real (docs/formats.md); a date outside is a warning, and no year.
BIRTH_YEARS = (1850, 2100)
_BIRTH = re.compile(r"([0-9]{4})(?:[./-]([0-9]{1,2})[./-]([0-9]{1,2}))?")
