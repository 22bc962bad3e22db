"""The round columns of TRF: the cells of ``001`` records ([TRF16] §2.2, [TRF26]) and the round
dates of record 132 laid out in them.

The cells of all the players of a file are read at once, as one array of bytes (numpy: one row of
ten columns a cell, the players' cells one after the other), and every problem of a cell is
reported from it on the player's line (:func:`read_cells`). The pairings the cells make are checked
and made games in :mod:`.trf_games`.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from chessrate.formats.model import Colour, Kind, Problem, ProblemLog, Severity
from chessrate.formats.scoring import Scoring
from chessrate.formats.text import parse_loose_date

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

#: The result codes of a round cell ([TRF16], [TRF26], JaVaFo's and bbpPairings' byes).
RESULT_CODES = frozenset("1=0+-WDLHFUZ")
FIRST_ROUND = 91  # 0-based index of column 92, where round 1 starts (§2.2)
ROUND_WIDTH = 10
#: The most rounds a line may hold. No source limits a tournament's rounds; our bound is 99, more
#: than a double round robin of 50 players has (2 x 49 = 98). A line beyond it is an error and
#: its cells after round 99 are not read (one wide line would pad every player to its width).
MAX_ROUNDS = 99


def round_count(body: str) -> int:
    """How many ten-column round blocks a line (trailing blanks stripped) reaches into."""
    return max(0, -(-(len(body) - FIRST_ROUND) // ROUND_WIDTH))


def check_width(body: str, number: int, what: str, log: ProblemLog) -> str:
    """``body`` cut after round :data:`MAX_ROUNDS`; a line reaching further is an error."""
    if len(body) <= FIRST_ROUND + MAX_ROUNDS * ROUND_WIDTH:
        return body  # too short to reach further
    count = round_count(body.rstrip())
    if count <= MAX_ROUNDS:
        return body
    log.error(
        number,
        "too-many-rounds",
        f"{what} for {count} rounds, more than the {MAX_ROUNDS} a file may have",
        count=count,
        limit=MAX_ROUNDS,
    )
    return body[: FIRST_ROUND + MAX_ROUNDS * ROUND_WIDTH].rstrip()


def round_dates(value: str, number: int, log: ProblemLog) -> tuple[dt.date | None, ...]:
    """Record 132: round dates ``YY/MM/DD`` aligned with the cells (columns 92-99, 102-109...)."""
    line = check_width(("    " + value).rstrip(), number, "dates", log)
    dates: list[dt.date | None] = []
    start = FIRST_ROUND
    while start < len(line):
        text = line[start : start + 8].strip()
        day = parse_loose_date(text, year_first_two_digits=True)
        if text and day is None:
            log.warning(number, "unreadable-date", f"cannot read round date {text!r}", value=text)
        dates.append(day)
        start += ROUND_WIDTH
    return tuple(dates)


#: The kinds of cell, by the number :class:`Cells` holds for each.
KINDS = (Kind.NOT_PAIRED, Kind.PLAYED, Kind.SHORT, Kind.FORFEIT, Kind.BYE, Kind.UNFINISHED)
NOT_PAIRED, PLAYED, SHORT, FORFEIT, BYE, UNFINISHED = range(6)
#: Colours, by the number :class:`Cells` holds for each (0: none, ``-`` or blank).
COLOURS: tuple[Colour | None, ...] = (None, "w", "b")
BLANK = ord(" ")


class Cells(NamedTuple):
    """The round cells of a file's ``001`` lines read, one entry a cell, each line's in round order
    and the lines in file order: the cells of line ``i`` are ``start[i]`` to ``start[i + 1]``."""

    start: NDArray[np.int64]
    row: NDArray[np.int64]
    """The line's place among the ``001`` lines read."""
    round: NDArray[np.int64]
    """From 0."""
    opponent: NDArray[np.int64]
    """0: none (blanks, ``0000``, or not read)."""
    colour: NDArray[np.int8]
    """:data:`COLOURS`."""
    code: NDArray[np.uint8]
    """The result code's byte, upper-cased; a blank (``" "``) for none."""
    kind: NDArray[np.int8]
    """:data:`KINDS`."""
    points: list[Decimal]
    """The points the cell is worth under the scoring of its line."""
    units: NDArray[np.int64]
    """:attr:`points` in whole :data:`POINT_UNITS`."""


