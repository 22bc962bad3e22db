"""The rating list's admin page speaks the reader's language: its own messages are in es and ca."""

from __future__ import annotations

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
