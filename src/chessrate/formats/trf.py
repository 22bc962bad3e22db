"""FIDE Tournament Report Files, TRF16 and TRF26 (with JaVaFo's and bbpPairings' extensions).

Columns and codes follow [TRF16] and [TRF26]: the ``001`` player record (identical in TRF16 and
TRF26), the ``xx2`` header records, and the quirks of real files [TRF-FILES]. Every
line is read on its own: a bad line becomes a :class:`~chessrate.formats.model.Problem` with its
number and the rest of the file is still read. The pairings are then checked from both sides
(:mod:`chessrate.formats.checks`).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING

from chessrate.formats import checks
from chessrate.formats.model import (
    Colour,
    EventRead,
    GameColumns,
    Kind,
    Player,
    ProblemLog,
    ReadResult,
    RoundCell,
    Tournament,
)
from chessrate.formats.scoring import Scoring, apply_162, apply_bbp, apply_xxs
from chessrate.formats.text import (
    check_control_characters,
    control_character,
    decode,
    other_reading,
    parse_loose_date,
    proven_order,
    split_lines,
)
from chessrate.parse import MAX_RATING, MIN_RATING, is_digits

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: Header records whose value we keep (TRF16; 042/052 dates in any form, §2.4).
_TEXT_HEADERS = {
    "012": "name",
    "022": "place",
    "032": "federation",
    "092": "tournament_type",
    "102": "chief_arbiter",
    "122": "time_control",
}
#: Records that TRF26 introduced (§2.3): their presence makes a file TRF26.
TRF26_RECORDS = frozenset({
    "142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299",
    "300", "310", "320", "330", "352", "362", "801", "802",
})  # fmt: skip
_BBP_SCORING = frozenset({"BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"})
_RESULT_CODES = frozenset("1=0+-WDLHFUZ")

#: One-letter and short titles seen in real files (``g``, ``m``, ``f``, ``wf``; [TRF-FILES]) read as FIDE
#: titles. No source spells the letters out; we read them the way the full titles
#: abbreviate.
TITLES = {
    "g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM",
    "gm": "GM", "im": "IM", "fm": "FM", "cm": "CM", "wgm": "WGM", "wim": "WIM", "wfm": "WFM",
    "wcm": "WCM",
}  # fmt: skip

_FIRST_ROUND = 91  # 0-based index of column 92, where round 1 starts (§2.2)
_ROUND_WIDTH = 10
#: The most rounds a line may hold. No source limits a tournament's rounds; our bound is 99, more
#: than a double round robin of 50 players has (2 x 49 = 98). A line beyond it is an error and
#: its cells after round 99 are not read (one wide line would pad every player to its width).
MAX_ROUNDS = 99
#: The fast path pads every line to the longest (:func:`_cell_columns`): when that would hold more
#: than this many times the file's cells, the exact reader, which makes no absent cell, reads it.
PADDING_LIMIT = 4


def _round_count(body: str) -> int:
    """How many ten-column round blocks a line (trailing blanks stripped) reaches into."""
    return max(0, -(-(len(body) - _FIRST_ROUND) // _ROUND_WIDTH))


def _check_width(body: str, number: int, what: str, log: ProblemLog) -> str:
    """``body`` cut after round :data:`MAX_ROUNDS`; a line reaching further is an error."""
    count = _round_count(body)
    if count <= MAX_ROUNDS:
        return body
    log.error(
        number,
        "too-many-rounds",
        f"{what} for {count} rounds, more than the {MAX_ROUNDS} a file may have",
        count=count,
        limit=MAX_ROUNDS,
    )
    return body[: _FIRST_ROUND + MAX_ROUNDS * _ROUND_WIDTH].rstrip()


@dataclass
class _Header:
    values: dict[str, str] = field(default_factory=dict)
    deputies: list[str] = field(default_factory=list)
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    planned_rounds: int | None = None
    declared_players: int | None = None
    declared_rated: int | None = None
    round_dates: tuple[dt.date | None, ...] = ()
    scoring: Scoring = field(default_factory=Scoring)
    version: str = "TRF16"
    lines: dict[str, int] = field(default_factory=dict)
    """The line of the first occurrence of each record."""
    date_texts: dict[str, tuple[int, str]] = field(default_factory=dict)
    """The line and text of the dates 042 and 052 read (the last of each)."""
    parsed_cell_cache: dict[str, _ParsedCell] = field(default_factory=dict)
    """Round cells read without a problem under the current scoring, by their ten columns: a
    tournament's cells repeat (opponent, colour, result), so each is read once."""


