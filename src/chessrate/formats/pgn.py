"""Tournaments from PGN games, read from their tag pairs alone (no move is parsed).

One read for every use: :func:`~chessrate.formats.pgn_scan.tag_columns` finds the games and their
tags as ``chess.pgn.read_headers`` does ([PYCHESS]), a column a tag and the line each game starts
on; :func:`_read_columns` decides each distinct text once and checks again, game by game in file
order, the games with a problem (:func:`_read_game`), so every problem names its line. An import
takes the event as columns (:func:`read_pgn_event`); :func:`read_pgn` builds the
:class:`Tournament` of the same read, a :class:`Game` a game.

Players are identified by FIDE ID when the ``WhiteFideId``/``BlackFideId`` tags have one, else by
name (a name seen with an ID elsewhere in the file takes that ID). They are numbered in order of
first appearance. Ratings come from ``WhiteElo``/``BlackElo`` of each game; a game without a result
or a rating, or with a date that cannot be read, is reported, never guessed.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from itertools import compress
from itertools import count as count_from
from operator import and_, eq, ne
from typing import NamedTuple, TypeVar

from chessrate.formats.model import EventRead, GameColumns, Kind, Player, ProblemLog, ReadResult, Tournament
from chessrate.formats.pgn_scan import TagColumns, tag_columns
from chessrate.formats.text import control_character, parse_loose_date
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


def read_pgn(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read the games of a PGN file into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).

    A path is streamed, so files of any size can be read. With ``strict``, the first error raises
    :class:`~chessrate.errors.FileFormatError`. The tournament is :func:`read_pgn_event`'s read,
    a :class:`Game` a game with its sides' ratings and day.
    """
    columns, encoding = tag_columns(source)
    read = _read_columns(columns, ProblemLog(strict=strict, place="game"))
    return ReadResult(read.tournament(encoding), read.event.problems)


def read_pgn_event(source: bytes | str | os.PathLike[str]) -> EventRead:
    """The event of a PGN file, its games as columns: the facts of :func:`read_pgn`, without a
    :class:`Game` object a game."""
    return _read_columns(tag_columns(source)[0], ProblemLog(strict=False, place="game")).event


_NO_SCORES: tuple[None, None] = (None, None)


def _read_game(headers: dict[str, str], line: int, log: ProblemLog, sides: _Sides) -> None:
    """The problems of one game, from its tags (``headers.get`` gives ``""`` for a missing one)."""
    white = sides.side(headers, "White", line, log)
    black = sides.side(headers, "Black", line, log)
    if white is None or black is None:
        return
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
    if _unreadable(round_text, sides.round(round_text)):
        log.warning(line, "unreadable-round", f"cannot read round {round_text!r}", value=round_text)
    for tag in ("Event", "Site"):
        _check_control_character(get(tag, "").strip(), tag, line, log)
    date_text = get("Date", "").strip()
    if _Dates.unreadable(date_text):
        log.warning(line, "invalid-date", f"invalid Date {date_text!r}", tag="Date", value=date_text)


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


class _Dates:
    """The days of ``Date`` tags, each distinct text read once (:func:`.text.parse_loose_date`)."""

    #: A date the PGN standard (8.1.1.3) writes with unknown parts: ``????.??.??``, ``2024.??.??``
    #: (``00`` as some programs write them, too); any other text that is not a day is reported.
    _PARTIAL = re.compile(r"(?:\d{4}|\?{4})\.(?:\d\d|\?\?)\.(?:\d\d|\?\?)")

    def __init__(self) -> None:
        self._days: dict[str, dt.date | None] = {"": None}

    def of(self, text: str) -> dt.date | None:
        if text not in self._days:
            self._days[text] = parse_loose_date(text)
        return self._days[text]

    @classmethod
    def unreadable(cls, text: str) -> bool:
        """Whether a stripped ``Date`` text is reported: neither a day, unknown nor partial."""
        if text in UNKNOWN or parse_loose_date(text) is not None:
            return False
        return not (cls._PARTIAL.fullmatch(text) and ("?" in text or ".00" in text))


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


