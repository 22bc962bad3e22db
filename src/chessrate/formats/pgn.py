"""Tournaments from PGN games, read from their tag pairs alone (no move is parsed).

:func:`scan_headers` finds the games as ``chess.pgn.read_headers`` does ([PYCHESS]), line by line,
but skips the movetext without tokenising it, and gives each game the line its headers start on, so
every problem names a line.

Players are identified by FIDE ID when the ``WhiteFideId``/``BlackFideId`` tags have one, else by
name (a name seen with an ID elsewhere in the file takes that ID). They are numbered in order of
first appearance. Ratings come from ``WhiteElo``/``BlackElo`` of each game; a game without a result
or a rating is reported, never guessed.

An import reads a file with :func:`read_pgn_event`: the same facts, the games as columns, and
games laid out alike found by one pattern rather than one at a time (docs/formats.md, "Reading for
an import").
"""

from __future__ import annotations

import datetime as dt
import functools
import graphlib
import io
import os
import re
from collections import Counter
from collections.abc import Generator, Iterable, Iterator
from decimal import Decimal
from itertools import accumulate, compress, pairwise, repeat
from itertools import count as count_from
from operator import add, and_, eq, gt
from typing import NamedTuple, TextIO, TypeVar

from chessrate.formats.model import (
    EventRead,
    Game,
    GameColumns,
    Kind,
    Player,
    ProblemLog,
    ReadResult,
    Severity,
    Tournament,
)
from chessrate.formats.text import control_character, decode, open_text, parse_loose_date
from chessrate.formats.trf import TITLES
from chessrate.parse import is_digits

#: PGN results (PGN standard, Seven Tag Roster): White's and Black's scores.
RESULTS = {
    "1-0": (Decimal(1), Decimal(0)),
    "0-1": (Decimal(0), Decimal(1)),
    "1/2-1/2": (Decimal("0.5"), Decimal("0.5")),
}
#: Values of a tag that mean "unknown" rather than a value (PGN standard uses ``?``; lichess ``-``).
UNKNOWN = frozenset({"", "?", "-", "*"})
#: Variant tag values that are standard chess; any other variant is kept and not rated.
STANDARD_VARIANTS = frozenset({"standard", "chess", "normal"})
MAX_RATING = 4000  # as chessrate.parse.MAX_RATING


#: A side's tag texts as written: name, ``Elo``, ``FideId``, ``Title`` (``""`` for a missing tag).
_SideTexts = tuple[str, str, str, str]


class _Side(NamedTuple):
    name: str
    fide_id: int | None
    rating: int | None
    title: str | None


class _RawGame(NamedTuple):
    line: int
    white: _Side
    black: _Side
    result: str
    round: int | None
    date_text: str
    event: str | None
    site: str | None
    rateable_variant: bool


