"""The tournament model every reader (TRF, PGN, CSV) returns, and the problems found while reading.

A :class:`Tournament` holds its header facts, its :class:`Player` records and its :class:`Game`
list. TRF files also give each player's round cells (:class:`RoundCell`), byes and absences
included; PGN and CSV files only have games. What the rating report needs is
:meth:`Tournament.rated_games`: for one player, every game that counts for rating with the
opponent's number, rating (``None`` when unrated), the score and the round.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import MISSING, dataclass, field, fields
from decimal import Decimal
from enum import StrEnum
from typing import Literal

from chessrate.errors import FileFormatError, InvalidInputError

Colour = Literal["w", "b"]


class Severity(StrEnum):
    """How bad a problem is: an error makes strict reading refuse the file; a warning never does."""

    ERROR = "error"
    WARNING = "warning"


#: Problem codes that concern the whole file rather than one line (their ``line`` is ``None``).
WHOLE_FILE_CODES = frozenset({"empty-file", "unknown-format", "no-players", "no-games", "several-events"})


@dataclass(frozen=True)
class Problem:
    """Something wrong or unusual in the file, with the 1-based line it was found on."""

    severity: Severity
    line: int | None
    message: str
    code: str
    """A short stable name of the problem's kind: ``unknown-record``, ``asymmetric-pairing``..."""
    params: tuple[tuple[str, object], ...] = ()
    """The values in the message, by name, so that a face can write it in its own language."""
    place: str = ""
    """What starts at ``line``, where that is more than a line: ``"game"`` for a PGN game's tags."""

    @property
    def where(self) -> str:
        """``file``, ``line 12`` or, with a place, ``game at line 12``."""
        if self.line is None:
            return "file"
        return f"{self.place} at line {self.line}" if self.place else f"line {self.line}"

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"

    def located(self) -> str:
        """The message after where it is: ``line 12: …``, ``game at line 12: …``, ``file: …``."""
        return f"{self.where}: {self.message}"

    def as_error(self) -> FileFormatError:
        """The :class:`~chessrate.errors.FileFormatError` strict mode raises for this problem."""
        return FileFormatError(self.message, line=self.line, code=self.code, params=self.params)


class Kind(StrEnum):
    """What a round cell or a game was, for points and for rating."""

    PLAYED = "played"
    """``1``, ``=``, ``0`` (TRF) or a PGN/CSV result: a game that counts for rating."""
    SHORT = "short"
    """TRF ``W``, ``D``, ``L``: the game lasted less than one move; scored, not rated (TRF16/26)."""
    FORFEIT = "forfeit"
    """TRF ``+``, ``-``: the game was not played; scored, not rated."""
    BYE = "bye"
    """TRF ``H``, ``F``, ``U``, ``Z``: no opponent; scored, not rated."""
    NOT_PAIRED = "not paired"
    """A blank TRF cell: the player was not paired in that round (scored as a zero-point bye)."""
    UNFINISHED = "unfinished"
    """A PGN game whose result is ``*`` or missing: kept, never guessed, not rated."""


@dataclass(frozen=True)
class RoundCell:
    """One player's cell of one round in a TRF ``001`` line (columns 92-99, then every 10)."""

    round: int
    opponent: int | None
    """The opponent's starting number, ``None`` for ``0000`` or blanks (byes, not paired)."""
    colour: Colour | None
    """``w`` or ``b``; ``None`` for ``-`` or blank."""
    code: str
    """The result code, upper-cased: ``1 = 0 + - W D L H F U Z``, or ``""`` for a blank cell."""
    kind: Kind
    points: Decimal
    """The points this cell is worth under the file's scoring (XXS, 162, BB? or the defaults)."""
    line: int

    @property
    def counts_for_rating(self) -> bool:
        """Whether this cell is a played game (``1``, ``=``, ``0`` against an opponent)."""
        return self.kind is Kind.PLAYED and self.opponent is not None


@dataclass(frozen=True)
class Player:
    """A player of the tournament. Ratings of 0 or blank are read as ``None`` (unrated)."""

    number: int
    """Starting rank (TRF) or the order of first appearance (PGN, CSV), from 1."""
    name: str
    rating: int | None = None
    fide_id: int | None = None
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    """``GM``, ``IM``, ``WGM``... (one-letter TRF titles such as ``g`` are expanded; see docs)."""
    birth_year: int | None = None
    birth_date: dt.date | None = None
    points: Decimal | None = None
    """The points the file declares (TRF columns 81-84); ``None`` when the file has none."""
    rank: int | None = None
    cells: tuple[RoundCell, ...] = ()
    """TRF round cells in round order; empty for PGN and CSV."""
    line: int | None = None

    @property
    def rated(self) -> bool:
        """Whether the player has a rating in this file."""
        return self.rating is not None

    @classmethod
    def of_games(
        cls, number: int, name: str, *, rating: int | None, fide_id: int | None, title: str | None, line: int
    ) -> Player:
        """``Player(number, name, rating=..., fide_id=..., title=..., line=...)`` (the other fields
        their defaults), made about 3 times quicker: a frozen dataclass's ``__init__`` sets each of
        its 13 fields through ``object.__setattr__``, and an import of a month's PGN or CSV files
        makes a player for each player of each file. ``tests/formats/test_model.py`` holds the two
        equal."""
        player = object.__new__(cls)
        player.__dict__.update(
            _PLAYER_DEFAULTS, number=number, name=name, rating=rating, fide_id=fide_id, title=title, line=line
        )
        return player


