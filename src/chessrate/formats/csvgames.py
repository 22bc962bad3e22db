"""Games from a CSV file, for clubs with no pairing program: one game per line.

The first row names the columns (required, any order, case ignored)::

    white,black,white_rating,black_rating,result,date
    "García López, Ana","Pujol, Marc",1850,,1-0,2025-03-14

``white`` and ``black`` are names (players are identified by name); ratings are whole numbers from 1
to 4000, empty or ``0`` for an unrated player; ``result`` is ``1-0``, ``0-1``, ``1/2-1/2`` (also
``½-½``, ``0.5-0.5``, ``0,5-0,5``), or White's score alone as :func:`chessrate.parse.parse_score`
reads it (``1``, ``0.5``, ``½``, ``=``, ``win``, ``tablas``...); ``+-``, ``-+`` and ``--`` are
forfeits (kept, not rated). ``date`` is ``YYYY-MM-DD`` or empty. An optional ``round`` column gives
the round number. The delimiter is ``,`` or ``;`` (whichever the header row uses); quote a field
that holds the delimiter.
"""

from __future__ import annotations

import csv
import io
import os
from decimal import Decimal
from pathlib import Path

from chessrate.errors import InvalidInputError
from chessrate.formats.model import Game, Kind, Player, ProblemLog, ReadResult, Tournament
from chessrate.formats.text import decode, split_lines
from chessrate.parse import is_digits, parse_date, parse_rating, parse_score

REQUIRED = ("white", "black", "white_rating", "black_rating", "result", "date")
OPTIONAL = ("round",)

_ONE, _HALF, _ZERO = Decimal(1), Decimal("0.5"), Decimal(0)
#: Two-sided results, both scores written.
PAIR_RESULTS = {
    "1-0": (_ONE, _ZERO), "0-1": (_ZERO, _ONE), "1/2-1/2": (_HALF, _HALF), "½-½": (_HALF, _HALF),
    "0.5-0.5": (_HALF, _HALF), "0,5-0,5": (_HALF, _HALF),
}  # fmt: skip
#: Forfeits, TRF-style ([TRF16], [TRF26]): not played, not rated.
FORFEITS = {"+-": (_ONE, _ZERO), "-+": (_ZERO, _ONE), "--": (_ZERO, _ZERO)}


def read_csv_games(source: bytes | str | os.PathLike[str], *, strict: bool = False) -> ReadResult:
    """Read a CSV game list into a :class:`Tournament`.

    ``source`` is the file's bytes, its text (a ``str``) or a path (a ``Path``, not a ``str``).
    """
    if isinstance(source, os.PathLike):
        source = Path(source).read_bytes()
    text, encoding = decode(source) if isinstance(source, bytes) else (source, "str")
    log = ProblemLog(strict=strict)
    lines = split_lines(text)
    header_line = next((line for line in lines if line.strip()), None)
    if header_line is None:
        log.error(None, "empty-file", "the file is empty")
        return ReadResult(Tournament("CSV", encoding=encoding), log.sorted())
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    rows = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    columns: dict[str, int] = {}
    players: dict[str, Player] = {}
    games: list[Game] = []
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as error:
            log.error(rows.line_num, "csv-syntax", f"unreadable CSV: {error}", detail=str(error))
            break
        line = rows.line_num  # the last physical line of the row
        if not any(cell.strip() for cell in row):
            continue
        if not columns:
            columns = _columns(row, line, log)
            if not columns:
                break
            continue
        game = _game(row, columns, line, players, log)
        if game is not None:
            games.append(game)
    if columns and not games:
        log.error(None, "no-games", "the file has no game line")
    rounds = [g.round for g in games if g.round is not None]
    dates = [g.date for g in games if g.date is not None]
    tournament = Tournament(
        source_format="CSV",
        players=tuple(players.values()),
        games=tuple(games),
        start_date=min(dates, default=None),
        end_date=max(dates, default=None),
        rounds=max(rounds, default=0),
        encoding=encoding,
    )
    return ReadResult(tournament, log.sorted())


