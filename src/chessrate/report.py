"""Every player's rating change from a whole tournament file (TRF, PGN or CSV).

The workflow between the file readers (:mod:`chessrate.formats`) and the rating core
(:mod:`chessrate.calculate`): it reads nothing itself and renders nothing.

- A rated player's change counts only games against rated opponents (FIDE B.02 8.3.1: "for each
  game played against a rated player"); forfeits, byes and unplayed games never count (B.02 5.1).
- K comes from the player's birth year and rating under the rules in force at the tournament's start
  (the file does not say how many games the player has had rated: taken as 30 or more, and said so),
  unless a K is given for the player.
- An unrated player gets a performance and, under the rules of the date, the initial rating the event
  would give on its own (B.02 8.2), or why it gives none.

:func:`report_rows` gives each player's line as plain values (``CSV_COLUMNS`` and a few more), the
same for every face: the command line's CSV, JSON and HTML, and the web page's download.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from chessrate.calculate import Game, TournamentResult, rate_tournament
from chessrate.errors import InvalidInputError
from chessrate.fide.k_factor import KFactor, PlayerProfile
from chessrate.fide.performance import InitialRating, Performance, fide_performance, initial_rating
from chessrate.formats.model import Player, RatedGame, ReadResult, Tournament
from chessrate.parse import is_digits, parse_k
from chessrate.ruleset import RuleSet
from chessrate.spreadsheet import neutralise


@dataclass(frozen=True, kw_only=True)
class PlayerReport:
    """One player's line of the report, with the working behind it."""

    start_number: int
    name: str
    fide_id: int | None
    title: str | None
    federation: str | None
    rating: int | None
    k: KFactor | None
    #: Games that count for this player's rating: played, against a rated opponent.
    games: int
    #: Played games against unrated opponents (not rated for a rated player).
    games_against_unrated: int
    score: Decimal
    expected: Decimal | None
    capped_games: int
    change: Decimal | None
    rounded_change: int | None
    new_rating: Decimal | None
    performance: Performance | None
    initial: InitialRating | None
    working: TournamentResult | None
    #: The games that count, in the order of ``working.event.games`` (opponent, round, line).
    rated_games: tuple[RatedGame, ...] = ()


@dataclass(frozen=True, kw_only=True)
class TournamentReport:
    """The whole report: the tournament, the rules used and every player."""

    tournament: Tournament
    rules: RuleSet
    as_of: dt.date
    players: tuple[PlayerReport, ...]
    warnings: tuple[str, ...]
    #: Keys of ``k_by_player`` that match no player's FIDE id or start number.
    unknown_k_keys: tuple[str, ...] = ()


def report_tournament(
    read: ReadResult,
    *,
    rules: RuleSet,
    as_of: dt.date,
    k_by_player: Mapping[str, int] | None = None,
) -> TournamentReport:
    """Rate every player of a tournament that has been read.

    ``k_by_player`` maps a FIDE id or a start number (as text) to a K that overrides the rules'.
    """
    tournament = read.tournament
    k_by_player = k_by_player or {}
    players = tuple(
        _player_report(tournament, player, rules=rules, k=_given_k(player, k_by_player))
        for player in tournament.players
    )
    unknown = (
        set(k_by_player)
        - {str(p.fide_id) for p in tournament.players if p.fide_id}
        - {str(p.number) for p in tournament.players}
    )
    warnings = [str(problem) for problem in read.problems]
    warnings += [f"k file: no player has id or start number {key}" for key in sorted(unknown)]
    return TournamentReport(
        tournament=tournament,
        rules=rules,
        as_of=as_of,
        players=players,
        warnings=tuple(warnings),
        unknown_k_keys=tuple(sorted(unknown)),
    )


def _given_k(player: Player, k_by_player: Mapping[str, int]) -> int | None:
    if player.fide_id and str(player.fide_id) in k_by_player:
        return k_by_player[str(player.fide_id)]
    return k_by_player.get(str(player.number))


