"""FIDE's rating-list downloads, read as a stream: TXT (fixed columns) or XML, plain or zipped.

FIDE publishes its lists every month on its download page [FIDE-LISTS]: the combined
list (standard, rapid and blitz in one file) and one file per list, each in TXT and XML, each inside a
zip. The layouts are in ``docs/fide-list.md``. FIDE publishes no specification of the columns, so
the TXT reader finds them in the header line: a cell is the text from its column's start up to the
next column's start. A line that cannot be read is a warning with its line number; reading goes on.

>>> header = "ID Number      Name" + " " * 57 + "Fed Sex Tit  WTit OTit           FOA JAN25 Gms K  B-day Flag"
>>> line = "1503014".ljust(15) + "Carlsen, Magnus".ljust(61) + "NOR M   GM" + " " * 27 + "2831  0   10 1990  "
>>> with open_fide_list((header + "\\n" + line).encode("latin-1"), name="standard_jan25frl.txt") as fide:
...     [(p.fide_id, p.rating("standard")) for p in fide]
[(1503014, ListRating(rating=2831, games=0, k=10))]
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import os
import re
import xml.parsers.expat
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from operator import itemgetter
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, NamedTuple, get_args

from chessrate.errors import FileFormatError, InvalidInputError, file_refusal
from chessrate.formats.model import Problem, Severity
from chessrate.formats.text import control_character
from chessrate.parse import MAX_RATING, MIN_RATING, is_digits

ListType = Literal["standard", "rapid", "blitz"]
LIST_TYPES: tuple[ListType, ...] = get_args(ListType)

#: Problems kept per file; beyond this they are counted (a broken file must not fill memory).
MAX_PROBLEMS = 1000
#: The longest line (and XML text) read: FIDE's TXT lines are 163 characters ([FIDE-LISTS],
#: docs/sources.md); our bound is 1 KiB. A longer line stops the reading (``line-too-long``): one
#: line of a zip's 400 MiB would otherwise be held whole.
MAX_LINE = 1024
#: The most a zipped list may unpack to: FIDE's combined list, the largest, is 1,932,868 lines of
#: about 163 characters (some 315 MB, [FIDE-LISTS]); our bound, 1 GiB, is three times that.
MAX_UNZIPPED = 1 << 30

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_TOKEN = re.compile(r"^(" + "|".join(_MONTHS) + r")(\d{2})$", re.IGNORECASE)
_MONTH_IN_NAME = re.compile(r"(" + "|".join(_MONTHS) + r")(\d{2})(?:frl|\b|_)", re.IGNORECASE)

# TXT header words -> field keys. Combined list: three lists; single list: the month column, Gms, K.
_TXT_COLUMNS = {
    "id number": "id", "name": "name", "fed": "fed", "sex": "sex", "tit": "title", "wtit": "w_title",
    "otit": "o_title", "foa": "foa_title", "b-day": "birthday", "flag": "flag",
    "srtng": "standard_rating", "sgm": "standard_games", "sk": "standard_k",
    "rrtng": "rapid_rating", "rgm": "rapid_games", "rk": "rapid_k",
    "brtng": "blitz_rating", "bgm": "blitz_games", "bk": "blitz_k",
}  # fmt: skip
#: The text cells as FIDE's TXT header names them, by field key (a bad cell is named so).
_TEXT_CELLS = {
    "name": "Name", "fed": "Fed", "sex": "Sex", "title": "Tit", "w_title": "WTit", "o_title": "OTit",
    "foa_title": "FOA", "flag": "Flag",
}  # fmt: skip
_SINGLE_LIST_COLUMNS = {"gms": "games", "k": "k"}

# XML element names -> the same field keys (the single-list XML has rating/games/k only).
_XML_FIELDS = {
    "fideid": "id", "name": "name", "country": "fed", "sex": "sex", "title": "title",
    "w_title": "w_title", "o_title": "o_title", "foa_title": "foa_title", "birthday": "birthday",
    "flag": "flag", "rating": "rating", "games": "games", "k": "k",
    "rapid_rating": "rapid_rating", "rapid_games": "rapid_games", "rapid_k": "rapid_k",
    "blitz_rating": "blitz_rating", "blitz_games": "blitz_games", "blitz_k": "blitz_k",
}  # fmt: skip


def _positions(*keys: str) -> Callable[[list[str]], tuple[str, ...]]:
    """A getter of ``keys`` from a list of cells in ``_KEYS`` order."""
    indices: list[Any] = [_KEYS.index(key) for key in keys]
    return itemgetter(*indices)


#: Every field key; a file without one of them reads it as blank.
_KEYS = (
    "id", "name", "fed", "sex", "title", "w_title", "o_title", "foa_title", "birthday", "flag",
    "rating", "games", "k", *(f"{kind}_{cell}" for kind in LIST_TYPES for cell in ("rating", "games", "k")),
)  # fmt: skip
_ID, _NAME, _FED, _SEX, _TITLE, _W_TITLE, _O_TITLE, _FOA_TITLE, _BIRTHDAY, _FLAG = range(10)
#: The numeric fields of a combined and of a single list, in order, and their TXT column names.
_COMBINED_NUMBERS = _positions(
    "id", "birthday", *(f"{kind}_{cell}" for kind in LIST_TYPES for cell in ("rating", "games", "k"))
)
_COMBINED_COLUMNS = ("FIDE id", "B-day", "SRtng", "SGm", "SK", "RRtng", "RGm", "Rk", "BRtng", "BGm", "BK")
_SINGLE_NUMBERS = _positions("id", "birthday", "rating", "games", "k")
_SINGLE_COLUMNS = ("FIDE id", "B-day", "rating", "Gms", "K")

#: The flags FIDE writes (lower case), and how we keep them: ``wi``, as FIDE writes it.
_FLAGS = {"": "", "i": "i", "w": "w", "wi": "wi", "iw": "wi", "I": "i", "W": "w", "WI": "wi", "IW": "wi"}
_SEXES = frozenset({None, "M", "F"})
#: In the combined XML, ``rating``/``games``/``k`` are the standard list's.
_UNPREFIXED = frozenset({"rating", "games", "k"})

#: parse.MAX_RATING as an int (compared once a list a player: a Decimal comparison is slower).
_MAX_RATING = int(MAX_RATING)
#: What reading a zip's member raises when the zip is broken (a bad CRC, a cut stream).
_ZIP_ERRORS = (zipfile.BadZipFile, EOFError, zlib.error)

#: A TXT column: field key, first position, position after the last (None: to the line's end).
_Column = tuple[str, int, int | None]


class ListRating(NamedTuple):
    """A player's entry in one list: rating (``None``: not rated in it), games of the period, K."""

    rating: int | None
    games: int | None
    k: int | None


