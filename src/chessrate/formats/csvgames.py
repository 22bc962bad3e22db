"""Games from a CSV file, for clubs with no pairing program: one game per line.

The first row names the columns (required, any order, case ignored)::

    white,black,white_rating,black_rating,result,date
    "García López, Ana","Pujol, Marc",1850,,1-0,2025-03-14

``white`` and ``black`` are names (players are identified by name); ratings are whole numbers from 1
to 4000, empty or ``0`` for an unrated player; ``result`` is ``1-0``, ``0-1``, ``1/2-1/2`` (also
``½-½``, ``0.5-0.5``, ``0,5-0,5``), or White's score alone as :func:`chessrate.parse.parse_score`
reads it (``1``, ``0.5``, ``½``, ``=``, ``win``, ``tablas``...); ``+-``, ``-+`` and ``--`` are
forfeits (kept, not rated). ``date`` is ``YYYY-MM-DD`` or empty. An optional ``round`` column gives
the round number. The delimiter is ``,`` or ``;`` (whichever the header row uses); quote a field
that holds the delimiter. A field holding a line break (a quote left open) and a column named twice
are errors.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from itertools import compress
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from chessrate.errors import InvalidInputError
from chessrate.formats.model import (
    EventRead,
    GameColumns,
    Kind,
    Player,
    ProblemLog,
    ReadResult,
    Severity,
    Tournament,
)
from chessrate.formats.text import check_control_characters, decode, split_lines
from chessrate.parse import is_digits, parse_date, parse_rating, parse_score

_T = TypeVar("_T")

REQUIRED = ("white", "black", "white_rating", "black_rating", "result", "date")
OPTIONAL = ("round",)

_ONE, _HALF, _ZERO = Decimal(1), Decimal("0.5"), Decimal(0)
#: Two-sided results, both scores written.
PAIR_RESULTS = {
    "1-0": (_ONE, _ZERO), "0-1": (_ZERO, _ONE), "1/2-1/2": (_HALF, _HALF), "½-½": (_HALF, _HALF),
    "0.5-0.5": (_HALF, _HALF), "0,5-0,5": (_HALF, _HALF),
}  # fmt: skip
#: Forfeits, TRF-style ([TRF16], [TRF26]): not played, not rated.
FORFEITS = {"+-": (_ONE, _ZERO), "-+": (_ZERO, _ONE), "--": (_ZERO, _ZERO)}


def read_csv_games(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read a CSV game list into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).
    The games are :func:`read_csv_event`'s, a :class:`Game` a game with its sides' ratings and day.
    With ``strict``, the first error raises :class:`~chessrate.errors.FileFormatError`.
    """
    read = _read_text(*_text(source), strict=strict)
    event, columns = read.event, read.event.games
    games = columns.games(
        kind=read.kind, white_rating=read.white_rating, black_rating=read.black_rating, date=read.date
    )
    tournament = Tournament(
        source_format="CSV",
        players=event.players,
        games=games,
        start_date=event.start_date,
        end_date=event.end_date,
        rounds=max((number for number in set(columns.round) if number is not None), default=0),
        encoding=read.encoding,
    )
    return ReadResult(tournament, event.problems)


def read_csv_event(source: bytes | str | os.PathLike[str]) -> EventRead:
    """The event of a CSV game list, its games as columns: the facts of :func:`read_csv_games`,
    without a :class:`Game` object a game."""
    return _read_text(*_text(source), strict=False).event


class _Read(NamedTuple):
    """A CSV file read: the event, and what a :class:`Tournament` needs more, a value a game."""

    event: EventRead
    kind: list[Kind]
    white_rating: list[int | None]
    black_rating: list[int | None]
    date: list[dt.date | None]
    encoding: str


def _text(source: bytes | str | os.PathLike[str]) -> tuple[str, str]:
    """The file's text and its encoding (``"str"`` for a text given as such)."""
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    return decode(source) if isinstance(source, bytes) else (source, "str")


