"""The JSON API of the other systems and of the points at stake."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st


def post(client: TestClient, path: str, body: dict[str, Any], status: int = 200, **headers: str) -> Any:
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == status, response.text
    return response.json()


def test_dwz(client: TestClient) -> None:
    # sktroisdorf.de (2018-11-15): 1000 v 1200, juniors, Index >= 1; a draw gives 1035 / 1177.
    body = {"rating": 1000, "age": 15, "index": 1, "games": [{"opponent": 1200, "result": "½"}]}
    assert post(client, "/api/dwz", body)["new_rating"] == 1035
    other = {"rating": 1200, "age": 15, "index": 1, "games": [{"opponent": 1000, "result": "½"}]}
    assert post(client, "/api/dwz", other)["new_rating"] == 1177


def test_uscf_special(client: TestClient) -> None:
    games = [
        {"opponent": 1400, "result": 1},
        {"opponent": 1550, "result": 0},
        {"opponent": 1650, "result": "½"},
    ]
    data = post(client, "/api/uscf", {"rating": 1500, "games_played": 6, "games": games})
    assert data["published_rating"] == 1511


def test_ecf(client: TestClient) -> None:
    body = {"rating": 1800, "junior": True, "games": [{"opponent": 1800, "result": 1}]}
    assert post(client, "/api/ecf", body)["change"] == 20


def test_chesscom_is_an_estimate(client: TestClient) -> None:
    body = {"level": "intermediate", "games": [{"opponent": 1200, "deviation": 350, "result": "½"}]}
    data = post(client, "/api/chesscom", body)
    assert data["estimate"] is True
    assert data["rating"] == pytest.approx(1200)


def test_convert(client: TestClient) -> None:
    data = post(client, "/api/convert", {"ratings": {"lichess-blitz": 2000}, "to": "chesscom-blitz"})
    (fit,) = data["conversions"]
    assert fit["value"] == pytest.approx(1.3728 * 2000 - 929.4548)
    assert fit["r_squared"] == 0.313
    assert fit["adjusted"] is None


def test_stakes(client: TestClient) -> None:
    data = post(client, "/api/stakes", {"rating": 1500, "opponent": 1700, "k": 20})
    assert [data[o]["change"] for o in ("win", "draw", "loss")] == [15.2, 5.2, -4.8]
    assert data["zero_sum"] is True


def test_game_has_a_stakes_object(client: TestClient) -> None:
    data = post(
        client, "/api/game", {"rating": 1500, "opponent": 1700, "result": 1, "k": 20, "expected": "formula"}
    )
    assert [round(data["stakes"][o]["change"], 2) for o in ("win", "draw", "loss")] == [15.19, 5.19, -4.81]


def test_glicko_rating_diff_is_a_number_and_gain_factor(client: TestClient) -> None:
    body = {
        "system": "lichess",
        "gain_factor": 1.015,
        "games": [{"opponent": 1500, "deviation": 500, "result": 1}],
    }
    data = post(client, "/api/glicko", body)
    assert data["games"][0]["rating_diff"] == 245
    assert data["gain_factor"] == 1.015


@pytest.mark.parametrize(
    ("path", "body", "loc"),
    [
        (
            "/api/dwz",
            {"rating": 1000, "age": 15, "index": 0, "games": [{"opponent": 1200, "result": 1}]},
            "index",
        ),
        (
            "/api/uscf",
            {"rating": 1500, "games_played": -1, "games": [{"opponent": 1400, "result": 1}]},
            "games_played",
        ),
        ("/api/convert", {"ratings": {"chesscom-blitz": 1500}, "to": "fide"}, "to_pool"),
        (
            "/api/ecf",
            {"rating": 1800, "new_player": True, "games": [{"opponent": 1800, "result": 1}]},
            "new_player",
        ),
        ("/api/stakes", {"system": "dwz", "rating": 1000, "opponent": 1200, "age": 15}, "index"),
    ],
)
def test_bad_input_is_422_naming_the_field(
    client: TestClient, path: str, body: dict[str, Any], loc: str
) -> None:
    detail = post(client, path, body, status=422)["detail"]
    assert detail[0]["loc"][-1] == loc


def test_messages_in_spanish(client: TestClient) -> None:
    body = {"rating": 1000, "age": 15, "index": 0, "games": [{"opponent": 1200, "result": 1}]}
    detail = post(client, "/api/dwz", body, status=422, **{"accept-language": "es"})["detail"]
    assert "una primera DWZ (índice 0) no se calcula" in detail[0]["msg"]


texts = st.one_of(st.text(max_size=10), st.sampled_from(["", "0", "-1", "1e9", "nan", "½", "1500,5", "abc"]))


@settings(max_examples=40, deadline=None)
@given(
    rating=texts,
    opponent=texts,
    result=texts,
    extra=texts,
    action=st.sampled_from(["", "add:games", "bogus"]),
)
def test_no_input_breaks_a_system_page(
    app: FastAPI, rating: str, opponent: str, result: str, extra: str, action: str
) -> None:
    form = {
        "rating": rating, "games-0-opponent": opponent, "games-0-result": result, "games-0-deviation": extra,
        "age": extra, "index": extra, "games_played": extra, "event_end": extra, "level": extra,
        "from_pool": extra, "to_pool": "fide", "also-0-rating": extra, "action": action,
    }  # fmt: skip
    client = TestClient(app)
    for path in ["/dwz", "/uscf", "/ecf", "/chesscom", "/pools"]:
        response = client.post(path, data=form)
        assert response.status_code == 200
        assert "Traceback" not in response.text


@settings(max_examples=40, deadline=None)
@given(
    rating=texts,
    opponent=texts,
    result=texts,
    extra=texts,
    system=st.sampled_from(["elo", "dwz", "uscf", "glicko2"]),
)
def test_no_body_breaks_a_system_endpoint(
    app: FastAPI, rating: str, opponent: str, result: str, extra: str, system: str
) -> None:
    client = TestClient(app)
    games = [{"opponent": opponent, "result": result}]
    bodies = {
        "/api/dwz": {"rating": rating, "age": extra, "index": extra, "games": games},
        "/api/uscf": {"rating": rating, "games_played": extra, "games": games},
        "/api/ecf": {"rating": rating, "games": games},
        "/api/chesscom": {"rating": rating, "deviation": extra, "games": [{**games[0], "deviation": extra}]},
        "/api/convert": {"ratings": {extra or "x": rating}, "to": opponent},
        "/api/stakes": {
            "system": system, "rating": rating, "opponent": opponent, "age": extra, "index": extra,
            "games_played": extra, "opponent_games_played": extra, "deviation": extra,
        },
    }  # fmt: skip
    for path, body in bodies.items():
        response = client.post(path, json=body)
        assert response.status_code in {200, 422}, (path, body, response.text)