class FideListPlayer(NamedTuple):
    """One player of a FIDE rating list (a named tuple: a million of them are made in seconds)."""

    fide_id: int
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    women_title: str | None
    other_titles: tuple[str, ...]
    #: FIDE Online Arena title (``FOA`` column).
    online_title: str | None
    birth_year: int | None
    #: ``i`` inactive, ``w`` woman, ``wi`` both; empty otherwise.
    flag: str
    standard: ListRating | None
    rapid: ListRating | None
    blitz: ListRating | None
    #: The 1-based line of the player's record (the ``<player>`` tag in XML).
    line: int

    @property
    def inactive(self) -> bool:
        return "i" in self.flag

    def rating(self, list_type: ListType) -> ListRating | None:
        """The player's entry in ``list_type``; ``None`` when the file does not carry that list."""
        if list_type == "standard":
            return self.standard
        if list_type == "rapid":
            return self.rapid
        return self.blitz


class _BadRecord(Exception):
    """A record that cannot be read: skipped with a warning naming the cell, its value and why
    (``why``: ``not-a-number``, ``not-a-year``, ``out-of-range``, a rating above 4000, or
    ``control-character``, a C0 control character, whose ``value`` is then the character as
    ``U+0000``: PostgreSQL cannot store a NUL)."""

    def __init__(self, cell: str, value: str, why: str) -> None:
        self.params: tuple[tuple[str, object], ...] = (("cell", cell), ("value", value), ("why", why))
        if why == "out-of-range":
            self.params += (("low", MIN_RATING), ("high", MAX_RATING))
        if why == "control-character":
            super().__init__(f"{cell} holds a control character ({value}): player skipped")
            return
        what = {
            "not-a-number": "a number",
            "not-a-year": "a year",
            "out-of-range": f"a rating from {MIN_RATING} to {MAX_RATING}",
        }[why]
        super().__init__(f"{cell} {value!r} is not {what}: player skipped")