def _delimiter(lines: list[str]) -> str | None:
    """``;`` or ``,``, whichever the first line that is not blank (the header) has more of; ``None``
    for a file of blank lines."""
    header_line = next((line for line in lines if line.strip()), None)
    if header_line is None:
        return None
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _read_text(text: str, encoding: str, *, strict: bool) -> _Read:
    """The file's rows (:func:`_rows`), its header (:func:`_columns`) and its games (:class:`_Games`);
    with ``strict``, the first error the file has raised (:func:`_raise_first_error`)."""
    log = ProblemLog(strict=False)
    lines = split_lines(text)
    delimiter = _delimiter(lines)
    games = _Games([], [], {}, log)
    if delimiter is None:
        log.error(None, "empty-file", "the file is empty")
    else:
        check_control_characters(lines, log)
        rows = _rows(lines, delimiter, log)
        header = next(rows, None)
        columns = _columns(header[1], header[0], log) if header is not None else {}
        if columns:  # the rows after a header that cannot be read are not read
            lines_at, data = _game_rows(rows, columns, log)
            games = _Games(lines_at, data, columns, log)
            if not games.lines:
                log.error(None, "no-games", "the file has no game line")
    if strict:
        _raise_first_error(log)
    return games.read(encoding)


def _rows(lines: list[str], delimiter: str, log: ProblemLog) -> Iterator[tuple[int, list[str]]]:
    """Each row that is not blank and its (last) line; a quote left open to a later line is an error.

    A text without quotes and without a field longer than :func:`csv.field_size_limit` is split on
    its delimiters, a line a row: what :mod:`csv` reads of it, and quicker.
    """
    if not any('"' in line for line in lines) and max(map(len, lines)) < csv.field_size_limit():
        for number, line in enumerate(lines, start=1):
            if line.replace(delimiter, "").strip():
                yield number, line.split(delimiter)
        return
    # Each line ends with its break, the last too: a quote left open on it then holds one.
    reader = csv.reader(io.StringIO("\n".join(lines) + "\n"), delimiter=delimiter)
    last = 0  # the last physical line of the row before
    try:
        for row in reader:
            first, last = last + 1, reader.line_num
            if any("\n" in cell for cell in row):
                log.error(
                    first,
                    "csv-quote-open",
                    f"a quote opened on this line runs to line {last}; a field cannot hold a line break",
                    to_line=last,
                )
            elif "".join(row).strip():  # no cell but blanks (as any(cell.strip() for cell in row))
                yield last, row
    except csv.Error as error:
        log.error(reader.line_num, "csv-syntax", f"unreadable CSV: {error}", detail=str(error))


def _game_rows(
    rows: Iterator[tuple[int, list[str]]], columns: dict[str, int], log: ProblemLog
) -> tuple[list[int], list[list[str]]]:
    """The game rows and their lines: a row with fewer fields than the header names is an error,
    one that only lacks columns the header does not use is filled with empty fields."""
    lines_at, data = [], []
    for line, row in rows:
        lines_at.append(line)
        data.append(row)
    width = max(columns.values()) + 1
    if not data or min(map(len, data)) >= width:
        return lines_at, data
    count, kept_lines, kept = len(columns), [], []
    for line, row in zip(lines_at, data, strict=True):
        if len(row) < count:
            log.error(
                line,
                "csv-row",
                f"{len(row)} fields where the header has {count}",
                found=len(row),
                count=count,
            )
        else:
            kept_lines.append(line)
            kept.append(row + [""] * (width - len(row)))
    return kept_lines, kept


def _raise_first_error(log: ProblemLog) -> None:
    """The error a row-by-row read meets first, raised: a control character (every line is checked
    before the rows are read), else the error on the first line, a whole-file one last."""
    errors = [problem for problem in log.problems if problem.severity is Severity.ERROR]
    if errors:
        control = [problem for problem in errors if problem.code == "control-character"]
        raise (control or sorted(errors, key=lambda p: (p.line is None, p.line or 0)))[0].as_error()


