"""A TRF file's round cells and games read the plain way, one cell and one pairing at a time: the
test oracle of the array reader (``formats/trf_cells.py``, ``formats/trf_games.py``).

Only what those modules do is read here: the ``001`` lines' cells (columns 92 on, ten a round,
[TRF16] §2.2), their problems, and the games of the pairings with theirs. The header and the
players' other fields are the reader's (:mod:`chessrate.formats.trf`); so are the points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chessrate.formats.checks import AGREEING_CODES, GAME_SCORE
from chessrate.formats.model import Kind
from chessrate.formats.text import decode, split_lines

#: The problem codes this oracle finds.
CELL_CODES = frozenset({"misaligned-cell", "invalid-opponent", "invalid-colour", "invalid-result",
                        "no-result", "result-without-opponent", "bye-with-opponent"})  # fmt: skip
PAIRING_CODES = frozenset({"self-pairing", "unknown-opponent", "asymmetric-pairing", "result-mismatch",
                           "colour-mismatch", "colour-missing"})  # fmt: skip


@dataclass
class Cell:
    opponent: int | None
    colour: str | None
    code: str
    kind: Kind


@dataclass
class OracleRead:
    """The players (number, line, cells) in file order, the first of a number only; the problems
    (line, code, message) as met; the games (round, white, black, white's score, black's score,
    rated, code, line) by round, then line."""

    players: list[tuple[int, int, list[Cell]]] = field(default_factory=list)
    problems: list[tuple[int, str, str]] = field(default_factory=list)
    games: list[tuple[object, ...]] = field(default_factory=list)


def read(data: bytes) -> OracleRead:
    out = OracleRead()
    numbers: set[int] = set()
    for line, text in enumerate(split_lines(decode(data)[0]), start=1):
        if not text.startswith("001") or (len(text) > 3 and text[3] != " "):
            continue
        number = text.ljust(8)[4:8].strip()
        if not (number.isascii() and number.isdigit()) or int(number) == 0:
            continue
        cells = []
        body = text.rstrip()[: 91 + 99 * 10].rstrip()
        for start in range(91, len(body), 10):
            block = body[start - 2 : start + 8].ljust(10)
            cells.append(_cell(block, len(cells) + 1, start + 1, line, out.problems))
        if int(number) not in numbers:
            numbers.add(int(number))
            out.players.append((int(number), line, cells))
    rounds = max(
        (r for _, _, cells in out.players for r, c in enumerate(cells, 1) if c.code or c.opponent), default=0
    )
    by_number = {number: (line, cells[:rounds]) for number, line, cells in out.players}
    for number, line, cells in out.players:
        for index, cell in enumerate(cells[:rounds]):
            if cell.opponent is not None:
                _pair(number, line, index, cell, by_number, out)
    out.games.sort(key=lambda game: (game[0], game[7]))
    return out


def _cell(
    block: str, round_number: int, column: int, line: int, problems: list[tuple[int, str, str]]
) -> Cell:
    where = f"round {round_number} (columns {column}-{column + 7})"
    if block[:2].strip() or block[6] != " " or block[8] != " ":
        problems.append(
            (line, "misaligned-cell", f"{where}: {block[2:].strip()!r} is not in the TRF columns")
        )
        return Cell(None, None, "", Kind.NOT_PAIRED)
    opponent_text, colour_text, code = block[2:6].strip(), block[7], block[9].upper().strip()
    opponent = None
    if opponent_text and not (opponent_text.isascii() and opponent_text.isdigit()):
        problems.append((line, "invalid-opponent", f"{where}: invalid opponent {opponent_text!r}"))
    elif opponent_text:
        opponent = int(opponent_text) or None
    colour = {"w": "w", "W": "w", "b": "b", "B": "b", "-": None, " ": None}.get(colour_text, "?")
    if colour == "?":
        problems.append((line, "invalid-colour", f"{where}: invalid colour {colour_text!r}"))
        colour = None
    if code and code not in "1=0+-WDLHFUZ":
        problems.append((line, "invalid-result", f"{where}: invalid result {block[9]!r}"))
        code = ""
    if not code:
        if opponent is not None:
            problems.append((line, "no-result", f"{where}: paired with {opponent} but no result yet"))
        return Cell(opponent, colour, code, Kind.UNFINISHED if opponent is not None else Kind.NOT_PAIRED)
    if code in "+-":
        return Cell(opponent, colour, code, Kind.FORFEIT)
    if code in "HFUZ":
        if opponent is not None:
            problems.append((line, "bye-with-opponent", f"{where}: bye {code!r} with opponent {opponent}"))
        return Cell(None, colour, code, Kind.BYE)
    if opponent is None:
        problems.append((line, "result-without-opponent", f"{where}: result {code!r} without an opponent"))
        return Cell(None, colour, code, Kind.BYE)
    return Cell(opponent, colour, code, Kind.PLAYED if code in "1=0" else Kind.SHORT)


def _pair(
    number: int,
    line: int,
    index: int,
    cell: Cell,
    by_number: dict[int, tuple[int, list[Cell]]],
    out: OracleRead,
) -> None:
    where = f"round {index + 1}: player {number}"
    opponent = cell.opponent
    assert opponent is not None
    if opponent == number:
        out.problems.append((line, "self-pairing", f"{where} is paired with themselves"))
        return
    if opponent not in by_number:
        out.problems.append((line, "unknown-opponent", f"{where} meets {opponent}, who is not in the file"))
        return
    other_line, other_cells = by_number[opponent]
    other = other_cells[index] if index < len(other_cells) else None
    if other is None or other.opponent != number:
        says = "no opponent" if other is None or other.opponent is None else f"opponent {other.opponent}"
        message = (
            f"{where} meets {opponent}, but line {other_line} gives {opponent} {says} in round {index + 1}"
        )
        out.problems.append((line, "asymmetric-pairing", message))
        return
    if opponent < number:
        return
    if (cell.code, other.code) not in AGREEING_CODES:
        message = (f"{where} has result {cell.code or 'blank'!r} against {opponent}, whose line {other_line} "
                   f"has {other.code or 'blank'!r}")  # fmt: skip
        out.problems.append((line, "result-mismatch", message))
        return
    if cell.colour and other.colour and cell.colour == other.colour:
        message = f"{where} and {opponent} both have colour {cell.colour!r}"
        out.problems.append((line, "colour-mismatch", message))
    elif not (cell.colour and other.colour) and cell.kind is Kind.PLAYED:
        message = f"{where}: the game with {opponent} has no colour on one side"
        out.problems.append((line, "colour-missing", message))
    white_first = cell.colour == "w" or (cell.colour is None and other.colour != "w")
    white, black = (number, opponent) if white_first else (opponent, number)
    white_code, black_code = (cell.code, other.code) if white_first else (other.code, cell.code)
    out.games.append((index + 1, white, black, GAME_SCORE.get(white_code), GAME_SCORE.get(black_code),
                      cell.kind is Kind.PLAYED, white_code, line))  # fmt: skip