def read_trf(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read a TRF16 or TRF26 file into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).

    With ``strict``, the first error raises :class:`~chessrate.errors.FileFormatError` (with its
    line).
    """
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    text, encoding = decode(source) if isinstance(source, bytes) else (source, "str")
    log = ProblemLog(strict=strict)
    header = _Header()
    players: list[Player] = []
    lines = split_lines(text)
    if not any(line.strip() for line in lines):
        log.error(None, "empty-file", "the file is empty")
    check_control_characters(lines, log)
    for number, line in enumerate(lines, start=1):
        _read_line(line, number, header, players, log)
    return _finish(header, players, encoding, log)


def _read_line(line: str, number: int, header: _Header, players: list[Player], log: ProblemLog) -> None:
    if not line.strip() or line.startswith("###"):
        return  # blank lines and TRF26 comments
    record = line[:3]
    if (len(line) > 3 and line[3] != " ") or record[0] == " ":
        if re.fullmatch(r"[\d ]+", line):
            return  # a column ruler: "         1         2" or "1234567890..."
        log.warning(number, "unknown-line", f"not a TRF record: {line[:20]!r}", value=line[:20])
        return
    value = line[4:]
    if record == "001":
        player = _read_player(line, number, header, log)
        if player is not None:
            players.append(player)
    elif re.fullmatch(r"([A-Z])\1\1", record):
        return  # a legend such as "DDD SSSS sTTT NNNN..." (Sharly-Chess and TieBreakServer files)
    elif record in TRF26_RECORDS:
        header.version = "TRF26"
        _read_header(record, value, number, header, log)
    elif re.fullmatch(r"\d{3}|XX[A-Z]|BB[A-Z]", record):
        _read_header(record, value, number, header, log)
    elif re.fullmatch(r"[A-Z]{3}", record) and re.fullmatch(r" *\d+", line[4:8]):
        return  # TRF26 national rating record: federation code and the 001 layout (§2.3)
    else:
        log.warning(number, "unknown-record", f"unknown record {record!r}", record=record)


def _read_header(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    header.lines.setdefault(record, number)
    read = _HEADER_READERS.get(record)
    if read is not None:
        read(record, value, number, header, log)
    elif record not in _KNOWN_UNUSED:
        log.warning(number, "unknown-record", f"unknown record {record!r}", record=record)


def _text_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    text = value.strip()
    if record in header.values:
        log.warning(
            number, "repeated-record", f"record {record} repeated; the first one is kept", record=record
        )
    elif text:
        header.values[record] = text


def _deputy_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    if value.strip():
        header.deputies.append(value.strip())


def _date_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    text = value.strip()
    day = parse_loose_date(text)
    if text and day is None:
        log.warning(
            number,
            "unreadable-date",
            f"cannot read the date {text!r} of record {record}",
            value=text,
            record=record,
        )
    if day is not None:
        header.date_texts[record] = (number, text)
    if record == "042":
        header.start_date = day
    else:
        header.end_date = day


def _settle_dates(header: _Header, log: ProblemLog) -> None:
    """Dates 042/052 whose day and month could be either way round (``02/03/2024``): read month
    first when the file's other date is written so (``10/24/2010``), day first when it shows that
    order (``24/09/2010``, as :func:`parse_loose_date` reads them), else a warning naming both
    readings (``ambiguous-date``; the start date chooses the rating rules)."""
    orders = {proven_order(text) for _, text in header.date_texts.values()} - {None}
    for record, (number, text) in sorted(header.date_texts.items()):
        other = other_reading(text)
        if other is None or orders == {"day"}:
            continue
        if orders == {"month"}:
            if record == "042":
                header.start_date = other
            else:
                header.end_date = other
            continue
        day = header.start_date if record == "042" else header.end_date
        log.warning(
            number,
            "ambiguous-date",
            f"the date {text!r} of record {record} is {day} read day first (as taken) or {other} read "
            "month first"
            + ("; it chooses the rating rules unless --as-of gives their date" if record == "042" else ""),
            value=text,
            record=record,
            taken=str(day),
            other=other.isoformat(),
        )


def _count_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    text = value.strip()
    count = re.match(r"\d+", text)  # "15 (12)" in TieBreakServer's fixture: the first number
    if count is not None and not is_digits(count.group()):
        count = None  # more digits than any count has
    if text and count is None:
        log.warning(
            number,
            "unreadable-count",
            f"record {record} is not a number: {text!r}",
            value=text,
            record=record,
        )
    elif count is not None and record == "062":
        header.declared_players = int(count.group())
    elif count is not None:
        header.declared_rated = int(count.group())


def _round_dates_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    header.round_dates = _round_dates(value, number, log)


def _rounds_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    text = value.strip()
    if is_digits(text) and int(text) > MAX_ROUNDS:
        log.error(
            number,
            "invalid-rounds",
            f"record {record} announces {text} rounds, more than the {MAX_ROUNDS} a file may have",
            value=text,
            record=record,
            limit=MAX_ROUNDS,
        )
    elif is_digits(text) and int(text) > 0:
        header.planned_rounds = int(text)
    else:
        log.error(
            number,
            "invalid-rounds",
            f"invalid number of rounds {text!r} in record {record}",
            value=text,
            record=record,
        )


def _alias_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    """TRF26's 192 (type of tournament) and 222 (time control), TRF16's 092 and 122."""
    header.values.setdefault("092" if record == "192" else "122", value.strip())


def _scoring_record(record: str, value: str, number: int, header: _Header, log: ProblemLog) -> None:
    header.parsed_cell_cache.clear()  # read under the scoring before
    if record == "162":
        header.scoring, unread = apply_162(header.scoring, value)
    elif record == "XXS":
        header.scoring, unread = apply_xxs(header.scoring, value)
    else:
        header.scoring, unread = apply_bbp(header.scoring, record, value)
    if unread:
        log.warning(
            number, "unread-scoring", f"scoring not understood: {', '.join(unread)}", value=", ".join(unread)
        )


_HeaderReader = Callable[[str, str, int, _Header, ProblemLog], None]
#: The reader of each header record we keep (§2.3).
_HEADER_READERS: dict[str, _HeaderReader] = {
    **dict.fromkeys(_TEXT_HEADERS, _text_record),
    "112": _deputy_record,
    "042": _date_record,
    "052": _date_record,
    "062": _count_record,
    "072": _count_record,
    "132": _round_dates_record,
    "142": _rounds_record,
    "XXR": _rounds_record,
    "192": _alias_record,
    "222": _alias_record,
    **dict.fromkeys(("162", "XXS", *_BBP_SCORING), _scoring_record),
}
#: Records we know and do not need: team records, pairing-program data, tie-break lists, national
#: ratings (the TRF26 records we do not read, and these).
_KNOWN_UNUSED = frozenset({"082", "013", "XXC", "XXZ", "XXA", "XXP", "DAT"}) | (
    TRF26_RECORDS - _HEADER_READERS.keys()
)


def _round_dates(value: str, number: int, log: ProblemLog) -> tuple[dt.date | None, ...]:
    """Record 132: round dates ``YY/MM/DD`` aligned with the cells (columns 92-99, 102-109...)."""
    line = _check_width(("    " + value).rstrip(), number, "dates", log)
    dates: list[dt.date | None] = []
    start = _FIRST_ROUND
    while start < len(line):
        text = line[start : start + 8].strip()
        day = parse_loose_date(text, year_first_two_digits=True)
        if text and day is None:
            log.warning(number, "unreadable-date", f"cannot read round date {text!r}", value=text)
        dates.append(day)
        start += _ROUND_WIDTH
    return tuple(dates)


_CellsReader = Callable[[str, int, _Header, ProblemLog], tuple[RoundCell, ...]]


def _read_player(
    line: str, number: int, header: _Header, log: ProblemLog, read_cells: _CellsReader | None = None
) -> Player | None:
    """A ``001`` record; its round cells read by ``read_cells`` (:func:`_read_cells` by default)."""
    padded = line.ljust(_FIRST_ROUND)
    start_rank = padded[4:8].strip()
    if not is_digits(start_rank) or int(start_rank) == 0:
        log.error(
            number,
            "invalid-player",
            f"invalid starting number {start_rank!r} (columns 5-8)",
            value=start_rank,
            columns="5-8",
        )
        return None
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
    cells = (read_cells or _read_cells)(line, number, header, log)
    # Whole numbers read in place where they are plain digits (as :func:`_number` reads them).
    rating, fide_id, rank = padded[48:52].strip(), padded[57:68].strip(), padded[85:89].strip()
    return Player(
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
        cells=cells,
        line=number,
    )


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
            line, "invalid-points", f"invalid points {text!r} (columns 81-84)", value=text, columns="81-84"
        )
    return value


@functools.lru_cache(maxsize=1024)
def _points_value(text: str) -> Decimal | None:
    """Declared points (``8.5``, ``8,5``), ``None`` if not a number of points; each text read once:
    a file's players repeat a few scores."""
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None
    return value if value.is_finite() and value >= 0 else None


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
    if year is None or match.group(2) is None:
        return year, None
    return year, parse_loose_date(text)