def _columns(row: list[str], line: int, log: ProblemLog) -> dict[str, int]:
    names = [cell.strip().lstrip("\ufeff").lower() for cell in row]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        log.error(
            line,
            "csv-header",
            f"the header row must name the columns {','.join(REQUIRED)}; missing: {', '.join(missing)}",
            columns=",".join(REQUIRED),
            missing=", ".join(missing),
        )
        return {}
    repeated = sorted(name for name, count in Counter(names).items() if name and count > 1)
    if repeated:
        log.error(
            line,
            "csv-repeated-column",
            f"the header row names the column {repeated[0]!r} more than once",
            column=repeated[0],
        )
        return {}
    for name in names:
        if name not in REQUIRED and name not in OPTIONAL:
            log.warning(line, "csv-column", f"column {name!r} is not used", column=name)
    return {name: names.index(name) for name in (*REQUIRED, *OPTIONAL) if name in names}


def _rating(text: str, field: str) -> int | None:
    if not text:
        return None
    if len(text) <= 4 and text.isdigit() and text.isascii() and int(text) <= 4000:
        return int(text) or None  # what the lines below make of plain digits, at once
    value = parse_rating(text, field=field)
    if value != value.to_integral_value():
        raise InvalidInputError(field, text, "a rating is a whole number")
    return int(value) or None


def _result(text: str) -> tuple[tuple[Decimal, Decimal], Kind]:
    key = text.replace(" ", "").replace("–", "-").lower()
    if key in FORFEITS:
        return FORFEITS[key], Kind.FORFEIT
    if key in PAIR_RESULTS:
        return PAIR_RESULTS[key], Kind.PLAYED
    if key in ("+", "-"):
        raise InvalidInputError("result", text, "write 1-0 or 0-1 for a game, +- or -+ for a forfeit")
    white = parse_score(text)
    return (white, _ONE - white), Kind.PLAYED


def _round(text: str) -> int:
    if not is_digits(text) or int(text) == 0:
        raise InvalidInputError("round", text, "a round is a whole number from 1")
    return int(text)


def _player(name: str, rating: int | None, line: int, players: dict[str, Player], log: ProblemLog) -> int:
    key = name.casefold()
    player = players.get(key)
    if player is None:
        player = Player(number=len(players) + 1, name=name, rating=rating, line=line)
        players[key] = player
    elif rating is not None and player.rating is None:
        players[key] = Player(number=player.number, name=player.name, rating=rating, line=player.line)
    elif rating is not None and rating != player.rating:
        log.warning(
            line,
            "rating-changes",
            f"{name!r} is rated {rating} here and {player.rating} on line {player.line}; "
            "each game keeps its own ratings",
            name=name,
            rating=rating,
            other_rating=player.rating,
        )
    return player.number


#: The fields of a game row, in the order a row's first error is looked for.
_FIELDS = ("white", "white_rating", "black", "black_rating", "result", "date", "round")
_PARSERS = {
    "white": lambda text, field: _name(text, field),
    "white_rating": _rating,
    "black": lambda text, field: _name(text, field),
    "black_rating": _rating,
    "result": lambda text, field: _result(text),
    "date": lambda text, field: _date_or_none(text, field),
    "round": lambda text, field: _round_or_none(text, field),
}