def _read_columns(games: TagColumns, log: ProblemLog) -> _ColumnsRead:
    """The event of games read as tag columns, each distinct text decided once.

    A game with a problem is checked again by :func:`_read_game`, in file order, which reports its
    problems; a game with a side that cannot be read (no name, a control character) is then left
    out, and so is a game of a player against themselves. The players are numbered by a
    :class:`_Roster` shown each distinct side once, in the order the sides first appear and at the
    line where each first appears: the numbers, players and warnings it gives when shown every side
    of every game.
    """
    texts = games.texts
    sides = _Appearances(texts)
    results = {text: _ResultText.of(text) for text in set(texts("Result"))}
    rounds = {text: _round_number(text.strip()) for text in set(texts("Round"))}
    variants = {text: _standard(text) for text in set(games.values.get("Variant", ()))}
    reported = (
        _games_with(sides.with_problems, sides.where, per_game=2)
        | _games_with({t for t, result in results.items() if not result.rated}, texts("Result"))
        | _games_with({t for t, number in rounds.items() if _unreadable(t, number)}, texts("Round"))
        | _games_with({t for t, standard in variants.items() if not standard}, texts("Variant"))
        | _games_with({t for t in set(texts("Date")) if _Dates.unreadable(t.strip())}, texts("Date"))
        | _games_with(set(filter(control_character, set(texts("Event")))), texts("Event"))
        | _games_with(set(filter(control_character, set(texts("Site")))), texts("Site"))
    )
    _report_problems(games.values, games.lines, sorted(reported), log)
    if not all(sides.readable):  # the games of a side that cannot be read are left out
        readable = dict(zip(sides.first, sides.readable, strict=True))
        both = list(map(readable.__getitem__, sides.where))
        games = games.kept(list(map(and_, both[0::2], both[1::2])))
        texts = games.texts
        sides = _Appearances(texts)
    if not games.lines:
        log.error(None, "no-games", "the file has no PGN game")
    return _Numbering(games, texts, sides, log).read(results, rounds, variants)