_BIRTH = re.compile(r"(\d{4})(?:[./-](\d{1,2})[./-](\d{1,2}))?")


#: A round cell read, but its round and line: opponent, colour, code, kind, points.
_ParsedCell = tuple[int | None, "Colour | None", str, Kind, Decimal]


def _read_cells(line: str, number: int, header: _Header, log: ProblemLog) -> tuple[RoundCell, ...]:
    cells = []
    body = _check_width(line.rstrip(), number, "cells", log)
    start = _FIRST_ROUND
    round_number = 1
    known = header.parsed_cell_cache
    while start < len(body):
        block = body[start - 2 : start + 8].ljust(10)
        seen = known.get(block)
        if seen is not None:
            cells.append(RoundCell(round_number, *seen, number))
        else:
            problems = len(log.problems)
            cell = _read_cell(block, round_number, number, start + 1, header.scoring, log)
            if len(log.problems) == problems:
                known[block] = (cell.opponent, cell.colour, cell.code, cell.kind, cell.points)
            cells.append(cell)
        start += _ROUND_WIDTH
        round_number += 1
    return tuple(cells)


def _read_cell(
    block: str, round_number: int, line: int, column: int, scoring: Scoring, log: ProblemLog
) -> RoundCell:
    """One round: two separating blanks, opponent (4 columns), blank, colour, blank, result."""
    where = f"round {round_number} (columns {column}-{column + 7})"
    at: dict[str, object] = {"round": round_number, "columns": f"{column}-{column + 7}"}
    opponent_text, colour_text, code_text = block[2:6].strip(), block[7], block[9].upper()
    if block[:2].strip() or block[6] != " " or block[8] != " ":
        log.error(
            line,
            "misaligned-cell",
            f"{where}: {block[2:].strip()!r} is not in the TRF columns",
            value=block[2:].strip(),
            **at,
        )
        return RoundCell(round_number, None, None, "", Kind.NOT_PAIRED, Decimal(0), line)
    opponent: int | None = None
    if opponent_text:
        if not is_digits(opponent_text):
            log.error(
                line,
                "invalid-opponent",
                f"{where}: invalid opponent {opponent_text!r}",
                value=opponent_text,
                **at,
            )
        else:
            opponent = int(opponent_text) or None  # 0000 or 0: no opponent (§2.4)
    colour: Colour | None = None
    if colour_text in "wWbB" and colour_text != " ":
        colour = "w" if colour_text in "wW" else "b"
    elif colour_text not in "- ":
        log.error(line, "invalid-colour", f"{where}: invalid colour {colour_text!r}", value=colour_text, **at)
    code = code_text.strip()
    if code and code not in _RESULT_CODES:
        log.error(line, "invalid-result", f"{where}: invalid result {block[9]!r}", value=block[9], **at)
        code = ""
    kind = _kind(code, opponent, where, line, log, at)
    if kind is Kind.BYE and opponent is not None:
        log.error(
            line,
            "bye-with-opponent",
            f"{where}: bye {code!r} with opponent {opponent}",
            value=code,
            opponent=opponent,
            **at,
        )
        opponent = None
    points = Decimal(0) if kind is Kind.UNFINISHED else scoring.for_cell(code, colour)
    return RoundCell(round_number, opponent, colour, code, kind, points, line)