def read_pgn(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read the games of a PGN file into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).

    A path is streamed, so files of any size can be read. With ``strict``, the first error raises
    :class:`~chessrate.errors.FileFormatError`.

    What :func:`read_pgn_by_game` returns, found as :func:`read_pgn_event` finds it where the
    games are laid out alike: their tags read as columns, each distinct text decided once, and one
    :class:`Game` made a game by :meth:`Game.of_fields`. A file the columns do not decide (games laid
    out otherwise, an error) is read game by game.
    """
    blocks, encoding = _text_blocks(source)
    games = _laid_out_games(blocks)
    read = None if games is None else _read_columns(games)
    if read is None or (strict and read.event.errors):
        return read_pgn_by_game(source, strict=strict)
    return ReadResult(read.tournament(encoding), read.event.problems)


def read_pgn_by_game(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """:func:`read_pgn` game by game: each game's tags read by :func:`scan_headers` and checked
    by :func:`_read_game`, in file order (the exact reader, which the fast paths are tested
    against)."""
    log = ProblemLog(strict=strict)
    handle, encoding = _open(source)
    with handle:
        raw_games = _read_games(handle, log)
    numbered = _number(raw_games, log)
    dates = _Dates()
    games = tuple(_game(raw, white, black, dates) for raw, white, black in numbered.games)
    known = [g.date for g in games if g.date is not None]
    rounds = [g.round for g in games if g.round is not None]
    tournament = Tournament(
        source_format="PGN",
        players=numbered.players,
        games=games,
        name=raw_games[0].event if raw_games else None,
        place=raw_games[0].site if raw_games else None,
        start_date=min(known, default=None),
        end_date=max(known, default=None),
        rounds=max(rounds, default=0),
        encoding=encoding,
    )
    return ReadResult(tournament, log.sorted())


def read_pgn_event(source: bytes | str | os.PathLike[str]) -> EventRead:
    """The event of a PGN file, its games as columns: the same facts as
    ``EventRead.of(read_pgn(source))``, without a :class:`Game` object a game.

    A file whose games lay their tags out alike (each tag pair alone on its line, the tags in one
    order) is read by one pattern (:class:`_Layout`), each distinct tag text decided once; any
    other file, or one with an error, is read game by game as :func:`read_pgn_by_game` reads it.
    """
    games = _laid_out_games(_text_blocks(source)[0])
    read = None if games is None else _read_columns(games)
    return read.event if read is not None else _read_event_by_game(source)


def _read_event_by_game(source: bytes | str | os.PathLike[str]) -> EventRead:
    """:func:`read_pgn_event` game by game: the scanner and checks of :func:`read_pgn_by_game`."""
    log = ProblemLog(strict=False)
    handle, _ = _open(source)
    with handle:
        raw_games = _read_games(handle, log)
    numbered = _number(raw_games, log)
    dates = _Dates()
    known = [day for raw, _, _ in numbered.games if (day := dates.of(raw.date_text)) is not None]
    columns = GameColumns(
        round=[raw.round for raw, _, _ in numbered.games],
        white=[white for _, white, _ in numbered.games],
        black=[black for _, _, black in numbered.games],
        white_score=[RESULTS.get(raw.result, _NO_SCORES)[0] for raw, _, _ in numbered.games],
        black_score=[RESULTS.get(raw.result, _NO_SCORES)[1] for raw, _, _ in numbered.games],
        rated=[raw.result in RESULTS and raw.rateable_variant for raw, _, _ in numbered.games],
        code=[raw.result for raw, _, _ in numbered.games],
        line=[raw.line for raw, _, _ in numbered.games],
    )
    return EventRead(
        source_format="PGN",
        name=raw_games[0].event if raw_games else None,
        start_date=min(known, default=None),
        end_date=max(known, default=None),
        players=numbered.players,
        games=columns,
        problems=log.sorted(),
    )


_NO_SCORES: tuple[None, None] = (None, None)


def _open(source: bytes | str | os.PathLike[str]) -> tuple[TextIO, str]:
    if isinstance(source, os.PathLike):
        return open_text(source)
    if isinstance(source, str):
        return io.StringIO(source, newline=None), "str"
    text, encoding = decode(source)
    return io.StringIO(text, newline=None), encoding


def _read_games(handle: TextIO, log: ProblemLog) -> list[_RawGame]:
    games = []
    sides = _Sides()
    for line, headers in scan_headers(handle):
        game = _read_game(headers, line, log, sides)
        if game is not None:
            games.append(game)
    return games


#: A tag pair, as python-chess reads one (``chess.pgn.TAG_REGEX``): the value is kept as written.
_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
#: What matters in movetext being skipped: comments in braces, and ``;`` comments to the line's end.
_COMMENT_MARK = re.compile(r"[;{}]")
#: :data:`_TAG` over many lines at once: within one line ``\s`` is ``[^\S\n]`` and ``[^\r]`` is
#: ``[^\r\n]`` (the line's only newline is its last character, after the ``"]``).
_TAGS = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[^\S\n]+\"([^\r\n]*)\"\][^\S\n]*$", re.MULTILINE)
#: Consecutive lines that start with ``[``: a game's tag pairs.
_TAG_LINES = re.compile(r"(?:\[[^\n]*(?:\n|\Z))+")
#: A blank line (``str.isspace``: ``\s`` is the same set of characters).
_BLANK_LINE = re.compile(r"^[^\S\n]*(?:\n|\Z)", re.MULTILINE)
#: Text read at a time from a handle (then to the end of its line).
_BLOCK = 1 << 20


def scan_headers(handle: TextIO) -> Iterator[tuple[int, dict[str, str]]]:
    """Each game's tag pairs and the line its headers start on, skipping the movetext unread.

    The games are those ``chess.pgn.read_headers`` finds, line by line the same way (a game ends
    at a blank line outside a brace comment; ``%`` lines are escapes; one blank line may stand
    between tag pairs), but no move is looked at. The handle is read in blocks of whole lines, and
    each block searched with compiled patterns: a game's tag lines at once, then its movetext up
    to the first blank line, which ends the game unless a brace comment is open there. Movetext
    with a ``;`` comment, an escape line or a comment open at a blank line is walked line by line
    (:func:`_movetext_end`). ``tests/formats/test_pgn_reader.py`` checks the two agree. Where a
    feature needs the moves, python-chess reads the game.
    """
    scanner = _Scanner()
    tail = ""
    while True:
        block = handle.read(_BLOCK)
        final = not block
        if block and not block.endswith("\n"):
            block += handle.readline()
        text = tail + block
        consumed = yield from scanner.games(text, final=final)
        tail = text[consumed:]
        if final:
            return


class _Scanner:
    """The games of a text, a block at a time; the line numbers carry on from block to block."""

    def __init__(self) -> None:
        self.line = 1  # the number of the line at the start of the next block
        self.fresh = True  # whether that line is the first one a game's search reads
        #: The game the last block's end cut in its movetext, which the next text starts with:
        #: its headers, where its movetext was read up to (from the game's start) and whether a
        #: comment is open there. Its movetext is read on from there: a game of any length is
        #: read once, not once a block (a comment that never closes made a file's one game).
        self.cut: tuple[dict[str, str], int, bool] | None = None

    def games(self, text: str, *, final: bool) -> Generator[tuple[int, dict[str, str]], None, int]:
        """The games whose end is in ``text`` (all of them if ``final``), then where the first
        unfinished one starts (returned by the generator)."""
        size = len(text)
        pos, line, fresh = 0, self.line, self.fresh
        while True:
            start = _game_start(text, pos, fresh=fresh)
            if start >= size:
                self.line = line + text.count("\n", pos, size)
                self.fresh = fresh and pos == size
                return size
            first = line + text.count("\n", pos, start)
            headers: dict[str, str] = {}
            movetext: int | None  # where the movetext is read from
            end, in_comment = None, False
            if self.cut is not None:  # the text starts with the game cut before
                headers, movetext, in_comment = self.cut
                self.cut = None
                end, in_comment = _movetext_end_by_line(text, movetext, in_comment=in_comment)
            else:
                movetext = _headers_end(text, start, headers)
                if movetext is not None:
                    end, in_comment = _movetext_end(text, movetext)
            if end is None and not final:
                if movetext is not None:  # its movetext is read on from the text's end
                    self.cut = headers, size - start, in_comment
                self.line, self.fresh = first, False  # its first line is read as it stands
                return start
            yield first, headers
            end = size if end is None else end
            pos, line, fresh = end, first + text.count("\n", start, end), True


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def _game_start(text: str, pos: int, *, fresh: bool) -> int:
    """Where the next game's headers start: blank and ``%``/``;`` lines skipped, and, when
    ``fresh``, byte-order marks at the start of the first line looked at (python-chess drops them
    there)."""
    while fresh and pos < len(text) and text[pos] == "\ufeff":
        pos += 1
    while pos < len(text):
        end = _line_end(text, pos)
        if not text[pos:end].isspace() and text[pos] not in "%;":
            return pos
        pos = end
    return pos


def _headers_end(text: str, pos: int, headers: dict[str, str]) -> int | None:
    """The tag pairs from ``pos`` into ``headers``; where the movetext starts, ``None`` at the end
    of the text."""
    blank_seen = False
    size = len(text)
    while pos < size:
        if text[pos] == "[":
            tags = _TAG_LINES.match(text, pos)
            assert tags is not None  # the line starts with "["
            headers.update(_TAGS.findall(tags.group()))
            pos, blank_seen = tags.end(), False
            continue
        end = _line_end(text, pos)
        if text[pos] in "%;":
            pos = end
        elif not blank_seen and text[pos:end].isspace():
            pos, blank_seen = end, True
        else:
            return pos
    return None


def _movetext_end(text: str, pos: int) -> tuple[int | None, bool]:
    """Where the game whose movetext starts at ``pos`` ends (after its blank line), ``None`` when
    the text ends first; and then whether a brace comment is open at the text's end."""
    blank = _BLANK_LINE.search(text, pos)
    if blank is None or blank.start() == len(text):
        return _movetext_end_by_line(text, pos)  # no blank line: the game may go on
    stop = blank.start()
    if text.find(";", pos, stop) < 0:
        opening = text.rfind("{", pos, stop)
        if opening < 0 and text.find("}", pos, stop) < 0:
            return blank.end(), False  # no comment at all
        if opening < text.rfind("}", pos, stop) and not _has_escape(text, pos, stop):
            return blank.end(), False  # the last brace closes: no comment is open at the blank line
    return _movetext_end_by_line(text, pos)


