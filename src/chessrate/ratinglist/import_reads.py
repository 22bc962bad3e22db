"""A file of an import read and checked: on a second process when an import has several files,
while the first process checks and writes (:func:`file_reads`).

- A file is read whole (up to :data:`_READ_WHOLE`; a larger PGN is streamed), its sha256 taken and
  its format told from its first bytes; a file with reading errors or no dates is refused as it is
  read (:class:`Unreadable`), and the files after it are still read for their own problems.
- The second process only reads: it sends each file's :class:`FileRead` (the event's players and
  its games' columns) to the first, in the order of the files, a few files at a time through a
  bounded queue; a file it cannot read is read again by the first process, which says why.
"""

from __future__ import annotations

import copyreg
import datetime as dt
import hashlib
import io
import multiprocessing
import operator
import os
import pickle
import queue
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from decimal import Decimal
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from pathlib import Path
from typing import cast

from chessrate.errors import CodedError, FileFormatError, InvalidInputError
from chessrate.formats import EventRead, Format, Player, Problem, read_event, sniff_format
from chessrate.formats.text import check_file_name, decode, split_lines
from chessrate.ratinglist.import_players import player_key
from chessrate.ratinglist.refusals import IMPORT_REFUSALS, input_refusal, refusal_text, unreadable_file

MAX_ERRORS_SHOWN = 3
#: Files up to this size are read once, whole; a larger one (a PGN of many events) is streamed.
_READ_WHOLE = 64 << 20
#: An import of this many files or more reads them on a second process.
READ_APART = 4
#: The files a message of the second process carries, and the messages it may be ahead.
_FILES_A_MESSAGE = 8
_MESSAGES_AHEAD = 32
#: A message from the reading process: each file read, or ``None`` where it could not be.
_Message = list["FileRead | None"]


@contextmanager
def file_reads(
    paths: Sequence[Path], *, start: dt.date | None, end: dt.date | None
) -> Iterator[Iterator[FileRead | Unreadable]]:
    """Each file read (:func:`read_file`), or why it cannot be, in the order of ``paths``.

    With :data:`READ_APART` files or more, on a machine of two cores or more, a second process
    (forked: it has the modules already) reads them ahead of the caller, which checks and writes
    on its own core meanwhile; the process is stopped when the block ends, however it ends."""
    if len(paths) < READ_APART or (os.cpu_count() or 1) < 2:
        yield (_read_here(path, start=start, end=end) for path in paths)
        return
    context = multiprocessing.get_context("fork")
    messages: Queue[bytes] = context.Queue(_MESSAGES_AHEAD)
    reader = context.Process(target=_read_apart, args=(paths, start, end, messages, os.getpid()), daemon=True)
    reader.start()
    try:
        yield _received(paths, start, end, messages, reader)
    finally:
        if reader.is_alive():
            reader.kill()
        reader.join()
        messages.close()


def _read_here(path: Path, *, start: dt.date | None, end: dt.date | None) -> FileRead | Unreadable:
    try:
        return read_file(path, start=start, end=end)
    except Unreadable as unreadable:
        return unreadable


def _read_apart(
    paths: Sequence[Path],
    start: dt.date | None,
    end: dt.date | None,
    messages: Queue[bytes],
    parent: int,
) -> None:
    """The second process: every file read, sent a few at a time; one it cannot read is sent as
    ``None`` (the first reads it again and says why). It stops if the first has gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the first process's to answer
    for first in range(0, len(paths), _FILES_A_MESSAGE):
        message: _Message = []
        for path in paths[first : first + _FILES_A_MESSAGE]:
            try:
                message.append(read_file(path, start=start, end=end))
            except Exception:  # said by the first process, which reads it again
                message.append(None)
        while True:
            try:
                messages.put(_pickled(message), timeout=1.0)
                break
            except queue.Full:
                if os.getppid() != parent:
                    return


def _received(
    paths: Sequence[Path],
    start: dt.date | None,
    end: dt.date | None,
    messages: Queue[bytes],
    reader: BaseProcess,
) -> Iterator[FileRead | Unreadable]:
    for first in range(0, len(paths), _FILES_A_MESSAGE):
        some = paths[first : first + _FILES_A_MESSAGE]
        message = _next(messages, reader)
        if message is None:  # the second process stopped: the rest are read here
            yield from (_read_here(path, start=start, end=end) for path in paths[first:])
            return
        for path, read in zip(some, message, strict=True):
            yield _read_here(path, start=start, end=end) if read is None else read


def _next(messages: Queue[bytes], reader: BaseProcess) -> _Message | None:
    """The reading process's next message; ``None`` if it stopped without sending it."""
    while True:
        try:
            return cast("_Message", pickle.loads(messages.get(timeout=1.0)))
        except queue.Empty:
            if not reader.is_alive():
                try:
                    return cast("_Message", pickle.loads(messages.get_nowait()))
                except queue.Empty:
                    return None