class FideList:
    """An open FIDE list: iterate it for the players (once); :attr:`problems` fill as it is read.

    Use :func:`open_fide_list` to make one, as a context manager.
    """

    def __init__(
        self, stream: io.BufferedReader[Any], *, name: str, list_type: ListType | None, resources: ExitStack
    ) -> None:
        self.name = name
        self._stream = stream
        self._resources = resources
        self._problems: list[Problem] = []
        self.dropped_problems = 0
        head = stream.peek(65536)[:65536]
        self.format: Literal["txt", "xml"] = "xml" if head.lstrip().startswith(b"<") else "txt"
        #: The first day of the list's month, from the TXT header (``SEP26``) or the file name.
        self.month: dt.date | None = _month_in_name(name)
        self._header: list[_Column] = []
        #: Where the OTit column ends (the cell most often too long for its column).
        self._otit_end: int | None = None
        self._width = 0
        if self.format == "txt":
            combined = self._read_txt_header()
        else:
            combined = b"<rapid_rating" in head or b"<blitz_rating" in head
        #: The lists this file carries.
        self.lists: tuple[ListType, ...] = LIST_TYPES if combined else (_single_type(name, list_type),)
        self._used = False

    @property
    def combined(self) -> bool:
        return len(self.lists) > 1

    @property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(self._problems)

    def __enter__(self) -> FideList:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._resources.close()

    def __iter__(self) -> Iterator[FideListPlayer]:
        if self._used:
            raise InvalidInputError("players_list", self.name, "a FIDE list is read once; open it again")
        self._used = True
        return self._txt_players() if self.format == "txt" else self._xml_players()

    def _warn(
        self,
        line: int | None,
        code: str,
        message: str,
        severity: Severity = Severity.WARNING,
        params: tuple[tuple[str, object], ...] = (),
    ) -> None:
        if len(self._problems) >= MAX_PROBLEMS:
            self.dropped_problems += 1
            return
        self._problems.append(Problem(severity, line, message, code, params))

    # TXT ---------------------------------------------------------------------------------

    def _read_txt_header(self) -> bool:
        """Column positions from the header line; True for the combined list."""
        raw = self._stream.readline(MAX_LINE + 1)
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            raise FileFormatError(
                f"the header line is longer than {MAX_LINE} characters",
                line=1,
                code="line-too-long",
                params=(("limit", MAX_LINE),),
            )
        header = raw.decode("latin-1").rstrip("\r\n")
        keys, single = self._header_keys(header)
        _check_header_keys({key for key, _ in keys})
        ends: list[int | None] = [start for _, start in keys[1:]]
        self._header = [(key, start, end) for (key, start), end in zip(keys, [*ends, None], strict=True)]
        self._width = len(header)
        self._otit_end = next((end for key, _, end in self._header if key == "o_title"), None)
        return not single

    def _header_keys(self, header: str) -> tuple[list[tuple[str, int]], bool]:
        """Each known column's key and start; True when a month names the one rating column (a
        single list). An unknown column is a warning and is ignored."""
        words = [(m.group(), m.start()) for m in re.finditer(r"\S+", header)]
        if len(words) > 1 and words[0][0].lower() == "id" and words[1][0].lower() == "number":
            words[0:2] = [("ID Number", 0)]
        keys: list[tuple[str, int]] = []
        single = False
        for word, start in words:
            lowered = word.lower()
            month = _MONTH_TOKEN.match(word)
            if lowered in _TXT_COLUMNS:
                keys.append((_TXT_COLUMNS[lowered], start))
            elif month:
                self.month = dt.date(2000 + int(month.group(2)), _MONTHS.index(month.group(1).lower()) + 1, 1)
                keys.append(("rating", start))
                single = True
            elif lowered in _SINGLE_LIST_COLUMNS:
                keys.append((_SINGLE_LIST_COLUMNS[lowered], start))
            else:
                message = f"column {word!r} of the header is not known: ignored"
                self._warn(1, "unknown-column", message, params=(("column", word),))
        return keys, single

    def _txt_players(self) -> Iterator[FideListPlayer]:
        text = io.TextIOWrapper(self._stream, encoding="latin-1", newline=None)
        cells_of = _cell_getter(self._header)
        cut = self._otit_end
        width = self._width
        strip = str.strip
        number = 1
        try:
            # Lines read up to MAX_LINE + 1 characters: a longer one is not held whole.
            for number, raw in enumerate(iter(functools.partial(text.readline, MAX_LINE + 1), ""), start=2):
                line = raw.rstrip("\n")
                if not line.strip():
                    continue
                if len(line) > MAX_LINE:
                    self._too_long(number)
                    return
                getter = cells_of
                if cut is not None and len(line) > width and line[cut - 1] != " ":
                    # An OTit text too long for its column pushes the rest of the line right (seen in
                    # FIDE's combined list, docs/fide-list.md): the cells after it move by the excess.
                    getter = _cell_getter(_shifted(self._header, cut, len(line) - width))
                fields = list(map(strip, getter(line)))
                try:
                    yield self._player(fields, number)
                except _BadRecord as error:
                    self._warn(number, "bad-player-line", str(error), params=error.params)
        except _ZIP_ERRORS as error:
            self._zip_broken(number, error)

    def _too_long(self, line: int) -> None:
        message = f"a line or text longer than {MAX_LINE} characters; reading stopped"
        self._warn(line, "line-too-long", message, Severity.ERROR, (("limit", MAX_LINE),))

    def _zip_broken(self, line: int, error: Exception) -> None:
        message = f"the zip cannot be read: {error}; reading stopped"
        self._warn(line, "zip-unreadable", message, Severity.ERROR, (("reason", str(error)),))

    # XML ---------------------------------------------------------------------------------

    def _xml_players(self) -> Iterator[FideListPlayer]:
        parser = xml.parsers.expat.ParserCreate()
        ready: list[FideListPlayer] = []
        fields: dict[str, str] = {}
        text: list[str] = []
        start_line = 0
        depth = 0
        combined = self.combined

        def refuse(*_: object) -> None:
            # No DTD, no entity: FIDE's XML has none, and entities are how XML bombs expand.
            raise FileFormatError(
                "the XML declares a DTD or an entity: refused",
                line=parser.CurrentLineNumber,
                code="xml-entities",
            )

        def start(tag: str, _attributes: dict[str, str]) -> None:
            nonlocal depth, start_line
            depth += 1
            text.clear()
            if tag == "player":
                fields.clear()
                start_line = parser.CurrentLineNumber

        def end(tag: str) -> None:
            nonlocal depth
            depth -= 1
            if tag == "player":
                try:
                    ready.append(self._player([fields.get(key, "") for key in _KEYS], start_line))
                except _BadRecord as error:
                    self._warn(start_line, "bad-player-record", str(error), params=error.params)
            elif depth == 2 and tag in _XML_FIELDS:
                key = _XML_FIELDS[tag]
                fields[f"standard_{key}" if combined and key in _UNPREFIXED else key] = "".join(text).strip()

        parser.StartDoctypeDeclHandler = refuse
        parser.EntityDeclHandler = refuse
        parser.StartElementHandler = start
        parser.EndElementHandler = end

        def characters(data: str) -> None:
            # An element's text, bounded as a TXT line is (a text of any length would be held whole).
            text.append(data)
            if sum(map(len, text)) > MAX_LINE:
                raise FileFormatError("too long", line=parser.CurrentLineNumber, code="line-too-long")

        parser.CharacterDataHandler = characters
        try:
            while block := self._stream.read(1 << 20):
                parser.Parse(block, False)  # noqa: FBT003 (expat's positional isfinal)
                yield from ready
                ready.clear()
            parser.Parse(b"", True)  # noqa: FBT003
            yield from ready
        except xml.parsers.expat.ExpatError as error:
            yield from ready
            reason = xml.parsers.expat.ErrorString(error.code)
            message = f"the XML is broken: {reason}; reading stopped"
            self._warn(error.lineno, "broken-xml", message, Severity.ERROR, (("reason", reason),))
        except FileFormatError as error:
            yield from ready
            if error.code == "line-too-long":
                self._too_long(error.line or parser.CurrentLineNumber)
            else:
                self._warn(error.line, "xml-entities", error.reason, Severity.ERROR)
        except _ZIP_ERRORS as error:
            yield from ready
            self._zip_broken(parser.CurrentLineNumber, error)
        except LookupError as error:  # an encoding Python does not know, named in the declaration
            self._warn(
                parser.CurrentLineNumber,
                "xml-encoding",
                f"the XML's {error}; reading stopped",
                Severity.ERROR,
                (("reason", str(error)),),
            )

    # Both --------------------------------------------------------------------------------

    def _unknown(self, line: int, code: str, message: str, name: str, value: object) -> Literal[""]:
        """Warn of a cell's unknown value, which is then ignored (read as blank)."""
        self._warn(line, code, message, params=((name, value),))
        return ""

    def _player(self, fields: list[str], line: int) -> FideListPlayer:
        """One player from the cells of a line (or the elements of a ``<player>``), in ``_KEYS`` order."""
        numbers = (_COMBINED_NUMBERS if self.combined else _SINGLE_NUMBERS)(fields)
        digits = "".join(numbers)
        if not is_digits(digits):  # one test for every number of the line; the slow path names the bad cell
            _refuse_number(numbers, _COMBINED_COLUMNS if self.combined else _SINGLE_COLUMNS)
        if not "".join(fields).isprintable():  # one test for the line; then which cell
            _refuse_control_character(fields)
        fide_id, birthday = numbers[0], numbers[1]
        if not fide_id or int(fide_id) == 0:
            raise _BadRecord("FIDE id", fide_id, "not-a-number")
        birth_year = int(birthday) or None if birthday else None
        if birth_year is not None and not 1000 <= birth_year <= 9999:
            raise _BadRecord("B-day", birthday, "not-a-year")
        lists: list[ListRating | None]
        if self.combined:
            lists = [_rating(numbers[at : at + 3], _COMBINED_COLUMNS[at]) for at in (2, 5, 8)]
        else:
            lists = [None, None, None]
            lists[LIST_TYPES.index(self.lists[0])] = _rating(numbers[2:5], _SINGLE_COLUMNS[2])
        flag = fields[_FLAG]
        if flag not in _FLAGS:
            flag = self._unknown(
                line, "unknown-flag", f"flag {flag!r} is not i, w or wi: ignored", "flag", flag
            )
        sex = fields[_SEX] or None
        if sex not in _SEXES:
            sex = (
                self._unknown(line, "unknown-sex", f"sex {sex!r} is not M or F: ignored", "sex", sex) or None
            )
        return _list_player(fields, lists, int(fide_id), birth_year, _FLAGS[flag], sex, line)


