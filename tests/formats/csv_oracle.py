"""The CSV reference reader, row by row: the test oracle of :mod:`chessrate.formats.csvgames`.

This is the row reader chessrate had before issue 24 made one read of the columns. What follows is
the format, as the package documents it.

Games from a CSV file, for clubs with no pairing program: one game per line.

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
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import ClassVar, TypeVar

from chessrate.errors import InvalidInputError
from chessrate.formats.model import (
    Game,
    Kind,
    Player,
    Problem,
    ProblemLog,
    ReadResult,
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
    """
    read = _read(source, strict=strict)
    games = tuple(
        Game(
            round=round_number,
            white=white,
            black=black,
            white_score=white_score,
            black_score=black_score,
            kind=kind,
            counts_for_rating=kind is Kind.PLAYED,
            code=code,
            line=line,
            white_rating=white_rating,
            black_rating=black_rating,
            date=date,
        )
        for (
            round_number,
            white,
            black,
            white_score,
            black_score,
            kind,
            code,
            line,
            white_rating,
            black_rating,
            date,
        ) in read.games
    )
    tournament = Tournament(
        source_format="CSV",
        players=tuple(read.players.values()),
        games=games,
        start_date=read.start_date,
        end_date=read.end_date,
        rounds=read.rounds,
        encoding=read.encoding,
    )
    return ReadResult(tournament, read.problems)


_GameRow = tuple[
    int | None, int, int, Decimal, Decimal, Kind, str, int, int | None, int | None, dt.date | None
]


@dataclass(frozen=True)
class _Read:
    """A CSV file read: its players by folded name, and each game as one tuple (:data:`FIELDS`)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "round", "white", "black", "white_score", "black_score", "kind", "code", "line",
        "white_rating", "black_rating", "date",
    )  # fmt: skip

    players: dict[str, Player]
    games: list[_GameRow]
    start_date: dt.date | None
    end_date: dt.date | None
    rounds: int
    encoding: str
    problems: tuple[Problem, ...]


def _text(source: bytes | str | os.PathLike[str]) -> tuple[str, str]:
    """The file's text and its encoding (``"str"`` for a text given as such)."""
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    return decode(source) if isinstance(source, bytes) else (source, "str")


def _read(source: bytes | str | os.PathLike[str], *, strict: bool) -> _Read:
    return _read_text(*_text(source), strict=strict)


def _delimiter(lines: list[str]) -> str | None:
    """``;`` or ``,``, whichever the first line that is not blank (the header) has more of; ``None``
    for a file of blank lines."""
    header_line = next((line for line in lines if line.strip()), None)
    if header_line is None:
        return None
    return ";" if header_line.count(";") > header_line.count(",") else ","


def _read_text(text: str, encoding: str, *, strict: bool) -> _Read:
    log = ProblemLog(strict=strict)
    lines = split_lines(text)
    delimiter = _delimiter(lines)
    if delimiter is None:
        log.error(None, "empty-file", "the file is empty")
        return _Read({}, [], None, None, 0, encoding, log.sorted())
    check_control_characters(lines, log)
    # Each line ends with its break, the last too: a quote left open on it then holds one.
    rows = csv.reader(io.StringIO("\n".join(lines) + "\n"), delimiter=delimiter)
    columns: dict[str, int] = {}
    reader: _Rows | None = None
    players: dict[str, Player] = {}
    games: list[_GameRow] = []
    last = 0  # the last physical line of the row before
    try:
        for row in rows:
            first, last = last + 1, rows.line_num
            if any("\n" in cell for cell in row):
                log.error(
                    first,
                    "csv-quote-open",
                    f"a quote opened on this line runs to line {last}; a field cannot hold a line break",
                    to_line=last,
                )
                continue
            if not "".join(row).strip():  # no cell but blanks (as any(cell.strip() for cell in row))
                continue
            line = rows.line_num  # the last physical line of the row
            if reader is None:
                columns = _columns(row, line, log)
                if not columns:
                    break
                reader = _Rows(columns, players, log)
                continue
            game = reader.game(row, line)
            if game is not None:
                games.append(game)
    except csv.Error as error:
        log.error(rows.line_num, "csv-syntax", f"unreadable CSV: {error}", detail=str(error))
    if columns and not games:
        log.error(None, "no-games", "the file has no game line")
    rounds = [g[0] for g in games if g[0] is not None]
    dates = [g[10] for g in games if g[10] is not None]
    return _Read(
        players,
        games,
        min(dates, default=None),
        max(dates, default=None),
        max(rounds, default=0),
        encoding,
        log.sorted(),
    )


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


