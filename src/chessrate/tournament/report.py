"""Every player's rating change from a whole tournament file (TRF, PGN or CSV).

The workflow between the file readers (:mod:`chessrate.formats`) and the rating core
(:mod:`chessrate.systems.elo.calculate`): it reads nothing itself and renders nothing.

- A rated player's change counts only games against rated opponents (FIDE B.02 8.3.1: "for each
  game played against a rated player"); forfeits, byes and unplayed games never count (B.02 5.1).
- K comes from, in this order: a K given for the player (a K file), FIDE's rating list (the K of
  the player's list: ``docs/fide-list.md``), else the player's birth year and rating under the rules
  in force at the tournament's start (the file does not say how many games the player has had rated:
  taken as 30 or more, and said so). Each player's ``k_source`` says which.
- FIDE's list also gives the birth year, and the rating where the file has none; a file rating that
  differs from the list's is kept, with a warning.
- Tournaments older than the oldest FIDE rules kept (1 July 2014) are rated under those rules, with a
  warning (:func:`report_rule_set`).
- An unrated player gets a performance and, under the rules of the date, the initial rating the event
  would give on its own (B.02 8.2), or why it gives none.

:func:`report_rows` gives each player's line as plain values (``CSV_COLUMNS`` and a few more), the
same for every face: the command line's CSV, JSON and HTML, and the web page's download.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import os
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from operator import attrgetter
from typing import Any, NamedTuple

from chessrate.formats.fide_list import FideListPlayer, ListType, check_list_carried, find_players
from chessrate.formats.model import Game as FileGame
from chessrate.formats.model import Player, Problem, ReadResult, Severity, Tournament
from chessrate.identity import PlayerIdentity, identity_fields
from chessrate.parse import MAX_RATING, MIN_RATING
from chessrate.systems.elo.calculate import ZERO, Event, Game, choose_k, games_to_cap, rate_period
from chessrate.systems.elo.presets import resolve_rule_set
from chessrate.systems.elo.ruleset import Expected, RuleSet, fide_rule_set
from chessrate.systems.fide.k_factor import KFactor, Params, PlayerProfile
from chessrate.systems.fide.performance import InitialRating, Performance, fide_performance, initial_rating
from chessrate.systems.fide.policy import game_not_rated, over_cap
from chessrate.systems.fide.regulations import rules_in_force, versions_of
from chessrate.systems.fide.tables import scoring_probability
from chessrate.systems.rounding import round_half_away_from_zero


class KSource(StrEnum):
    """Where a player's K came from."""

    FIDE_LIST = "fide-list"  # the K column of FIDE's rating list (SK/RK/BK, or K)
    K_FILE = "k-file"  # a K given for the player in a K file
    GIVEN = "given"  # one K given for every player (``--k``)
    PROFILE = "profile"  # the rules, from the rating and the birth year
    RATING_ONLY = "rating only"  # the rules, from the rating alone (no birth year known)


#: The code of a warning: the file's rating differs from FIDE's list's (the file's is used).
RATING_DIFFERS = "list-rating-differs"
#: The codes of the report's own notes (:attr:`TournamentReport.notes`), each with its values, for a
#: face to say in its language (:func:`chessrate.service.explanations.file_problem`).
RULES_OLDEST_KEPT = "rules-oldest-kept"  # rated under the oldest FIDE rules kept
GAME_NOT_RATED = "game-not-rated"  # rapid and blitz 8.3.1: 600 points apart, a player above 2600
K_FILE_UNKNOWN_PLAYER = "k-file-unknown-player"  # a K file's key that names no player


@dataclass(frozen=True)
class PlayersList:
    """What FIDE's rating list says of a tournament's players (:func:`players_list_for`)."""

    list_type: ListType
    #: How warnings name the list: "FIDE standard list (SEP26)".
    label: str
    #: The tournament's players found in the list, by FIDE id.
    players: Mapping[int, FideListPlayer]
    #: The list reader's problems (each with its code and values, for a face to say in its language).
    warnings: tuple[Problem, ...] = ()
    #: The list's month, when the file or its name says it.
    month: dt.date | None = None


