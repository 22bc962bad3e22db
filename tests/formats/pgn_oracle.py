"""The PGN reference reader, game by game: the test oracle of :mod:`chessrate.formats.pgn`.

This is the reader chessrate had before issue 24 made one read of the tag columns: each game's tags
as :func:`~chessrate.formats.pgn_scan.scan_headers` finds them (``tests/formats/test_pgn_reader.py``
checks it against ``chess.pgn.read_headers``), checked one game at a time, in file order, by plain
Python; a ``Date`` that is not a day, unknown or partial (PGN standard 8.1.1.3) is reported. The one
read must give what this gives, for any text (tests/formats/test_pgn_event_read.py).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
from collections import Counter
from collections.abc import Iterable
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
from chessrate.formats.pgn_scan import scan_headers
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


def read_pgn_by_game(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """:func:`read_pgn` game by game: each game's tags read by :func:`scan_headers` and checked
    by :func:`_read_game`, in file order (the exact reader, which the fast paths are tested
    against)."""
    log = ProblemLog(strict=strict, place="game")
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


def read_event_by_game(source: bytes | str | os.PathLike[str]) -> EventRead:
    """:func:`read_pgn_event` game by game: the scanner and checks of :func:`read_pgn_by_game`."""
    log = ProblemLog(strict=False, place="game")
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


def _read_game(headers: dict[str, str], line: int, log: ProblemLog, sides: _Sides) -> _RawGame | None:
    white = sides.side(headers, "White", line, log)
    black = sides.side(headers, "Black", line, log)
    if white is None or black is None:
        return None
    get = headers.get
    result = get("Result", "").strip()
    if result not in RESULTS:
        if result in UNKNOWN:
            log.warning(line, "no-result", f"no result ({result or 'no Result tag'!r})", value=result)
        else:
            log.error(line, "invalid-result", f"invalid result {result!r}", value=result)
    variant = get("Variant", "Standard").strip().lower()
    if variant not in STANDARD_VARIANTS:
        log.warning(
            line,
            "variant",
            f"Variant {headers['Variant']!r}, not standard chess: not rated",
            value=headers["Variant"],
        )
    round_text = get("Round", "").strip()
    round_number = sides.round(round_text)
    if round_text not in UNKNOWN and round_number is None:
        log.warning(line, "unreadable-round", f"cannot read round {round_text!r}", value=round_text)
    event = get("Event", "").strip()
    site = get("Site", "").strip()
    for tag, text in (("Event", event), ("Site", site)):
        _check_control_character(text, tag, line, log)
    date = get("Date", "").strip()
    if date not in UNKNOWN and parse_loose_date(date) is None and not _PARTIAL_DATE.fullmatch(date):
        log.warning(line, "invalid-date", f"invalid Date {date!r}", tag="Date", value=date)
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


#: A date with unknown parts, ``?`` or ``00`` (PGN standard 8.1.1.3: ``????.??.??``, ``2024.??.??``).
_PARTIAL_DATE = re.compile(r"(?=.*(?:\?|\.00))(?:\d{4}|\?{4})\.(?:\d\d|\?\?)\.(?:\d\d|\?\?)")
_ROUND = re.compile(r"(\d{1,9})(?:\.\d+)*")


class _Sides:
    """A game's sides and round read from their tags, each distinct set of tag values read once.

    Reading is a pure function of the values; a side whose reading reported a problem is read
    (and reported) again each time.
    """

    def __init__(self) -> None:
        self._sides: dict[_SideTexts, _Side] = {}
        self._rounds: dict[str, int | None] = {}

    def side(self, headers: dict[str, str], colour: str, line: int, log: ProblemLog) -> _Side | None:
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
            side = _side(key, colour, line, log)
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


def _side(texts: _SideTexts, colour: str, line: int, log: ProblemLog) -> _Side | None:
    """A side from the texts of its name, ``Elo``, ``FideId`` and ``Title`` tags."""
    name_text, rating_text, id_text, title_text = texts
    name = " ".join(name_text.split())
    if name in UNKNOWN:
        log.error(line, "no-player-name", f"no {colour} player", colour=colour)
        return None
    if _check_control_character(name_text, colour, line, log) or _check_control_character(
        title_text, f"{colour}Title", line, log
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
            f"invalid {colour}Elo {rating_text!r}",
            tag=f"{colour}Elo",
            value=rating_text,
        )
    if rating is None:
        log.warning(line, "no-rating", f"{colour} {name!r} has no rating", colour=colour, name=name)
    id_text = id_text.strip()
    fide_id = int(id_text) or None if is_digits(id_text) else None
    if id_text not in UNKNOWN and not is_digits(id_text):
        log.warning(
            line,
            "invalid-fide-id",
            f"invalid {colour}FideId {id_text!r}",
            tag=f"{colour}FideId",
            value=id_text,
        )
    title_text = title_text.strip()
    title = TITLES.get(title_text.lower(), title_text) if title_text not in UNKNOWN else None
    return _Side(name, fide_id, rating, title)


def _check_control_character(text: str, tag: str, line: int, log: ProblemLog) -> bool:
    """Whether a tag's value holds a C0 control character but TAB (an error: a NUL cannot even be
    stored by PostgreSQL), reported as ``control-character-in-tag``."""
    character = control_character(text)
    if character is None:
        return False
    log.error(
        line,
        "control-character-in-tag",
        f"a control character ({character}) in the {tag} tag",
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
                f"{raw.white.name!r} plays themselves",
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
