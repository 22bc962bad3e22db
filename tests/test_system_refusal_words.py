"""The rating systems' refusals, the rule sets' and the last few of the faces are codes with their
values (issue 24, docs/codes.md): each raised for real carries its code, the English catalog says
the very sentence it raises, and Spanish and Catalan say it in their own words."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi import FastAPI

from chessrate.cli.fetch_options import fetched_games
from chessrate.cli.files import checked_file
from chessrate.service.language import ENGLISH, translator
from chessrate.service.problems import input_reason
from chessrate.systems.dwz import rating as dwz
from chessrate.systems.ecf import rating as ecf
from chessrate.systems.elo.calculate import Event, Game, rate_against_average, rate_period, rate_tournament
from chessrate.systems.elo.presets import PLAIN_ELO, resolve_rule_set
from chessrate.systems.fide.performance import fide_performance
from chessrate.systems.fide.regulations import rules_in_force
from chessrate.systems.fide.tables import rating_difference
from chessrate.systems.glicko import glicko1, glicko2, lichess
from chessrate.systems.uscf import rating as uscf
from chessrate.web.ratinglist_pages import mount_rating_list

from .refusal_words import assert_said_in_three_languages

ONE = Decimal(1)
GAME = [Game(Decimal(1400), ONE)]
DAY = dt.date(2025, 6, 1)


def _lichess_game_scored_two() -> object:
    player = lichess.LichessRating(1500, 200, 0.06)
    return lichess.rate_game(player, player, 2.0)


#: Each refusal raised for real (tmp_path: a folder of the test's own): its code, and what it says
#: in English (as raised), Spanish and Catalan.
CASES: dict[str, tuple[Callable[[Path], object], str, str, str]] = {
    "tournament-no-games": (
        lambda _: rate_tournament(Decimal(1500), [], rules=PLAIN_ELO, k=20),
        "a tournament needs at least one game",
        "un torneo necesita al menos una partida",
        "un torneig necessita almenys una partida",
    ),
    "points-or-results": (
        lambda _: rate_tournament(Decimal(1500), GAME, rules=PLAIN_ELO, k=20, points=ONE),
        "give per-game results or total points",
        "indica el resultado de cada partida o el total de puntos, no los dos",
        "indica el resultat de cada partida o el total de punts, no tots dos",
    ),
    "points-at-most": (
        lambda _: rate_tournament(
            Decimal(1500), [Game(Decimal(1400))], rules=PLAIN_ELO, k=20, points=Decimal(2)
        ),
        "points are between 0 and 1",
        "los puntos van de 0 a 1",
        "els punts van de 0 a 1",
    ),
    "events-no-games": (
        lambda _: rate_period(Decimal(1500), [], rules=PLAIN_ELO, k=20),
        "every tournament needs at least one game",
        "cada torneo necesita al menos una partida",
        "cada torneig necessita almenys una partida",
    ),
    "period-result-needed": (
        lambda _: rate_period(Decimal(1500), [Event((Game(Decimal(1400)),))], rules=PLAIN_ELO, k=20),
        "every game of a period needs a result",
        "cada partida de un periodo necesita un resultado",
        "cada partida d’un període necessita un resultat",
    ),
    "games-none": (
        lambda _: ecf.rate(1500, []),
        "at least one game",
        "al menos una partida",
        "almenys una partida",
    ),
    "points-of-games": (
        lambda _: rate_against_average(
            Decimal(1500), games=2, points=Decimal(3), average=Decimal(1500), rules=PLAIN_ELO, k=20
        ),
        "points are between 0 and the 2 games",
        "los puntos van de 0 a las 2 partidas",
        "els punts van de 0 a les 2 partides",
    ),
    "rules-need-k": (
        lambda _: rate_tournament(Decimal(1500), GAME, rules=PLAIN_ELO),
        "the rule set 'elo' needs K to be given",
        "el reglamento «elo» necesita que se indique la K",
        "el reglament «elo» necessita que s’indiqui la K",
    ),
    "rules-known-from": (
        # The oldest version kept, docs/fide.md: 1 July 2008.
        lambda _: rules_in_force(dt.date(2000, 1, 1)),
        "standard rules are known from 2008-07-01 on",
        "las reglas de la lista estándar se conocen a partir del 2008-07-01",
        "les regles de la llista estàndard es coneixen a partir del dia 2008-07-01",
    ),
    "performance-no-games": (
        lambda _: fide_performance([], Decimal(0)),
        "a performance needs at least one game",
        "un rendimiento necesita al menos una partida",
        "un rendiment necessita almenys una partida",
    ),
    "fractional-score": (
        lambda _: rating_difference(Decimal("1.5")),
        "p is between 0 and 1",
        "p está entre 0 y 1",
        "p és entre 0 i 1",
    ),
    "dwz-no-games": (
        lambda _: dwz.rate(1500, [], age=30, index=5),
        "an evaluation needs at least one game",
        "una evaluación necesita al menos una partida",
        "una avaluació necessita almenys una partida",
    ),
    "dwz-index": (
        lambda _: dwz.rate(1500, [dwz.DwzGame(1500, 1.0)], age=30, index=-1),
        "the Index counts previous evaluations: 0 or more",
        "el índice cuenta las evaluaciones anteriores: 0 o más",
        "l’índex compta les avaluacions anteriors: 0 o més",
    ),
    "ecf-grade": (
        lambda _: ecf.rating_from_grade(Decimal(-1)),
        "an ECF grade is 0 or more",
        "un grado ECF es 0 o más",
        "un grau ECF és 0 o més",
    ),
    "games-count": (
        lambda _: uscf.k_factor(-1.0, 4),
        "a number of games, 0 or more",
        "un número de partidas, 0 o más",
        "un nombre de partides, 0 o més",
    ),
    "event-no-games": (
        lambda _: uscf.rate_event(1500, [], games_played=30, event_end=DAY),
        "an event needs at least one game",
        "un torneo necesita al menos una partida",
        "un torneig necessita almenys una partida",
    ),
    "whole-not-negative": (
        lambda _: uscf.rate_event(1500, [uscf.UscfGame(1500, 1)], games_played=-1, event_end=DAY),
        "a whole number, 0 or more",
        "un número entero, 0 o más",
        "un nombre enter, 0 o més",
    ),
    "score-range": (
        lambda _: _lichess_game_scored_two(),
        "a score is between 0 (loss) and 1 (win)",
        "un resultado va de 0 (derrota) a 1 (victoria)",
        "un resultat va de 0 (derrota) a 1 (victòria)",
    ),
    "deviation-grows": (
        lambda _: glicko1.c_for_growth(350, 50, 100),
        "RD only grows while idle",
        "la RD solo crece mientras no se juega",
        "la RD només creix mentre no es juga",
    ),
    "own-opponent": (
        lambda _: glicko2.PeriodGame("a", "a", 1.0),
        "a player cannot play themself",
        "un jugador no puede jugar contra sí mismo",
        "un jugador no pot jugar contra si mateix",
    ),
    "whole-at-least-one": (
        lambda _: glicko2.rate_whole_period({}, [], max_iterations=0),
        "a whole number of at least 1",
        "un número entero de 1 o más",
        "un nombre enter d’1 o més",
    ),
    "no-start-rating": (
        lambda _: glicko2.rate_whole_period({}, [glicko2.PeriodGame("a", "b", 1.0)]),
        "has no rating at the period start",
        "no tiene puntuación al inicio del periodo",
        "no té puntuació a l’inici del període",
    ),
    "lichess-deviation-bounds": (
        lambda _: lichess.check_deviation("deviation", 600.0),
        "a Lichess RD is from 45 to 500 (lila's bounds)",
        "una RD de Lichess va de 45 a 500 (los límites de lila)",
        "una RD de Lichess va de 45 a 500 (els límits de lila)",
    ),
    "rules-unknown-name": (
        lambda _: resolve_rule_set("nosuch", as_of=DAY),
        "unknown rule set 'nosuch': use one of fide, fide-rapid, fide-blitz, elo, ciabe, "
        "or a club's .toml file",
        "reglamento desconocido «nosuch»: usa uno de fide, fide-rapid, fide-blitz, elo, ciabe "
        "o el archivo .toml de un club",
        "reglament desconegut «nosuch»: fes servir un de fide, fide-rapid, fide-blitz, elo, ciabe "
        "o el fitxer .toml d’un club",
    ),
    "rules-file-unreadable": (
        lambda tmp_path: resolve_rule_set(str(tmp_path / "club.toml"), as_of=DAY),
        "cannot read rule set file '{tmp}/club.toml': no such file or folder",
        "no se puede leer el archivo de reglamento '{tmp}/club.toml': no existe ese archivo ni carpeta",
        "no es pot llegir el fitxer de reglament '{tmp}/club.toml': no existeix aquest fitxer ni carpeta",
    ),
    "admin-password-short": (
        lambda tmp_path: mount_rating_list(
            FastAPI(), db=str(tmp_path / "list.db"), admin_password="short", session_minutes=30
        ),
        "an admin password has at least 12 characters",
        "una contraseña de administración tiene al menos 12 caracteres",
        "una contrasenya d’administració té almenys 12 caràcters",
    ),
    "not-a-file": (
        lambda tmp_path: checked_file(tmp_path, "file"),
        "not a regular file (a device, a pipe or a folder)",
        "no es un archivo normal (es un dispositivo, una tubería o una carpeta)",
        "no és un fitxer normal (és un dispositiu, un conducte o una carpeta)",
    ),
    "file-too-large": (
        lambda tmp_path: checked_file(Path(__file__), "file", 10),
        "larger than 10 bytes",
        "más de 10 bytes",
        "més de 10 bytes",
    ),
    "fetch-two-platforms": (
        lambda _: fetched_games(None, "alice", "bob", "", "", ""),
        "give --lichess or --chesscom, not both",
        "indica --lichess o --chesscom, no los dos",
        "indica --lichess o --chesscom, no tots dos",
    ),
    "games-source-needed": (
        lambda _: fetched_games(None, None, None, "", "", ""),
        "give a PGN file, --lichess USER or --chesscom USER",
        "indica un archivo PGN, --lichess USER o --chesscom USER",
        "indica un fitxer PGN, --lichess USER o --chesscom USER",
    ),
    "games-source-both": (
        lambda tmp_path: fetched_games(tmp_path / "games.pgn", None, "bob", "", "", ""),
        "give a PGN file or --chesscom, not both",
        "indica un archivo PGN o --chesscom, no los dos",
        "indica un fitxer PGN o --chesscom, no tots dos",
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_is_a_code_said_in_three_languages(code: str, tmp_path: Path) -> None:
    refuse, *words = CASES[code]
    english, spanish, catalan = (text.replace("{tmp}", str(tmp_path)) for text in words)
    assert_said_in_three_languages(lambda: refuse(tmp_path), code, english, spanish, catalan)


def test_the_standard_rating_refusal_is_said_in_three_languages() -> None:
    """Raised by the request layer beside its own field (chessrate.service.elo), not by a system."""
    code = "standard-rating-rapid-only"
    assert input_reason(code, {}, "", ENGLISH) == (
        "a standard rating counts only for a rapid or blitz tournament from 1 March 2024 "
        "(FIDE rapid and blitz 7.2.1)"
    )
    assert input_reason(code, {}, "", translator("es")) == (
        "un Elo estándar solo cuenta en un torneo de partidas rápidas o relámpago desde el 1 de marzo de "
        "2024 (FIDE, partidas rápidas y relámpago 7.2.1)"
    )
    assert input_reason(code, {}, "", translator("ca")) == (
        "un Elo estàndard només compta en un torneig de partides ràpides o llampec des de l’1 de març de "
        "2024 (FIDE, partides ràpides i llampec 7.2.1)"
    )
