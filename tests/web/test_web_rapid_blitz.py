"""The JSON API and the calculator pages with the FIDE rapid and blitz rule sets (``fide-rapid``,
``fide-blitz``): values from the regulation's text ([FIDE-RR-RB-2024], [SCAC])."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_api_every_calculator_takes_the_rapid_names(client: TestClient) -> None:
    day = {"as_of": "2022-06-01", "birth_year": 2008}
    game = client.post(
        "/api/game", json={"rating": 1900, "opponent": 1800, "result": 1, "rules": "fide-rapid", **day}
    )
    assert game.status_code == 200, game.text
    assert (game.json()["k"], game.json()["change"]) == (20, 7.2)
    average = client.post(
        "/api/average",
        json={"rating": 1900, "games": 36, "points": 18, "average": 1900, "rules": "fide-blitz", **day},
    )
    assert average.status_code == 200, average.text
    assert average.json()["k"] == 19  # K 20 cut by the 700 rule over 36 games [SCAC]
    tournament = client.post(
        "/api/tournament",
        json={
            "rating": 2700,
            "games": [{"opponent": 2000, "result": 1}, {"opponent": 2200, "result": 1}],
            "rules": "fide-blitz",
            "as_of": "2025-01-01",
            "k": 10,
        },
    )
    assert tournament.status_code == 200, tournament.text
    assert (tournament.json()["not_rated"], tournament.json()["change"]) == ([2000], 0.8)
    period = client.post(
        "/api/period",
        json={
            "rating": 2700,
            "events": [
                {"games": [{"opponent": 2000, "result": 1}]},
                {"games": [{"opponent": 2200, "result": 1}]},
            ],
            "rules": "fide-rapid",
            "as_of": "2025-01-01",
            "k": 10,
        },
    )
    assert period.status_code == 200, period.text
    assert (period.json()["games"], period.json()["not_rated"]) == (1, [2000])


def test_api_refusals_name_the_field(client: TestClient) -> None:
    one = client.post(
        "/api/game",
        json={"rating": 2700, "opponent": 2000, "result": 1, "rules": "fide-rapid", "as_of": "2025-01-01"},
    )
    assert one.status_code == 422
    assert "opponent" in one.text
    assert "8.3.1" in one.text
    early = client.post(
        "/api/game",
        json={"rating": 1500, "opponent": 1500, "result": 1, "rules": "fide-rapid", "as_of": "2021-06-01"},
    )
    assert early.status_code == 422
    assert "rules" in early.text
    performance = client.post(
        "/api/performance",
        json={
            "games": [{"opponent": 1800, "result": 1}],
            "rules": "fide",
            "standard_rating": 1850,
            "as_of": "2025-01-01",
        },
    )
    assert performance.status_code == 422
    assert "standard_rating" in performance.text


def test_api_performance_rated_from_the_standard_rating(client: TestClient) -> None:
    body = {
        "games": [
            {"opponent": 1800, "result": 1},
            {"opponent": 1900, "result": 0.5},
            {"opponent": 2000, "result": 0},
        ],
        "rules": "fide-blitz",
        "standard_rating": 1850,
        "as_of": "2025-01-01",
    }
    data = client.post("/api/performance", json=body)
    assert data.status_code == 200, data.text
    rated = data.json()["rated_from_standard"]
    assert (rated["article"], rated["new_rating"]) == ("FIDE B.02 rapid and blitz 7.2.1", 1858)


def test_the_calculator_pages_offer_the_rapid_and_blitz_rules_and_say_the_game_not_rated(
    client: TestClient,
) -> None:
    page = client.get("/tournament?lang=es")
    assert page.status_code == 200
    assert 'value="fide-rapid"' in page.text
    assert 'value="fide-blitz"' in page.text
    query = (
        "/tournament?rating=2700&rules=fide-blitz&as_of=2025-01-01&k_preset=10"
        "&games-0-opponent=2000&games-0-result=1&games-1-opponent=2200&games-1-result=1"
    )
    result = client.get(query)
    assert result.status_code == 200
    assert 'id="not-rated"' in result.text
    assert "8.3.1" in result.text
    report = client.get("/report")
    assert 'value="fide-rapid"' not in report.text  # a report chooses the list by its list type


def test_the_performance_page_rates_from_the_standard_rating_in_rapid(client: TestClient) -> None:
    # Rapid and blitz 7.2.1: 1850 standard; 1800:1, 1900:½, 2000:0, K 40 (new to the list, 8.3.3):
    # expected .57 + .43 + .30 = 1.30 (table 8.1.2), 40 x 0.2 = +8 -> 1858.
    query = (
        "/performance?lang=ca&rules=fide-rapid&as_of=2025-01-01&standard_rating=1850"
        "&games-0-opponent=1800&games-0-result=1&games-1-opponent=1900&games-1-result=%C2%BD"
        "&games-2-opponent=2000&games-2-result=0"
    )
    page = client.get(query)
    assert page.status_code == 200
    assert 'id="rated-from-standard"' in page.text
    assert "1858" in page.text
    assert "7.2.1" in page.text


def test_the_k_factor_calculators_take_the_rapid_and_blitz_lists(client: TestClient) -> None:
    """K on FIDE's blitz list before 1 October 2022 is 20 for everyone, cut by the 700 rule
    (40 games: the largest K with K × 40 ≤ 700 is 17) [SCAC]; after, as on the standard list."""
    asked = {"rating": 2700, "as_of": "2022-01-05", "games_this_period": 40}
    blitz = client.post("/api/k-factor", json={**asked, "rules": "fide-blitz"})
    assert blitz.status_code == 200, blitz.text
    assert (blitz.json()["k_before_700_rule"], blitz.json()["k"]) == (20, 17)
    assert blitz.json()["rules"] == "FIDE rapid and blitz 2022-01-01"
    standard = client.post("/api/k-factor", json=asked)  # the standard list: 2700 has K 10
    assert standard.json()["k"] == 10
    junior = {"rating": 1500, "birth_year": 2010, "as_of": "2022-06-01", "rules": "fide-rapid"}
    assert client.post("/api/k-factor", json=junior).json()["k"] == 20  # not the junior's 40
    early = client.post("/api/k-factor", json={**asked, "rules": "fide-blitz", "as_of": "2021-06-01"})
    assert early.status_code == 422
    assert "rules" in early.text
    unknown = client.post("/api/k-factor", json={**asked, "rules": "uscf"})
    assert unknown.status_code == 422
    page = client.post(
        "/k-factor", data={"lang": "es", **{k: str(v) for k, v in asked.items()}, "rules": "fide-blitz"}
    )
    assert page.status_code == 200
    assert '<output id="k" class="new-rating">17</output>' in page.text
