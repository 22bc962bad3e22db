"""The header records of a TRF file ([TRF16] and [TRF26] ``xx2`` records, JaVaFo's ``XX?`` and
bbpPairings' ``BB?``): the event's name, place, dates, rounds, counts and scoring, and the checks
of what they announce against the players' records."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from chessrate.formats import checks
from chessrate.formats.model import Player, ProblemLog
from chessrate.formats.scoring import Scoring, apply_162, apply_bbp, apply_xxs
from chessrate.formats.text import other_reading, parse_loose_date, proven_order, shown
from chessrate.formats.trf_cells import MAX_ROUNDS, round_dates
from chessrate.parse import is_digits

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


@dataclass
class Header:
    """What a file's header records say, as they are read (a scoring record changes the scoring of
    the ``001`` records after it)."""

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


def read_header(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    """A header record (its code and the rest of its line, on line ``number``) into ``header``."""
    header.lines.setdefault(record, number)
    read = _HEADER_READERS.get(record)
    if read is not None:
        read(record, value, number, header, log)
    elif record not in _KNOWN_UNUSED:
        log.warning(number, "unknown-record", f"unknown record {record!r}", record=record)


def _text_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    text = value.strip()
    if record in header.values:
        log.warning(
            number, "repeated-record", f"record {record} repeated; the first one is kept", record=record
        )
    elif text:
        header.values[record] = text


def _deputy_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    if value.strip():
        header.deputies.append(value.strip())


def _date_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    text = value.strip()
    day = parse_loose_date(text)
    if text and day is None:
        log.warning(
            number,
            "unreadable-date",
            f"cannot read the date {shown(text)!r} of record {record}",
            value=shown(text),
            record=record,
        )
    if day is not None:
        header.date_texts[record] = (number, text)
    if record == "042":
        header.start_date = day
    else:
        header.end_date = day


def settle_dates(header: Header, log: ProblemLog) -> None:
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
            f"the date {shown(text)!r} of record {record} is {day} read day first (as taken) or {other} read "
            "month first"
            + ("; it chooses the rating rules unless --as-of gives their date" if record == "042" else ""),
            value=shown(text),
            record=record,
            taken=str(day),
            other=other.isoformat(),
        )


def _count_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    text = value.strip()
    count = re.match(r"\d+", text)  # "15 (12)" in TieBreakServer's fixture: the first number
    if count is not None and not is_digits(count.group()):
        count = None  # more digits than any count has
    if text and count is None:
        log.warning(
            number,
            "unreadable-count",
            f"record {record} is not a number: {shown(text)!r}",
            value=shown(text),
            record=record,
        )
    elif count is not None and record == "062":
        header.declared_players = int(count.group())
    elif count is not None:
        header.declared_rated = int(count.group())


def _round_dates_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    header.round_dates = round_dates(value, number, log)


def _rounds_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    text = value.strip()
    if is_digits(text) and int(text) > MAX_ROUNDS:
        log.error(
            number,
            "invalid-rounds",
            f"record {record} announces {shown(text)} rounds, more than the {MAX_ROUNDS} a file may have",
            value=shown(text),
            record=record,
            limit=MAX_ROUNDS,
        )
    elif is_digits(text) and int(text) > 0:
        header.planned_rounds = int(text)
    else:
        log.error(
            number,
            "invalid-rounds",
            f"invalid number of rounds {shown(text)!r} in record {record}",
            value=shown(text),
            record=record,
        )


def _alias_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    """TRF26's 192 (type of tournament) and 222 (time control), TRF16's 092 and 122."""
    header.values.setdefault("092" if record == "192" else "122", value.strip())


def _scoring_record(record: str, value: str, number: int, header: Header, log: ProblemLog) -> None:
    if record == "162":
        header.scoring, unread = apply_162(header.scoring, value)
    elif record == "XXS":
        header.scoring, unread = apply_xxs(header.scoring, value)
    else:
        header.scoring, unread = apply_bbp(header.scoring, record, value)
    if unread:
        said = shown(", ".join(unread))
        log.warning(number, "unread-scoring", f"scoring not understood: {said}", value=said)


HeaderReader = Callable[[str, str, int, Header, ProblemLog], None]
#: The reader of each header record we keep (§2.3).
_HEADER_READERS: dict[str, HeaderReader] = {
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


def check_rounds(header: Header, rounds: int, log: ProblemLog) -> None:
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


def check_counts(header: Header, players: list[Player], log: ProblemLog) -> None:
    lines = header.lines
    checks.check_counts(
        players,
        (header.declared_players, lines.get("062")),
        (header.declared_rated, lines.get("072")),
        log,
    )