#: The fields of a :class:`Player` that have a default, with it (for :meth:`Player.of_games`).
_PLAYER_DEFAULTS = {f.name: f.default for f in fields(Player) if f.default is not MISSING}


@dataclass(frozen=True)
class Game:
    """A pairing of two players: a played game, a short game, a forfeit or an unfinished game."""

    round: int | None
    white: int
    black: int
    white_score: Decimal | None
    """White's score (1, 0.5, 0; forfeits 1/0 or 0/0); ``None`` when the result is unknown."""
    black_score: Decimal | None
    kind: Kind
    counts_for_rating: bool
    """Played to a known result (and, for PGN, in standard chess): the game can be rated."""
    code: str
    """The result as written: TRF code of White's side (``1``, ``=``, ``+``...), PGN ``1-0``..."""
    line: int
    colours_known: bool = True
    """``False`` for TRF forfeits written with colour ``-``: then white/black is only file order."""
    white_rating: int | None = None
    black_rating: int | None = None
    date: dt.date | None = None

    @classmethod
    def of_columns(
        cls,
        *,
        round: Iterable[int | None],
        white: Iterable[int],
        black: Iterable[int],
        white_score: Iterable[Decimal | None],
        black_score: Iterable[Decimal | None],
        kind: Iterable[Kind],
        counts_for_rating: Iterable[bool],
        code: Iterable[str],
        line: Iterable[int],
        colours_known: Iterable[bool],
        white_rating: Iterable[int | None],
        black_rating: Iterable[int | None],
        date: Iterable[dt.date | None],
    ) -> tuple[Game, ...]:
        """The games whose fields are these columns (of one length), made as
        :meth:`Player.of_games` makes a player: about twice as quick as ``Game(...)`` a game, for a
        reader that has a file's games as columns. ``tests/formats/test_model.py`` holds the two
        equal."""
        rows = zip(
            round, white, black, white_score, black_score, kind, counts_for_rating, code, line,
            colours_known, white_rating, black_rating, date, strict=True,
        )  # fmt: skip
        new, names = object.__new__, _GAME_FIELDS
        games = []
        for values in rows:
            game = new(cls)
            game.__dict__.update(zip(names, values, strict=True))
            games.append(game)
        return tuple(games)


#: The fields of a :class:`Game`, in order (for :meth:`Game.of_columns`).
_GAME_FIELDS = tuple(f.name for f in fields(Game))


@dataclass(frozen=True)
class RatedGame:
    """One game that counts for rating, seen from one player: what the rating report consumes."""

    round: int | None
    opponent: int
    opponent_rating: int | None
    """``None`` when the opponent is unrated: FIDE rates only games against rated opponents."""
    own_rating: int | None
    score: Decimal
    colour: Colour | None
    line: int
    date: dt.date | None = None

    @property
    def opponent_rated(self) -> bool:
        """Whether the opponent has a rating in this file."""
        return self.opponent_rating is not None


