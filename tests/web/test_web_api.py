"""The JSON API: every endpoint, against published values, and bad input answered 422 naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

CIABE_OPPONENTS = [1500, 1600, 1700, 1800, 1900, 2000]
GUIDE_GAMES = [
    {"opponent": 1400, "result": 1},
    {"opponent": 1600, "result": "½"},
    {"opponent": 1550, "result": "0"},
]


def post(client: TestClient, path: str, body: dict[str, Any], **headers: str) -> Any:
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_game_guide_worked_example(client: TestClient) -> None:
    # [ELO-GUIDE]: 1500 v 1700, K 20: "la diferencia es de 200 puntos, así que tu puntuación esperada
    # es ... 0,24";
    # a draw gains 20 x (0.5 - 0.24) = 5.2.
    data = post(client, "/api/game", {"rating": 1500, "opponent": 1700, "result": "tablas", "k": 20})
    assert data["games"][0]["expected"] == 0.24
    assert data["change"] == pytest.approx(5.2)
    assert data["new_rating"] == 1505
    assert data["k"] == 20
    assert "stronger" in data["games"][0]["explanation"]


@pytest.mark.parametrize(
    ("cap", "result", "change"),
    [
        pytest.param("on", 1, 1.8, id="guide-cap-win-+1.8"),
        pytest.param("off", 1, 1.1, id="guide-nocap-win-+1.1"),
        pytest.param("on", 0, -18.2, id="guide-cap-loss--18.2"),
        pytest.param("off", 0, -18.9, id="guide-nocap-loss--18.9"),
    ],
)
def test_game_guide_cap_example(client: TestClient, cap: str, result: int, change: float) -> None:
    # [ELO-GUIDE]: "un jugador de 1500 gana a un rival de 1000 ... con el límite ... +1,8" (formula, K 20).
    data = post(
        client,
        "/api/game",
        {"rating": 1500, "opponent": 1000, "result": result, "k": 20, "rules": "elo", "cap": cap},
    )
    assert round(data["change"], 1) == change
    assert data["games"][0]["capped"] is (cap == "on")


def test_tournament_ciabe_ciabe(client: TestClient) -> None:
    # [CIABE]: 1800, opponents 1500..2000, 4.5 points: We 3.35, K 15, 15 x (4.5 - 3.35) = 17.25 -> 1817.
    body = {"rating": 1800, "games": [{"opponent": r} for r in CIABE_OPPONENTS], "points": "4,5"}
    data = post(client, "/api/tournament", {**body, "rules": "ciabe"})
    assert data["expected"] == pytest.approx(3.35)
    assert data["k"] == 15
    assert data["change"] == pytest.approx(17.25)
    assert data["new_rating"] == 1817
    assert [game["expected"] for game in data["games"]] == [0.85, 0.76, 0.64, 0.5, 0.36, 0.24]
    # Table 8.1.1: p = 0.75 -> dp 193, over the average opponent 1750.
    assert data["performance"] == 1943


def test_tournament_guide_three_games(client: TestClient) -> None:
    # [ELO-GUIDE]: K 20, 1500: +7.2, +2.8, -8.6, "En total son +1,4, así que el nuevo Elo es 1501".
    data = post(client, "/api/tournament", {"rating": 1500, "games": GUIDE_GAMES, "k": "20"})
    assert [game["change"] for game in data["games"]] == pytest.approx([7.2, 2.8, -8.6])
    assert data["change"] == pytest.approx(1.4)
    assert data["new_rating"] == 1501


def test_average_one_game_is_the_game(client: TestClient) -> None:
    # [ELO-CALC-ES]: R + K (P - G E); with G = 1 it is [ELO-GUIDE]'s single game: E 0.24, +5.2.
    data = post(
        client, "/api/average", {"rating": 1500, "games": 1, "points": "0,5", "average": 1700, "k": 20}
    )
    assert data["expected_per_game"] == 0.24
    assert data["change"] == pytest.approx(5.2)


def test_average_several_games(client: TestClient) -> None:
    # [CIABE]'s opponents average 1750 against 1800: D 50 -> PD .57 (table 8.1.2), 6 x .57 = 3.42.
    data = post(client, "/api/average", {"rating": 1800, "games": 6, "points": 4.5, "average": 1750, "k": 15})
    assert data["expected"] == pytest.approx(3.42)
    assert data["change"] == pytest.approx(15 * (4.5 - 3.42))


def test_period_rounds_once(client: TestClient) -> None:
    # [ELO-GUIDE]: FIDE adds the changes of every game of a period: +7.2 +2.8 (one event), -8.6 (another).
    body = {
        "rating": 1500,
        "k": 20,
        "events": [{"games": GUIDE_GAMES[:2]}, {"start_rating": 1500, "games": GUIDE_GAMES[2:]}],
    }
    data = post(client, "/api/period", body)
    assert [event["change"] for event in data["events"]] == pytest.approx([10.0, -8.6])
    assert data["rounded_change"] == 1
    assert data["new_rating"] == 1501


@pytest.mark.parametrize(
    ("body", "k", "cut"),
    [
        pytest.param(
            {"rating": 1800, "birth_year": 2010, "games_this_period": 20},
            35,
            True,
            id="guide-junior-20-games-K35",
        ),
        pytest.param(
            {"rating": 1800, "rated_games": 100, "games_this_period": 40},
            17,
            True,
            id="guide-adult-40-games-K17",
        ),
        pytest.param({"rating": 2100, "highest_rating": 2405}, 10, False, id="fide-8.3.3-reached-2400-K10"),
        pytest.param({"rating": 1600, "rated_games": 12}, 40, False, id="fide-8.3.3-new-player-K40"),
    ],
)
def test_k_factor(client: TestClient, body: dict[str, Any], k: int, cut: bool) -> None:
    data = post(client, "/api/k-factor", body)
    assert data["k"] == k
    assert data["cut_by_700_rule"] is cut


def test_performance_and_initial_rating_fide_published(client: TestClient) -> None:
    # [FIDE-CALC] F-N01, rule of [FIDE-RR-2024 §8.2]: opponents 1902, 1877, 1884, 2012, 1832, W = 3
    # -> first rating 1922 (Dec 2025 list).
    games = [
        {"opponent": r, "result": s}
        for r, s in zip([1902, 1877, 1884, 2012, 1832], [1, 1, 1, 0, 0], strict=True)
    ]
    data = post(client, "/api/performance", {"games": games})
    assert data["initial_rating"]["rating"] == 1922


def test_initial_rating_2022_rules(client: TestClient) -> None:
    # [FIDE-CALC] F-I01: FIDE's calculator, 2022-24 rule: "Rc:2000, W:3, N:5 ... Initial Rating: 2020".
    games = [{"opponent": 2000, "result": s} for s in [1, 1, 1, 0, 0]]
    data = post(client, "/api/performance", {"games": games, "as_of": "2023-06-01"})
    assert data["initial_rating"]["rating"] == 2020
    assert data["rules"] == "FIDE 2022-01-01"


def test_tables_and_curve(client: TestClient) -> None:
    # [ELO-GUIDE]: "con una diferencia de 400, la tabla da 0,92 en lugar de 0,91".
    tables = client.get("/api/tables").json()
    row = next(r for r in tables["table_8_1_2"] if r["from"] == 392)
    assert (row["to"], row["higher"], row["lower"]) == (411, 0.92, 0.08)
    assert {"p": 0.75, "dp": 193} in tables["table_8_1_1"]
    curve = client.get("/api/expected-curve").json()
    at_400 = curve["difference"].index(400.0)
    assert (curve["table"][at_400], round(curve["formula"][at_400], 2)) == (0.92, 0.91)


def detail(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 422, response.text
    return response.json()["detail"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        ("/api/game", {"rating": "abc", "opponent": 1500, "result": 1}, ["body", "rating"]),
        ("/api/game", {"rating": 1500, "opponent": 5000, "result": 1}, ["body", "opponent"]),
        ("/api/game", {"rating": 1500, "opponent": 1500, "result": "maybe"}, ["body", "result"]),
        ("/api/game", {"rating": 1500, "opponent": 1500, "result": 1, "k": "-3"}, ["body", "k"]),
        ("/api/game", {"rating": 1500, "opponent": 1500, "result": 1, "rules": "elo"}, ["body", "k"]),
        (
            "/api/game",
            {"rating": 1500, "opponent": 1500, "result": 1, "as_of": "2007-01-01"},
            ["body", "as_of"],
        ),
        (
            "/api/game",
            {"rating": 1500, "opponent": 1500, "result": 1, "rules": "custom", "rules_toml": "name = 3"},
            ["body", "rules_toml"],
        ),
        (
            "/api/game",
            {"rating": 1500, "opponent": 1500, "result": 1, "birth_year": 2999},
            ["body", "birth_year"],
        ),
        ("/api/average", {"rating": 1500, "games": 0, "points": 0, "average": 1500}, ["body", "games"]),
        ("/api/average", {"rating": 1500, "games": 3, "points": 4, "average": 1500}, ["body", "points"]),
        (
            "/api/tournament",
            {"rating": 1500, "games": [{"opponent": 1500, "result": 1}, {"opponent": "x", "result": 1}]},
            ["body", "games", 1, "opponent"],
        ),
        (
            "/api/tournament",
            {"rating": 1500, "games": [{"opponent": 1500, "result": 1}], "points": 1},
            ["body", "points"],
        ),
        (
            "/api/period",
            {"rating": 1500, "k": 20, "events": [{"games": [{"opponent": 1500, "result": "zz"}]}]},
            ["body", "events", 0, "games", 0, "result"],
        ),
        ("/api/k-factor", {"rating": 1500, "games_this_period": "-1"}, ["body", "games_this_period"]),
        ("/api/performance", {"games": [{"opponent": 1500, "result": 2}]}, ["body", "games", 0, "result"]),
    ],
)
def test_bad_input_is_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], loc: list[Any]
) -> None:
    errors = detail(client.post(path, json=body))
    assert loc in [error["loc"] for error in errors]


def test_missing_field_is_422(client: TestClient) -> None:
    errors = detail(client.post("/api/game", json={"rating": "", "opponent": 1500, "result": 1}))
    assert errors[0]["loc"] == ["body", "rating"]
    assert errors[0]["type"] == "missing"
    errors = detail(client.post("/api/game", json={"opponent": 1500, "result": 1}))
    assert errors[0]["loc"] == ["body", "rating"]


def test_errors_in_the_requested_language(client: TestClient) -> None:
    body = {"rating": "mil", "opponent": 1500, "result": 1}
    errors = detail(client.post("/api/game", json=body, headers={"Accept-Language": "es-ES,es;q=0.9"}))
    assert errors[0]["msg"].startswith("«mil» no es un Elo")
    assert errors[0]["ctx"]["reason"] == "not a number"  # the library's own words


@pytest.mark.parametrize(
    ("language", "number", "missing", "choice", "day"),
    [
        ("es", "escribe un número, como 1500 o 0,5", "falta este valor",
         "escribe uno de estos: auto, on, off", "una fecha se escribe AAAA-MM-DD"),
        ("ca", "escriu un nombre, com ara 1500 o 0,5", "falta aquest valor",
         "escriu un d’aquests: auto, on, off", "una data s’escriu AAAA-MM-DD"),
        ("en", "write a number, such as 1500 or 0.5", "this value is missing",
         "write one of: auto, on, off", "a date is written YYYY-MM-DD"),
    ],
)  # fmt: skip
def test_a_body_the_models_refuse_is_said_in_the_requested_language(
    client: TestClient, language: str, number: str, missing: str, choice: str, day: str
) -> None:
    body = {"rating": [1500], "result": 1, "cap": "sometimes", "as_of": 20250101}
    errors = detail(client.post("/api/game", json=body, headers={"Accept-Language": language}))
    said = {tuple(error["loc"]): (error["type"], error["msg"]) for error in errors}
    # A number that is neither a number nor text is one problem, not one per kind of number.
    assert said == {
        ("body", "rating"): ("number_type", number),
        ("body", "opponent"): ("missing", missing),
        ("body", "cap"): ("literal_error", choice),
        ("body", "as_of"): ("value_error", day),
    }
    assert all(error["ctx"]["reason"] for error in errors)  # pydantic's or the library's English


def test_decimal_comma_and_words_accepted(client: TestClient) -> None:
    data = post(client, "/api/game", {"rating": "1500,0", "opponent": "1700", "result": "0,5", "k": "20"})
    assert data["change"] == pytest.approx(5.2)


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in [
        "/api/game",
        "/api/average",
        "/api/tournament",
        "/api/period",
        "/api/k-factor",
        "/api/performance",
    ]:
        assert "post" in paths[path]
    assert client.get("/docs").status_code == 200


def test_glicko2_glickman_example(client: TestClient) -> None:
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06, tau 0.5 -> 1464.06, RD 151.52, 0.05999.
    games = [
        {"opponent": 1400, "deviation": 30, "result": 1},
        {"opponent": 1550, "deviation": 100, "result": 0},
        {"opponent": 1700, "deviation": 300, "result": 0},
    ]
    body = {"system": "glicko2", "rating": 1500, "deviation": 200, "volatility": "0,06", "tau": 0.5}
    data = post(client, "/api/glicko", {**body, "games": games})
    assert data["rating"] == pytest.approx(1464.06, abs=0.01)
    assert data["deviation"] == pytest.approx(151.52, abs=0.01)
    assert data["volatility"] == pytest.approx(0.05999, abs=0.00001)


def test_lichess_two_new_players(client: TestClient) -> None:
    # lila: two new players (1500/500/0.09), white wins: white's PGN diff +241 (docs/glicko.md).
    data = post(client, "/api/glicko", {"games": [{"opponent": 1500, "deviation": 500, "result": "win"}]})
    assert data["games"][0]["rating_diff"] == 241
    assert data["games"][0]["rating_diff_text"] == "+241"
    assert data["provisional"] is True


def test_glicko_bad_deviation_named(client: TestClient) -> None:
    body = {"games": [{"opponent": 1500, "deviation": "-5", "result": 1}]}
    assert ["body", "games", 0, "deviation"] in [
        e["loc"] for e in detail(client.post("/api/glicko", json=body))
    ]


@pytest.mark.parametrize(
    ("path", "body", "extra"),
    [
        ("/api/k-factor", {"rating": 2100}, "colour"),
        (
            "/api/dwz",
            {"rating": 1500, "age": 30, "index": 3, "games": [{"opponent": 1500, "result": 1}]},
            "rules",
        ),
        ("/api/game", {"rating": 1500, "opponent": 1400, "result": 1}, "k_factor"),
    ],
)
def test_a_field_the_endpoint_does_not_take_is_refused_by_name(
    client: TestClient, path: str, body: dict[str, object], extra: str
) -> None:
    """Never answered as if it were not sent (a ``rules`` the endpoint ignores would be a silent
    guess): 422, naming the field."""
    answer = client.post(path, json={**body, extra: "x"})
    assert answer.status_code == 422
    (problem,) = answer.json()["detail"]
    assert problem["loc"] == ["body", extra]
    assert problem["type"] == "extra_forbidden"
    spanish = client.post(path, json={**body, extra: "x"}, headers={"Accept-Language": "es"})
    assert spanish.json()["detail"][0]["msg"] == "este cálculo no admite este campo: quítalo"