def _list_player(
    fields: list[str],
    lists: list[ListRating | None],
    fide_id: int,
    birth_year: int | None,
    flag: str,
    sex: str | None,
    line: int,
) -> FideListPlayer:
    """The player of a checked line: blank cells are ``None``; other titles split at commas."""
    other = fields[_O_TITLE]
    return FideListPlayer(
        fide_id=fide_id,
        name=fields[_NAME],
        federation=fields[_FED] or None,
        sex=sex,
        title=fields[_TITLE] or None,
        women_title=fields[_W_TITLE] or None,
        other_titles=tuple(part.strip() for part in other.split(",") if part.strip()) if other else (),
        online_title=fields[_FOA_TITLE] or None,
        birth_year=birth_year,
        flag=flag,
        standard=lists[0],
        rapid=lists[1],
        blitz=lists[2],
        line=line,
    )


def _refuse_number(numbers: tuple[str, ...], columns: tuple[str, ...]) -> None:
    """Raise for the first cell of ``numbers`` that is not a whole number."""
    for text, column in zip(numbers, columns, strict=True):
        _number(text, column)


def _refuse_control_character(fields: list[str]) -> None:
    """Raise for the first cell that holds a control character."""
    for key, text in zip(_KEYS, fields, strict=False):
        if character := control_character(text):
            raise _BadRecord(_TEXT_CELLS.get(key, key), character, "control-character")