def _kind(
    code: str, opponent: int | None, where: str, line: int, log: ProblemLog, at: dict[str, object]
) -> Kind:
    if code == "":
        if opponent is not None:
            log.warning(
                line,
                "no-result",
                f"{where}: paired with {opponent} but no result yet",
                opponent=opponent,
                **at,
            )
            return Kind.UNFINISHED
        return Kind.NOT_PAIRED
    if code in "+-":
        return Kind.FORFEIT
    if code in "HFUZ":
        return Kind.BYE
    if opponent is None:
        log.error(
            line, "result-without-opponent", f"{where}: result {code!r} without an opponent", value=code, **at
        )
        return Kind.BYE
    return Kind.PLAYED if code in "1=0" else Kind.SHORT


def _check_rounds(header: _Header, rounds: int, log: ProblemLog) -> None:
    planned, lines = header.planned_rounds, header.lines
    if planned is not None and rounds > planned:
        line = lines.get("142", lines.get("XXR"))
        log.warning(
            line,
            "too-many-rounds",
            f"cells for {rounds} rounds; the file announces {planned}",
            count=rounds,
            planned=planned,
        )


def _check_counts(header: _Header, players: list[Player], log: ProblemLog) -> None:
    lines = header.lines
    checks.check_counts(
        players,
        (header.declared_players, lines.get("062")),
        (header.declared_rated, lines.get("072")),
        log,
    )


