"""Answers that must not be given (issue 27): each refused, flagged or corrected, in the CLI and the API.

- a Lichess rating outside lila's bounds (minRating 400; below 4000 by its sanity check) [LILA];
- a conversion between pools outside what its fit can say, and never a negative rating;
- an old ECF three-digit grade taken as a rating; ``--grade`` converts it as the ECF does [ECF-MONTHLY];
- the initial rating's working, whose words said "rounded 2200" for a value rounded to 2395 and then
  capped at 2200 (B022024 8.2.3: "Ru is rounded to the nearest whole number. The maximum initial rating
  is 2200").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessrate.web import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _refused(answer: Any, loc: list[Any], words: str) -> None:
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"][0]
    assert detail["loc"] == loc
    assert words in detail["msg"]


def test_lichess_rating_below_400_is_refused_in_the_cli(cli: Any) -> None:
    run = cli("glicko2", "--preset", "lichess", "--rating", "300", "1500:100:0")
    assert run.code == 2
    assert run.err.strip().splitlines() == [
        "chessrate: error: invalid --rating '300': a Lichess rating is from 400 (lila's minRating) to below "
        "4000 (lila's sanity check)"
    ]
    opponent = cli("glicko2", "--preset", "lichess", "--rating", "1500", "4000:100:0")
    assert opponent.code == 2
    assert "opponent" in opponent.err


def test_lichess_rating_at_400_loses_nothing_below_it(cli: Any) -> None:
    # lila: a rating is capped at 400 after each game; a loss at 400 stays 400, a diff of +0.
    data = cli("glicko2", "--preset", "lichess", "--rating", "400", "1500:100:0", "--json").json()
    assert data["games"][0]["rating_diff"] == 0
    assert data["rating"] == 400


def test_lichess_rating_below_400_is_refused_in_the_api(client: TestClient) -> None:
    body = {"system": "lichess", "rating": 300, "games": [{"opponent": 1500, "deviation": 100, "result": 0}]}
    _refused(client.post("/api/glicko", json=body), ["body", "rating"], "400")
    body = {"system": "lichess", "rating": 1500, "games": [{"opponent": 1500, "deviation": 40, "result": 0}]}
    _refused(client.post("/api/glicko", json=body), ["body", "games", 0, "deviation"], "45")
    # The paper's Glicko-2 has no such floor.
    paper = {
        **body,
        "system": "glicko2",
        "rating": 300,
        "games": [{"opponent": 1500, "deviation": 100, "result": 0}],
    }
    assert client.post("/api/glicko", json=paper).status_code == 200


def test_a_conversion_from_a_rating_lichess_cannot_hold_is_refused(cli: Any, client: TestClient) -> None:
    # The issue's case: 200 Lichess blitz gave -655 on Chess.com. Lichess holds no rating below 400.
    run = cli("convert", "200", "--from", "lichess-blitz", "--to", "chesscom-blitz")
    assert run.code == 2
    assert run.err.strip() == (
        "chessrate: error: invalid rating '200': a lichess-blitz rating is from 400 to below 4000"
    )
    body = {"ratings": {"lichess-blitz": 200}, "to": "chesscom-blitz"}
    _refused(client.post("/api/convert", json=body), ["body", "rating"], "400")


def test_a_conversion_never_gives_a_negative_rating(cli: Any, client: TestClient) -> None:
    # [POOLS-REDDIT]: chesscom = 1.3728 x lichess - 929.4548: 600 gives -105.8, refused.
    run = cli("convert", "600", "--from", "lichess-blitz", "--to", "chesscom-blitz")
    assert run.code == 2
    assert "gives -106 chesscom-blitz, below its lowest rating 0" in run.err
    body = {"ratings": {"lichess-blitz": 600}, "to": "chesscom-blitz"}
    _refused(client.post("/api/convert", json=body), ["body", "rating"], "-106")
    # 700 gives 31.5: kept, the fit's value as published.
    assert cli("convert", "700", "--from", "lichess-blitz", "--to", "chesscom-blitz").code == 0


def test_a_conversion_beyond_the_data_its_source_shows_is_flagged(cli: Any, client: TestClient) -> None:
    # [POOLS-MT88]: fide = 0.8399 x lichess + 179.89 from 30 players; the page shows Lichess blitz
    # from 1498 to 2943. 3400 gives 3035.5: flagged as an extrapolation.
    data = cli("convert", "3400", "--from", "lichess-blitz", "--to", "fide", "--json").json()
    (fit,) = data["conversions"]
    assert fit["value"] == pytest.approx(0.8399 * 3400 + 179.89)
    assert fit["extrapolated"] == [1498.0, 2943.0]
    text = cli("convert", "3400", "--from", "lichess-blitz", "--to", "fide").out
    assert "extrapolated" in text
    body = {"ratings": {"lichess-blitz": 3400}, "to": "fide"}
    answer = client.post("/api/convert", json=body)
    assert answer.status_code == 200
    assert answer.json()["conversions"][0]["extrapolated"] == [1498.0, 2943.0]
    inside = client.post("/api/convert", json={**body, "ratings": {"lichess-blitz": 2000}}).json()
    assert inside["conversions"][0]["extrapolated"] is None


def test_an_old_ecf_grade_is_refused_with_its_conversion(cli: Any, client: TestClient) -> None:
    # The issue's case: ecf 165 170:1 --junior took the grade 165 as a rating. The ECF converts a grade
    # as 7.5 x grade + 700 [ECF-MONTHLY]: 165 -> 1937.5, 170 -> 1975.
    run = cli("ecf", "165", "170:1", "--junior")
    assert run.code == 2
    assert run.err.strip().splitlines() == [
        "chessrate: error: invalid rating 165: 165 looks like an old three-digit ECF grade, not a rating: "
        "a grade converts as 7.5 x grade + 700 = 1938; give --grade to convert every value"
    ]
    data = cli("ecf", "165", "170:1", "--junior", "--grade", "--json").json()
    assert (data["rating"], data["games"][0]["opponent"]) == (1938, 1975)
    # FIDE table 8.1.2: D = -37 gives .45; a junior's k 40: 40 x (1 - 0.45) = +22.
    assert (data["k"], data["change"], data["new_rating"]) == (40, 22, 1960)
    body = {"rating": 165, "junior": True, "games": [{"opponent": 170, "result": 1}]}
    _refused(client.post("/api/ecf", json=body), ["body", "rating"], "7.5 × grade + 700 = 1938")
    graded = client.post("/api/ecf", json={**body, "grade": True})
    assert graded.status_code == 200
    assert graded.json()["new_rating"] == 1960


def test_initial_rating_words_say_the_rounding_then_the_cap(cli: Any, client: TestClient) -> None:
    # B022024 8.2.2-8.2.3: five wins against 2400 with two draws against 1800: Ra = 15600 / 7 =
    # 2228.57, p = 6/7 -> .86, dp 309, Ru = 2537.57, rounded 2538, at most 2200.
    games = [f"2400:{score}" for score in (1, 1, 1, 1, 1)]
    data = cli("initial", *games, "--as-of", "2025-01-01", "--json").json()
    assert data["rating"] == 2200
    assert data["reason"] == "capped"
    assert "2228.57 + (+309) = 2537.57" in data["explanation"]
    assert data["explanation"].endswith("; rounded 2538; a first rating is at most 2200.")
    body = {"games": [{"opponent": 2400, "result": 1}] * 5, "as_of": "2025-01-01"}
    answer = client.post("/api/performance", json=body)
    assert answer.status_code == 200
    initial = answer.json()["initial_rating"]
    assert initial["rating"] == 2200
    assert initial["reason"] == "capped"
    assert "rounded 2538; a first rating is at most 2200." in initial["explanation"]


def test_a_first_dwz_is_refused_saying_what_is_not_computed_and_why(cli: Any, client: TestClient) -> None:
    # [DSB-WO] 3.4.1.1: a first DWZ needs at least 5 games against opponents with a DWZ and no 100 % or
    # 0 % score; 3.4.4: it is found by an iteration over the whole tournament.
    run = cli("dwz", "1500", "1500:1", "--age", "30", "--index", "0")
    assert run.code == 2
    (line,) = run.err.strip().splitlines()
    assert "a first DWZ (Index 0) is not computed" in line
    assert "at least 5 games" in line
    assert "WO 3.4.1, 3.4.4" in line
    body = {"rating": 1500, "age": 30, "index": 0, "games": [{"opponent": 1500, "result": 1}]}
    _refused(client.post("/api/dwz", json=body), ["body", "index"], "neither all won nor all lost")
