"""Tournaments from PGN games, read from their tag pairs alone (no move is parsed).

:func:`scan_headers` finds the games as ``chess.pgn.read_headers`` does ([PYCHESS]), line by line,
but skips the movetext without tokenising it, and gives each game the line its headers start on, so
every problem names a line.

Players are identified by FIDE ID when the ``WhiteFideId``/``BlackFideId`` tags have one, else by
name (a name seen with an ID elsewhere in the file takes that ID). They are numbered in order of
first appearance. Ratings come from ``WhiteElo``/``BlackElo`` of each game; a game without a result
or a rating is reported, never guessed.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
from collections import Counter
from collections.abc import Generator, Iterator
from decimal import Decimal
from typing import NamedTuple, TextIO

from chessrate.formats.model import (
    EventRead,
    Game,
    GameColumns,
    Kind,
    Player,
    ProblemLog,
    ReadResult,
    Tournament,
)
from chessrate.formats.text import decode, open_text, parse_loose_date
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
    """
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
    ``EventRead.of(read_pgn(source))``, without a :class:`Game` object a game."""
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
            end = _headers_end(text, start, headers)
            if end is not None:
                end = _movetext_end(text, end)
            if end is None and not final:
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


def _movetext_end(text: str, pos: int) -> int | None:
    """Where the game whose movetext starts at ``pos`` ends (after its blank line); ``None`` when
    the text ends first."""
    blank = _BLANK_LINE.search(text, pos)
    if blank is None or blank.start() == len(text):
        return _movetext_end_by_line(text, pos)  # no blank line: the game may go on
    stop = blank.start()
    if text.find(";", pos, stop) < 0:
        opening = text.rfind("{", pos, stop)
        if opening < 0 and text.find("}", pos, stop) < 0:
            return blank.end()  # no comment at all
        if opening < text.rfind("}", pos, stop) and not _has_escape(text, pos, stop):
            return blank.end()  # the last brace closes: no comment is open at the blank line
    return _movetext_end_by_line(text, pos)


def _has_escape(text: str, pos: int, stop: int) -> bool:
    return text.startswith("%", pos) or text.find("\n%", pos, stop) >= 0


def _movetext_end_by_line(text: str, pos: int) -> int | None:
    """:func:`_movetext_end` line by line, as python-chess reads the movetext."""
    in_comment = False
    while pos < len(text):
        end = _line_end(text, pos)
        line = text[pos:end]
        if not in_comment:
            if line.isspace():
                return end
            if line.startswith("%"):
                pos = end
                continue
        if "{" in line or "}" in line or ";" in line:
            in_comment = _still_in_comment(line, in_comment=in_comment)
        pos = end
    return None


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
        self._sides: dict[tuple[str, str, str, str], _Side] = {}
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
            side = _side(headers, colour, where, line, log)
            if side is not None and len(log.problems) == problems:
                self._sides[key] = side
        return side

    def round(self, text: str) -> int | None:
        """The round of a ``Round`` tag (``3``, ``3.1``), ``None`` when it has none."""
        if text not in self._rounds:
            match = _ROUND.fullmatch(text)
            self._rounds[text] = int(match.group(1)) if match else None
        return self._rounds[text]


def _side(headers: dict[str, str], colour: str, where: str, line: int, log: ProblemLog) -> _Side | None:
    name = " ".join(headers.get(colour, "").split())
    if name in UNKNOWN:
        log.error(line, "no-player-name", f"{where} has no {colour} player", colour=colour)
        return None
    rating_text = headers.get(f"{colour}Elo", "").strip()
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
    id_text = headers.get(f"{colour}FideId", "").strip()
    fide_id = int(id_text) or None if is_digits(id_text) else None
    if id_text not in UNKNOWN and not is_digits(id_text):
        log.warning(
            line,
            "invalid-fide-id",
            f"{where}: invalid {colour}FideId {id_text!r}",
            tag=f"{colour}FideId",
            value=id_text,
        )
    title_text = headers.get(f"{colour}Title", "").strip()
    title = TITLES.get(title_text.lower(), title_text) if title_text not in UNKNOWN else None
    return _Side(name, fide_id, rating, title)


class _Numbered(NamedTuple):
    """The games kept, each with its players' numbers, and the players."""

    games: list[tuple[_RawGame, int, int]]
    players: tuple[Player, ...]


def _number(raw_games: list[_RawGame], log: ProblemLog) -> _Numbered:
    """Each game's players numbered (:class:`_Roster`); a game of a player against themselves is
    an error, and not kept."""
    roster = _Roster(raw_games, log)
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

    def __init__(self, raw_games: list[_RawGame], log: ProblemLog) -> None:
        self._log = log
        self._ids_of_name: dict[str, set[int]] = {}
        for game in raw_games:
            for side in (game.white, game.black):
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
            Player(
                number=number,
                name=side.name,
                rating=self._ratings.get(number),
                fide_id=self._ids.get(number),
                title=side.title,
                line=line,
            )
            for number, (side, line) in sorted(self._first_seen.items())
        )
