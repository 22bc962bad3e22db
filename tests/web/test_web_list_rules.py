"""A club's rule set on the rating-list pages: its title and its source in the visitor's language
(the club's TOML ``titles`` and ``sources``), on the list and in the K reasons of a player's page."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.store import init_store
from chessrate.web import WebSettings, create_app

SWISS = Path(__file__).resolve().parents[1] / "data/trf/swiss-9-rounds.trf"
CLUB = """
name = "club"
title = "Our club (K 30 for all)"
source = "Our club's rules, article 3"
titles = { es = "Nuestro club (K 30 para todos)", ca = "El nostre club (K 30 per a tothom)" }
sources = { es = "Reglamento de nuestro club, artículo 3", ca = "Reglament del nostre club, article 3" }
expected = "table"
difference_cap = false
rounding = "tournament"
k_by_rating = [{ from = 0, k = 30 }]
"""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    folder = tmp_path_factory.mktemp("club")
    rules = folder / "club.toml"
    rules.write_text(CLUB, encoding="utf-8")
    db = str(folder / "club.db")
    engine = init_store(db, rules=str(rules))
    import_files(engine, [SWISS])
    run_period(engine, Period(2024, 8))
    return TestClient(create_app(WebSettings(list_db=db)))


def text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.parametrize(
    ("language", "title", "source"),
    [
        ("es", "Reglamento: Nuestro club (K 30 para todos)", "Reglamento de nuestro club, artículo 3"),
        ("ca", "Reglament: El nostre club (K 30 per a tothom)", "Reglament del nostre club, article 3"),
        ("en", "Rule set: Our club (K 30 for all)", "Our club's rules, article 3"),
    ],
)
def test_the_clubs_title_and_source_are_in_the_visitors_language(
    client: TestClient, language: str, title: str, source: str
) -> None:
    listed = client.get("/list", params={"period": "2024-08"}, headers={"Accept-Language": language})
    assert listed.status_code == 200
    shown = text(listed.text)
    assert f"{title} ({source})" in shown
    player_id = re.search(r'href="/list/player/(\d+)', listed.text)
    assert player_id is not None
    player = text(
        client.get(f"/list/player/{player_id.group(1)}", headers={"Accept-Language": language}).text
    )
    assert f"({source})" in player  # the K reason's source
    if language != "en":
        assert "Our club" not in shown
        assert "Our club" not in player
