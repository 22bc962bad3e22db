"""Bytes to lines and the loose dates real tournament files carry.

Neither TRF16 nor TRF26 names an encoding ([TRF16], [TRF26]), and PGN files are
"usually ASCII or UTF-8 encoded, sometimes with BOM" ([PYCHESS] ``chess/pgn.py``). We
decode UTF-8 (dropping a BOM) and, when the bytes are not UTF-8, Windows-1252, whose printable range
is a superset of Latin-1's; the five bytes Windows-1252 leaves undefined fall back to Latin-1.
"""

from __future__ import annotations

import codecs
import datetime as dt
import functools
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from chessrate.errors import InvalidInputError

if TYPE_CHECKING:
    from chessrate.formats.model import ProblemLog

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: The C0 control characters (U+0000 to U+001F) but TAB and the line breaks LF and CR. No name or
#: field holds one, and PostgreSQL refuses NUL in its text.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")

_FALLBACK_ERRORS = "chessrate-latin1"


def _latin1_for_undefined(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: bytes Windows-1252 leaves undefined (0x81, 0x8D...) read as Latin-1."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error(_FALLBACK_ERRORS, _latin1_for_undefined)

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january", "ene", "enero", "gen", "gener"),
            ("feb", "february", "febrero", "febrer"),
            ("mar", "march", "marzo", "març"),
            ("apr", "april", "abr", "abril"),
            ("may", "mayo", "mai", "maig"),
            ("jun", "june", "junio", "juny"),
            ("jul", "july", "julio", "juliol"),
            ("aug", "august", "ago", "agosto", "ag", "agost"),
            ("sep", "sept", "september", "septiembre", "set", "setembre"),
            ("oct", "october", "octubre"),
            ("nov", "november", "noviembre", "novembre"),
            ("dec", "december", "dic", "diciembre", "des", "desembre"),
        ),
        start=1,
    )
    for name in names
}


#: The most characters of a file's value a problem quotes (docs/formats.md): a value of a million
#: characters is not repeated whole in every face's message.
SHOWN = 40


def shown(value: str) -> str:
    """``value`` as a problem quotes it: whole up to :data:`SHOWN` characters, else cut there, "…"."""
    return value if len(value) <= SHOWN else value[:SHOWN] + "…"


def decode(data: bytes) -> tuple[str, str]:
    """The text of ``data`` and the encoding used: UTF-8 (BOM dropped), else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    text = data.decode("cp1252", errors=_FALLBACK_ERRORS)
    return text, "windows-1252"


def open_text(path: str | os.PathLike[str]) -> tuple[TextIO, str]:
    """A text handle on the file with the encoding :func:`decode` would choose, newlines universal.

    Reads the file once to test UTF-8 (in 1 MiB blocks, so large PGN files are not held in memory).
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    with open(path, "rb") as raw:
        try:
            while block := raw.read(1 << 20):
                decoder.decode(block)
            decoder.decode(b"", final=True)
            encoding = "utf-8-sig"
        except UnicodeDecodeError:
            encoding = "cp1252"
    errors = "strict" if encoding == "utf-8-sig" else _FALLBACK_ERRORS
    handle = open(path, encoding=encoding, errors=errors, newline=None)  # noqa: SIM115
    return handle, "utf-8" if encoding == "utf-8-sig" else "windows-1252"


def split_lines(text: str) -> list[str]:
    """Lines split on CRLF, CR or LF alone (TRF16 Remark 1 asks for CR; real files use all three).

    Unlike :meth:`str.splitlines`, form feeds and Unicode separators stay inside their line, so line
    numbers match what an editor shows. A final line break does not make an extra empty line.
    """
    # str.split where the breaks are all LF or CRLF: several times faster than the pattern.
    unified = text.replace("\r\n", "\n") if "\r" in text else text
    lines = _LINE_BREAK.split(text) if "\r" in unified else unified.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_file_name(field: str, path: str | os.PathLike[str]) -> None:
    """Refuse a file whose name is not UTF-8 text (on Linux a name is any bytes, which Python holds
    as surrogates): the stores keep a file's name, and their text is UTF-8."""
    name = os.path.basename(os.fspath(path))
    try:
        name.encode()
    except UnicodeEncodeError:
        shown = os.fsencode(os.fspath(path)).decode(errors="replace")
        raise InvalidInputError(
            field, shown, "the file's name is not UTF-8 text: rename the file", code="file-name-not-utf8"
        ) from None