def _cell_getter(columns: list[_Column]) -> Callable[[str], tuple[str, ...]]:
    """A getter of a line's cells in ``_KEYS`` order (slices, in C); a key with no column reads as blank."""
    where = {key: slice(start, end) for key, start, end in columns}
    slices: list[Any] = [where.get(key, slice(0, 0)) for key in _KEYS]
    return itemgetter(*slices)


def _shifted(
    columns: list[tuple[str, int, int | None]], cut: int, shift: int
) -> list[tuple[str, int, int | None]]:
    """The columns with every boundary from ``cut`` on moved right by ``shift``."""

    def moved(position: int | None) -> int | None:
        return position + shift if position is not None and position >= cut else position

    return [(key, start if start < cut else start + shift, moved(end)) for key, start, end in columns]


def _number(text: str, column: str) -> int:
    """A cell's whole number; blank is 0."""
    if not text:
        return 0
    if not is_digits(text):
        raise _BadRecord(column, text, "not-a-number")
    return int(text)


def _rating(cells: tuple[str, ...], column: str) -> ListRating:
    """A list's cells (rating, games, K), already checked to be digits or blank; a rating above
    :data:`~chessrate.parse.MAX_RATING` (the bound of every rating we store) skips the player."""
    rating, games, k = cells
    value = int(rating) or None if rating else None  # FIDE writes 0 (or nothing) when not rated in the list
    if value is not None and value > _MAX_RATING:
        raise _BadRecord(column, rating, "out-of-range")
    return ListRating(value, int(games) if games else None, int(k) or None if k else None)


