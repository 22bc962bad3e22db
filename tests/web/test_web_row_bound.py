"""More game rows than a request may have (MAX_ROWS, 60) are refused on every face, never dropped."""

from __future__ import annotations

import html
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessrate.service.elo import MAX_ROWS


def games(count: int) -> list[str]:
    return [f"{1400 + index}:50:1" for index in range(count)]


@pytest.mark.parametrize(
    "command", [["glicko", "--rating", "1500", "--deviation", "200"], ["glicko2", "--preset", "lichess"]]
)
def test_the_command_line_refuses_a_row_too_many(cli: Any, command: list[str]) -> None:
    run = cli(*command, *games(MAX_ROWS + 1), "--json")
    assert run.code == 2, run.out
    assert run.err.startswith("chessrate: error: ")
    assert run.err.count("\n") == 1
    assert f"at most {MAX_ROWS} games" in run.err
    full = cli(*command, *games(MAX_ROWS), "--json")
    assert full.code == 0, full.err
    assert len(full.json()["games"]) == MAX_ROWS  # every row rated, none dropped


@pytest.mark.parametrize("system", ["lichess", "glicko2"])
def test_the_api_refuses_a_row_too_many(client: TestClient, system: str) -> None:
    rows = [{"opponent": 1400 + index, "deviation": 50, "result": 1} for index in range(MAX_ROWS + 1)]
    answer = client.post("/api/glicko", json={"system": system, "games": rows})
    assert answer.status_code == 422, answer.text
    (problem,) = answer.json()["detail"]
    assert problem["loc"] == ["body", "games"]
    assert f"at most {MAX_ROWS} games" in problem["msg"]
    answer = client.post("/api/glicko", json={"system": system, "games": rows[:MAX_ROWS]})
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["games"]) == MAX_ROWS


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", f"como mucho {MAX_ROWS} partidas"), ("ca", f"com a màxim {MAX_ROWS} partides"),
     ("en", f"at most {MAX_ROWS} games")],
)  # fmt: skip
@pytest.mark.parametrize(
    ("path", "extra"), [("/glicko", {"system": "glicko2"}), ("/tournament", {"rating": "1500"})]
)
def test_the_form_refuses_a_row_past_the_last(
    client: TestClient, language: str, words: str, path: str, extra: dict[str, str]
) -> None:
    form = {**extra, "games-0-opponent": "1500", "games-0-deviation": "50", "games-0-result": "1"}
    form |= {
        f"games-{MAX_ROWS}-opponent": "1600",
        f"games-{MAX_ROWS}-deviation": "50",
        f"games-{MAX_ROWS}-result": "0",
    }
    answer = client.post(path, data=form, headers={"Accept-Language": language})
    assert answer.status_code == 200
    assert words in html.unescape(answer.text)