def _has_escape(text: str, pos: int, stop: int) -> bool:
    return text.startswith("%", pos) or text.find("\n%", pos, stop) >= 0


def _movetext_end_by_line(text: str, pos: int, *, in_comment: bool = False) -> tuple[int | None, bool]:
    """:func:`_movetext_end` line by line, as python-chess reads the movetext (from a line start
    where a brace comment is open or not)."""
    while pos < len(text):
        end = _line_end(text, pos)
        line = text[pos:end]
        if not in_comment:
            if line.isspace():
                return end, False
            if line.startswith("%"):
                pos = end
                continue
        if "{" in line or "}" in line or ";" in line:
            in_comment = _still_in_comment(line, in_comment=in_comment)
        pos = end
    return None, in_comment


def _still_in_comment(line: str, *, in_comment: bool) -> bool:
    """Whether a brace comment is still open at the end of a movetext line."""
    for mark in _COMMENT_MARK.finditer(line):
        token = mark.group(0)
        if token == "{":
            in_comment = True
        elif token == ";" and not in_comment:
            break
        elif token == "}":
            in_comment = False
    return in_comment


def _read_game(headers: dict[str, str], line: int, log: ProblemLog, sides: _Sides) -> _RawGame | None:
    where = f"game at line {line}"
    white = sides.side(headers, "White", where, line, log)
    black = sides.side(headers, "Black", where, line, log)
    if white is None or black is None:
        return None
    get = headers.get
    result = get("Result", "").strip()
    if result not in RESULTS:
        if result in UNKNOWN:
            log.warning(
                line, "no-result", f"{where} has no result ({result or 'no Result tag'!r})", value=result
            )
        else:
            log.error(line, "invalid-result", f"{where}: invalid result {result!r}", value=result)
    variant = get("Variant", "Standard").strip().lower()
    if variant not in STANDARD_VARIANTS:
        log.warning(
            line,
            "variant",
            f"{where} is {headers['Variant']!r}, not standard chess: not rated",
            value=headers["Variant"],
        )
    round_text = get("Round", "").strip()
    round_number = sides.round(round_text)
    if round_text not in UNKNOWN and round_number is None:
        log.warning(line, "unreadable-round", f"{where}: cannot read round {round_text!r}", value=round_text)
    event = get("Event", "").strip()
    site = get("Site", "").strip()
    for tag, text in (("Event", event), ("Site", site)):
        _check_control_character(text, tag, where, line, log)
    return _RawGame(
        line,
        white,
        black,
        result,
        round_number,
        get("Date", "").strip(),
        None if event in UNKNOWN else event,
        None if site in UNKNOWN else site,
        variant in STANDARD_VARIANTS,
    )


_ROUND = re.compile(r"(\d{1,9})(?:\.\d+)*")


class _Sides:
    """A game's sides and round read from their tags, each distinct set of tag values read once.

    Reading is a pure function of the values; a side whose reading reported a problem is read
    (and reported) again each time.
    """

    def __init__(self) -> None:
        self._sides: dict[_SideTexts, _Side] = {}
        self._rounds: dict[str, int | None] = {}

    def side(
        self, headers: dict[str, str], colour: str, where: str, line: int, log: ProblemLog
    ) -> _Side | None:
        get = headers.get
        key = (
            get(colour, ""),
            get(f"{colour}Elo", ""),
            get(f"{colour}FideId", ""),
            get(f"{colour}Title", ""),
        )
        side = self._sides.get(key)
        if side is None:
            problems = len(log.problems)
            side = _side(key, colour, where, line, log)
            if side is not None and len(log.problems) == problems:
                self._sides[key] = side
        return side

    def round(self, text: str) -> int | None:
        """The round of a ``Round`` tag (``3``, ``3.1``), ``None`` when it has none."""
        if text not in self._rounds:
            self._rounds[text] = _round_number(text)
        return self._rounds[text]