def control_character(text: str) -> str | None:
    """The first C0 control character of ``text`` but TAB and the line breaks, as ``U+0000``;
    ``None`` when it has none."""
    found = _CONTROL.search(text)
    return None if found is None else _code_point(found.group())


def _code_point(character: str) -> str:
    return f"U+{ord(character):04X}"


def check_control_characters(lines: Sequence[str], log: ProblemLog) -> None:
    """An error (``control-character``) on each line holding a C0 control character but TAB, naming
    the character and its column; the TRF and CSV readers refuse such a file (its lines are still read,
    so the rest of the file is checked)."""
    for number, line in enumerate(lines, start=1):
        found = _CONTROL.search(line)
        if found is not None:
            character = _code_point(found.group())
            log.error(
                number,
                "control-character",
                f"a control character ({character}) in column {found.start() + 1}",
                character=character,
                column=found.start() + 1,
            )


@functools.lru_cache(maxsize=4096)  # a month's files repeat a few dates: each read once a process
def parse_loose_date(text: str, *, year_first_two_digits: bool = False) -> dt.date | None:
    """A date in any of the forms real files use, or ``None`` when it cannot be read for sure.

    Accepted (all seen in real files [TRF-FILES]): ``2024/12/01``, ``2024-08-01``, ``2005.07.28``
    (year first); ``28. 07. 2005``, ``24/09/2010`` (day first when the year is last, unless the
    middle number is above 12: then month first); ``May 29, 2020`` and ``29 May 2020``; with
    ``year_first_two_digits`` (TRF ``132`` round dates, ``YY/MM/DD``), ``24/01/01`` is 2024-01-01.
    Two-digit years are 20YY. Partial dates (``1997.??.??``, month ``00``) give ``None``.
    """
    text = text.strip()
    if not text:
        return None
    words = re.findall(r"[^\W\d_]+", text)
    numbers = re.findall(r"\d+", text)
    try:
        if words:
            if len(words) != 1 or len(numbers) != 2:
                return None
            month = _MONTHS.get(words[0].lower().rstrip("."))
            if month is None:
                return None
            first, second = numbers
            day, year = (first, second) if len(second) == 4 else (second, first)
            return dt.date(_year(year), month, int(day))
        if len(numbers) != 3 or re.search(r"[^\d\s./-]", text):
            return None
        a, b, c = numbers
        if len(a) == 4:
            return dt.date(int(a), int(b), int(c))
        if len(c) == 4 or not year_first_two_digits:
            day, month = (int(a), int(b)) if int(b) <= 12 else (int(b), int(a))
            return dt.date(_year(c), month, day)
        return dt.date(_year(a), int(b), int(c))
    except (ValueError, OverflowError):  # OverflowError: a day of twenty digits
        return None


def proven_order(text: str) -> str | None:
    """``"day"`` when ``text`` is a date with the year last whose first number is above 12 (so the
    day comes first), ``"month"`` when its second number is; ``None`` otherwise."""
    numbers = re.findall(r"\d+", text)
    if len(numbers) != 3 or len(numbers[0]) == 4 or parse_loose_date(text) is None:
        return None
    first, second = int(numbers[0]), int(numbers[1])
    return "day" if first > 12 else "month" if second > 12 else None


def other_reading(text: str) -> dt.date | None:
    """The month-first reading of a day-first date that :func:`parse_loose_date` reads from
    ``text`` when both could be meant (``02/03/2024``: 2 March, or 3 February in US order), else
    ``None``: a year first or last and two different numbers, both at most 12."""
    numbers = re.findall(r"\d+", text)
    if len(numbers) != 3 or len(numbers[0]) == 4 or re.search(r"[^\d\s./-]", text.strip()):
        return None
    first, second, year = numbers
    if int(first) == int(second) or not (0 < int(first) <= 12 and 0 < int(second) <= 12):
        return None
    if parse_loose_date(text) is None:
        return None
    try:
        return dt.date(_year(year), int(first), int(second))
    except (ValueError, OverflowError, InvalidInputError):
        return None


def _year(text: str) -> int:
    if len(text) == 2:
        return 2000 + int(text)
    if len(text) != 4:
        raise InvalidInputError("year", text, "a year has 2 or 4 digits")
    return int(text)