class CountedGame(NamedTuple):
    """A game that counts for a player's rating (played, B.02 5.1) and, when the player was rated
    from it, its working: :class:`chessrate.systems.elo.calculate.GameWorking`'s figures, the same
    decimals."""

    round: int | None
    opponent: int
    #: None when the opponent is unrated: then the game is not rated (B.02 8.3.1).
    opponent_rating: int | None
    score: Decimal
    line: int
    raw_difference: Decimal | None = None
    difference: Decimal | None = None
    capped: bool | None = None
    expected: Decimal | None = None
    change: Decimal | None = None


@dataclass(frozen=True, kw_only=True)
class PlayerReport(PlayerIdentity):
    """One player's line of the report (who the player is, and more), with the working behind it."""

    start_number: int
    rating: int | None
    #: Games that count for this player's rating: played, against a rated opponent.
    games: int
    #: Played games against unrated opponents (not rated for a rated player).
    games_against_unrated: int
    score: Decimal
    performance: Performance | None
    k: KFactor | None = None
    expected: Decimal | None = None
    capped_games: int = 0
    change: Decimal | None = None
    rounded_change: int | None = None
    new_rating: Decimal | None = None
    initial: InitialRating | None = None
    #: The games against rated opponents, in file order, each with its working when the player
    #: was rated (B.02 8.3.1: a rated player's change counts only these).
    rated_games: tuple[CountedGame, ...] = ()
    #: Where K came from (None: no K, the player was not rated).
    k_source: KSource | None = None
    #: Where the rating came from: "file" or "fide-list" (None: unrated).
    rating_source: str | None = None