def _round_number(text: str) -> int | None:
    """The round of a ``Round`` tag's stripped text (``3``, ``3.1``), ``None`` when it has none."""
    match = _ROUND.fullmatch(text)
    return int(match.group(1)) if match else None


def _side(texts: _SideTexts, colour: str, where: str, line: int, log: ProblemLog) -> _Side | None:
    """A side from the texts of its name, ``Elo``, ``FideId`` and ``Title`` tags."""
    name_text, rating_text, id_text, title_text = texts
    name = " ".join(name_text.split())
    if name in UNKNOWN:
        log.error(line, "no-player-name", f"{where} has no {colour} player", colour=colour)
        return None
    if _check_control_character(name_text, colour, where, line, log) or _check_control_character(
        title_text, f"{colour}Title", where, line, log
    ):
        return None
    rating_text = rating_text.strip()
    rating = None
    if is_digits(rating_text) and int(rating_text) <= MAX_RATING:
        rating = int(rating_text) or None
    elif rating_text not in UNKNOWN:
        log.error(
            line,
            "invalid-rating",
            f"{where}: invalid {colour}Elo {rating_text!r}",
            tag=f"{colour}Elo",
            value=rating_text,
        )
    if rating is None:
        log.warning(line, "no-rating", f"{where}: {colour} {name!r} has no rating", colour=colour, name=name)
    id_text = id_text.strip()
    fide_id = int(id_text) or None if is_digits(id_text) else None
    if id_text not in UNKNOWN and not is_digits(id_text):
        log.warning(
            line,
            "invalid-fide-id",
            f"{where}: invalid {colour}FideId {id_text!r}",
            tag=f"{colour}FideId",
            value=id_text,
        )
    title_text = title_text.strip()
    title = TITLES.get(title_text.lower(), title_text) if title_text not in UNKNOWN else None
    return _Side(name, fide_id, rating, title)


def _check_control_character(text: str, tag: str, where: str, line: int, log: ProblemLog) -> bool:
    """Whether a tag's value holds a C0 control character but TAB (an error: a NUL cannot even be
    stored by PostgreSQL), reported as ``control-character-in-tag``."""
    character = control_character(text)
    if character is None:
        return False
    log.error(
        line,
        "control-character-in-tag",
        f"{where}: a control character ({character}) in the {tag} tag",
        character=character,
        tag=tag,
    )
    return True


class _Numbered(NamedTuple):
    """The games kept, each with its players' numbers, and the players."""

    games: list[tuple[_RawGame, int, int]]
    players: tuple[Player, ...]


def _number(raw_games: list[_RawGame], log: ProblemLog) -> _Numbered:
    """Each game's players numbered (:class:`_Roster`); a game of a player against themselves is
    an error, and not kept."""
    roster = _Roster((side for raw in raw_games for side in (raw.white, raw.black)), log)
    games = []
    for raw in raw_games:
        white = roster.number(raw.white, raw.line)
        black = roster.number(raw.black, raw.line)
        if white == black:
            log.error(
                raw.line,
                "self-pairing",
                f"game at line {raw.line}: {raw.white.name!r} plays themselves",
                name=raw.white.name,
            )
            continue
        games.append((raw, white, black))
    if not raw_games:
        log.error(None, "no-games", "the file has no PGN game")
    events = Counter(g.event for g in raw_games if g.event)
    if len(events) > 1:
        log.warning(None, "several-events", f"the games belong to {len(events)} events", count=len(events))
    return _Numbered(games, roster.players())


class _Dates:
    """The days of ``Date`` tags, each distinct text read once (:func:`.text.parse_loose_date`)."""

    def __init__(self) -> None:
        self._days: dict[str, dt.date | None] = {"": None}

    def of(self, text: str) -> dt.date | None:
        if text not in self._days:
            self._days[text] = parse_loose_date(text)
        return self._days[text]


def _game(raw: _RawGame, white: int, black: int, dates: _Dates) -> Game:
    scores = RESULTS.get(raw.result)
    return Game(
        round=raw.round,
        white=white,
        black=black,
        white_score=scores[0] if scores else None,
        black_score=scores[1] if scores else None,
        kind=Kind.PLAYED if scores else Kind.UNFINISHED,
        counts_for_rating=scores is not None and raw.rateable_variant,
        code=raw.result,
        line=raw.line,
        white_rating=raw.white.rating,
        black_rating=raw.black.rating,
        date=dates.of(raw.date_text),
    )


