"""The rating list's admin page speaks the reader's language: its own messages are in es and ca."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.demo import build_demo
from chessrate.web import WebSettings, create_app

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = str(tmp_path_factory.mktemp("admin-language") / "demo.db")
    build_demo(db)
    return TestClient(create_app(WebSettings(list_db=db, list_admin_password=PASSWORD)))


def sign_in(client: TestClient, password: str, language: str) -> str:
    headers = {"Accept-Language": language}
    page = client.get("/list/admin", headers=headers).text
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    answer = client.post(
        "/list/admin/login", data={"password": password, "token": found.group(1)}, headers=headers
    )
    assert answer.status_code == 403
    return answer.text


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "Contraseña incorrecta."), ("ca", "Contrasenya incorrecta."), ("en", "Wrong password.")],
)
def test_a_wrong_password_is_said_in_the_readers_language(
    client: TestClient, language: str, words: str
) -> None:
    text = sign_in(client, "not the password!", language)
    assert words in text
    assert f'lang="{language}"' in text


@pytest.mark.parametrize(
    ("language", "words"), [("es", "Inicia sesión primero."), ("ca", "Inicia la sessió primer.")]
)
def test_a_form_without_a_session_is_refused_in_the_readers_language(
    client: TestClient, language: str, words: str
) -> None:
    answer = client.post("/list/admin/run", data={"period": "2025-10"}, headers={"Accept-Language": language})
    assert answer.status_code == 403
    assert words in answer.text


def signed_in(client: TestClient, language: str) -> str:
    """Sign in with the right password; the admin form's token."""
    headers = {"Accept-Language": language}
    page = client.get("/list/admin", headers=headers).text
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    client.post("/list/admin/login", data={"password": PASSWORD, "token": found.group(1)}, headers=headers)
    page = client.get("/list/admin", headers=headers).text
    assert 'action="/list/admin/import"' in page
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(
    ("language", "words", "reason"),
    [
        ("es", "tiene 1 error; no se ha importado nada", "línea 5"),
        ("ca", "té 1 error; no s'ha importat res", "línia 5"),
        ("en", "has 1 error; nothing was imported", "line 5"),
    ],
)
def test_a_file_with_errors_is_refused_in_the_readers_language(
    client: TestClient, language: str, words: str, reason: str
) -> None:
    # A CSV game list whose fourth game has no readable result (line 5 of the file).
    broken = (
        b"white,black,white_rating,black_rating,result,date\n"
        b"Anna,Bert,1500,1600,1-0,2026-03-07\n"
        b"Carl,Dora,1700,1400,0-1,2026-03-07\n"
        b"Emil,Fay,1550,1450,1/2-1/2,2026-03-07\n"
        b"Gus,Hana,1500,1500,seven,2026-03-07\n"
    )
    token = signed_in(client, language)
    answer = client.post(
        "/list/admin/import",
        data={"token": token},
        files={"file": ("broken.csv", broken)},
        headers={"Accept-Language": language},
    )
    assert answer.status_code == 422
    text = html.unescape(answer.text)
    assert f"broken.csv {words}" in text
    assert reason in text
    if language != "en":
        assert "nothing imported" not in text
        assert "error(s)" not in text
