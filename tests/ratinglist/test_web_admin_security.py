"""The rating list's admin on a public server: passwords, throttling, tokens, cookies, uploads (issue 12)."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.demo import build_demo
from chessrate.ratinglist.schema import events
from chessrate.ratinglist.store import open_store, write_transaction
from chessrate.web import WebSettings, create_app
from chessrate.web.ratinglist_pages import LOGIN_COOKIE, SESSION_COOKIE, LoginThrottle

from .ratinglist_support import DATA

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("admin") / "demo.db")
    build_demo(db)
    return db


def admin_app(db: str, **settings: Any) -> FastAPI:
    return create_app(WebSettings(list_db=db, list_admin_password=PASSWORD, **settings))


def login_token(client: TestClient) -> str:
    found = re.search(r'name="token" value="([^"]+)"', client.get("/list/admin").text)
    assert found is not None
    return found.group(1)


def sign_in(client: TestClient, password: str = PASSWORD) -> Any:
    return client.post("/list/admin/login", data={"password": password, "token": login_token(client)})


def csrf_token(client: TestClient) -> str:
    page = client.get("/list/admin").text
    assert 'action="/list/admin/import"' in page
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("password", ["", "short", "eleven char"])
def test_empty_or_short_admin_passwords_are_refused(demo_db: str, password: str) -> None:
    with pytest.raises(InvalidInputError, match="at least 12 characters"):
        create_app(WebSettings(list_db=demo_db, list_admin_password=password))


def test_serve_refuses_an_empty_password(cli: Any, demo_db: str) -> None:
    run = cli("serve", "--list-db", demo_db, "--admin-password", "", "--port", "1")
    assert run.code == 2
    assert run.err.count("\n") == 1
    assert "at least 12 characters" in run.err


def test_wrong_passwords_are_throttled_per_client(demo_db: str) -> None:
    client = TestClient(admin_app(demo_db))
    throttle = LoginThrottle()
    for _ in range(throttle.free):  # docs/security.md: 3 free
        assert sign_in(client, "wrong password!").status_code == 403
    # The 4th try, even with the right password, waits: 429 with Retry-After, the password not even
    # compared.
    waiting = sign_in(client, PASSWORD)
    assert waiting.status_code == 429
    assert int(waiting.headers["retry-after"]) >= 1
    assert "Too many wrong passwords" in waiting.text
    # Another client is not held back.
    other = TestClient(admin_app(demo_db), client=("192.0.2.7", 5000))
    assert other.post("/list/admin/login", data={"password": "x"}).status_code == 403


def test_the_delay_doubles_after_each_wrong_password(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("chessrate.web.ratinglist_pages.time.monotonic", lambda: now[0])
    throttle = LoginThrottle(free=3, longest=900)
    waits = []
    for _ in range(16):
        throttle.failed("203.0.113.1")
        waits.append(throttle.wait_left("203.0.113.1"))
    # After the 3rd wrong password the 4th try waits 1 s (3 free, docs/security.md), then 2, 4...
    assert waits[:2] == [0, 0]
    assert waits[2:7] == [1, 2, 4, 8, 16]
    assert max(waits) == 900
    assert throttle.wait_left("203.0.113.2") == 0
    throttle.succeeded("203.0.113.1")
    assert throttle.wait_left("203.0.113.1") == 0


def test_the_csrf_token_is_not_the_session_id(demo_db: str) -> None:
    client = TestClient(admin_app(demo_db))
    assert sign_in(client).status_code == 200
    token = csrf_token(client)
    session_id = client.cookies[SESSION_COOKIE]
    assert token != session_id
    assert session_id not in client.get("/list/admin").text


def test_sign_in_and_sign_out_need_their_tokens(demo_db: str) -> None:
    client = TestClient(admin_app(demo_db))
    client.get("/list/admin")  # the sign-in cookie
    forged = client.post("/list/admin/login", data={"password": PASSWORD, "token": "forged"})
    assert forged.status_code == 403
    assert SESSION_COOKIE not in client.cookies
    assert sign_in(client).status_code == 200
    assert client.post("/list/admin/logout", data={}).status_code == 403
    assert 'action="/list/admin/import"' in client.get("/list/admin").text  # still signed in
    assert client.post("/list/admin/logout", data={"token": csrf_token(client)}).status_code == 200
    assert 'action="/list/admin/import"' not in client.get("/list/admin").text


def set_cookies(response: Any) -> list[str]:
    return [value for name, value in response.headers.multi_items() if name == "set-cookie"]


def test_cookies_are_secure_over_https(demo_db: str) -> None:
    secure = TestClient(admin_app(demo_db), base_url="https://testserver")
    assert all("Secure" in cookie for cookie in set_cookies(secure.get("/list/admin")))
    token = login_token(secure)
    signed = secure.post(
        "/list/admin/login", data={"password": PASSWORD, "token": token}, follow_redirects=False
    )
    session = next(c for c in set_cookies(signed) if c.startswith(SESSION_COOKIE + "="))
    assert "Secure" in session
    assert "HttpOnly" in session
    assert "SameSite=strict" in session
    plain = TestClient(admin_app(demo_db))
    assert not any("Secure" in cookie for cookie in set_cookies(plain.get("/list/admin")))
    told = TestClient(admin_app(demo_db, secure_cookies=True))
    login = next(c for c in set_cookies(told.get("/list/admin")) if c.startswith(LOGIN_COOKIE))
    assert "Secure" in login


def test_no_admin_body_is_read_without_a_session(demo_db: str) -> None:
    app = admin_app(demo_db)
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        return {"type": "http.request", "body": b"x" * 100_000, "more_body": True}

    statuses: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/list/admin/import",
        "raw_path": b"/list/admin/import",
        "query_string": b"",
        "headers": [
            (b"content-type", b"multipart/form-data; boundary=x"),
            (b"content-length", b"19000000"),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "root_path": "",
        "app": app,
    }
    # In a thread of its own: a browser test may have left an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    assert statuses == [403]
    assert read == 0


@pytest.mark.parametrize("name", [".", "..", "/", "a/..", "../../etc/x.trf", "x" * 300 + ".trf", ""])
def test_odd_upload_file_names(demo_db: str, name: str) -> None:
    client = TestClient(admin_app(demo_db))
    sign_in(client)
    data = (DATA / "pgn/kasparov-deep-blue-1997.pgn").read_bytes()
    response = client.post(
        "/list/admin/import", data={"token": csrf_token(client)}, files={"file": (name, data)}
    )
    assert response.status_code in {200, 422}, response.text
    if response.status_code == 200:
        with open_store(demo_db).connect() as connection:
            stored = connection.execute(select(events.c.file_name).order_by(events.c.id.desc())).scalar()
        assert stored is not None
        assert re.fullmatch(r"[A-Za-z0-9._-]{1,100}", stored)
        assert not stored.startswith(".")


def test_a_busy_store_is_refused_at_once(demo_db: str) -> None:
    client = TestClient(admin_app(demo_db))
    sign_in(client)
    token = csrf_token(client)
    with write_transaction(open_store(demo_db), wait=0):  # another writer holds the store
        ran = client.post("/list/admin/run", data={"period": "2026-03", "token": token})
    assert ran.status_code == 409
    assert "Another import or run is using the rating list: try again when it ends." in ran.text
    assert client.post("/list/admin/run", data={"period": "2026-03", "token": token}).status_code == 200


def test_a_huge_player_id_is_not_found_not_a_500(demo_db: str) -> None:
    client = TestClient(create_app(WebSettings(list_db=demo_db)))
    response = client.get("/list/player/" + "9" * 23)
    assert response.status_code == 404
    assert "up to 15 digits" in response.text
    assert client.get("/list/event/" + "9" * 30).status_code in {404, 422}
