"""The numpy engine's refusals (chessrate.bulk) and the rule set chosen on a form are codes with
their values (issue 24, docs/codes.md): each raised for real carries its code, the English catalog
says the very sentence it raises, and Spanish and Catalan say it in their own words."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable

import pytest

from chessrate.bulk import half_points, k_factors, rate_elo_period, rate_glicko2_period
from chessrate.service.language import translator
from chessrate.service.options import OptionInputs, resolve_options
from chessrate.service.problems import Problems
from chessrate.systems.elo.presets import PLAIN_ELO, resolve_rule_set

from .refusal_words import assert_said_in_three_languages

DAY = dt.date(2025, 6, 1)
FIDE = resolve_rule_set("fide", as_of=DAY)
TWO = [1500, 1500]


def _elo(
    white: object = (0,), black: object = (1,), half: object = (2,), ratings: object = TWO, **more: object
) -> object:
    return rate_elo_period(white, black, half, ratings, rules=FIDE, **more)  # type: ignore[arg-type]


def _glicko2(
    rating: object = (1500.0, 1500.0),
    deviation: object = (350.0, 350.0),
    volatility: object = (0.06, 0.06),
    **more: object,
) -> object:
    return rate_glicko2_period([0], [1], [2], rating, deviation, volatility, **more)  # type: ignore[arg-type]


#: Each refusal raised for real: its code, and what it says in English (as raised), Spanish and
#: Catalan. Games and players are counted from 0, as the engine's arrays index them.
CASES: dict[str, tuple[Callable[[], object], str, str, str, str]] = {
    "a score of 0.3": (
        lambda: half_points([0.3]),
        "bulk-score",
        "game 0: a score is 1, 0.5 or 0",
        "partida 0: un resultado es 1, 0,5 o 0",
        "partida 0: un resultat és 1, 0,5 o 0",
    ),
    "players as floats": (
        lambda: _elo(white=[0.0]),
        "bulk-whole-array",
        "a one-dimensional array of whole numbers",
        "una lista de una dimensión de números enteros",
        "una llista d’una dimensió de nombres enters",
    ),
    "two Blacks for one White": (
        lambda: _elo(black=[1, 0]),
        "bulk-per-game",
        "one value per game (1)",
        "un valor por partida (1)",
        "un valor per partida (1)",
    ),
    "a negative player": (
        lambda: _elo(white=[-1]),
        "bulk-index-negative",
        "game 0: cannot be negative",
        "partida 0: no puede ser negativo",
        "partida 0: no pot ser negatiu",
    ),
    "two scores for one game": (
        lambda: _elo(half=[2, 2]),
        "bulk-whole-per-game",
        "one whole number per game (1)",
        "un número entero por partida (1)",
        "un nombre enter per partida (1)",
    ),
    "three half points": (
        lambda: _elo(half=[3]),
        "bulk-half-points",
        "game 0: 0, 1 or 2 half points",
        "partida 0: 0, 1 o 2 medios puntos",
        "partida 0: 0, 1 o 2 mitjos punts",
    ),
    "a player against themself": (
        lambda: _elo(black=[0]),
        "bulk-own-opponent",
        "game 0: a player cannot play themself",
        "partida 0: un jugador no puede jugar contra sí mismo",
        "partida 0: un jugador no pot jugar contra si mateix",
    ),
    "a player past the ratings": (
        lambda: _elo(black=[5]),
        "bulk-player-unknown",
        "game 0: only 2 players rated",
        "partida 0: solo se calculan 2 jugadores",
        "partida 0: només se’n calculen 2 jugadors",
    ),
    "ratings in two dimensions": (
        lambda: _elo(ratings=[TWO]),
        "bulk-rating-per-player",
        "one rating per player",
        "un Elo por jugador",
        "un Elo per jugador",
    ),
    "two White ratings for one game": (
        lambda: _elo(white_rating=TWO),
        "bulk-rating-per-game",
        "one per game (1)",
        "uno por partida (1)",
        "un per partida (1)",
    ),
    "a rating with a fraction": (
        lambda: _elo(ratings=[1500.5, 1500]),
        "bulk-whole-ratings",
        "the bulk engine rates whole-number ratings",
        "el motor masivo calcula Elo enteros",
        "el motor massiu calcula Elo enters",
    ),
    "an Elo above 4000": (  # chessrate.parse: MIN_RATING 0, MAX_RATING 4000
        lambda: _elo(ratings=[4001, 1500]),
        "bulk-rating-range",
        "a rating is between 0 and 4000",
        "un Elo está entre 0 y 4000",
        "un Elo és entre 0 i 4000",
    ),
    "an Elo period's K for one player of two": (
        lambda: _elo(k=[20]),
        "bulk-k-per-player",
        "one whole number per player (2)",
        "un número entero por jugador (2)",
        "un nombre enter per jugador (2)",
    ),
    "a K of 0": (
        lambda: _elo(k=[0, 20]),
        "bulk-k-positive",
        "player 0: K is a whole number above zero",
        "jugador 0: K es un número entero mayor que cero",
        "jugador 0: K és un nombre enter més gran que zero",
    ),
    "a birth year for one player of two": (
        lambda: k_factors(TWO, rules=FIDE, birth_year=[2000]),
        "bulk-profile-per-player",
        "one whole number per player (2), -1 if unknown",
        "un número entero por jugador (2), -1 si no se sabe",
        "un nombre enter per jugador (2), -1 si no se sap",
    ),
    "plain Elo's K not given": (
        lambda: k_factors(TWO, rules=PLAIN_ELO),
        "rules-need-k",
        "the rule set 'elo' needs K to be given",
        "el reglamento «elo» necesita que se indique la K",
        "el reglament «elo» necessita que s’indiqui la K",
    ),
    "a Glicko-2 rating above 4000": (
        lambda: _glicko2(rating=[4001.0, 1500.0]),
        "bulk-player-rating-range",
        "player 0: a rating is between 0 and 4000",
        "jugador 0: un Elo está entre 0 y 4000",
        "jugador 0: un Elo és entre 0 i 4000",
    ),
    "one deviation for two players": (
        lambda: _glicko2(deviation=[350.0]),
        "bulk-per-player",
        "one value per player",
        "un valor por jugador",
        "un valor per jugador",
    ),
    "a rating not a number": (
        lambda: _glicko2(rating=[math.nan, 1500.0]),
        "bulk-finite",
        "player 0: a finite number",
        "jugador 0: un número finito",
        "jugador 0: un nombre finit",
    ),
    "a deviation not a number": (
        lambda: _glicko2(deviation=[math.nan, 350.0]),
        "bulk-finite",
        "player 0: a finite number",
        "jugador 0: un número finito",
        "jugador 0: un nombre finit",
    ),
    "a deviation of 0": (  # below glicko2.LEAST_DEVIATION, as 0.5 is
        lambda: _glicko2(deviation=[0.0, 350.0]),
        "bulk-deviation-range",
        "player 0: an RD is between 1 and 500",
        "jugador 0: una RD está entre 1 y 500",
        "jugador 0: una RD és entre 1 i 500",
    ),
    "tau 0": (  # glicko2.pdf Step 1: "reasonable choices are between 0.3 and 1.2"
        lambda: _glicko2(tau=0.0),
        "bulk-setting-range",
        "must be a number from 0.3 to 1.2",
        "debe ser un número de 0,3 a 1,2",
        "ha de ser un nombre de 0,3 a 1,2",
    ),
    "epsilon 0": (
        lambda: _glicko2(epsilon=0.0),
        "bulk-setting-positive",
        "must be a finite number above zero",
        "debe ser un número finito mayor que cero",
        "ha de ser un nombre finit més gran que zero",
    ),
    "no iterations": (
        lambda: _glicko2(max_iterations=0),
        "whole-at-least-one",
        "a whole number of at least 1",
        "un número entero de 1 o más",
        "un nombre enter d’1 o més",
    ),
    # glicko2.LEAST_DEVIATION, MOST_DEVIATION: the Lichess form's bounds (the Glicko-2 form's end at
    # 350, glicko1.MAX_DEVIATION; a list's idle player's RD grows past 350 under Step 6).
    "an RD of 1e200": (
        lambda: _glicko2(deviation=[350.0, 1e200]),
        "bulk-deviation-range",
        "player 1: an RD is between 1 and 500",
        "jugador 1: una RD está entre 1 y 500",
        "jugador 1: una RD és entre 1 i 500",
    ),
    "a volatility of 2": (
        lambda: _glicko2(volatility=[0.06, 2.0]),
        "bulk-volatility-range",
        "player 1: a volatility is between 0.001 and 1",
        "jugador 1: una volatilidad está entre 0,001 y 1",
        "jugador 1: una volatilitat és entre 0,001 i 1",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_bulk_refusal_is_a_code_said_in_three_languages(case: str) -> None:
    assert_said_in_three_languages(*CASES[case])


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "not a rule set we know: use fide, fide-rapid, fide-blitz, elo or ciabe, or a club's own rules",
        ),
        (
            "es",
            "no es un reglamento conocido: usa fide, fide-rapid, fide-blitz, elo o ciabe, o las reglas "
            "propias de un club",
        ),
        (
            "ca",
            "no és un reglament conegut: fes servir fide, fide-rapid, fide-blitz, elo o ciabe, o les "
            "regles pròpies d’un club",
        ),
    ],
)
def test_a_rule_set_not_on_the_form_is_said_in_its_language(language: str, said: str) -> None:
    problems = Problems(translator(language))
    assert resolve_options(OptionInputs(rules="nosuch"), problems, today=DAY) is None
    problem = problems.errors[("rules",)]
    assert problem.said == said
    assert problem.reason == (
        "not a rule set we know: use fide, fide-rapid, fide-blitz, elo or ciabe, or a club's own rules"
    )
    assert problem.message == problems.t.gettext("Choose a rule set from the list.")