def read_cells(
    bodies: Sequence[str], lines: Sequence[int], scorings: Sequence[Scoring], limit: dict[Severity, int]
) -> tuple[Cells, dict[int, list[Problem]], tuple[int, bool]]:
    """The round cells of ``001`` lines (cut at :data:`MAX_ROUNDS`: their ``bodies``), on
    ``lines``, each read under its scoring; the first ``limit`` errors and warnings of the cells in
    the order they are met (by the line's place, :func:`_report`); and how many more there are,
    and whether an error is among them."""
    import numpy as np

    stripped = [body.rstrip() for body in bodies]
    counts = [
        (len(body) - FIRST_ROUND + 9) // ROUND_WIDTH if len(body) > FIRST_ROUND else 0 for body in stripped
    ]
    start = np.zeros(len(bodies) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    text = "".join(
        body[FIRST_ROUND - 2 : FIRST_ROUND - 2 + count * ROUND_WIDTH].ljust(count * ROUND_WIDTH)
        for body, count in zip(stripped, counts, strict=True)
    )
    table = _cell_bytes()
    cells = np.frombuffer(_ascii(text), dtype=np.uint8).reshape(-1, ROUND_WIDTH)
    row = np.repeat(np.arange(len(bodies), dtype=np.int64), counts)
    round_index = np.arange(len(cells), dtype=np.int64) - start[row]
    characters = table.character[cells[:, :6]]  # blank, digit or other (_CHARACTER)
    separated = (characters[:, 0] | characters[:, 1]) == 0
    misaligned = ~separated | (cells[:, 6] != BLANK) | (cells[:, 8] != BLANK)
    opponents = _opponents()
    written = characters[:, 2:] @ table.places  # the opponent's four columns, as one number
    opponent, invalid_opponent = opponents.value[written], opponents.invalid[written]
    colour, code = table.colour[cells[:, 7]], table.code[cells[:, 9]]
    invalid_colour, invalid_result = colour == 3, code == 0
    unread = misaligned | invalid_opponent | invalid_colour | invalid_result
    problems: dict[int, list[Problem]] = {}
    left_out = (0, False)
    if unread.any():  # a misaligned cell has no other problem; what is not read is blank
        invalid_opponent &= ~misaligned
        invalid_colour &= ~misaligned
        invalid_result &= ~misaligned
        opponent[misaligned | invalid_opponent] = 0
        colour[misaligned | invalid_colour] = 0
        code[misaligned | invalid_result] = BLANK
    paired = opponent > 0
    kind = table.kind[code, paired.view(np.uint8)]
    if unread.any() or table.unsound[code, paired.view(np.uint8)].any():
        no_result = paired & (code == BLANK)
        without_opponent = ~paired & table.needs_opponent[code]
        bye_with_opponent = paired & (kind == BYE)
        flags = (
            misaligned * MISALIGNED
            | invalid_opponent * INVALID_OPPONENT
            | invalid_colour * INVALID_COLOUR
            | invalid_result * INVALID_RESULT
            | no_result * NO_RESULT
            | without_opponent * WITHOUT_OPPONENT
            | bye_with_opponent * BYE_WITH_OPPONENT
        )
        room = dict(limit)
        # each cell flagged gives at least one problem: the first cells of each severity suffice
        with_errors = np.flatnonzero(flags & ~NO_RESULT)[: max(room[Severity.ERROR], 0)]
        with_warnings = np.flatnonzero(flags & NO_RESULT)[: max(room[Severity.WARNING], 0)]
        for index in np.union1d(with_errors, with_warnings).tolist():
            at = int(row[index])
            log = ProblemLog(strict=False)
            block = text[index * ROUND_WIDTH : (index + 1) * ROUND_WIDTH]
            cell = (int(round_index[index]) + 1, int(opponent[index]), chr(code[index]))
            _report(block, cell, int(flags[index]), lines[at], log)
            for problem in log.problems:
                if room[problem.severity] > 0:
                    room[problem.severity] -= 1
                    problems.setdefault(at, []).append(problem)
        errors = _bits(flags & ~NO_RESULT)  # every cell problem but NO_RESULT is an error
        errors_reported = limit[Severity.ERROR] - room[Severity.ERROR]
        reported = errors_reported + limit[Severity.WARNING] - room[Severity.WARNING]
        left_out = (errors + _bits(flags & NO_RESULT) - reported, errors > errors_reported)
        opponent[bye_with_opponent] = 0
    key = code.astype(np.int64) * 3 + colour
    key[misaligned | (kind == UNFINISHED)] = 256 * 3  # no points
    points, units = _points(key, row, scorings)
    return Cells(start, row, round_index, opponent, colour, code, kind, points, units), problems, left_out


def _bits(flags: NDArray[np.int64]) -> int:
    """How many bits are set in ``flags`` (:data:`MISALIGNED` to :data:`BYE_WITH_OPPONENT`)."""
    return sum(int(((flags >> bit) & 1).sum()) for bit in range(7))


def _ascii(text: str) -> bytes:
    """The cells' text a byte a character: a character past ASCII as :data:`OTHER_BLANK` when
    ``str.strip`` takes it away, else as :data:`OTHER` (no colour, result or digit is one: no such
    character upper-cases to a result code)."""
    if text.isascii():
        return text.encode("ascii")
    return bytes(ord(c) if c.isascii() else (OTHER_BLANK if not c.strip() else OTHER) for c in text)


OTHER_BLANK, OTHER = 0x80, 0x81


class _Opponents(NamedTuple):
    """The opponent's four columns read as ``str.strip`` and ``int`` read them, by the columns'
    characters (:data:`_CHARACTER`, as a number in base 12): the opponent (0 for none), and whether
    the columns hold something that is no number (a letter, a blank between digits)."""

    value: NDArray[np.int64]
    invalid: NDArray[np.bool_]


#: The characters of the opponent's columns that tell how they read: a white space ``str.strip``
#: takes away (0), a digit (1 + its value), anything else (11).
_CHARACTER = (" ", *"0123456789", "x")


@functools.cache
def _opponents() -> _Opponents:
    """Every way the four columns can be written: stripped of the blanks on both sides, a number
    when what is left is all digits (``tests/formats/test_trf_quirks.py`` holds this table to
    ``str.strip`` and ``int`` on each)."""
    import numpy as np

    written = np.indices((12,) * 4).reshape(4, -1).T  # the characters, as _CHARACTER's indexes
    filled, digit = written > 0, (written >= 1) & (written <= 10)
    given = filled.any(axis=1)
    place = np.arange(4)
    first, last = filled.argmax(axis=1)[:, None], 3 - filled[:, ::-1].argmax(axis=1)[:, None]
    inside = (place >= first) & (place <= last)
    number = given & ~(inside & ~digit).any(axis=1)
    value = (np.where(inside, written - 1, 0) * 10 ** np.maximum(last - place, 0)).sum(axis=1)
    return _Opponents(np.where(number, value, 0).astype(np.int64), given & ~number)


def _points(
    key: NDArray[np.int64], row: NDArray[np.int64], scorings: Sequence[Scoring]
) -> tuple[list[Decimal], NDArray[np.int64]]:
    """Each cell's points under its line's scoring, by its ``key`` (:func:`_points_table`), and
    them in :data:`POINT_UNITS`."""
    import numpy as np

    distinct = {id(scoring): scoring for scoring in scorings}
    tables = [_points_table(_written(scoring)) for scoring in distinct.values()]
    if len(tables) == 1:
        ((points, units),) = tables
        return points[key].tolist(), units[key]
    which = np.array([list(distinct).index(id(scoring)) for scoring in scorings], dtype=np.int64)[row]
    objects, whole = np.empty(len(key), dtype=object), np.zeros(len(key), dtype=np.int64)
    for number, (points, units) in enumerate(tables):
        mine = which == number
        objects[mine], whole[mine] = points[key[mine]], units[key[mine]]
    return objects.tolist(), whole


def _written(scoring: Scoring) -> tuple[tuple[str, str], ...]:
    """A scoring's points as written (``1`` and ``1.0`` are equal, but not alike in a message)."""
    return tuple((name, str(value)) for name, value in scoring.points.items())


#: The scorings' values have at most four decimals (:data:`.scoring._VALUE`): in these units each
#: is a whole number, and a player's cells add up exactly.
POINT_UNITS = Decimal("0.0001")


@functools.lru_cache(maxsize=64)
def _points_table(points: tuple[tuple[str, str], ...]) -> tuple[NDArray[np.object_], NDArray[np.int64]]:
    """The points of a cell under a scoring (:func:`_written`) by its code's byte x 3 + its colour
    (the last entry: no points), and them in :data:`POINT_UNITS`. Made once per scoring."""
    import numpy as np

    scoring = Scoring({name: Decimal(value) for name, value in points})
    table = np.full(256 * 3 + 1, Decimal(0), dtype=object)
    for code in ("", *RESULT_CODES):
        for number, colour in enumerate(COLOURS):
            table[ord(code or " ") * 3 + number] = scoring.for_cell(code, colour)
    units = [value / POINT_UNITS for value in table.tolist()]
    assert all(unit == unit.to_integral_value() and unit < 10**12 for unit in units), points
    return table, np.array([int(unit) for unit in units], dtype=np.int64)


def _where(round_number: int) -> tuple[str, dict[str, object]]:
    """A cell's place in a message (``round 3 (columns 112-119)``) and as parameters."""
    column = FIRST_ROUND + 1 + (round_number - 1) * ROUND_WIDTH
    columns = f"{column}-{column + 7}"
    return f"round {round_number} (columns {columns})", {"round": round_number, "columns": columns}


#: The problems a cell may have (:func:`_report`), as bits.
MISALIGNED, INVALID_OPPONENT, INVALID_COLOUR, INVALID_RESULT = 1, 2, 4, 8
NO_RESULT, WITHOUT_OPPONENT, BYE_WITH_OPPONENT = 16, 32, 64


def _report(block: str, cell: tuple[int, int, str], flags: int, line: int, log: ProblemLog) -> None:
    """The problems ``flags`` of a cell, in the order a reader meets them, with their values from
    the cell's ten columns ``block`` (two separating blanks, opponent in 4 columns, blank, colour,
    blank, result); ``cell``: its round, its opponent as read, its result code."""
    round_number, opponent, code = cell
    where, at = _where(round_number)
    if flags & MISALIGNED:
        value = block[2:].strip()
        log.error(line, "misaligned-cell", f"{where}: {value!r} is not in the TRF columns", value=value, **at)
        return
    if flags & INVALID_OPPONENT:
        value = block[2:6].strip()
        log.error(line, "invalid-opponent", f"{where}: invalid opponent {value!r}", value=value, **at)
    if flags & INVALID_COLOUR:
        value = block[7]
        log.error(line, "invalid-colour", f"{where}: invalid colour {value!r}", value=value, **at)
    if flags & INVALID_RESULT:
        value = block[9]
        log.error(line, "invalid-result", f"{where}: invalid result {value!r}", value=value, **at)
    if flags & NO_RESULT:
        log.warning(
            line, "no-result", f"{where}: paired with {opponent} but no result yet", opponent=opponent, **at
        )
    if flags & WITHOUT_OPPONENT:
        log.error(
            line, "result-without-opponent", f"{where}: result {code!r} without an opponent", value=code, **at
        )
    if flags & BYE_WITH_OPPONENT:
        log.error(
            line,
            "bye-with-opponent",
            f"{where}: bye {code!r} with opponent {opponent}",
            value=code,
            opponent=opponent,
            **at,
        )


@dataclass(frozen=True)
class _CellBytes:
    """What each byte of a cell's columns means, as tables indexed by the byte (numpy arrays)."""

    blank: NDArray[np.bool_]
    """What ``str.strip`` takes away (and :data:`OTHER_BLANK`)."""
    character: NDArray[np.uint8]
    """:data:`_CHARACTER`'s index of a byte of the opponent's columns (and the separating blanks)."""
    places: NDArray[np.int64]
    """The opponent's four columns' places in base 12."""
    colour: NDArray[np.int8]
    """:data:`COLOURS`; 3 for a byte that is no colour."""
    code: NDArray[np.uint8]
    """The result code upper-cased, a blank for a blank, 0 for a byte that is no result."""
    kind: NDArray[np.int8]
    """By the code and whether the cell has an opponent."""
    needs_opponent: NDArray[np.bool_]
    """``1 = 0 W D L``: a game, played or short."""
    unsound: NDArray[np.bool_]
    """By the code and whether the cell has an opponent: a pairing without a result, a game without
    an opponent, a bye with one."""


@functools.cache
def _cell_bytes() -> _CellBytes:
    import numpy as np

    blank = np.zeros(256, dtype=bool)
    blank[[byte for byte in range(128) if chr(byte).isspace()] + [OTHER_BLANK]] = True
    character = np.where(blank, 0, 11).astype(np.uint8)
    character[ord("0") : ord("9") + 1] = range(1, 11)
    places = np.array([12**3, 12**2, 12, 1], dtype=np.int64)
    colour = np.full(256, 3, dtype=np.int8)
    colour[[ord(c) for c in "- "]] = 0
    colour[[ord(c) for c in "wW"]] = 1
    colour[[ord(c) for c in "bB"]] = 2
    code = np.zeros(256, dtype=np.uint8)
    code[blank] = BLANK
    for byte in RESULT_CODES:
        code[ord(byte)] = code[ord(byte.lower())] = ord(byte)
    kind = np.zeros((256, 2), dtype=np.int8)  # by code, then paired
    kind[BLANK] = NOT_PAIRED, UNFINISHED
    for codes, number in (("+-", FORFEIT), ("HFUZ", BYE), ("1=0", PLAYED), ("WDL", SHORT)):
        for byte in codes:
            kind[ord(byte)] = number, number
    needs_opponent = np.zeros(256, dtype=bool)
    needs_opponent[[ord(c) for c in "1=0WDL"]] = True
    kind[needs_opponent, 0] = BYE  # a game without an opponent: reported, read as a bye
    unsound = np.zeros((256, 2), dtype=bool)
    unsound[BLANK, 1] = True
    unsound[needs_opponent, 0] = True
    unsound[[ord(c) for c in "HFUZ"], 1] = True
    return _CellBytes(blank, character, places, colour, code, kind, needs_opponent, unsound)