def _player_report(tournament: Tournament, player: Player, *, rules: RuleSet, k: int | None) -> PlayerReport:
    played = tournament.rated_games(player.number)
    rated_opponents = tuple(game for game in played if game.opponent_rating is not None)
    against_rated = [
        Game(Decimal(game.opponent_rating), game.score)
        for game in rated_opponents
        if game.opponent_rating is not None
    ]
    score = sum((game.score or Decimal(0) for game in against_rated), Decimal(0))
    opponents = [game.opponent for game in against_rated]
    performance = fide_performance(opponents, score) if against_rated else None
    base = PlayerReport(
        start_number=player.number,
        name=player.name,
        fide_id=player.fide_id,
        title=player.title,
        federation=player.federation,
        rating=player.rating,
        k=None,
        games=len(against_rated),
        games_against_unrated=len(played) - len(against_rated),
        score=score,
        expected=None,
        capped_games=0,
        change=None,
        rounded_change=None,
        new_rating=None,
        performance=performance,
        initial=None,
        working=None,
        rated_games=rated_opponents,
    )
    if player.rating is None:
        if rules.fide is None:
            return base
        return dataclasses.replace(base, initial=initial_rating(opponents, score, rules=rules.fide))
    rating = Decimal(player.rating)
    if not against_rated:
        return dataclasses.replace(
            base, expected=Decimal(0), change=Decimal(0), rounded_change=0, new_rating=rating
        )
    profile = PlayerProfile(birth_year=player.birth_year) if player.birth_year else None
    working = rate_tournament(rating, against_rated, rules=rules, k=k, profile=profile)
    period = working.period
    return dataclasses.replace(
        base,
        k=period.k,
        expected=period.expected,
        capped_games=sum(1 for game in working.event.games if game.capped),
        change=period.change,
        rounded_change=period.rounded_change,
        new_rating=period.new_rating,
        working=working,
    )


def read_k_file(text: str, *, origin: str) -> dict[str, int]:
    """A K per player from CSV text with the columns ``player,k`` (a FIDE id or a start number)."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:  # a NUL byte, a quote left open
        raise InvalidInputError("k_file", origin, f"not a CSV file: {error}") from None
    if not rows or [cell.strip().lower() for cell in rows[0]] != ["player", "k"]:
        raise InvalidInputError("k_file", origin, "the first line must be the header 'player,k'")
    table: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2 or not is_digits(row[0].strip()):
            raise InvalidInputError("k_file", f"{origin} line {line}", f"expected 'player,k', got {row!r}")
        table[row[0].strip()] = parse_k(row[1], field=f"k in {origin} line {line}")
    return table


#: The columns of the CSV report, in order (:func:`report_rows` has these and a few more).
CSV_COLUMNS = (
    "start_number", "name", "fide_id", "title", "federation", "rating", "k", "k_reason", "games",
    "games_against_unrated", "score", "expected", "capped_games", "change", "rounded_change",
    "new_rating", "performance", "initial_rating", "initial_reason",
)  # fmt: skip


def report_row(player: PlayerReport) -> dict[str, Any]:
    """One player's line as plain values (``None`` where there is nothing), unrounded numbers kept."""
    return {
        "start_number": player.start_number,
        "name": player.name,
        "fide_id": player.fide_id,
        "title": player.title,
        "federation": player.federation,
        "rating": player.rating,
        "k": player.k.k if player.k else None,
        "k_reason": player.k.reason if player.k else None,
        "games": player.games,
        "games_against_unrated": player.games_against_unrated,
        "score": player.score,
        "expected": player.expected,
        "capped_games": player.capped_games,
        "change": player.change,
        "rounded_change": player.rounded_change,
        "new_rating": player.new_rating,
        "performance": player.performance.rating if player.performance else None,
        "initial_rating": player.initial.rating if player.initial else None,
        "initial_reason": player.initial.reason if player.initial else None,
    }


def report_rows(report: TournamentReport) -> list[dict[str, Any]]:
    """Every player's line (:func:`report_row`), in the tournament's order."""
    return [report_row(player) for player in report.players]


def report_csv(report: TournamentReport) -> str:
    """The report as CSV text: a header of ``CSV_COLUMNS``, one line per player, blank for none.

    Text that a spreadsheet would run as a formula is quoted (:mod:`chessrate.spreadsheet`).
    """
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in report_rows(report):
        writer.writerow({key: "" if value is None else neutralise(value) for key, value in row.items()})
    return buffer.getvalue()