def _finish(header: _Header, players: list[Player], encoding: str, log: ProblemLog) -> ReadResult:
    _settle_dates(header, log)
    players = checks.unique_players(players, log)
    rounds = max((c.round for p in players for c in p.cells if c.code or c.opponent is not None), default=0)
    players = [checks.fit_cells(p, rounds) for p in players]
    _check_rounds(header, rounds, log)
    games = checks.pair_games(players, log, header.round_dates)
    checks.check_points(players, log, rounds=rounds, blank=header.scoring.for_cell("", None))
    _check_counts(header, players, log)
    if not players:
        log.error(None, "no-players", "the file has no 001 player record")
    values = header.values
    tournament = Tournament(
        source_format=header.version,
        players=tuple(players),
        games=tuple(games),
        name=values.get("012"),
        place=values.get("022"),
        federation=values.get("032"),
        start_date=header.start_date,
        end_date=header.end_date,
        planned_rounds=header.planned_rounds,
        rounds=rounds,
        round_dates=header.round_dates,
        tournament_type=values.get("092"),
        chief_arbiter=values.get("102"),
        deputy_arbiters=tuple(header.deputies),
        time_control=values.get("122"),
        declared_players=header.declared_players,
        declared_rated_players=header.declared_rated,
        encoding=encoding,
    )
    return ReadResult(tournament, log.sorted())