class _Roster:
    """The players of the games, numbered in order of first appearance.

    A player is their FIDE ID, else their name; a name seen with exactly one FIDE ID takes that ID
    in the games where the tag is missing. A player seen under another name, or with another
    rating, is warned about once.
    """

    def __init__(self, sides: Iterable[_Side], log: ProblemLog) -> None:
        """A roster for games whose sides are ``sides`` (each at least once)."""
        self._log = log
        self._ids_of_name: dict[str, set[int]] = {}
        for side in sides:
            if side.fide_id is not None:
                self._ids_of_name.setdefault(side.name.casefold(), set()).add(side.fide_id)
        self._numbers: dict[tuple[str, object], int] = {}
        self._ids: dict[int, int] = {}
        self._first_seen: dict[int, tuple[_Side, int]] = {}
        self._ratings: dict[int, int] = {}
        self._warned: set[tuple[str, int]] = set()

    def _key(self, side: _Side) -> tuple[str, object]:
        if side.fide_id is not None:
            return ("id", side.fide_id)
        ids = self._ids_of_name.get(side.name.casefold(), set())
        return ("id", next(iter(ids))) if len(ids) == 1 else ("name", side.name.casefold())

    def number(self, side: _Side, line: int) -> int:
        """The player's number, noting their name, FIDE ID and rating."""
        side_key = self._key(side)
        number = self._numbers.setdefault(side_key, len(self._numbers) + 1)
        if side_key[0] == "id" and isinstance(side_key[1], int):
            self._ids[number] = side_key[1]
        first, first_line = self._first_seen.setdefault(number, (side, line))
        if side.name != first.name and self._first_warning("name", number):
            message = f"player {number} is {side.name!r} here and {first.name!r} on line {first_line}"
            self._log.warning(
                line,
                "name-mismatch",
                message,
                player=number,
                name=side.name,
                other_name=first.name,
                other_line=first_line,
            )
        if side.rating is not None:
            known = self._ratings.setdefault(number, side.rating)
            if known != side.rating and self._first_warning("rating", number):
                self._log.warning(
                    line,
                    "rating-changes",
                    f"{side.name!r} is rated {side.rating} here and {known} in an "
                    f"earlier game; each game keeps its own ratings",
                    name=side.name,
                    rating=side.rating,
                    other_rating=known,
                )
        return number

    def _first_warning(self, kind: str, number: int) -> bool:
        if (kind, number) in self._warned:
            return False
        self._warned.add((kind, number))
        return True

    def players(self) -> tuple[Player, ...]:
        return tuple(
            Player.of_games(
                number,
                side.name,
                rating=self._ratings.get(number),
                fide_id=self._ids.get(number),
                title=side.title,
                line=line,
            )
            for number, (side, line) in sorted(self._first_seen.items())
        )


# The import's read (read_pgn_event): games laid out alike, read as columns.
#
# A file's games are read by one pattern (_Layout) where they lay their tags out alike: each tag
# pair alone on its line in the plain form ``[Name "value"]``, the names in an order learnt from
# the games (a game with a tag not seen yet adds it). The pattern matches a whole game so laid out:
# its tags, a blank line, movetext whose end python-chess finds at the first blank line outside a
# brace comment, and the blank lines after that; or else one line. Where every line no game took
# is blank, the pattern's games are the scanner's games and the tags it captured are their headers
# (docs/formats.md, "Reading for an import", says why; tests/formats/test_pgn_event_read.py checks
# it); elsewhere the file is read game by game.

#: The tags :func:`_read_game` reads; the others are matched and not kept.
_READ_TAGS = frozenset(
    {
        "Event", "Site", "Date", "Round", "Result", "Variant",
        "White", "WhiteElo", "WhiteFideId", "WhiteTitle",
        "Black", "BlackElo", "BlackFideId", "BlackTitle",
    }
)  # fmt: skip
#: A plain tag pair: alone on its line, one space between name and value, which runs to the
#: ``"]`` that ends the line (what :data:`_TAG` takes of it).
_PLAIN_TAG = re.compile(r'\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*) ".*"\]\n')
#: The movetext's first line: not blank, a tag or an escape, or a comment (read with the tags).
_MOVETEXT_START = r"(?:[^\S\n]*\n)?+(?![\[%;])(?=[^\S\n]*\S)"
#: Movetext outside brace comments: no ``{``, a ``;`` comment to the line's end, a line break only
#: before a line that is not blank and not a ``%`` escape.
_OUTSIDE = r"[^{;\n]*+(?:;[^\n]*+)?+(?:\n(?!%)(?=[^\S\n]*\S)[^{;\n]*+(?:;[^\n]*+)?+)*+"
#: Movetext in which every brace comment closes (python-chess's comment ends at the first ``}``).
_MOVETEXT = rf"(?>{_OUTSIDE}(?:\{{[^}}]*+\}}{_OUTSIDE})*+)"
#: Movetext read as lines alone, up to the first blank line: right where a game's last brace, if
#: any, is a ``}`` (:func:`_open_comment`), and several times quicker (Python's ``re`` runs ``.``
#: much faster than a class of characters such as ``[^{;\n]``).
_MOVETEXT_LINES = r".*+(?:\n(?=[^\S\n]*\S).*+)*+"
#: The movetext's end, a blank line or the end of the text, and the blank lines after it.
_MOVETEXT_END = r"(?:\n[^\S\n]*(?:\n|\Z)|\Z)(?:[^\S\n]*\n)*+"
#: Blank lines (it matches any text, at least with none).
_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)*+")
#: The most times a file's layout may be learnt again before it is read game by game.
_MOST_LAYOUTS = 8
#: The most tag names a layout may hold before the file is read game by game: a game's pattern
#: tries each, so a file of many distinct names would take time as games times names. The real
#: files of tests/data/pgn hold 12 to 21 distinct names (a Lichess export the most).
_MOST_LAYOUT_NAMES = 64