def _columns(row: list[str], line: int, log: ProblemLog) -> dict[str, int]:
    names = [cell.strip().lstrip("\ufeff").lower() for cell in row]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        log.error(
            line,
            "csv-header",
            f"the header row must name the columns {','.join(REQUIRED)}; missing: {', '.join(missing)}",
            columns=",".join(REQUIRED),
            missing=", ".join(missing),
        )
        return {}
    for name in names:
        if name not in REQUIRED and name not in OPTIONAL:
            log.warning(line, "csv-column", f"column {name!r} is not used", column=name)
    return {name: names.index(name) for name in (*REQUIRED, *OPTIONAL) if name in names}


def _game(
    row: list[str], columns: dict[str, int], line: int, players: dict[str, Player], log: ProblemLog
) -> Game | None:
    def cell(name: str) -> str:
        index = columns[name]
        return row[index].strip() if index < len(row) else ""

    if len(row) < len(columns):
        log.error(
            line,
            "csv-row",
            f"{len(row)} fields where the header has {len(columns)}",
            found=len(row),
            count=len(columns),
        )
        return None
    names = [" ".join(cell(side).split()) for side in ("white", "black")]
    ratings: list[int | None] = []
    try:
        for side in ("white", "black"):
            if not names[len(ratings)]:
                raise InvalidInputError(side, "", "a player's name is required")
            ratings.append(_rating(cell(f"{side}_rating"), f"{side}_rating"))
        scores, kind = _result(cell("result"))
        date = parse_date(cell("date"), field="date") if cell("date") else None
        round_number = _round(cell("round")) if "round" in columns and cell("round") else None
    except InvalidInputError as error:
        log.error(
            line,
            f"invalid-{error.field}".replace("_", "-"),
            str(error),
            field=error.field,
            value=error.value,
            reason=error.reason,
            reason_code=error.code,
            **error.params,
        )
        return None
    if names[0].casefold() == names[1].casefold():
        log.error(line, "self-pairing", f"{names[0]!r} plays themselves", name=names[0])
        return None
    numbers = [_player(name, rating, line, players, log) for name, rating in zip(names, ratings, strict=True)]
    return Game(
        round=round_number,
        white=numbers[0],
        black=numbers[1],
        white_score=scores[0],
        black_score=scores[1],
        kind=kind,
        counts_for_rating=kind is Kind.PLAYED,
        code=cell("result"),
        line=line,
        white_rating=ratings[0],
        black_rating=ratings[1],
        date=date,
    )


def _rating(text: str, field: str) -> int | None:
    if not text:
        return None
    value = parse_rating(text, field=field)
    if value != value.to_integral_value():
        raise InvalidInputError(field, text, "a rating is a whole number")
    return int(value) or None


def _result(text: str) -> tuple[tuple[Decimal, Decimal], Kind]:
    key = text.replace(" ", "").replace("–", "-").lower()
    if key in FORFEITS:
        return FORFEITS[key], Kind.FORFEIT
    if key in PAIR_RESULTS:
        return PAIR_RESULTS[key], Kind.PLAYED
    if key in ("+", "-"):
        raise InvalidInputError("result", text, "write 1-0 or 0-1 for a game, +- or -+ for a forfeit")
    white = parse_score(text)
    return (white, _ONE - white), Kind.PLAYED


def _round(text: str) -> int:
    if not is_digits(text) or int(text) == 0:
        raise InvalidInputError("round", text, "a round is a whole number from 1")
    return int(text)


def _player(name: str, rating: int | None, line: int, players: dict[str, Player], log: ProblemLog) -> int:
    key = name.casefold()
    player = players.get(key)
    if player is None:
        player = Player(number=len(players) + 1, name=name, rating=rating, line=line)
        players[key] = player
    elif rating is not None and player.rating is None:
        players[key] = Player(number=player.number, name=player.name, rating=rating, line=player.line)
    elif rating is not None and rating != player.rating:
        log.warning(
            line,
            "rating-changes",
            f"{name!r} is rated {rating} here and {player.rating} on line {player.line}; "
            "each game keeps its own ratings",
            name=name,
            rating=rating,
            other_rating=player.rating,
        )
    return player.number