def read_trf_event(source: bytes) -> EventRead:
    """The event of a TRF file, its games as columns: ``EventRead.of(read_trf(source))``.

    The round cells are read as one array of characters (:func:`_cell_columns`) rather than one
    :class:`RoundCell` each. That path takes only files it can decide: every cell in the columns
    of [TRF16] (blanks where they go, opponent right-aligned), every pairing agreed by both sides,
    every declared score right, no scoring record after the players. Whatever it meets that the
    exact reader would report, it hands the whole file to :func:`read_trf`.
    """
    text, _ = decode(source)
    event = _fast_event(text)
    return event if event is not None else EventRead.of(read_trf(source))


def _fast_event(text: str) -> EventRead | None:
    if control_character(text):
        return None  # control-character
    log = ProblemLog(strict=False)
    header = _Header()
    records: list[tuple[int, str]] = []
    for number, line in enumerate(split_lines(text), start=1):
        if line.startswith("001") and (len(line) == 3 or line[3] == " "):
            records.append((number, line))
        elif records and line[:3] in _SCORING_RECORDS:
            return None  # the players before it are scored otherwise
        else:
            _read_line(line, number, header, [], log)
    if not records:
        return None
    players = []
    for number, line in records:
        player = _read_player(line, number, header, log, _no_cells)
        if player is None:
            return None
        players.append(player)
    games = _cell_columns(header, players, [line for _, line in records], log)
    if games is None:
        return None
    _check_counts(header, players, log)
    _settle_dates(header, log)
    return EventRead(
        source_format=header.version,
        name=header.values.get("012"),
        start_date=header.start_date,
        end_date=header.end_date,
        players=tuple(players),
        games=games,
        problems=log.sorted(),
    )


_SCORING_RECORDS = frozenset({"162", "XXS", *_BBP_SCORING})


def _no_cells(line: str, number: int, header: _Header, log: ProblemLog) -> tuple[RoundCell, ...]:
    return ()