class _Games:
    """The game rows read a column at a time, each distinct name, rating, result, date and round
    text read once; a row with an invalid field is reported on its line and left out, and so is a
    game of a player against themselves. The players are numbered in the order they first appear
    (:func:`_player`, which notes a rating that changes, on its line)."""

    def __init__(
        self, lines: list[int], rows: list[list[str]], columns: dict[str, int], log: ProblemLog
    ) -> None:
        self.log, self.lines = log, lines
        self.codes = [row[columns["result"]].strip() for row in rows]  # as stored
        self.fields: list[list[Any]] = [
            _parsed_once(itemgetter(columns[field]), rows, _PARSERS[field], field)
            if field in columns
            else [None] * len(rows)
            for field in _FIELDS
        ]
        keep = self._valid()
        names, other_names = self.fields[0], self.fields[2]
        pairs = [
            k
            for k, (white, black) in enumerate(zip(names, other_names, strict=True))
            if keep[k] and white[1] == black[1]
        ]
        for k in pairs:
            log.error(lines[k], "self-pairing", f"{names[k][0]!r} plays themselves", name=names[k][0])
            keep[k] = False
        if pairs or not all(keep):
            self.lines, self.codes = list(compress(lines, keep)), list(compress(self.codes, keep))
            self.fields = [list(compress(column, keep)) for column in self.fields]
        self.players: dict[str, Player] = {}
        self.white, self.black = self._numbers()

    def _valid(self) -> list[bool]:
        """Whether each row's fields are all valid; the first invalid field of each other row is
        reported on its line."""
        refused = {id(v) for column in self.fields for v in column if isinstance(v, InvalidInputError)}
        keep = [True] * len(self.lines)
        if not refused:
            return keep
        for k, values in enumerate(zip(*self.fields, strict=True)):
            error = next((value for value in values if isinstance(value, InvalidInputError)), None)
            if error is not None:
                keep[k] = False
                self.log.error(
                    self.lines[k],
                    f"invalid-{error.field}".replace("_", "-"),
                    str(error),
                    field=error.field,
                    value=error.value,
                    reason=error.reason,
                    reason_code=error.code,
                    **error.params,
                )
        return keep

    def _numbers(self) -> tuple[list[int], list[int]]:
        """Each game's players' numbers, White's then Black's, in file order."""
        players, log = self.players, self.log
        names, ratings, other_names, other_ratings = self.fields[:4]
        whites, blacks = [], []
        for line, (white_name, white_key), white_rating, (black_name, black_key), black_rating in zip(
            self.lines, names, ratings, other_names, other_ratings, strict=True
        ):
            # A player seen before, with no rating or the same one: nothing to note (see _player).
            known = players.get(white_key)
            if known is not None and (white_rating is None or white_rating == known.rating):
                whites.append(known.number)
            else:
                whites.append(_player(white_name, white_rating, line, players, log))
            known = players.get(black_key)
            if known is not None and (black_rating is None or black_rating == known.rating):
                blacks.append(known.number)
            else:
                blacks.append(_player(black_name, black_rating, line, players, log))
        return whites, blacks

    def read(self, encoding: str) -> _Read:
        """The event and the rest of the games' values."""
        _, ratings, _, other_ratings, results, dates, rounds = self.fields
        days = {day for day in set(dates) if day is not None}
        event = EventRead(
            source_format="CSV",
            name=None,
            start_date=min(days, default=None),
            end_date=max(days, default=None),
            players=tuple(self.players.values()),
            games=GameColumns(
                round=rounds,
                white=self.white,
                black=self.black,
                white_score=[scores[0] for scores, _ in results],
                black_score=[scores[1] for scores, _ in results],
                rated=[kind is Kind.PLAYED for _, kind in results],
                code=self.codes,
                line=self.lines,
            ),
            problems=self.log.sorted(),
        )
        return _Read(event, [kind for _, kind in results], ratings, other_ratings, dates, encoding)


def _parsed_once(
    cell: Callable[[Any], str], rows: Sequence[Any], parse: Callable[[str, str], _T], field: str
) -> list[_T | InvalidInputError]:
    """``parse(cell(row).strip(), field)`` of every row, each distinct text parsed once; the error
    where a text is refused."""
    texts = list(map(cell, rows))
    values: dict[str, _T | InvalidInputError] = {}
    for text in set(texts):
        try:
            values[text] = parse(text.strip(), field)
        except InvalidInputError as error:
            values[text] = error
    return list(map(values.__getitem__, texts))


def _name(text: str, field: str) -> tuple[str, str]:
    """A player's name with its runs of blanks made one, and its key (case folded)."""
    name = " ".join(text.split())
    if not name:
        raise InvalidInputError(field, "", "a player's name is required")
    return name, name.casefold()


def _date_or_none(text: str, field: str) -> dt.date | None:
    return parse_date(text, field=field) if text else None


def _round_or_none(text: str, field: str) -> int | None:
    return _round(text) if text else None