def _month_in_name(name: str) -> dt.date | None:
    match = _MONTH_IN_NAME.search(Path(name).name)
    if not match:
        return None
    return dt.date(2000 + int(match.group(2)), _MONTHS.index(match.group(1).lower()) + 1, 1)


def _single_type(name: str, list_type: ListType | None) -> ListType:
    """Which list a single-list file is: its name says (``standard_rating_list.txt``) or the user does."""
    lowered = Path(name).name.lower()
    named = [kind for kind in LIST_TYPES if kind in lowered]
    if list_type is not None and list_type not in LIST_TYPES:
        raise InvalidInputError(
            "list_type", list_type, "a list is standard, rapid or blitz", code="list-type"
        )
    if len(named) == 1 and list_type is not None and named[0] != list_type:
        raise InvalidInputError(
            "list_type",
            list_type,
            f"the file {name!r} is FIDE's {named[0]} list, by its name",
            code="list-type-by-name",
            params={"name": name, "list": named[0]},
        )
    if list_type is not None:
        return list_type
    if len(named) == 1:
        return named[0]
    raise InvalidInputError(
        "list_type",
        None,
        f"the file {name!r} holds one list and its name does not say which",
        code="list-type-unnamed",
        params={"name": name},
    )


def check_list_carried(fide: FideList, list_type: ListType) -> None:
    """Refuse ``list_type`` when ``fide`` is another list (its :attr:`FideList.lists`)."""
    if list_type not in fide.lists:
        raise InvalidInputError(
            "list_type",
            list_type,
            f"{fide.name} is FIDE's {fide.lists[0]} list",
            code="list-type-missing",
            params={"name": fide.name, "list": fide.lists[0]},
        )