class _Layout:
    """Games whose tags are among ``names``, in that order (see above): :attr:`pattern` for any
    movetext, :attr:`lines_pattern` for movetext as lines alone."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        read = [name for name in names if name in _READ_TAGS]
        #: Where each read tag's value is in a match; 0 is the whole game, -1 a line no game took.
        #: A ``Variant`` value comes with its opening quote: a missing Variant is standard chess
        #: and an empty one is not, and both would capture ``""``.
        self.index = {name: 1 + position for position, name in enumerate(read)}
        lines = []
        for name in names:
            if name == "Variant":
                value = '(".*)"'
            elif name in _READ_TAGS:
                value = '"(.*)"'
            else:
                value = '".*"'
            lines.append(rf"(?:\[{re.escape(name)} {value}\]\n)?+")
        tags = rf"(?=\[){''.join(lines)}{_MOVETEXT_START}"
        self.pattern = re.compile(rf"({tags}{_MOVETEXT}{_MOVETEXT_END})|([^\n]*+\n?)")
        self.lines_pattern = re.compile(rf"({tags}{_MOVETEXT_LINES}{_MOVETEXT_END})|([^\n]*+\n?)")


@functools.lru_cache(maxsize=64)
def _layout(names: tuple[str, ...]) -> _Layout:
    return _Layout(names)


def _plain_tag_names(text: str, pos: int) -> tuple[str, ...] | None:
    """The names of the tag pairs from ``pos`` to the first line that is not one; ``None`` unless
    there is one, each is plain and no name comes twice."""
    names: list[str] = []
    while text.startswith("[", pos):
        tag = _PLAIN_TAG.match(text, pos)
        if tag is None or len(names) == _MOST_LAYOUT_NAMES:
            return None
        names.append(tag.group(1))
        pos = tag.end()
    return tuple(names) if names and len(set(names)) == len(names) else None


def _in_order(orders: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """Every name of ``orders`` in an order that keeps each one's; ``None`` when they disagree."""
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for names in orders:
        sorter.add(names[0])
        for before, after in pairwise(names):
            sorter.add(after, before)
    try:
        return tuple(sorter.static_order())
    except graphlib.CycleError:
        return None


class _LaidOutGames:
    """The games of a text as tag columns (:attr:`values`, a tag's value ``""`` where a game has
    not got it) and the line each starts on, read a part at a time."""

    def __init__(self) -> None:
        self.layout: _Layout | None = None
        self.values: dict[str, list[str]] = {}
        self.lines: list[int] = []
        self._orders: list[tuple[str, ...]] = []  # the orders of tags the layout was learnt from
        self._layouts = 0  # how many times it was learnt

    def add(self, text: str, end: int, line: int) -> int | None:
        """The games of ``text[:end]``, whose first line is ``line``, and the number of the line
        after it; ``None`` when a line no game took is not blank, and no layout takes the game
        there (:meth:`_learn`)."""
        if self.layout is None:
            names = _plain_tag_names(text, _BLANK_LINES.match(text).end())  # type: ignore[union-attr]
            if names is None:
                return None
            self.layout, self._orders = _layout(names), [names]
        as_lines = True  # the movetext read as lines first; where that fails, as movetext
        while True:
            if as_lines:
                found = self.layout.lines_pattern.findall(text, 0, end)
            else:
                found = _until_missed(self.layout.pattern, text, end)
            columns = list(zip(*found, strict=True))
            games, others = columns[0], columns[-1]
            missed = not all(map(str.isspace, filter(None, others)))
            if not missed and not (as_lines and _open_comment(games)):
                return self._keep(columns, line)
            if missed and self._learn(text, games, others):
                continue  # a new layout: the part again
            if not as_lines:
                return None
            as_lines = False

    def _learn(self, text: str, games: tuple[str, ...], others: tuple[str, ...]) -> bool:
        """A new layout for the games the pattern did not take (a ``[`` line it did not take after
        a game or a blank line): their tags put in order with those of the games before; ``False``
        when there is none (their tags are all in order already, one is not plain, or the orders
        disagree)."""
        learnt = set()
        starts = accumulate(map(add, map(len, games), map(len, others)), initial=0)
        after_game = True  # whether the text before the line is a game or a blank line
        for start, game, other in zip(starts, games, others, strict=False):
            if other.startswith("[") and after_game:
                names = _plain_tag_names(text, start)
                if names is None:
                    return False
                learnt.add(names)
            after_game = bool(game) or other.isspace()
        self._layouts += 1
        ordered = _in_order([*self._orders, *sorted(learnt)])
        if (
            ordered is None
            or self.layout is None
            or ordered == self.layout.names
            or self._layouts > _MOST_LAYOUTS
            or len(ordered) > _MOST_LAYOUT_NAMES
        ):
            return False
        self._orders.extend(sorted(learnt))
        self.layout = _layout(ordered)
        return True

    def _keep(self, columns: list[tuple[str, ...]], line: int) -> int:
        """The games of a match's ``columns`` kept; the number of the line after the match."""
        games, others = columns[0], columns[-1]
        before = len(self.lines)
        newlines = map(add, map(str.count, games, repeat("\n")), map(str.count, others, repeat("\n")))
        starts: list[int] = list(accumulate(newlines, initial=line))  # each match's first line, then the next
        self.lines.extend(compress(starts, games))
        assert self.layout is not None
        for name, index in self.layout.index.items():
            self.values.setdefault(name, [""] * before).extend(compress(columns[index], games))
        return starts[-1]


def _until_missed(pattern: re.Pattern[str], text: str, end: int) -> list[tuple[str, ...]]:
    """The matches of a layout's :attr:`~_Layout.pattern` in ``text[:end]`` up to the first line
    no game took that is not blank. A game whose brace comment does not close is searched to the
    end of the text before the pattern takes one line instead: stopping at the first keeps the
    search linear where every game of a text is so (the lines pattern's games never fail that
    late)."""
    found = []
    for match in pattern.finditer(text, 0, end):
        found.append(groups := match.groups(""))
        if groups[-1] and not groups[-1].isspace():
            break
    return found


def _open_comment(games: tuple[str, ...]) -> bool:
    """Whether a game read as lines may end in a brace comment: its last brace is a ``{``.

    Where the last brace is a ``}``, no comment is open at the blank line after it: python-chess
    closes a comment at any ``}`` inside one, and ignores one outside a comment (after a ``;``, in a
    ``%`` line) only when no comment is open. A ``{`` may open nothing (in a tag's value, after a
    ``;``): then the part is read the other way, which knows.
    """
    return any(map(gt, map(str.rfind, games, repeat("{")), map(str.rfind, games, repeat("}"))))