@dataclass(frozen=True, kw_only=True)
class TournamentReport:
    """The whole report: the tournament, the rules used and every player."""

    tournament: Tournament
    rules: RuleSet
    as_of: dt.date
    players: tuple[PlayerReport, ...]
    #: The report's own notes, each a coded :class:`Problem` (a warning) for a face to say in its
    #: language: the rules used when older than the oldest kept (``rules-oldest-kept``, first), the
    #: games the rules do not rate (``game-not-rated``, with the game's line) and the K file's keys
    #: that name no player (``k-file-unknown-player``).
    notes: tuple[Problem, ...] = ()
    #: The tournament file's problems, as read.
    file_problems: tuple[Problem, ...] = ()
    #: Keys of ``k_by_player`` that match no player's FIDE id or start number.
    unknown_k_keys: tuple[str, ...] = ()
    #: What FIDE's list said: its own problems, and the ratings that differ from the file's
    #: (code ``list-rating-differs``), as :class:`Problem` for a face to say in its language.
    list_warnings: tuple[Problem, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        """Every note and problem as an English line, as the command line prints them: the rules'
        note, the file's problems, the list's, then the other notes."""
        first = [note for note in self.notes if note.code == RULES_OLDEST_KEPT]
        rest = [note for note in self.notes if note.code != RULES_OLDEST_KEPT]
        return (
            *(note.message for note in first),
            *(str(problem) for problem in self.file_problems),
            *map(list_warning_text, self.list_warnings),
            *(note.message for note in rest),
        )


def report_rule_set(
    spec: str | None, *, day: dt.date, list_type: ListType = "standard"
) -> tuple[RuleSet, Problem | None]:
    """The rule set of a report on ``day``, and a warning when it is not the one of that day.

    FIDE's rules are those of ``list_type``: rapid and blitz have their own chapter (``docs/fide.md``).
    Rules older than the oldest kept (standard: 1 July 2014; rapid and blitz: 1 January 2022) are not
    kept: a tournament older than that is rated under the oldest version kept, and the warning says
    which and why.
    """
    if (spec or "fide").strip().lower() != "fide":
        return resolve_rule_set(spec, as_of=day), None
    oldest = versions_of(list_type)[0]
    if day < oldest.effective_from:
        rules = fide_rule_set(oldest, day=day)
        rules = dataclasses.replace(rules, title=f"{oldest.name} (the oldest kept, for {day.isoformat()})")
        message = (
            f"rules: the tournament is of {day.isoformat()}, before {oldest.effective_from.isoformat()}, "
            f"the oldest FIDE rules chessrate keeps; rated under {oldest.name} (the rules of its day differ)"
        )
        params = {"day": day.isoformat(), "oldest": oldest.effective_from.isoformat(), "list": list_type}
        return rules, Problem(Severity.WARNING, None, message, RULES_OLDEST_KEPT, tuple(params.items()))
    return fide_rule_set(rules_in_force(day, list_type), day=day), None


def players_list_for(
    read: ReadResult,
    source: str | os.PathLike[str] | bytes,
    *,
    name: str | None = None,
    list_type: ListType = "standard",
) -> PlayersList:
    """Look the tournament's players up in FIDE's list (a path, or the bytes of an upload named ``name``).

    Raises :class:`~chessrate.errors.InvalidInputError` (field ``players_list`` or ``list_type``) when
    the file is not a FIDE list, or does not carry ``list_type``.
    """
    ids = {player.fide_id for player in read.tournament.players if player.fide_id}
    found, fide = find_players(source, ids, name=name, list_type=list_type)
    check_list_carried(fide, list_type)
    month = f" ({fide.month:%b%y})".upper() if fide.month else ""
    label = f"FIDE {list_type} list{month}"
    return PlayersList(
        list_type=list_type, label=label, players=found, warnings=fide.problems, month=fide.month
    )


def list_warning_text(problem: Problem) -> str:
    """A warning of FIDE's list in English, as the command line and the documents say it."""
    return problem.message if problem.code == RATING_DIFFERS else f"players list {problem}"


def report_tournament(
    read: ReadResult,
    *,
    rules: RuleSet,
    as_of: dt.date,
    k_by_player: Mapping[str, int] | None = None,
    players_list: PlayersList | None = None,
    k_for_everyone: int | None = None,
    notes: Sequence[Problem] = (),
) -> TournamentReport:
    """Rate every player of a tournament that has been read.

    ``k_by_player`` maps a FIDE id or a start number (as text) to a K that overrides the rules' and
    the list's; ``k_for_everyone`` is the K of every other player, before the list's.
    ``players_list`` gives FIDE's K, birth year and (where the file has none) rating.
    ``notes`` are warnings to put first (as :func:`report_rule_set`'s).
    """
    k_by_player = k_by_player or {}
    tournament, listed, list_warnings = _with_list(read.tournament, players_list)
    rated, not_rated = _games_rated_by(tournament, rules)
    played = counted_games(rated)
    players = tuple(
        _player_report(
            player,
            played.get(player.number, ()),
            rules=rules,
            k=_given_k(player, k_by_player),
            k_for_everyone=k_for_everyone,
            list_k=_list_k(listed.get(player.number), players_list, rules),
            list_reason=_list_k_reason(players_list),
            rating_source=_rating_source(player, read.tournament, listed),
        )
        for player in tournament.players
    )
    unknown = (
        set(k_by_player)
        - {str(p.fide_id) for p in tournament.players if p.fide_id}
        - {str(p.number) for p in tournament.players}
    )
    unknown_keys = [
        Problem(
            Severity.WARNING,
            None,
            f"k file: no player has id or start number {key}",
            K_FILE_UNKNOWN_PLAYER,
            (("key", key),),
        )
        for key in sorted(unknown)
    ]
    return TournamentReport(
        tournament=tournament,
        rules=rules,
        as_of=as_of,
        players=players,
        notes=(*notes, *not_rated, *unknown_keys),
        file_problems=read.problems,
        unknown_k_keys=tuple(sorted(unknown)),
        list_warnings=tuple(list_warnings),
    )


def _games_rated_by(tournament: Tournament, rules: RuleSet) -> tuple[Tournament, list[Problem]]:
    """The tournament without the games its rules do not rate (rapid and blitz 8.3.1 from
    1 December 2024: 600 points or more apart, a player above 2600), and a warning for each."""
    fide = rules.fide
    if fide is None or fide.not_rated_difference is None:
        return tournament, []
    kept: list[FileGame] = []
    warnings: list[Problem] = []
    for game in tournament.games:
        white, black = game.white_rating, game.black_rating
        if (
            white is not None
            and black is not None
            and game.counts_for_rating
            and game_not_rated(white, black, fide)
        ):
            message = (
                f"line {game.line}: the game {game.white}-{game.black} ({white} against {black}) "
                f"is not rated: {fide.not_rated_difference} points or more apart with a player above "
                f"{fide.not_rated_above} ({fide.source})"
            )
            params = {
                "white": game.white,
                "black": game.black,
                "white_rating": white,
                "black_rating": black,
                "difference": fide.not_rated_difference,
                "above": fide.not_rated_above,
                "source": fide.source,
            }
            warnings.append(
                Problem(Severity.WARNING, game.line, message, GAME_NOT_RATED, tuple(params.items()))
            )
            continue
        kept.append(game)
    return (dataclasses.replace(tournament, games=tuple(kept)), warnings) if warnings else (tournament, [])


def _with_list(
    tournament: Tournament, players_list: PlayersList | None
) -> tuple[Tournament, dict[int, FideListPlayer], list[Problem]]:
    """The tournament with the list's ratings and birth years where the file has none; who was found."""
    if players_list is None:
        return tournament, {}, []
    warnings = list(players_list.warnings)
    listed: dict[int, FideListPlayer] = {}
    players: list[Player] = []
    filled: dict[int, int] = {}
    for player in tournament.players:
        entry = players_list.players.get(player.fide_id) if player.fide_id else None
        if entry is None:
            players.append(player)
            continue
        listed[player.number] = entry
        in_list = entry.rating(players_list.list_type)
        list_rating = in_list.rating if in_list else None
        rating = player.rating
        if rating is None and list_rating is not None:
            rating = filled[player.number] = list_rating
        elif rating is not None and list_rating is not None and rating != list_rating:
            message = (
                f"player {player.number} ({player.name}, FIDE id {player.fide_id}): the file's rating "
                f"{player.rating} differs from the {players_list.label}'s {list_rating}; the file's is used"
            )
            params = {
                "player": player.number,
                "name": player.name,
                "fide_id": player.fide_id,
                "file_rating": rating,
                "list": players_list.list_type,
                "month": f"{players_list.month:%b%y}".upper() if players_list.month else "",
                "list_rating": list_rating,
            }
            warnings.append(Problem(Severity.WARNING, None, message, RATING_DIFFERS, tuple(params.items())))
        birth_year = player.birth_year or entry.birth_year
        players.append(dataclasses.replace(player, rating=rating, birth_year=birth_year))
    games = (
        tuple(_game_with_ratings(game, filled) for game in tournament.games) if filled else tournament.games
    )
    return dataclasses.replace(tournament, players=tuple(players), games=games), listed, warnings


def _game_with_ratings(game: FileGame, filled: Mapping[int, int]) -> FileGame:
    """A game with the list's rating of a player the file left unrated."""
    white = game.white_rating if game.white_rating is not None else filled.get(game.white)
    black = game.black_rating if game.black_rating is not None else filled.get(game.black)
    return dataclasses.replace(game, white_rating=white, black_rating=black)


def _rating_source(player: Player, original: Tournament, listed: Mapping[int, FideListPlayer]) -> str | None:
    own = original.player(player.number)
    if own is not None and own.rating is not None:
        return "file"
    return "fide-list" if player.number in listed and player.rating is not None else None


def _given_k(player: Player, k_by_player: Mapping[str, int]) -> int | None:
    if player.fide_id and str(player.fide_id) in k_by_player:
        return k_by_player[str(player.fide_id)]
    return k_by_player.get(str(player.number))


#: A :class:`CountedGame` from a tuple of its ten fields, made by ``tuple.__new__`` in C: a report
#: makes one or two a game, and the named tuple's own ``__new__`` is a Python function.
_counted_game = functools.partial(tuple.__new__, CountedGame)


def counted_games(tournament: Tournament) -> dict[int, list[CountedGame]]:
    """Every player's games that count for rating, by start number, in file order: what
    :meth:`Tournament.rated_games` gives player by player, in one pass over the games."""
    by_player: defaultdict[int, list[CountedGame]] = defaultdict(list)
    for rated, white, black, round_, white_rating, black_rating, white_score, black_score, line in map(
        _COUNTED_FIELDS, tournament.games
    ):
        if not rated:
            continue
        if white_score is not None:
            side = (round_, black, black_rating, white_score, line, None, None, None, None, None)
            by_player[white].append(_counted_game(side))
        if black_score is not None and black != white:
            side = (round_, white, white_rating, black_score, line, None, None, None, None, None)
            by_player[black].append(_counted_game(side))
    return by_player


#: What :func:`counted_games` reads of each game, in one call.
_COUNTED_FIELDS = attrgetter(
    "counts_for_rating", "white", "black", "round", "white_rating", "black_rating", "white_score",
    "black_score", "line",
)  # fmt: skip


def _list_k_reason(players_list: PlayersList | None) -> Params:
    """The values of a K taken from FIDE's list (``k-fide-list``): the list and its month (SEP26)."""
    if players_list is None:
        return ()
    month = f"{players_list.month:%b%y}".upper() if players_list.month else ""
    return (("list", players_list.list_type), ("month", month))


def _player_report(
    player: Player,
    played: Sequence[CountedGame],
    *,
    rules: RuleSet,
    k: int | None,
    k_for_everyone: int | None,
    list_k: int | None,
    list_reason: Params,
    rating_source: str | None,
) -> PlayerReport:
    against_rated = [game for game in played if game.opponent_rating is not None]
    score = sum((game.score or ZERO for game in against_rated), ZERO)
    opponents = [Decimal(game.opponent_rating) for game in against_rated if game.opponent_rating is not None]
    performance = fide_performance(opponents, score) if against_rated else None

    def report(**working: Any) -> PlayerReport:
        return PlayerReport(
            start_number=player.number,
            **identity_fields(player),
            rating=player.rating,
            games=len(against_rated),
            games_against_unrated=len(played) - len(against_rated),
            score=score,
            performance=performance,
            rating_source=rating_source,
            **working,
        )

    if player.rating is None:
        initial = initial_rating(opponents, score, rules=rules.fide) if rules.fide is not None else None
        return report(rated_games=tuple(against_rated), initial=initial)
    rating = Decimal(player.rating)
    if not against_rated:
        return report(expected=ZERO, change=ZERO, rounded_change=0, new_rating=rating)
    k, source = _k_and_source(k, k_for_everyone, list_k, birth_year=player.birth_year)
    profile = PlayerProfile(birth_year=player.birth_year) if player.birth_year else None
    if rules.expected is Expected.TABLE and _on_the_scale(player.rating, against_rated):
        k_factor = choose_k(rating, rules=rules, games=len(against_rated), k=k, profile=profile)
        rated, expected, change, capped = rate_by_table(
            player.rating, against_rated, rules=rules, k=k_factor.k
        )
    else:  # the logistic formula's 28-digit decimals, or a rating it refuses: the scalar path
        k_factor, rated, expected, change, capped = _rate_by_calculation(
            rating, against_rated, rules=rules, k=k, profile=profile
        )
    # One tournament is the whole period: its change rounded once (B.02 8.3.4), as rate_period does.
    rounded = round_half_away_from_zero(change)
    if source is KSource.FIDE_LIST and list_reason:
        k_factor = dataclasses.replace(
            k_factor, code="k-fide-list", params=list_reason, article="FIDE rating list"
        )
    return report(
        k=k_factor,
        k_source=source,
        expected=expected,
        capped_games=capped,
        change=change,
        rounded_change=rounded,
        new_rating=rating + rounded,
        rated_games=tuple(rated),
    )


def _k_and_source(
    k: int | None, k_for_everyone: int | None, list_k: int | None, *, birth_year: int | None
) -> tuple[int | None, KSource]:
    """K and where it came from: the K file's, else the one K given for everyone, else FIDE's
    list's; else none, and the rules choose it from the profile (or the rating only)."""
    if k is not None:
        return k, KSource.K_FILE
    if k_for_everyone is not None:
        return k_for_everyone, KSource.GIVEN
    if list_k is not None:
        return list_k, KSource.FIDE_LIST
    return None, KSource.PROFILE if birth_year else KSource.RATING_ONLY


def _on_the_scale(rating: int, games: Sequence[CountedGame]) -> bool:
    """Whether every rating is within the scale; otherwise the scalar path refuses the one outside."""
    ratings = [rating, *(game.opponent_rating for game in games if game.opponent_rating is not None)]
    return min(ratings) >= MIN_RATING and max(ratings) <= MAX_RATING


def rate_by_table(
    rating: int, games: Sequence[CountedGame], *, rules: RuleSet, k: int
) -> tuple[list[CountedGame], Decimal, Decimal, int]:
    """The games against rated opponents of one tournament rated with table 8.1.2, each with its
    working; the expected score, the unrounded change K x (score - expected) (B.02 8.3.2) and the
    number of games the 400-point rule capped.

    :func:`chessrate.systems.elo.calculate.rate_period`'s arithmetic on the same decimals, for whole ratings,
    without an object per game beyond the one returned (``tests/test_report_fast.py`` checks
    both agree, digit for digit).
    """
    differences = [rating - (game.opponent_rating or 0) for game in games]
    # The rule is looked at game by game only when the widest difference is over the cap.
    widest = max(map(abs, differences))
    over = rules.cap is not None and over_cap(widest, rules.cap.limit)
    capped = games_to_cap(Decimal(rating), differences, rules) if over else set()
    limit = rules.cap.limit if rules.cap is not None else 0
    table, whole, span = _table()
    k_decimal = Decimal(k)
    rated = []
    expected_total = points = ZERO
    for index, game in enumerate(games):
        raw = differences[index]
        is_capped = index in capped
        counted = ((limit if raw > 0 else -limit) if is_capped else raw) + span
        expected = table[counted]
        score = game.score
        expected_total += expected
        points += score or ZERO
        change = k_decimal * (score - expected)
        rated.append(
            _counted_game((*game[:5], whole[raw + span], whole[counted], is_capped, expected, change))
        )
    # Summed from zero, as rate_period sums its tournaments (the same decimals, to the exponent).
    return rated, ZERO + expected_total, ZERO + k_decimal * (points - expected_total), len(capped)


@functools.cache
def _table() -> tuple[tuple[Decimal, ...], tuple[Decimal, ...], int]:
    """Table 8.1.2's PD and the whole decimals, for every difference of two ratings on the scale."""
    span = int(MAX_RATING - MIN_RATING)
    differences = range(-span, span + 1)
    return tuple(scoring_probability(d) for d in differences), tuple(Decimal(d) for d in differences), span


def _rate_by_calculation(
    rating: Decimal,
    games: Sequence[CountedGame],
    *,
    rules: RuleSet,
    k: int | None,
    profile: PlayerProfile | None,
) -> tuple[KFactor, list[CountedGame], Decimal, Decimal, int]:
    """K and :func:`rate_by_table`'s figures from :func:`chessrate.systems.elo.calculate.rate_period`,
    for any rules."""
    event = Event(tuple(Game(Decimal(game.opponent_rating or 0), game.score) for game in games))
    period = rate_period(rating, [event], rules=rules, k=k, profile=profile)
    rated = [
        game._replace(
            raw_difference=working.raw_difference,
            difference=working.difference,
            capped=working.capped,
            expected=working.expected,
            change=working.change,
        )
        for game, working in zip(games, period.events[0].games, strict=True)
    ]
    capped = sum(1 for game in rated if game.capped)
    return period.k, rated, period.expected, period.change, capped


def _list_k(entry: FideListPlayer | None, players_list: PlayersList | None, rules: RuleSet) -> int | None:
    """FIDE's K from the list, for FIDE's rules or a rule set that needs a K (not a club's K bands)."""
    if entry is None or players_list is None or (rules.fide is None and rules.k_policy is not None):
        return None
    in_list = entry.rating(players_list.list_type)
    return in_list.k if in_list else None