def _pickled(message: _Message) -> bytes:
    """The message as bytes, each :class:`~chessrate.formats.model.Player` as the tuple of its
    fields: a third of the time pickle takes for it by default (its ``__dict__``, each key
    named), half on the first process's side (measured on the 10^5-game month of
    ``benchmarks/month_scale.py``: 0.23 s to 0.15 s unpickled)."""
    written = io.BytesIO()
    pickler = pickle.Pickler(written, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, Player: _player_reduced}
    pickler.dump(message)
    return written.getvalue()


_PLAYER_FIELDS = tuple(field.name for field in fields(Player))
_player_values = operator.itemgetter(*_PLAYER_FIELDS)


def _player_reduced(player: Player) -> tuple[Callable[[tuple[object, ...]], Player], tuple[object, ...]]:
    return _player, (_player_values(player.__dict__),)


def _player(values: tuple[object, ...]) -> Player:
    """A player from the values of its fields (as :meth:`Player.of_games` makes one)."""
    player = object.__new__(Player)
    player.__dict__.update(zip(_PLAYER_FIELDS, values, strict=True))
    return player


class RefusedFile(FileFormatError):
    """A file with reading errors: nothing of the import is stored. ``errors`` are the reader's
    problems, whose codes let a face say them in its own language."""

    def __init__(self, file_name: str, errors: Sequence[Problem]) -> None:
        self.file_name = file_name
        self.errors = tuple(errors)
        shown = "; ".join(str(problem) for problem in self.errors[:MAX_ERRORS_SHOWN])
        params = {"file": file_name, "count": len(self.errors), "errors": shown}
        super().__init__(refusal_text("import-refused-file", params), code="import-refused-file")


class Unreadable(Exception):
    """A file refused as it was read (``error``), and its digest if it could be read."""

    def __init__(self, error: Exception, digest: str | None, path: Path) -> None:
        super().__init__(str(error))
        self.error, self.digest, self.path = error, digest, path

    def refusal(self) -> tuple[str, dict[str, object], str]:
        """The file's refusal as :class:`RefusedFiles` names it: a code, its values, its English."""
        error = self.error
        if isinstance(error, RefusedFile):
            shown = "; ".join(str(problem) for problem in error.errors[:MAX_ERRORS_SHOWN])
            if len(error.errors) > MAX_ERRORS_SHOWN:
                shown += " …"
            params: dict[str, object] = {"file": error.file_name, "count": len(error.errors), "errors": shown}
            return "import-file-errors", params, refusal_text("import-file-errors", params)
        code = getattr(error, "code", "")
        params = dict(getattr(error, "params", None) or {})
        if isinstance(code, str) and code in IMPORT_REFUSALS and "file" in params:
            return code, params, refusal_text(code, params)
        return "", {}, f"{self.path.name}: {error}"


class RefusedFiles(CodedError, ValueError):
    """Several files that cannot be read: nothing of the import is stored. The message names
    each file and its problems, a line each (``import-refused-files``)."""

    def __init__(self, refused: Sequence[Unreadable]) -> None:
        self.files = tuple(unreadable.path for unreadable in refused)
        params: dict[str, object] = {
            "count": len(refused),
            "refusals": [unreadable.refusal() for unreadable in refused],
        }
        super().__init__(
            refusal_text("import-refused-files", params), code="import-refused-files", params=params
        )


@dataclass(frozen=True)
class FileRead:
    """A file read and checked, ready to store."""

    path: Path
    digest: str
    event: EventRead
    warnings: tuple[str, ...]
    start_date: dt.date
    end_date: dt.date
    #: The games' scores as :class:`.schema.DecimalText` stores them (written where it is read).
    white_scores: list[str | None]
    black_scores: list[str | None]
    #: What each player is matched by when without a FIDE id (:func:`.import_players.player_key`).
    player_keys: list[str]


