"""The calculators' pages and API on bad or incomplete input, in Spanish and Catalan: each problem
under its own field, said from its own reason (never a 500, never English, never another field's
message), and the answers' words in the page's language.

Published values: US Chess's "Approximating Formulas" worked case; FIDE's calculator for the 2022
initial-rating rule ([FIDE-CALC] F-I01); FIDE B.02 8.3.3 (the 700 rule).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

GAME = {"opponent": 1400, "deviation": 30, "result": 1}


def problems(
    client: TestClient, path: str, body: dict[str, Any], language: str = "es"
) -> list[dict[str, Any]]:
    response = client.post(path, json=body, headers={"Accept-Language": language})
    assert response.status_code == 422, response.text
    detail: list[dict[str, Any]] = response.json()["detail"]
    return detail


def answer(client: TestClient, path: str, body: dict[str, Any], language: str = "es") -> Any:
    response = client.post(path, json=body, headers={"Accept-Language": language})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.mark.parametrize(
    ("path", "body", "field", "reason"),
    [
        # A square that underflows was a 500 (math domain error, ZeroDivisionError).
        (
            "/api/glicko",
            {"system": "glicko2", "rating": 1500, "deviation": 200, "volatility": 1e-320, "games": [GAME]},
            "volatility",
            "must be at least 0.001",
        ),
        (
            "/api/glicko",
            {"system": "glicko2", "rating": 1500, "deviation": 200, "tau": 1e-300, "games": [GAME]},
            "tau",
            "must be at least 0.3",  # glicko2.pdf Step 1: "between 0.3 and 1.2"
        ),
        (
            "/api/chesscom",
            {"rating": 1500, "deviation": 1e-320, "games": [GAME]},
            "deviation",
            "must be at least 1",
        ),
        (
            "/api/stakes",
            {"system": "glicko2", "rating": 1500, "opponent": 1700, "volatility": 1e-320},
            "volatility",
            "must be at least 0.001",
        ),
        # The largest RD: 350 for the papers and the Chess.com estimate (glicko.pdf Step 1).
        (
            "/api/chesscom",
            {"rating": 1500, "deviation": 1e6, "games": [GAME]},
            "deviation",
            "must be at most 350",
        ),
        (
            "/api/stakes",
            {"system": "glicko2", "rating": 1500, "opponent": 1700, "deviation": 1e6},
            "deviation",
            "must be at most 350",
        ),
        # An age above 120 is the age's problem, not the rating's.
        (
            "/api/dwz",
            {"rating": 1000, "age": 200, "index": 1, "games": [{"opponent": 1200, "result": 1}]},
            "age",
            "must be at most 120",
        ),
        (
            "/api/stakes",
            {"system": "dwz", "rating": 1000, "opponent": 1200, "age": 15, "index": 1, "opponent_age": 500},
            "opponent_age",
            "must be at most 120",
        ),
        # A US Chess rating without its games played was rated as unrated (1500 beating 1400: 1800).
        (
            "/api/uscf",
            {"rating": 1500, "games": [{"opponent": 1400, "result": 1}]},
            "games_played",
            "a rated player's games played are needed: they weigh the rating (0 only for an unrated player)",
        ),
        (
            "/api/game",
            {"rating": 1500, "opponent": 1700, "result": "0-1"},
            "result",
            "a result with colours says White's score: write 1, ½ or 0 from the player's side",
        ),
    ],
)
def test_each_problem_under_its_own_field(
    client: TestClient, path: str, body: dict[str, Any], field: str, reason: str
) -> None:
    for language in ("es", "ca"):
        (problem,) = problems(client, path, body, language)
        assert problem["loc"] == ["body", field]
        assert problem["ctx"]["reason"] == reason
        assert "Elo" not in problem["msg"]


def test_the_spanish_says_the_bound(client: TestClient) -> None:
    body = {"system": "glicko2", "rating": 1500, "deviation": 200, "volatility": 1e-320, "games": [GAME]}
    assert problems(client, "/api/glicko", body)[0]["msg"] == "Revisa este valor: debe ser al menos 0,001"
    body = {"rating": 1000, "age": 200, "index": 1, "games": [{"opponent": 1200, "result": 1}]}
    assert problems(client, "/api/dwz", body)[0]["msg"] == (
        "Escribe la edad en años cumplidos, de 0 a 120, como 15."
    )


def test_a_glicko_page_with_a_value_too_small(client: TestClient) -> None:
    query = "system=glicko2&rating=1500&deviation=200&volatility=1e-320&games-0-opponent=1400"
    page = client.get(f"/glicko?{query}&games-0-deviation=30&games-0-result=1&lang=ca")
    assert page.status_code == 200
    assert "Revisa aquest valor: ha de ser com a mínim 0,001" in page.text


def test_a_us_chess_rating_with_its_games(client: TestClient) -> None:
    # Approximating Formulas: a 1500 based on 6 games meets 1400, 1550, 1650: W, L, D -> 1511.
    games = [{"opponent": o, "result": s} for o, s in [(1400, 1), (1550, 0), (1650, "½")]]
    assert (
        answer(client, "/api/uscf", {"rating": 1500, "games_played": 6, "games": games})["published_rating"]
        == 1511
    )
    detail = problems(client, "/api/uscf", {"rating": 1500, "games_played": 0, "games": games})
    assert detail[0]["loc"] == ["body", "games_played"]


def test_too_many_rows_says_the_rows_limit(client: TestClient) -> None:
    # The games field of a tournament is its rows (at most 60), not a count from 1 to 10,000.
    body = {"rating": 1500, "games": [{"opponent": 1400, "result": 1}] * 500}
    (problem,) = problems(client, "/api/tournament", body)
    assert (problem["ctx"]["reason"], problem["msg"]) == (
        "at most 60 games",
        "Revisa este valor: como mucho 60 partidas",
    )
    body = {"rating": 1500, "events": [{"games": [{"opponent": 1400, "result": 1}]}] * 13}
    (problem,) = problems(client, "/api/period", body, "ca")
    assert problem["msg"] == "Revisa aquest valor: com a màxim 12 tornejos"


def test_club_rules_said_in_the_language(client: TestClient) -> None:
    body = {"rating": 1500, "opponent": 1700, "result": 1, "rules": "custom", "rules_toml": "x" * 20_001}
    (problem,) = problems(client, "/api/game", body)
    assert problem["msg"] == "No se han podido leer las reglas del club: más de 20000 caracteres"
    body["rules_toml"] = 'name = "club"\nthis is not toml\n'
    (problem,) = problems(client, "/api/game", body, "ca")
    assert problem["msg"] == (
        "No s’han pogut llegir les regles del club: la línia 2, columna 6, no és TOML vàlid (una clau = "
        "valor per línia, el text entre cometes)"
    )


def test_the_rules_in_the_language_and_by_id(client: TestClient) -> None:
    data = answer(client, "/api/game", {"rating": 1500, "opponent": 1700, "result": 1, "as_of": "2025-12-01"})
    assert data["rules"] == data["rule_set"]["title"] == "Reglas FIDE del 1 de octubre de 2025"
    assert data["rules_id"] == "FIDE 2025-10-01"


def test_the_chesscom_note_says_what_was_used(client: TestClient) -> None:
    given = answer(client, "/api/chesscom", {"rating": 1500, "deviation": 80, "games": [GAME]})
    assert "la RD 80." in given["note"]
    assert "350" not in given["note"]
    level = answer(client, "/api/chesscom", {"level": "beginner", "games": [GAME]}, "ca")
    assert "la puntuació 800 i la RD 350" in level["note"]
    assert "«Principiant»" in level["note"]


@pytest.mark.parametrize(
    ("language", "words"), [("es", "con la regla de los 700"), ("ca", "amb la regla dels 700")]
)
def test_the_700_rule_article_once_in_the_language(client: TestClient, language: str, words: str) -> None:
    # FIDE B.02 8.3.3: a junior's K 40 x 20 games exceeds 700, so K is 35.
    query = "rating=1900&birth_year=2010&rated_games=50&games_this_period=20&as_of=2025-12-01"
    page = client.get(f"/k-factor?{query}&lang={language}").text
    assert f"FIDE B.02 8.3.3, {words}" in page
    assert "(700 rule)" not in page
    body = {
        "rating": 1900,
        "birth_year": 2010,
        "rated_games": 50,
        "games_this_period": 20,
        "as_of": "2025-12-01",
    }
    data = answer(client, "/api/k-factor", body, language)
    assert (data["k"], data["article"]) == (35, f"FIDE B.02 8.3.3, {words}")


def test_initial_rating_before_2024_in_spanish(client: TestClient) -> None:
    # [FIDE-CALC] F-I01 (2022-24 rule): 3 of 5 against 2000 -> 2020: Ra + 20 per half point over 50 %.
    games = [{"opponent": 2000, "result": s} for s in (1, 1, 1, 0, 0)]
    data = answer(client, "/api/performance", {"games": games, "as_of": "2023-06-01"})["initial_rating"]
    assert data["rating"] == 2020
    assert data["dp_rule"] == "+20 por cada medio punto por encima del 50 % (FIDE B.02 8.2.3)"
    assert data["explanation"].startswith(
        "Ru = Ra + 20 por cada medio punto por encima del 50 % = 2000,00 + 1 × 20"
    )
    rows = "&".join(f"games-{i}-opponent=2000&games-{i}-result={s}" for i, s in enumerate((1, 1, 1, 0, 0)))
    page = client.get(f"/performance?{rows}&as_of=2023-06-01&lang=es").text
    assert "20 por cada medio punto por encima del 50" in page
    assert "tabla 8.1.1" not in page.split('id="initial"')[1].split("</dd>")[0]


@pytest.mark.parametrize(
    ("path", "extra", "system", "low", "high"),
    [
        # docs/systems.md, "Rating bounds": DWZ 1 to 3500 (Anhang 1.2 needs a positive DWZ), ECF
        # 0 to 3500, US Chess 100 (its absolute floor) to 3500; FIDE's 0 to 4000 is not theirs.
        ("/dwz", {"age": "30", "index": "3"}, "DWZ", "1", "3500"),
        ("/ecf", {}, "ECF", "0", "3500"),
        ("/uscf", {"games_played": "20"}, "US Chess", "100", "3500"),
    ],
)
def test_each_system_s_rating_fields_say_its_own_range(
    client: TestClient, path: str, extra: dict[str, str], system: str, low: str, high: str
) -> None:
    def errors(rating: str, opponent: str, language: str) -> dict[str, str]:
        data = {"lang": language, "rating": rating, "games-0-opponent": opponent, "games-0-result": "1"}
        page = client.post(path, data={**data, **extra}).text
        match = re.search(r"data-errors='([^']*)'", page)
        assert match
        return dict(json.loads(html.unescape(match.group(1))))

    said = {
        "en": "“{v}” is not a {system} rating: write a number from {low} to {high}, such as 1500.",
        "es": "«{v}» no es una puntuación {system}: escribe un número de {low} a {high}, por ejemplo 1500.",
        "ca": "«{v}» no és una puntuació {system}: escriu un nombre de {low} a {high}, per exemple 1500.",
    }
    for language, text in said.items():
        # Not a number, and a number past the system's top (but within FIDE's): the system's range.
        assert errors("abc", "1500", language) == {
            "rating": text.format(v="abc", system=system, low=low, high=high)
        }
        assert errors("3800", "1500", language) == {
            "rating": text.format(v="3800", system=system, low=low, high=high)
        }
        # An opponent out of range is the opponent's problem, not the player's rating's.
        opponent = errors("1500", "3800", language)
        assert opponent == {"games-0-opponent": text.format(v="3800", system=system, low=low, high=high)}
    # FIDE's pages keep FIDE's range.
    page = client.post("/game", data={"lang": "en", "rating": "abc", "opponent": "1500", "result": "1"}).text
    assert "“abc” is not a rating: write a number from 0 to 4000, such as 1500." in html.unescape(page)


@pytest.mark.parametrize(
    ("path", "extra"),
    [
        ("/glicko", {"system": "lichess", "deviation": "60"}),
        ("/glicko", {"system": "glicko2", "deviation": "60"}),
        ("/chesscom", {"deviation": "60"}),
    ],
)
def test_glicko_rating_fields_do_not_call_the_rating_an_elo(
    client: TestClient, path: str, extra: dict[str, str]
) -> None:
    """A Glicko rating (Lichess, Glicko-2, Chess.com) typed wrong is named as a Glicko rating, in
    the range the parser takes (chessrate.parse.parse_rating: 0 to 4000), never as an Elo."""
    said = {
        "en": "“abc” is not a Glicko rating: write a number from 0 to 4000, such as 1500.",
        "es": "«abc» no es una puntuación Glicko: escribe un número de 0 a 4000, por ejemplo 1500.",
        "ca": "«abc» no és una puntuació Glicko: escriu un nombre de 0 a 4000, per exemple 1500.",
    }
    for language, text in said.items():
        page = client.post(path, data={"lang": language, "rating": "abc", **extra}).text
        match = re.search(r"data-errors='([^']*)'", page)
        assert match
        assert json.loads(html.unescape(match.group(1))) == {"rating": text}