def _laid_out_games(blocks: Iterator[str]) -> _LaidOutGames | None:
    """The games of the text ``blocks`` make up, ``None`` where :meth:`_LaidOutGames.add` fails.

    The text is read a part at a time, each cut after its last blank line before a ``[``: the end
    of a game when the part's games are laid out alike.
    """
    games = _LaidOutGames()
    line = 1  # the number of the first line of ``text``
    text = next(blocks, "").lstrip("\ufeff")  # python-chess drops them from the first line
    searched = 0  # where a cut may be in ``text`` (none before)
    while True:
        block = next(blocks, None)
        end = len(text) if block is None else text.rfind("\n\n[", searched) + 2
        if end > 1:
            after = games.add(text, end, line)
            if after is None:
                return None
            line, text = after, text[end:]
        if block is None:
            return games
        searched = max(len(text) - 2, 0)
        text += block


def _text_blocks(source: bytes | str | os.PathLike[str]) -> tuple[Iterator[str], str]:
    """The text of ``source`` as :func:`_open` reads it, in blocks of whole lines of about
    :data:`_BLOCK` characters; and its encoding, as :func:`_open` names it."""
    if isinstance(source, os.PathLike):
        handle, encoding = open_text(source)
        return _handle_blocks(handle), encoding
    text, encoding = (source, "str") if isinstance(source, str) else decode(source)
    if "\r" in text:  # universal newlines, as io.StringIO(text, newline=None) reads them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _string_blocks(text), encoding


def _handle_blocks(handle: TextIO) -> Iterator[str]:
    with handle:
        while block := handle.read(_BLOCK):
            yield block if block.endswith("\n") else block + handle.readline()


def _string_blocks(text: str) -> Iterator[str]:
    start = 0
    while start < len(text):
        end = text.find("\n", start + _BLOCK - 1) + 1 or len(text)
        yield text[start:end]
        start = end