def read_file(path: Path, *, start: dt.date | None, end: dt.date | None) -> FileRead:
    """The file read from disk; :class:`Unreadable` if it cannot be read, has reading errors or
    no dates (whether it was imported already is checked with its batch)."""
    data: bytes | None = None  # the file's bytes, read once when it is not too big to hold
    try:
        check_file_name("file", path)  # (stored with the event)
    except InvalidInputError as error:
        raise Unreadable(error, None, path) from None
    try:
        if path.stat().st_size <= _READ_WHOLE:
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            head = data[:65536]
        else:
            with path.open("rb") as handle:
                digest = hashlib.file_digest(handle, "sha256").hexdigest()
            with path.open("rb") as handle:
                head = handle.read(65536)  # enough to tell the format (sniff_format reads as much)
    except OSError as error:
        raise Unreadable(unreadable_file("file", path, error), None, path) from None
    try:
        return _checked(path, digest, data, head, start=start, end=end)
    except (InvalidInputError, FileFormatError) as error:
        raise Unreadable(error, digest, path) from None


def _checked(
    path: Path, digest: str, data: bytes | None, head: bytes, *, start: dt.date | None, end: dt.date | None
) -> FileRead:
    # A PGN file is streamed from disk; TRF and CSV files (one event each) are read whole.
    read = read_event(path if data is None else data, format=_format(head, path.name))
    if read.errors:
        raise RefusedFile(path.name, read.errors)
    start_date, end_date = _event_dates(read.start_date, read.end_date, start=start, end=end)
    if start_date is None or end_date is None:
        raise input_refusal("import-no-date", field="start", value=None, file=path.name)
    if end_date < start_date:
        raise input_refusal(
            "import-ends-before-start", field="end", value=end_date.isoformat(), file=path.name
        )
    warnings = tuple(problem.located() for problem in read.warnings)
    games = read.games
    white_scores, black_scores = _texts(games.white_score), _texts(games.black_score)
    keys = [player_key(player) for player in read.players]
    return FileRead(path, digest, read, warnings, start_date, end_date, white_scores, black_scores, keys)


def _format(head: bytes, name: str) -> Format | None:
    """:func:`~chessrate.formats.sniff_format` of the file's first 64 KiB (``head``), told from its
    first 4 KiB where they decide it: the whole lines there, ASCII (decoded alike whatever the
    encoding chosen for the 64 KiB), at least one of them meaningful (not blank, not a ``%`` or
    ``;`` comment), so the first lines the sniffer tests are the same. A TRF file is told by its
    first line; sniffing all its lines cost some 3 % of an import."""
    short = head[: max(head.rfind(b"\n", 0, 4096), head.rfind(b"\r", 0, 4096)) + 1]
    if short.isascii():
        text = short.decode("ascii")
        if any(line.strip() and not line.startswith(("%", ";")) for line in split_lines(text)):
            told = sniff_format(text, name=None)
            if told is not None:
                return told
    return sniff_format(decode(head)[0], name=name)


def _event_dates(
    file_start: dt.date | None, file_end: dt.date | None, *, start: dt.date | None, end: dt.date | None
) -> tuple[dt.date | None, dt.date | None]:
    """The event's dates: as given; a ``start`` alone moves the file's dates, keeping their span."""
    if start is None:
        first = file_start
        last = end or file_end or file_start
    else:
        first = start
        span = (file_end - file_start) if file_start and file_end else dt.timedelta(0)
        last = end or start + span
    return first, last


def _texts(scores: Sequence[Decimal | None]) -> list[str | None]:
    """Scores as :class:`.schema.DecimalText` stores them (``str``), each distinct object written
    once: a reader gives a few shared decimals."""
    # Each distinct object by its id (the list holds every score, so no id is reused while this
    # runs), then every score's text looked up: no Python code runs a score.
    distinct = dict(zip(map(id, scores), scores, strict=True))
    written = {key: None if score is None else str(score) for key, score in distinct.items()}
    return list(map(written.__getitem__, map(id, scores)))