def _cell_columns(
    header: _Header, players: list[Player], lines: list[str], log: ProblemLog
) -> GameColumns | None:
    """The games of the players' round cells, checked as :mod:`.checks` does; ``None`` when the
    exact reader would report a problem of a cell or a pairing (it then reads the file)."""
    import numpy as np

    bodies = [line.rstrip() for line in lines]
    counts = [_round_count(body) for body in bodies]
    if max(counts) > MAX_ROUNDS:
        return None  # too-many-rounds
    if max(counts) * len(counts) > PADDING_LIMIT * sum(counts) + MAX_ROUNDS:
        return None  # a few long lines: padding every line to their width would cost more than reading
    width = max(counts) * _ROUND_WIDTH
    start = _FIRST_ROUND - 2
    joined = "".join(
        body[start : start + count * _ROUND_WIDTH].ljust(width)
        for body, count in zip(bodies, counts, strict=True)
    )
    if not width or not joined.isascii():
        return None
    table = _cell_bytes()
    cells = np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(len(lines), -1, _ROUND_WIDTH)
    if not table.allowed[_POSITIONS, cells].all():
        return None  # misaligned-cell, invalid-opponent, invalid-colour, invalid-result
    digits = cells[:, :, 2:6]
    is_digit = table.digit[digits]
    if (is_digit[:, :, :-1] & ~is_digit[:, :, 1:]).any():
        return None  # digits the fast path does not read (not right-aligned)
    opponent = table.value[digits] @ np.array([1000, 100, 10, 1], dtype=np.int64)
    colour = table.colour[cells[:, :, 7]]  # 0 none, 1 white, 2 black
    code = table.code[cells[:, :, 9]]  # upper-cased
    paired = opponent > 0
    if (paired & table.no_opponent[code]).any() or (table.needs_opponent[code] & ~paired).any():
        return None  # no-result, bye-with-opponent, result-without-opponent
    numbers = np.array([player.number for player in players], dtype=np.int64)
    if len({player.number for player in players}) != len(players):
        return None  # repeated-player
    used = np.flatnonzero(((code != ord(" ")) | paired).any(axis=0))
    rounds = int(used[-1]) + 1 if len(used) else 0
    _check_rounds(header, rounds, log)
    opponent, colour, code, paired = (
        opponent[:, :rounds],
        colour[:, :rounds],
        code[:, :rounds],
        paired[:, :rounds],
    )
    seat = np.full(max(int(numbers.max()), int(opponent.max(initial=0))) + 1, -1, dtype=np.int64)
    seat[numbers] = np.arange(len(numbers))
    # Round by round, each in file order: the exact reader's order of the games (by round, then
    # line; the players' lines increase with their rows).
    column, row = np.nonzero(paired.T)
    other = seat[opponent[row, column]]
    if (other < 0).any() or (other == row).any() or (opponent[other, column] != numbers[row]).any():
        return None  # unknown-opponent, self-pairing, asymmetric-pairing
    first = numbers[row] < numbers[other]  # each game from the side with the lower number
    row, column, other = row[first], column[first], other[first]
    own_code, other_code = code[row, column], code[other, column]
    if not table.agreeing[own_code, other_code].all():
        return None  # result-mismatch
    own_colour, other_colour = colour[row, column], colour[other, column]
    both_known = (own_colour > 0) & (other_colour > 0)
    played = table.played[own_code]
    if (both_known & (own_colour == other_colour)).any() or (played & ~both_known).any():
        return None  # colour-mismatch, colour-missing
    if not _points_agree(header.scoring, players, code, colour):
        return None  # points-mismatch
    own_white = (own_colour == 1) | ((own_colour == 0) & (other_colour != 1))
    white, black = np.where(own_white, row, other), np.where(own_white, other, row)
    white_code = np.where(own_white, own_code, other_code)
    black_code = np.where(own_white, other_code, own_code)
    line = [player.line or 0 for player in players]
    return GameColumns(
        round=(column + 1).tolist(),
        white=numbers[white].tolist(),
        black=numbers[black].tolist(),
        white_score=table.score[white_code].tolist(),
        black_score=table.score[black_code].tolist(),
        rated=played.tolist(),
        code=table.text[white_code].tolist(),
        line=list(map(line.__getitem__, row.tolist())),
    )


#: The positions of a ten-column cell block, for :attr:`_CellBytes.allowed`.
_POSITIONS = list(range(_ROUND_WIDTH))
#: Each result byte's text and White's or Black's score (:data:`.checks.GAME_SCORE`).
_CODE_TEXT = [chr(byte).strip() for byte in range(256)]
_GAME_SCORES = [checks.GAME_SCORE.get(text) if text else None for text in _CODE_TEXT]


@dataclass(frozen=True)
class _CellBytes:
    """What each byte of a cell's columns means, as tables indexed by the byte (numpy arrays)."""

    allowed: NDArray[np.bool_]
    """The bytes each of the ten columns of a cell block may hold (position, byte): blanks in the two
    separating columns and on each side of the colour, digits or blanks for the opponent, a colour
    (``w b - `` or blank) and a result code (or blank)."""
    digit: NDArray[np.bool_]
    value: NDArray[np.int64]
    colour: NDArray[np.int8]
    code: NDArray[np.uint8]
    no_opponent: NDArray[np.bool_]
    """Blank (no result yet) and the byes ``H F U Z``: a cell with an opponent is a problem."""
    needs_opponent: NDArray[np.bool_]
    """``1 = 0 W D L``: a game, played or short."""
    played: NDArray[np.bool_]
    agreeing: NDArray[np.bool_]
    """:data:`.checks.AGREEING_CODES` by the two sides' result bytes."""
    score: NDArray[np.object_]
    """:data:`_GAME_SCORES`."""
    text: NDArray[np.object_]
    """:data:`_CODE_TEXT`."""