def _read_columns(games: _LaidOutGames) -> _ColumnsRead | None:
    """The event of games read as tag columns, each distinct text decided once; ``None`` when the
    file has an error (it is then read game by game, which words and orders every error).

    A game with a problem is checked again by :func:`_read_game`, in file order, which reports its
    problems. The players are numbered by a :class:`_Roster` shown each distinct side once, in the
    order the sides first appear and at the line where each first appears: the numbers, players
    and warnings it gives when shown every side of every game.
    """
    lines = games.lines
    count = len(lines)
    if count == 0 or "White" not in games.values or "Black" not in games.values:
        return None
    texts = _Texts(games.values, count)
    sides = _Appearances(texts)
    results = {text: _ResultText.of(text) for text in set(texts("Result"))}
    if sides.sides is None or any(result.error for result in results.values()):
        return None
    rounds = {text: _round_number(text.strip()) for text in set(texts("Round"))}
    variants = {text: _standard(text) for text in set(games.values.get("Variant", ()))}
    log = ProblemLog(strict=False)
    reported = (
        _games_with(sides.with_problems, sides.where, per_game=2)
        | _games_with({t for t, result in results.items() if not result.rated}, texts("Result"))
        | _games_with({t for t, number in rounds.items() if _unreadable(t, number)}, texts("Round"))
        | _games_with({t for t, standard in variants.items() if not standard}, texts("Variant"))
    )
    _report_problems(games.values, lines, sorted(reported), log)
    roster = _Roster(sides.sides, log)
    numbers = [
        roster.number(side, lines[appearance // 2])
        for side, appearance in zip(sides.sides, sides.first, strict=True)
    ]
    number_of = dict(zip(sides.first, numbers, strict=True))  # a side's number by its first appearance
    white = list(map(number_of.__getitem__, sides.where[0::2]))
    black = list(map(number_of.__getitem__, sides.where[1::2]))
    if any(map(eq, white, black)):
        return None  # a player against themselves: an error
    if any(map(control_character, {*texts("Event"), *texts("Site")})):
        return None  # an error
    events = {event for text in set(texts("Event")) if (event := text.strip()) not in UNKNOWN}
    if len(events) > 1:
        log.warning(None, "several-events", f"the games belong to {len(events)} events", count=len(events))
    dates = _Dates()
    days = [day for text in set(texts("Date")) if (day := dates.of(text.strip())) is not None]
    result_texts = texts("Result")
    rated = _each(result_texts, {text: result.rated for text, result in results.items()})
    if variants:
        rated = list(map(and_, rated, _each(texts("Variant"), variants)))
    name = texts("Event")[0].strip()
    columns = GameColumns(
        round=_each(texts("Round"), rounds),
        white=white,
        black=black,
        white_score=_each(result_texts, {text: result.scores[0] for text, result in results.items()}),
        black_score=_each(result_texts, {text: result.scores[1] for text, result in results.items()}),
        rated=rated,
        code=_each(result_texts, {text: result.code for text, result in results.items()}),
        line=lines,
    )
    read = EventRead(
        source_format="PGN",
        name=None if name in UNKNOWN else name,
        start_date=min(days, default=None),
        end_date=max(days, default=None),
        players=roster.players(),
        games=columns,
        problems=log.sorted(),
    )
    return _ColumnsRead(read, texts, sides, rounds, dates)


class _ColumnsRead(NamedTuple):
    """What :func:`_read_columns` decided: the event, and what a :class:`Tournament` needs more."""

    event: EventRead
    texts: _Texts
    sides: _Appearances
    rounds: dict[str, int | None]
    """Each distinct ``Round`` text's round."""
    dates: _Dates

    def tournament(self, encoding: str) -> Tournament:
        """The tournament :func:`read_pgn_by_game` reads: the event's facts, the first game's
        ``Site``, the highest round, and a :class:`Game` a game with its sides' ratings and day."""
        event, texts, sides = self.event, self.texts, self.sides
        assert sides.sides is not None  # an error leaves no event
        # Each side's rating (not its player's: each game keeps its own), by its first appearance.
        rating_of = dict(zip(sides.first, [side.rating for side in sides.sides], strict=True))
        day_of = {text: self.dates.of(text.strip()) for text in set(texts("Date"))}
        columns = event.games
        site = texts("Site")[0].strip()
        return Tournament(
            source_format="PGN",
            players=event.players,
            games=Game.of_columns(
                round=columns.round,
                white=columns.white,
                black=columns.black,
                white_score=columns.white_score,
                black_score=columns.black_score,
                kind=[Kind.UNFINISHED if score is None else Kind.PLAYED for score in columns.white_score],
                counts_for_rating=columns.rated,
                code=columns.code,
                line=columns.line,
                colours_known=[True] * len(columns),  # a PGN game has its colours
                white_rating=map(rating_of.__getitem__, sides.where[0::2]),
                black_rating=map(rating_of.__getitem__, sides.where[1::2]),
                date=_each(texts("Date"), day_of),
            ),
            name=event.name,
            place=None if site in UNKNOWN else site,
            start_date=event.start_date,
            end_date=event.end_date,
            rounds=max((number for number in self.rounds.values() if number is not None), default=0),
            encoding=encoding,
        )


_Decided = TypeVar("_Decided")
_Value = TypeVar("_Value", str, int)


def _each(texts: list[str], decided: dict[str, _Decided]) -> list[_Decided]:
    """What was ``decided`` for each text."""
    return list(map(decided.__getitem__, texts))


class _Texts:
    """A tag's texts in the games, ``""`` in each where it is missing (as ``headers.get``)."""

    def __init__(self, values: dict[str, list[str]], count: int) -> None:
        self._values = values
        self._blank = [""] * count

    def __call__(self, name: str) -> list[str]:
        return self._values.get(name, self._blank)


class _Appearances:
    """The sides of the games, White then Black each game, as the texts of their tags, each
    distinct side read once (by :func:`_side`).

    A side is known by where it first appears (``2 * game`` for White, ``2 * game + 1`` for
    Black): ``first`` holds each distinct side's, in order, and ``where[k]`` the side of
    appearance ``k``; ``sides`` are the distinct sides read (``None`` when one has an error), and
    ``with_problems`` the first appearances of those reported on.
    """

    def __init__(self, texts: _Texts) -> None:
        count = len(texts("White"))
        appearances: list[_SideTexts] = [("", "", "", "")] * (2 * count)
        for offset, colour in enumerate(("White", "Black")):
            appearances[offset::2] = zip(
                texts(colour),
                texts(f"{colour}Elo"),
                texts(f"{colour}FideId"),
                texts(f"{colour}Title"),
                strict=True,
            )
        first: dict[_SideTexts, int] = {}
        self.where: list[int] = list(map(first.setdefault, appearances, count_from(0)))
        self.first = list(first.values())
        probe = ProblemLog(strict=False)
        self.sides: list[_Side] | None = []
        self.with_problems: set[int] = set()
        for side_texts, appearance in first.items():
            reported = len(probe.problems)
            side = _side(side_texts, "White", "", 0, probe)
            if side is None:
                self.sides = None
                return
            self.sides.append(side)
            if len(probe.problems) > reported:
                self.with_problems.add(appearance)
        if any(problem.severity is Severity.ERROR for problem in probe.problems):
            self.sides = None


def _games_with(reported: set[_Value], column: list[_Value], *, per_game: int = 1) -> set[int]:
    """The games where a value of ``column`` (``per_game`` values a game) is one of ``reported``."""
    if not reported:
        return set()
    return {k // per_game for k, value in enumerate(column) if value in reported}


def _report_problems(
    values: dict[str, list[str]], lines: list[int], reported: list[int], log: ProblemLog
) -> None:
    """:func:`_read_game` again on each of the ``reported`` games, in file order."""
    again = _Sides()
    for game in reported:
        headers = {name: column[game] for name, column in values.items()}
        if "Variant" in headers:  # its opening quote, or "" where the game has none
            variant = headers.pop("Variant")
            if variant:
                headers["Variant"] = variant[1:]
        _read_game(headers, lines[game], log, again)


class _ResultText(NamedTuple):
    """What a ``Result`` tag's text says (as :func:`_read_game` reads it)."""

    code: str
    scores: tuple[Decimal, Decimal] | tuple[None, None]
    rated: bool
    """A result (``1-0``, ``0-1``, ``1/2-1/2``); else the game is reported."""
    error: bool
    """Neither a result nor an unknown one (``*``, ``?``...): the file has an error."""

    @staticmethod
    def of(text: str) -> _ResultText:
        code = text.strip()
        scores = RESULTS.get(code)
        if scores is not None:
            return _ResultText(code, scores, rated=True, error=False)
        return _ResultText(code, _NO_SCORES, rated=False, error=code not in UNKNOWN)


def _unreadable(text: str, number: int | None) -> bool:
    """Whether a ``Round`` text is reported (:func:`_read_game`)."""
    return number is None and text.strip() not in UNKNOWN


def _standard(variant: str) -> bool:
    """Whether a ``Variant`` text (its opening quote, or ``""`` where the game has none) is standard
    chess (:func:`_read_game`)."""
    return not variant or variant[1:].strip().lower() in STANDARD_VARIANTS
