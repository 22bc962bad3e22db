"""The command line's ``--json`` and the API answer the same document for the same calculation.

Both build it with :mod:`chessrate.service.documents`; in English the two are equal key for key
and value for value. The API declares each document as its response model (typed OpenAPI).
The calculations are FIDE's and the users' published examples of test_cli.py and test_web_api.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

DATA = Path(__file__).resolve().parents[1] / "data"
DAY = "2025-12-01"

CASES = [
    pytest.param(
        ["game", "1500", "1700", "draw", "--k", "20"],
        "/api/game",
        {"rating": 1500, "opponent": 1700, "result": "draw", "k": 20},
        id="game",
    ),
    pytest.param(
        [
            "tournament",
            "1800",
            "1500",
            "1600",
            "1700",
            "1800",
            "1900",
            "2000",
            "--points",
            "4,5",
            "--rules",
            "ciabe",
        ],
        "/api/tournament",
        {
            "rating": 1800,
            "points": "4,5",
            "rules": "ciabe",
            "games": [{"opponent": r} for r in range(1500, 2001, 100)],
        },
        id="tournament-total-points",
    ),
    pytest.param(
        [
            "games",
            "1500",
            "--games",
            "4",
            "--points",
            "2",
            "--average",
            "1700",
            "--rules",
            "elo",
            "--k",
            "20",
        ],
        "/api/average",
        {"rating": 1500, "games": 4, "points": 2, "average": 1700, "rules": "elo", "k": 20},
        id="average",
    ),
    pytest.param(
        ["period", "2040", "@2052 1900:1 2100:0.5", "2000:1 2150:0", "--birth-year", "2010"],
        "/api/period",
        {
            "rating": 2040,
            "birth_year": 2010,
            "events": [
                {
                    "start_rating": 2052,
                    "games": [{"opponent": 1900, "result": 1}, {"opponent": 2100, "result": 0.5}],
                },
                {"games": [{"opponent": 2000, "result": 1}, {"opponent": 2150, "result": 0}]},
            ],
        },
        id="period",
    ),
    pytest.param(
        ["k-factor", "1900", "--birth-year", "2010", "--rated-games", "50", "--games-this-period", "20"],
        "/api/k-factor",
        {"rating": 1900, "birth_year": 2010, "rated_games": 50, "games_this_period": 20},
        id="k-factor",
    ),
    pytest.param(
        ["performance", "1902:1", "1877:1", "1884:1", "2012:0", "1832:0"],
        "/api/performance",
        {
            "games": [
                {"opponent": r, "result": s}
                for r, s in [(1902, 1), (1877, 1), (1884, 1), (2012, 0), (1832, 0)]
            ]
        },
        id="performance",
    ),
]


@pytest.mark.parametrize(("args", "path", "body"), CASES)
def test_cli_json_is_the_api_document(
    cli: Any, client: TestClient, args: list[str], path: str, body: dict[str, Any]
) -> None:
    run = cli(*args, "--as-of", DAY, "--json")
    assert run.code == 0, run.err
    answer = client.post(path, json={**body, "as_of": DAY}, headers={"Accept-Language": "en"})
    assert answer.status_code == 200, answer.text
    assert run.json() == answer.json()


def test_report_json_is_the_api_document(cli: Any, client: TestClient) -> None:
    file = DATA / "pgn/candidates-2022.pgn"
    run = cli("report", str(file), "--format", "json")
    assert run.code == 0, run.err
    with file.open("rb") as sent:
        answer = client.post(
            "/api/report", files={"file": (str(file), sent)}, headers={"Accept-Language": "en"}
        )
    assert answer.status_code == 200, answer.text
    assert run.json() == answer.json()


def test_every_answer_is_typed_in_openapi(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ["/api/game", "/api/average", "/api/tournament", "/api/period", "/api/k-factor",
                 "/api/performance", "/api/glicko", "/api/report"]:  # fmt: skip
        schema = spec["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["$ref"].startswith("#/components/schemas/"), (path, schema)
    game = spec["components"]["schemas"]["OneGameDocument"]["properties"]
    assert {"k", "k_reason", "rule_set", "games", "new_rating"} <= set(game)


GLICKMAN_GAMES = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]  # glicko2.pdf's example


@pytest.mark.parametrize(
    ("args", "body"),
    [
        pytest.param(
            ["--preset", "lichess", "--rating", "1500", "--deviation", "200", "--days-idle", "30"],
            {"system": "lichess", "rating": 1500, "deviation": 200, "days_idle": 30},
            id="lichess",
        ),
        pytest.param(
            ["--rating", "1500", "--deviation", "200", "--volatility", "0.06"],
            {"system": "glicko2", "rating": 1500, "deviation": 200, "volatility": 0.06},
            id="glicko2-paper",
        ),
    ],
)
def test_glicko_json_is_the_api_document(
    cli: Any, client: TestClient, args: list[str], body: dict[str, Any]
) -> None:
    # Lichess holds no RD below 45 (lila's minDeviation): its games take the paper's with RD 45 at least.
    least = 45 if body["system"] == "lichess" else 0
    played = [(r, max(rd, least), s) for r, rd, s in GLICKMAN_GAMES]
    run = cli("glicko2", *args, *(f"{r}:{rd}:{s}" for r, rd, s in played), "--json")
    assert run.code == 0, run.err
    games = [{"opponent": r, "deviation": rd, "result": s} for r, rd, s in played]
    answer = client.post("/api/glicko", json={**body, "games": games}, headers={"Accept-Language": "en"})
    assert answer.status_code == 200, answer.text
    assert run.json() == answer.json()
    if body["system"] == "glicko2":  # glicko2.pdf: 1464.06 (from rounded steps), RD 151.52
        assert run.json()["rating"] == pytest.approx(1464.06, abs=0.01)
        assert run.json()["deviation"] == pytest.approx(151.52, abs=0.01)
    else:  # Lichess: every game rated (one by one), the rating as Lichess prints it
        assert len(run.json()["games"]) == len(GLICKMAN_GAMES)
        shown = run.json()
        assert shown["display"] == f"{int(shown['rating'])}{'?' if shown['provisional'] else ''}"
