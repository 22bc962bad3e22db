"""The report's fast path gives the figures of the exact one, digit for digit, on random tournaments.

:func:`chessrate.tournament.report.report_tournament` indexes the games by player in one pass
(:func:`~chessrate.tournament.report.counted_games`) and rates table 8.1.2 on whole ratings without the scalar
path's objects (:func:`~chessrate.tournament.report.rate_by_table`). The reference here is the path it
replaces: :meth:`Tournament.rated_games` player by player and
:func:`chessrate.systems.elo.calculate.rate_tournament`. Decimals are compared by their text too, so that an
exponent (``1.08`` against ``1.080``) would show in the CSV.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.formats.model import Game, Kind, Player, ReadResult, Tournament
from chessrate.systems.elo.calculate import Game as CalcGame
from chessrate.systems.elo.calculate import rate_tournament
from chessrate.systems.elo.presets import resolve_rule_set
from chessrate.systems.elo.ruleset import CapMode, Rounding, RuleSet
from chessrate.systems.fide.k_factor import PlayerProfile
from chessrate.systems.fide.performance import fide_performance, initial_rating
from chessrate.tournament.report import CountedGame, counted_games, report_tournament

#: Scores as the readers write them (PGN: 1, ½, 0; a TRF's scoring may give other exponents).
SCORES = (Decimal(0), Decimal("0.5"), Decimal(1), Decimal("1.0"), Decimal("0.0"), Decimal("0.50"))
#: Days of each FIDE version kept (2014, 2022, 2024, 2025 rules), and the other presets.
DAYS = (dt.date(2015, 1, 1), dt.date(2023, 1, 1), dt.date(2024, 12, 1), dt.date(2025, 12, 1))


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    day = draw(st.sampled_from(DAYS))
    rules = resolve_rule_set(draw(st.sampled_from(("fide", "fide", "ciabe", "elo"))), as_of=day)
    rules = rules.with_cap(draw(st.sampled_from(tuple(CapMode))))
    return rules.with_rounding(draw(st.sampled_from(tuple(Rounding))))


@st.composite
def tournaments(draw: st.DrawFn) -> Tournament:
    count = draw(st.integers(2, 9))
    ratings = st.one_of(st.none(), st.integers(1000, 2900), st.sampled_from((0, 4000, 2650, 2649)))
    players = tuple(
        Player(
            number=number,
            name=f"P{number}",
            rating=draw(ratings),
            birth_year=draw(st.one_of(st.none(), st.integers(1950, 2015))),
        )
        for number in range(1, count + 1)
    )
    games = []
    for line in range(draw(st.integers(0, 30))):
        white, black = draw(st.integers(1, count)), draw(st.integers(1, count))
        score = draw(st.one_of(st.none(), st.sampled_from(SCORES)))
        rated = score is not None and draw(st.booleans())
        games.append(
            Game(
                round=draw(st.one_of(st.none(), st.integers(1, 9))),
                white=white,
                black=black,
                white_score=score,
                black_score=None if score is None else Decimal(1) - score,
                kind=Kind.PLAYED if rated else Kind.FORFEIT,
                counts_for_rating=rated,
                code="1-0",
                line=line + 1,
                white_rating=players[white - 1].rating,
                black_rating=players[black - 1].rating,
            )
        )
    return Tournament(source_format="PGN", players=players, games=tuple(games))


def figures(value: Any) -> Any:
    """A value with its decimals as text (their exponent counts)."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [figures(item) for item in value]
    return value


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_games_indexed_once_are_each_players_rated_games(tournament: Tournament) -> None:
    by_player = counted_games(tournament)
    for player in tournament.players:
        expected = [
            (game.round, game.opponent, game.opponent_rating, game.score, game.line)
            for game in tournament.rated_games(player.number)
        ]
        games = by_player.get(player.number, [])
        assert [tuple(game[:5]) for game in games] == expected
        assert all(len(game) == len(CountedGame._fields) and game.expected is None for game in games)


@settings(max_examples=300, deadline=None)
@given(tournaments(), rule_sets(), st.one_of(st.none(), st.integers(5, 40)))
def test_report_equals_the_scalar_path_player_by_player(
    tournament: Tournament, rules: RuleSet, k: int | None
) -> None:
    if rules.k_policy is None and k is None:
        k = 20  # plain Elo needs one
    report = report_tournament(ReadResult(tournament), rules=rules, as_of=DAYS[0], k_for_everyone=k)
    for player, line in zip(tournament.players, report.players, strict=True):
        assert all(len(game) == len(CountedGame._fields) for game in line.rated_games)
        played = tournament.rated_games(player.number)
        against_rated = [game for game in played if game.opponent_rating is not None]
        games = [CalcGame(Decimal(game.opponent_rating or 0), game.score) for game in against_rated]
        score = sum((game.score or Decimal(0) for game in against_rated), Decimal(0))
        opponents = [game.opponent for game in games]
        assert (line.games, line.games_against_unrated) == (len(games), len(played) - len(games))
        assert figures(line.score) == figures(score)
        assert line.performance == (fide_performance(opponents, score) if games else None)
        assert [game[:5] for game in line.rated_games] == [
            (game.round, game.opponent, game.opponent_rating, game.score, game.line) for game in against_rated
        ]
        if player.rating is None:
            initial = initial_rating(opponents, score, rules=rules.fide) if rules.fide else None
            assert line.initial == initial
            continue
        if not games:
            assert (line.change, line.rounded_change, line.new_rating) == (
                Decimal(0),
                0,
                Decimal(player.rating),
            )
            continue
        profile = PlayerProfile(birth_year=player.birth_year) if player.birth_year else None
        working = rate_tournament(Decimal(player.rating), games, rules=rules, k=k, profile=profile).period
        assert line.k == working.k
        assert figures([line.expected, line.change, line.new_rating]) == figures(
            [working.expected, working.change, working.new_rating]
        )
        assert line.rounded_change == working.rounded_change
        worked = working.events[0].games
        assert line.capped_games == sum(1 for game in worked if game.capped)
        assert figures([game[5:] for game in line.rated_games]) == figures(
            [(w.raw_difference, w.difference, w.capped, w.expected, w.change) for w in worked]
        )
