"""Tournament files: FIDE TRF (TRF16, TRF26), PGN and a CSV game list, read into one model.

>>> from chessrate.formats import read_tournament
>>> result = read_tournament(b"012 Club\\n001    1      A                                 1500")
>>> result.tournament.players[0].rating
1500
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from chessrate.errors import InvalidInputError, file_refusal
from chessrate.formats.csvgames import read_csv_event, read_csv_games
from chessrate.formats.model import (
    EventRead,
    Game,
    GameColumns,
    Kind,
    Player,
    Problem,
    ProblemLog,
    RatedGame,
    ReadResult,
    RoundCell,
    Severity,
    Tournament,
)
from chessrate.formats.pgn import read_pgn, read_pgn_event
from chessrate.formats.text import decode
from chessrate.formats.trf import read_trf, read_trf_event

__all__ = [
    "EventRead",
    "Game",
    "GameColumns",
    "Kind",
    "Player",
    "Problem",
    "RatedGame",
    "ReadResult",
    "RoundCell",
    "Severity",
    "Tournament",
    "read_csv_games",
    "read_event",
    "read_pgn",
    "read_tournament",
    "read_trf",
    "sniff_format",
]

Format = Literal["trf", "pgn", "csv"]
FORMATS: tuple[Format, ...] = ("trf", "pgn", "csv")
_SUFFIXES: dict[str, Format] = {".trf": "trf", ".trfx": "trf", ".pgn": "pgn", ".csv": "csv"}


def sniff_format(text: str, *, name: str | None = None) -> Format | None:
    """The format of a file from its first meaningful lines, else from its name's suffix.

    PGN: the first line that is not blank or a ``%``/``;`` comment starts with ``[``. TRF: a line
    starts with a record code (``001``, ``012``... or ``XXR``) followed by a blank, or with ``###``.
    CSV: the first line names the ``white`` and ``black`` columns. Only the first 64 KiB are
    looked at, and of them only the lines these tests need.
    """
    # Read up to the line that decides: the first meaningful line for PGN and, with the first
    # line, CSV; then the first TRF record among the first _SNIFFED_LINES non-blank lines.
    first: str | None = None  # the first non-blank line (a CSV header?)
    meaningful = None
    counted = 0
    trf = False
    for line in _non_blank_lines(text[:65536]):
        if first is None:
            first = line
        if meaningful is None and not line.startswith(("%", ";")):
            meaningful = line
            if meaningful.lstrip("\ufeff").startswith("["):
                return "pgn"
            if _csv_header(first):
                return "csv"
        if counted < _SNIFFED_LINES:
            counted += 1
            trf = trf or _TRF_RECORD.match(line) is not None
        if meaningful is not None and (trf or counted == _SNIFFED_LINES):
            break
    if first is not None and _csv_header(first):
        return "csv"
    if trf:
        return "trf"
    if name is not None:
        return _SUFFIXES.get(Path(name).suffix.lower())
    return None


def _csv_header(line: str) -> bool:
    return {"white", "black"} <= {cell.strip().strip('"').lower() for cell in re.split(r"[,;]", line)}


_TRF_RECORD = re.compile(r"(\d{3}|XX[A-Z])( |$)|###")
_SNIFFED_LINES = 200
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as text.split_lines


def _non_blank_lines(text: str) -> Iterator[str]:
    """The lines of :func:`.text.split_lines` that are not blank, found one at a time."""
    start = 0
    for brk in _LINE_BREAK.finditer(text):
        line = text[start : brk.start()]
        start = brk.end()
        if line.strip():
            yield line
    if text[start:].strip():
        yield text[start:]


def read_tournament(
    path_or_bytes: str | os.PathLike[str] | bytes,
    *,
    format: Format | None = None,
    strict: bool = False,
) -> ReadResult:
    """Read a TRF, PGN or CSV tournament file: a path (``str`` or :class:`~pathlib.Path`) or its
    bytes.

    The format is sniffed from the content when not given (:func:`sniff_format`). Problems are
    returned with their line numbers; with ``strict``, the first error raises
    :class:`~chessrate.errors.FileFormatError`.
    """
    if format is not None and format not in FORMATS:
        raise InvalidInputError("format", format, f"a format is one of {', '.join(FORMATS)}")
    name = None
    if isinstance(path_or_bytes, str | os.PathLike):
        path = Path(path_or_bytes)
        name = path.name
        try:
            if format == "pgn" or (format is None and path.suffix.lower() == ".pgn"):
                return read_pgn(path, strict=strict)
            data = path.read_bytes()
        except OSError as error:
            raise file_refusal("path", str(path), error) from None
    else:
        data = path_or_bytes
    if format is None:
        format = sniff_format(decode(data)[0], name=name)
    if format == "trf":
        return read_trf(data, strict=strict)
    if format == "pgn":
        return read_pgn(data, strict=strict)
    if format == "csv":
        return read_csv_games(data, strict=strict)
    log = ProblemLog(strict=strict)
    log.error(None, "unknown-format", "not a TRF, PGN or CSV file")
    return ReadResult(Tournament("unknown"), log.sorted())


def read_event(source: str | os.PathLike[str] | bytes, *, format: Format | None) -> EventRead:
    """What a rating-list import needs of a tournament file (a path, or its bytes already read): its
    event, players and games as columns.

    The same facts and problems as :func:`read_tournament` (``EventRead.of`` its result), from the
    same one read of the file, its games left as columns (see ``docs/formats.md``). A PGN path is
    streamed.
    """
    try:
        if format == "pgn":
            return read_pgn_event(source if isinstance(source, bytes) else Path(source))
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
    except OSError as error:
        raise file_refusal("path", str(source), error) from None
    if format == "trf":
        return read_trf_event(data)
    if format == "csv":
        return read_csv_event(data)
    return EventRead.of(read_tournament(data, format=format))