@dataclass(frozen=True)
class Tournament:
    """A whole tournament as one file describes it."""

    source_format: str
    """``TRF16``, ``TRF26``, ``PGN`` or ``CSV``."""
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    name: str | None = None
    place: str | None = None
    federation: str | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    planned_rounds: int | None = None
    """Rounds announced by ``XXR`` or ``142``; ``None`` when the file does not say."""
    rounds: int = 0
    """The highest round that appears in the file (in a cell, a game or a Round tag)."""
    round_dates: tuple[dt.date | None, ...] = ()
    tournament_type: str | None = None
    chief_arbiter: str | None = None
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str | None = None
    declared_players: int | None = None
    declared_rated_players: int | None = None
    encoding: str = "utf-8"
    _by_number: dict[int, Player] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: Each player's games, indexed once on first use (a report asks for every player's).
    _games_by_number: dict[int, list[Game]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self._by_number.update((p.number, p) for p in self.players)

    def player(self, number: int) -> Player:
        """The player with this starting number."""
        try:
            return self._by_number[number]
        except KeyError:
            raise InvalidInputError("player", number, "no player has this number") from None

    def games_of(self, number: int) -> Iterator[Game]:
        """Every game (played or not) of one player, in file order."""
        if self.games and not self._games_by_number:
            for game in self.games:
                self._games_by_number.setdefault(game.white, []).append(game)
                if game.black != game.white:
                    self._games_by_number.setdefault(game.black, []).append(game)
        return iter(self._games_by_number.get(number, ()))

    def rated_games(self, number: int) -> tuple[RatedGame, ...]:
        """The games of one player that count for rating, rated and unrated opponents alike.

        Filter on :attr:`RatedGame.opponent_rated` to keep only the games against rated opponents.
        """
        out = []
        for game in self.games_of(number):
            if not game.counts_for_rating:
                continue
            white = game.white == number
            score = game.white_score if white else game.black_score
            if score is None:  # counts_for_rating implies a known result; kept for the type checker
                continue
            out.append(
                RatedGame(
                    round=game.round,
                    opponent=game.black if white else game.white,
                    opponent_rating=game.black_rating if white else game.white_rating,
                    own_rating=game.white_rating if white else game.black_rating,
                    score=score,
                    colour=("w" if white else "b") if game.colours_known else None,
                    line=game.line,
                    date=game.date,
                )
            )
        return tuple(out)

    @property
    def played_games(self) -> tuple[Game, ...]:
        """The games that count for rating."""
        return tuple(g for g in self.games if g.counts_for_rating)

    def cells(self, code: str | None = None) -> Iterator[RoundCell]:
        """Every TRF round cell, or those with one result code (``"+"``, ``"H"``, ``""``...)."""
        for player in self.players:
            for cell in player.cells:
                if code is None or cell.code == code:
                    yield cell


class FileProblems:
    """What a read found wrong in a file (its ``problems``), split by severity."""

    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The problems that make strict reading (and an import) refuse the file."""
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        """The problems that are only worth telling."""
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)


@dataclass(frozen=True)
class ReadResult(FileProblems):
    """What a reader returns: the tournament and every problem found, in line order."""

    tournament: Tournament
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the file has no error."""
        return not self.errors


@dataclass(frozen=True, eq=False)
class GameColumns:
    """Games as columns, one sequence per field, in the order of the tournament's games.

    What an import stores of each :class:`Game`, without building one object a game: each reader
    makes these from its one read (see ``docs/formats.md``); :meth:`of` makes them from games.
    """

    round: Sequence[int | None]
    white: Sequence[int]
    black: Sequence[int]
    white_score: Sequence[Decimal | None]
    black_score: Sequence[Decimal | None]
    rated: Sequence[bool]
    """:attr:`Game.counts_for_rating`."""
    code: Sequence[str]
    line: Sequence[int]

    @classmethod
    def of(cls, games: Sequence[Game]) -> GameColumns:
        """The columns of these games."""
        return cls(
            round=[g.round for g in games],
            white=[g.white for g in games],
            black=[g.black for g in games],
            white_score=[g.white_score for g in games],
            black_score=[g.black_score for g in games],
            rated=[g.counts_for_rating for g in games],
            code=[g.code for g in games],
            line=[g.line for g in games],
        )

    def games(
        self,
        *,
        kind: Iterable[Kind],
        white_rating: Iterable[int | None],
        black_rating: Iterable[int | None],
        date: Iterable[dt.date | None],
    ) -> tuple[Game, ...]:
        """The :class:`Game` objects of these columns (:meth:`Game.of_columns`), with what a game
        holds more: its kind, its sides' ratings and its day; the colours known (PGN, CSV)."""
        return Game.of_columns(
            round=self.round,
            white=self.white,
            black=self.black,
            white_score=self.white_score,
            black_score=self.black_score,
            kind=kind,
            counts_for_rating=self.rated,
            code=self.code,
            line=self.line,
            colours_known=[True] * len(self.line),
            white_rating=white_rating,
            black_rating=black_rating,
            date=date,
        )

    def __len__(self) -> int:
        return len(self.white)


@dataclass(frozen=True)
class EventRead(FileProblems):
    """What a rating-list import needs of a file: the event's facts, players, games as columns.

    The same facts as the :class:`ReadResult` of the file (:meth:`of` makes one from it); the
    players carry no round cells.
    """

    source_format: str
    name: str | None
    start_date: dt.date | None
    end_date: dt.date | None
    players: tuple[Player, ...]
    games: GameColumns
    problems: tuple[Problem, ...] = ()

    @classmethod
    def of(cls, result: ReadResult) -> EventRead:
        """The event a reader's result describes."""
        tournament = result.tournament
        return cls(
            source_format=tournament.source_format,
            name=tournament.name,
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            players=tournament.players,
            games=GameColumns.of(tournament.games),
            problems=result.problems,
        )


class ProblemLog:
    """Collects problems while a reader works; in strict mode the first error is raised at once."""

    def __init__(self, *, strict: bool, place: str = "") -> None:
        self.strict = strict
        #: What a problem's line starts (:attr:`Problem.place`): ``"game"`` in a PGN file.
        self.place = place
        self.problems: list[Problem] = []

    def error(self, line: int | None, code: str, message: str, **params: object) -> None:
        """Record an error (raise it in strict mode)."""
        problem = Problem(Severity.ERROR, line, message, code, tuple(params.items()), self.place)
        if self.strict:
            raise problem.as_error()
        self.problems.append(problem)

    def warning(self, line: int | None, code: str, message: str, **params: object) -> None:
        """Record a warning."""
        problem = Problem(Severity.WARNING, line, message, code, tuple(params.items()), self.place)
        self.problems.append(problem)

    def sorted(self) -> tuple[Problem, ...]:
        """The problems in line order (whole-file problems first), stable otherwise."""
        return tuple(sorted(self.problems, key=lambda p: -1 if p.line is None else p.line))
