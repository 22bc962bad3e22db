"""The rating-list pages on the web app: list, player, event; admin only with a password."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.demo import build_demo
from chessrate.ratinglist.queries import list_view, published_periods
from chessrate.ratinglist.store import open_store
from chessrate.web import WebSettings, create_app

from .ratinglist_support import DATA


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("web") / "demo.db")
    build_demo(db)
    return db


def test_read_only_pages(demo_db: str) -> None:
    client = TestClient(create_app(WebSettings(list_db=demo_db)))
    page = client.get("/list")
    assert page.status_code == 200
    # It opens on the newest list on which someone played, not on a later empty month.
    engine = open_store(demo_db)
    with engine.connect() as connection:
        periods = published_periods(connection)
    with_games = [p for p in periods if any(row.games for row in list_view(engine, p).rows)]
    assert with_games
    assert with_games[-1] != periods[-1]
    assert f"Period {with_games[-1]} (published" in page.text
    # Searchable: one player by name; sortable by name.
    found = client.get("/list", params={"q": "mirzoev"}).text
    assert found.count('href="/list/player/') == 1
    by_name = client.get("/list", params={"sort": "name"}).text
    names = re.findall(r'href="/list/player/\d+">([^<]+)<', by_name)
    assert names == sorted(names, key=str.casefold)
    # The player page: the history chart and the games behind each change.
    player = client.get("/list/player/13400304")
    assert player.status_code == 200
    assert 'id="history-chart"' in player.text
    assert "XX Open Internacional de Gros" in player.text
    assert client.get("/list/event/1").status_code == 200
    assert client.get("/list/player/999999999").status_code == 404
    # No admin without a password.
    assert client.get("/list/admin").status_code == 404
    assert client.post("/list/admin/run", data={"period": "2026-03"}).status_code == 403


def sign_in(client: TestClient, password: str) -> str:
    """Sign in through the form (with its own token); the page after it."""
    form = client.get("/list/admin").text
    login_token = re.search(r'name="token" value="([^"]+)"', form)
    assert login_token is not None
    data = {"password": password, "token": login_token.group(1)}
    return client.post("/list/admin/login", data=data, follow_redirects=True).text


def test_admin_needs_the_password_and_a_session(demo_db: str, tmp_path: Path) -> None:
    client = TestClient(create_app(WebSettings(list_db=demo_db, list_admin_password="s3cret-s3cret")))
    assert client.post("/list/admin/login", data={"password": "wrong"}).status_code == 403
    assert client.post("/list/admin/run", data={"period": "2026-03", "token": "x"}).status_code == 403
    signed_in = sign_in(client, "s3cret-s3cret")
    token = re.search(r'name="token" value="([^"]+)"', signed_in)
    assert token is not None
    # A form without the session's token is refused even with the cookie.
    assert client.post("/list/admin/run", data={"period": "2026-03", "token": "forged"}).status_code == 403
    ran = client.post("/list/admin/run", data={"period": "2026-03", "token": token.group(1)})
    assert ran.status_code == 200
    assert "2026-03: published" in ran.text
    upload = client.post(
        "/list/admin/import",
        data={"token": token.group(1)},
        files={"file": ("swiss.trf", (DATA / "trf/swiss-9-rounds.trf").read_bytes())},
    )
    assert upload.status_code == 422  # the demo already holds this very file
    assert "already imported" in upload.text
    assert client.post("/list/admin/logout", data={"token": "forged"}).status_code == 403
    client.post("/list/admin/logout", data={"token": token.group(1)})
    assert (
        client.post("/list/admin/run", data={"period": "2026-04", "token": token.group(1)}).status_code == 403
    )


def test_sessions_expire(demo_db: str) -> None:
    client = TestClient(
        create_app(WebSettings(list_db=demo_db, list_admin_password="pw-long-enough", list_session_minutes=0))
    )
    signed_in = sign_in(client, "pw-long-enough")
    assert 'action="/list/admin/import"' not in signed_in  # a session of 0 minutes is over at once


def test_the_calculator_links_to_the_list_only_when_one_is_served(demo_db: str) -> None:
    with_list = TestClient(create_app(WebSettings(list_db=demo_db))).get("/game?lang=ca").text
    assert '<a href="/list?lang=ca">Llista d’Elo</a>' in with_list
    assert 'href="/list"' not in TestClient(create_app(WebSettings())).get("/game").text