class _Rows:
    """Reads the game rows, with each distinct rating, result, date and round text parsed once.

    The parsers are pure functions of the text, so a text seen before gives the value it gave then
    (only values are kept; a text that fails is parsed, and reported, again).
    """

    def __init__(self, columns: dict[str, int], players: dict[str, Player], log: ProblemLog) -> None:
        self._columns = columns
        self._players = players
        self._log = log
        self._width = max(columns.values()) + 1
        white, black, white_rating, black_rating, result, date = (columns[name] for name in REQUIRED)
        self._at = (white, black, white_rating, black_rating, result, date)
        self._round_at = columns.get("round")
        self._ratings: dict[str, int | None] = {}
        self._results: dict[str, tuple[tuple[Decimal, Decimal], Kind]] = {}
        self._dates: dict[str, dt.date] = {}
        self._rounds: dict[str, int] = {}

    def game(self, row: list[str], line: int) -> _GameRow | None:
        """One game row, or ``None`` (with its error logged)."""
        if len(row) < self._width:
            if len(row) < len(self._columns):
                count = len(self._columns)
                message = f"{len(row)} fields where the header has {count}"
                self._log.error(line, "csv-row", message, found=len(row), count=count)
                return None
            row = row + [""] * (self._width - len(row))
        white_at, black_at, white_rating_at, black_rating_at, result_at, date_at = self._at
        round_at = self._round_at
        white_name = " ".join(row[white_at].split())
        black_name = " ".join(row[black_at].split())
        code = row[result_at].strip()
        ratings, players = self._ratings, self._players
        try:
            if not white_name:
                raise InvalidInputError("white", "", "a player's name is required")
            text = row[white_rating_at].strip()
            white_rating = ratings[text] if text in ratings else self._rating(text, "white_rating")
            if not black_name:
                raise InvalidInputError("black", "", "a player's name is required")
            text = row[black_rating_at].strip()
            black_rating = ratings[text] if text in ratings else self._rating(text, "black_rating")
            scores = self._results.get(code) or self._result(code)
            date_text = row[date_at].strip()
            date = (self._dates.get(date_text) or self._date(date_text)) if date_text else None
            round_text = row[round_at].strip() if round_at is not None else ""
            round_number = (self._rounds.get(round_text) or self._round(round_text)) if round_text else None
        except InvalidInputError as error:
            self._log.error(
                line,
                f"invalid-{error.field}".replace("_", "-"),
                str(error),
                field=error.field,
                value=error.value,
                reason=error.reason,
                reason_code=error.code,
                **error.params,
            )
            return None
        white_key, black_key = white_name.casefold(), black_name.casefold()
        if white_key == black_key:
            self._log.error(line, "self-pairing", f"{white_name!r} plays themselves", name=white_name)
            return None
        # A player seen before, with no rating or the same one: nothing to note (see _player).
        known = players.get(white_key)
        if known is not None and (white_rating is None or white_rating == known.rating):
            white = known.number
        else:
            white = _player(white_name, white_rating, line, players, self._log)
        known = players.get(black_key)
        if known is not None and (black_rating is None or black_rating == known.rating):
            black = known.number
        else:
            black = _player(black_name, black_rating, line, players, self._log)
        (white_score, black_score), kind = scores
        return (
            round_number,
            white,
            black,
            white_score,
            black_score,
            kind,
            code,
            line,
            white_rating,
            black_rating,
            date,
        )

    def _rating(self, text: str, field: str) -> int | None:
        if text in self._ratings:
            return self._ratings[text]
        value = self._ratings[text] = _rating(text, field)
        return value

    def _result(self, text: str) -> tuple[tuple[Decimal, Decimal], Kind]:
        value = self._results[text] = _result(text)
        return value

    def _date(self, text: str) -> dt.date:
        value = self._dates[text] = parse_date(text, field="date")
        return value

    def _round(self, text: str) -> int:
        value = self._rounds[text] = _round(text)
        return value


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
