"""The round columns of TRF: the cells of ``001`` records ([TRF16] §2.2, [TRF26]) and the round
dates of record 132 laid out in them. The cells are read one at a time as
:class:`RoundCell` objects, each problem on its line (:func:`read_cells`), or all of a file's at
once as one array of bytes for an import (:func:`cell_columns`), which takes only a file whose cells
and pairings it can decide (the checks of :func:`read_cells` and :mod:`.checks`, made on the array).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from chessrate.formats import checks
from chessrate.formats.model import Colour, GameColumns, Kind, Player, ProblemLog, RoundCell
from chessrate.formats.scoring import Scoring
from chessrate.formats.text import parse_loose_date
from chessrate.parse import is_digits

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
#: The fast path pads every line to the longest (:func:`_cell_columns`): when that would hold more
#: than this many times the file's cells, the exact reader, which makes no absent cell, reads it.
PADDING_LIMIT = 4


def round_count(body: str) -> int:
    """How many ten-column round blocks a line (trailing blanks stripped) reaches into."""
    return max(0, -(-(len(body) - FIRST_ROUND) // ROUND_WIDTH))


def check_width(body: str, number: int, what: str, log: ProblemLog) -> str:
    """``body`` cut after round :data:`MAX_ROUNDS`; a line reaching further is an error."""
    count = round_count(body)
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


#: A round cell read, but its round and line: opponent, colour, code, kind, points.
ParsedCell = tuple[int | None, "Colour | None", str, Kind, Decimal]


def read_cells(
    line: str, number: int, scoring: Scoring, known: dict[str, ParsedCell], log: ProblemLog
) -> tuple[RoundCell, ...]:
    """The round cells of a ``001`` line under ``scoring``; ``known``: the cells read before without
    a problem under it, by their ten columns (a tournament's cells repeat, so each is read once)."""
    cells = []
    body = check_width(line.rstrip(), number, "cells", log)
    start = FIRST_ROUND
    round_number = 1
    while start < len(body):
        block = body[start - 2 : start + 8].ljust(10)
        seen = known.get(block)
        if seen is not None:
            cells.append(RoundCell(round_number, *seen, number))
        else:
            problems = len(log.problems)
            cell = _read_cell(block, round_number, number, start + 1, scoring, log)
            if len(log.problems) == problems:
                known[block] = (cell.opponent, cell.colour, cell.code, cell.kind, cell.points)
            cells.append(cell)
        start += ROUND_WIDTH
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
    if code and code not in RESULT_CODES:
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


def cell_columns(players: list[Player], lines: list[str], scoring: Scoring) -> tuple[GameColumns, int] | None:
    """The games of the players' round cells (their ``001`` lines) and the last round with a cell,
    checked as :func:`read_cells` and :mod:`.checks` check them; ``None`` when a cell or a pairing
    has a problem to report, or the file is not worth an array (it is then read cell by cell)."""
    import numpy as np

    cells = _cell_array(lines)
    table = _cell_bytes()
    if cells is None or not table.allowed[_POSITIONS, cells].all():
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
    opponent, colour, code = opponent[:, :rounds], colour[:, :rounds], code[:, :rounds]
    games = _games(numbers, opponent, colour, code, table)
    if games is None or not _points_agree(scoring, players, code, colour):
        return None  # a pairing's problem, or points-mismatch
    return games.columns(numbers, [player.line or 0 for player in players], table), rounds


def _cell_array(lines: list[str]) -> NDArray[np.uint8] | None:
    """The round cells of the lines as one array of bytes (players × rounds × the ten columns of a
    cell), each line padded to the longest; ``None`` for a line past :data:`MAX_ROUNDS`, a file
    whose padding would cost more than :data:`PADDING_LIMIT` times its cells, or a cell that is not
    ASCII."""
    import numpy as np

    bodies = [line.rstrip() for line in lines]
    counts = [round_count(body) for body in bodies]
    if max(counts) > MAX_ROUNDS:
        return None  # too-many-rounds
    if max(counts) * len(counts) > PADDING_LIMIT * sum(counts) + MAX_ROUNDS:
        return None  # a few long lines: padding every line to their width would cost more than reading
    width = max(counts) * ROUND_WIDTH
    start = FIRST_ROUND - 2
    joined = "".join(
        body[start : start + count * ROUND_WIDTH].ljust(width)
        for body, count in zip(bodies, counts, strict=True)
    )
    if not width or not joined.isascii():
        return None
    return np.frombuffer(joined.encode("ascii"), dtype=np.uint8).reshape(len(lines), -1, ROUND_WIDTH)


class _Games(NamedTuple):
    """Each game once, from the side with the lower number: its player's row, round, opponent's
    row, and whether that side is White."""

    row: NDArray[np.int64]
    column: NDArray[np.int64]
    other: NDArray[np.int64]
    own_code: NDArray[np.uint8]
    other_code: NDArray[np.uint8]
    own_white: NDArray[np.bool_]
    played: NDArray[np.bool_]

    def columns(self, numbers: NDArray[np.int64], line: list[int], table: _CellBytes) -> GameColumns:
        import numpy as np

        row, other, own_white = self.row, self.other, self.own_white
        white, black = np.where(own_white, row, other), np.where(own_white, other, row)
        white_code = np.where(own_white, self.own_code, self.other_code)
        black_code = np.where(own_white, self.other_code, self.own_code)
        return GameColumns(
            round=(self.column + 1).tolist(),
            white=numbers[white].tolist(),
            black=numbers[black].tolist(),
            white_score=table.score[white_code].tolist(),
            black_score=table.score[black_code].tolist(),
            rated=self.played.tolist(),
            code=table.text[white_code].tolist(),
            line=list(map(line.__getitem__, row.tolist())),
        )


def _games(
    numbers: NDArray[np.int64],
    opponent: NDArray[np.int64],
    colour: NDArray[np.int8],
    code: NDArray[np.uint8],
    table: _CellBytes,
) -> _Games | None:
    """The games of the pairings, round by round, each in file order (the order
    :func:`.checks.pair_games` gives: by round, then line; the players' lines increase with their
    rows); ``None`` when the two sides of a pairing disagree (opponent, result or colour)."""
    import numpy as np

    seat = np.full(max(int(numbers.max()), int(opponent.max(initial=0))) + 1, -1, dtype=np.int64)
    seat[numbers] = np.arange(len(numbers))
    column, row = np.nonzero((opponent > 0).T)
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
    own_white = (own_colour == 1) | ((own_colour == 0) & (other_colour != 1))
    return _Games(row, column, other, own_code, other_code, own_white, played)


#: The positions of a ten-column cell block, for :attr:`_CellBytes.allowed`.
_POSITIONS = list(range(ROUND_WIDTH))
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
    for byte in " " + "".join(sorted(RESULT_CODES)):
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
        for code in ("", *RESULT_CODES)
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