@functools.cache
def _cell_bytes() -> _CellBytes:
    import numpy as np

    def marks(chars: str) -> NDArray[np.bool_]:
        table = np.zeros(256, dtype=bool)
        table[[ord(c) for c in chars]] = True
        return table

    value = np.zeros(256, dtype=np.int64)
    value[ord("0") : ord("9") + 1] = range(10)
    colour = np.full(256, 3, dtype=np.int8)
    colour[[ord(c) for c in "- "]] = 0
    colour[[ord(c) for c in "wW"]] = 1
    colour[[ord(c) for c in "bB"]] = 2
    code = np.zeros(256, dtype=np.uint8)
    for byte in " " + "".join(sorted(_RESULT_CODES)):
        code[ord(byte)] = code[ord(byte.lower())] = ord(byte)
    agreeing = np.zeros((256, 256), dtype=bool)
    for first, second in checks.AGREEING_CODES:
        agreeing[ord(first or " "), ord(second or " ")] = True
    blank, digit = marks(" "), marks("0123456789")
    allowed = np.array([blank, blank, *[digit | blank] * 4, blank, colour < 3, blank, code > 0])
    return _CellBytes(
        allowed=allowed,
        digit=digit,
        value=value,
        colour=colour,
        code=code,
        no_opponent=marks(" HFUZ"),
        needs_opponent=marks("1=0WDL"),
        played=marks("1=0"),
        agreeing=agreeing,
        score=np.array(_GAME_SCORES, dtype=object),
        text=np.array(_CODE_TEXT, dtype=object),
    )


def _points_agree(
    scoring: Scoring, players: list[Player], code: NDArray[np.uint8], colour: NDArray[np.int8]
) -> bool:
    """Whether every declared score is the sum of the player's cells, as :func:`.checks.check_points`
    adds them: each cell's points (:meth:`Scoring.for_cell`) as a whole number of the smallest
    decimal place the scoring uses, added exactly."""
    units = _cell_units(tuple(sorted(scoring.points.items())))
    if units is None:
        return False  # the exact reader adds them
    table, scale = units
    sums = table[code.astype(table.dtype) * 2 + (colour == 2)].sum(axis=1).tolist()
    declared = {
        points: points * scale for points in {player.points for player in players} if points is not None
    }
    return all(
        player.points is None or declared[player.points] == total
        for player, total in zip(players, sums, strict=True)
    )


@functools.lru_cache(maxsize=64)
def _cell_units(points: tuple[tuple[str, Decimal], ...]) -> tuple[NDArray[np.int64], int] | None:
    """The points of a cell (:meth:`Scoring.for_cell`) by its result byte and colour (byte x 2, plus
    1 for Black) as whole units of ``1 / scale``, and the scale; ``None`` when a value is no whole
    number of units or too large to add exactly in an array. Made once per scoring."""
    import numpy as np

    scoring = Scoring(dict(points))
    values = {
        ord(code or " ") * 2 + black: scoring.for_cell(code, "b" if black else None)
        for code in ("", *_RESULT_CODES)
        for black in (0, 1)
    }
    scale = 10 ** max(-min(int(value.as_tuple().exponent), 0) for value in values.values())
    table = np.zeros(512, dtype=np.int64)
    for key, value in values.items():
        scaled = value * scale
        if scaled > 10**12 or scaled != scaled.to_integral_value():
            return None
        table[key] = int(scaled)
    return table, scale