class _Numbering:
    """The players of games whose sides can all be read, numbered; a game of a player against
    themselves reported and left out."""

    def __init__(
        self, games: TagColumns, texts: Callable[[str], list[str]], sides: _Appearances, log: ProblemLog
    ) -> None:
        read = [side for side in sides.sides if side is not None]
        roster = _Roster(read, log)
        lines = games.lines
        numbers = [
            roster.number(side, lines[first // 2]) for side, first in zip(read, sides.first, strict=True)
        ]
        number_of = dict(zip(sides.first, numbers, strict=True))  # a side's number by its first appearance
        self.white_side, self.black_side = sides.where[0::2], sides.where[1::2]
        self.white = list(map(number_of.__getitem__, self.white_side))
        self.black = list(map(number_of.__getitem__, self.black_side))
        self.games, self.texts, self.log, self.players = games, texts, log, roster.players()
        self.side_of = dict(zip(sides.first, read, strict=True))
        first = games.values.get("Event", [""])[0].strip() if lines else ""
        self.name = None if first in UNKNOWN else first
        first = games.values.get("Site", [""])[0].strip() if lines else ""
        self.site = None if first in UNKNOWN else first
        events = {event for text in set(texts("Event")) if (event := text.strip()) not in UNKNOWN}
        if any(map(eq, self.white, self.black)):
            self._leave_out_self_pairings()
        if len(events) > 1:
            log.warning(
                None, "several-events", f"the games belong to {len(events)} events", count=len(events)
            )

    def _leave_out_self_pairings(self) -> None:
        lines = self.games.lines
        for game in compress(range(len(lines)), map(eq, self.white, self.black)):
            name = self.side_of[self.white_side[game]].name
            self.log.error(
                lines[game],
                "self-pairing",
                f"{name!r} plays themselves",
                name=name,
            )
        keep = list(map(ne, self.white, self.black))
        self.games = self.games.kept(keep)
        self.texts = self.games.texts
        self.white, self.black = list(compress(self.white, keep)), list(compress(self.black, keep))
        self.white_side = list(compress(self.white_side, keep))
        self.black_side = list(compress(self.black_side, keep))

    def read(
        self, results: dict[str, _ResultText], rounds: dict[str, int | None], variants: dict[str, bool]
    ) -> _ColumnsRead:
        """The event and what the tournament needs more, each game's values taken from what was
        decided of its texts."""
        texts, dates = self.texts, _Dates()
        days = [day for text in set(texts("Date")) if (day := dates.of(text.strip())) is not None]
        result_texts = texts("Result")
        rated = _each(result_texts, {text: result.rated for text, result in results.items()})
        if variants:
            rated = list(map(and_, rated, _each(texts("Variant"), variants)))
        columns = GameColumns(
            round=_each(texts("Round"), rounds),
            white=self.white,
            black=self.black,
            white_score=_each(result_texts, {text: result.scores[0] for text, result in results.items()}),
            black_score=_each(result_texts, {text: result.scores[1] for text, result in results.items()}),
            rated=rated,
            code=_each(result_texts, {text: result.code for text, result in results.items()}),
            line=self.games.lines,
        )
        event = EventRead(
            source_format="PGN",
            name=self.name,
            start_date=min(days, default=None),
            end_date=max(days, default=None),
            players=self.players,
            games=columns,
            problems=self.log.sorted(),
        )
        # Each side's rating (not its player's: each game keeps its own), by its first appearance.
        rating_of = {first: side.rating for first, side in self.side_of.items()}
        return _ColumnsRead(
            event,
            self.site,
            max(
                (number for number in map(rounds.__getitem__, set(texts("Round"))) if number is not None),
                default=0,
            ),
            white_rating=list(map(rating_of.__getitem__, self.white_side)),
            black_rating=list(map(rating_of.__getitem__, self.black_side)),
            date=[dates.of(text.strip()) for text in texts("Date")],
        )


class _ColumnsRead(NamedTuple):
    """What :func:`_read_columns` decided: the event, and what a :class:`Tournament` needs more."""

    event: EventRead
    site: str | None
    """The first game's ``Site``."""
    rounds: int
    """The highest round."""
    white_rating: list[int | None]
    black_rating: list[int | None]
    date: list[dt.date | None]

    def tournament(self, encoding: str) -> Tournament:
        """The tournament of the event: a :class:`Game` a game with its sides' ratings and day."""
        event = self.event
        columns = event.games
        return Tournament(
            source_format="PGN",
            players=event.players,
            games=columns.games(
                kind=[Kind.UNFINISHED if score is None else Kind.PLAYED for score in columns.white_score],
                white_rating=self.white_rating,
                black_rating=self.black_rating,
                date=self.date,
            ),
            name=event.name,
            place=self.site,
            start_date=event.start_date,
            end_date=event.end_date,
            rounds=self.rounds,
            encoding=encoding,
        )


_Decided = TypeVar("_Decided")
_Value = TypeVar("_Value", str, int)


def _each(texts: list[str], decided: dict[str, _Decided]) -> list[_Decided]:
    """What was ``decided`` for each text."""
    return list(map(decided.__getitem__, texts))


class _Appearances:
    """The sides of the games, White then Black each game, as the texts of their tags, each
    distinct side read once (by :func:`_side`).

    A side is known by where it first appears (``2 * game`` for White, ``2 * game + 1`` for
    Black): ``first`` holds each distinct side's, in order, and ``where[k]`` the side of
    appearance ``k``; ``sides`` are the distinct sides read (``None`` for one that cannot be), and
    ``with_problems`` the first appearances of those reported on.
    """

    def __init__(self, texts: Callable[[str], list[str]]) -> None:
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
        self.sides: list[_Side | None] = []
        self.with_problems: set[int] = set()
        for side_texts, appearance in first.items():
            reported = len(probe.problems)
            self.sides.append(_side(side_texts, "White", 0, probe))
            if len(probe.problems) > reported:
                self.with_problems.add(appearance)
        #: Whether each distinct side can be read (a side that cannot has an error).
        self.readable = [side is not None for side in self.sides]


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
