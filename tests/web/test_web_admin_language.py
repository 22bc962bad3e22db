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
        ("ca", "té 1 error; no s’ha importat res", "línia 5"),
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


def visible_text(page: str) -> str:
    """The page's text as a reader sees it: no tags, no attribute values."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", ["Administración", "Archivo del torneo (TRF, PGN o CSV)", "Importar", "Periodo (AAAA-MM)",
                "volver a publicar", "Calcular", "Cerrar sesión"]),
        ("ca", ["Administració", "Fitxer del torneig (TRF, PGN o CSV)", "Importa", "Període (AAAA-MM)",
                "torna a publicar", "Calcula", "Tanca la sessió"]),
    ],
)  # fmt: skip
def test_the_admin_forms_are_in_the_readers_language(
    client: TestClient, language: str, words: list[str]
) -> None:
    signed_in(client, language)
    text = visible_text(client.get("/list/admin", headers={"Accept-Language": language}).text)
    for word in words:
        assert word in text
    for english in ("Event file", "Import ", "Run", "Sign out", "republish", "Period (YYYY-MM)"):
        assert english not in text


@pytest.mark.parametrize(
    ("language", "label"), [("es", "Contraseña"), ("ca", "Contrasenya"), ("en", "Password")]
)
def test_the_sign_in_form_is_in_the_readers_language(client: TestClient, language: str, label: str) -> None:
    text = visible_text(TestClient(client.app).get("/list/admin", headers={"Accept-Language": language}).text)
    assert label in text
    assert ("Sign in" in text) == (language == "en")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "Periodo «2026-13»: un periodo se escribe AAAA-MM, por ejemplo 2024-03"),
        ("ca", "Període «2026-13»: un període s’escriu AAAA-MM, per exemple 2024-03"),
        ("en", "Period “2026-13”: a rating period is written YYYY-MM, such as 2024-03"),
    ],
)
def test_a_bad_period_is_an_alert_in_the_readers_language_on_its_field(
    client: TestClient, language: str, words: str
) -> None:
    token = signed_in(client, language)
    answer = client.post(
        "/list/admin/run", data={"token": token, "period": "2026-13"}, headers={"Accept-Language": language}
    )
    assert answer.status_code == 422
    assert words in html.unescape(answer.text)
    assert "invalid period" not in answer.text  # the store's str(error) is not shown bare
    assert '<p class="notice" id="admin-message" role="alert">' in answer.text
    field = re.search(r'<input name="period"[^>]*>', answer.text)
    assert field is not None
    assert 'aria-invalid="true"' in field.group(0)
    assert 'aria-describedby="admin-message"' in field.group(0)
    file_field = re.search(r'<input type="file" name="file"[^>]*>', answer.text)
    assert file_field is not None
    assert "aria-invalid" not in file_field.group(0)


def test_a_wrong_password_marks_the_password_field(client: TestClient) -> None:
    text = sign_in(TestClient(client.app), "not the password!", "es")  # no session yet
    assert "Contraseña incorrecta." in text
    field = re.search(r'<input type="password"[^>]*>', text)
    assert field is not None
    assert 'aria-invalid="true"' in field.group(0)
    assert 'role="alert"' in text


def test_store_errors_are_said_in_the_readers_language() -> None:
    from chessrate.errors import InvalidInputError
    from chessrate.ratinglist.store import StoreBusyError, StoreError
    from chessrate.service.language import Translator
    from chessrate.service.problems import input_reason
    from chessrate.web.i18n import load_catalogs
    from chessrate.web.ratinglist_pages import store_error

    t = Translator("es", load_catalogs()["es"])
    # A coded reason is said through the request layer's words (as every face says it).
    coded = InvalidInputError("period", "2026-99-01", "write the day as YYYY-MM-DD", code="date")
    said = input_reason("date", {}, "", t)
    assert said
    assert "YYYY" not in said
    assert store_error(coded, t) == f"Periodo «2026-99-01»: {said}"
    # Without a code: the store's English inside a Spanish sentence.
    assert store_error(StoreError("no store at 'x.db'"), t) == (
        "La lista de Elo no lo ha aceptado (lo explica en inglés: no store at 'x.db')."
    )
    assert store_error(StoreBusyError("busy"), t).startswith("Otra importación o cálculo")