def open_fide_list(
    source: str | os.PathLike[str] | bytes, *, name: str | None = None, list_type: ListType | None = None
) -> FideList:
    """Open a FIDE rating list (a path or the bytes of a file), zipped or not, TXT or XML.

    ``name`` is the file's name when ``source`` is bytes (an upload): it can tell the list's month
    and, for a single-list file, which list it is. ``list_type`` says it otherwise. Raises
    :class:`~chessrate.errors.InvalidInputError` when the file cannot be opened or is not a list.
    """
    resources = ExitStack()
    try:
        if isinstance(source, bytes):
            raw: IO[bytes] = io.BytesIO(source)
            name = name or "players list"
        else:
            name = name or Path(source).name
            raw = resources.enter_context(open(source, "rb"))  # noqa: SIM115
        if not zipfile.is_zipfile(raw) and _zip_signature(raw):
            raise zipfile.BadZipFile("it is truncated or damaged (no central directory)")
        if zipfile.is_zipfile(raw):
            archive = resources.enter_context(zipfile.ZipFile(raw))
            members = [member for member in archive.infolist() if not member.is_dir()]
            if len(members) != 1:
                count = len(members)
                raise InvalidInputError(
                    "players_list",
                    name,
                    f"the zip holds {count} files, not one list",
                    code="zip-members",
                    params={"count": count},
                )
            name = members[0].filename
            if members[0].file_size > MAX_UNZIPPED:
                raise InvalidInputError(
                    "players_list",
                    name,
                    f"the zip unpacks to {members[0].file_size} bytes, more than {MAX_UNZIPPED}",
                    code="zip-too-large",
                    params={"size": members[0].file_size, "limit": MAX_UNZIPPED},
                )
            _check_member(archive, members[0])
            raw = resources.enter_context(archive.open(members[0]))
        else:
            raw.seek(0)
        stream = resources.enter_context(io.BufferedReader(raw, buffer_size=1 << 20))  # type: ignore[type-var]
        return FideList(stream, name=name, list_type=list_type, resources=resources)
    except FileFormatError as error:
        resources.close()
        raise InvalidInputError(
            "players_list", name, error.reason, code=error.code, params=dict(error.params)
        ) from None
    except InvalidInputError:
        resources.close()
        raise
    except OSError as error:
        resources.close()
        raise file_refusal("players_list", str(name or source), error) from None
    except (*_ZIP_ERRORS, NotImplementedError, RuntimeError) as error:
        resources.close()
        raise InvalidInputError(
            "players_list", name, f"the zip cannot be read: {error}", code="zip-unreadable"
        ) from None


def _check_member(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> None:
    """Unpack the member once, to nothing: a damaged zip (a bad CRC, a corrupt or cut stream) is
    refused before any of it is used, whatever part a reader would have stopped at."""
    with archive.open(member) as unpacked:
        while unpacked.read(1 << 20):
            pass


def _zip_signature(raw: IO[bytes]) -> bool:
    """Whether the file starts as a zip does (``PK\\x03\\x04``, or an empty zip's ``PK\\x05\\x06``)."""
    raw.seek(0)
    head = raw.read(4)
    raw.seek(0)
    return head in {b"PK\x03\x04", b"PK\x05\x06"}


def find_players(
    source: str | os.PathLike[str] | bytes,
    fide_ids: Iterable[int],
    *,
    name: str | None = None,
    list_type: ListType | None = None,
) -> tuple[dict[int, FideListPlayer], FideList]:
    """The players of ``fide_ids`` found in a list (read until all are found), and the list read."""
    wanted = set(fide_ids)
    found: dict[int, FideListPlayer] = {}
    with open_fide_list(source, name=name, list_type=list_type) as fide:
        for player in fide:
            if player.fide_id in wanted:
                found[player.fide_id] = player
                if len(found) == len(wanted):
                    break
    return found, fide


def _check_header_keys(found: set[str]) -> None:
    """Refuse a header without the player's ID and name, or without any rating column."""
    missing = [name for name, key in (("ID Number", "id"), ("Name", "name")) if key not in found]
    has_ratings = "rating" in found or "standard_rating" in found or "rapid_rating" in found
    if missing or not has_ratings:
        what = ", ".join(missing) if missing else "a rating column (SRtng or the month, as SEP26)"
        raise FileFormatError(
            f"not a FIDE rating list: the header line has no {what}",
            line=1,
            code="not-a-list",
            params=(("missing", ", ".join(missing)),),
        )
