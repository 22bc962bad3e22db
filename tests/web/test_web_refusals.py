"""Refusals in the reader's language: a page with the site's layout for a browser, JSON for the API.

404 (no such address), 405 (a method not taken), 413 (too large), 414 (a URL too long), a body that
is not JSON, and the 422 of a missing value said the same way by pydantic and by the request layer;
the API's answers say their language (Content-Language, Vary).
"""

from __future__ import annotations

import html

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.demo import build_demo
from chessrate.web import WebSettings, create_app
from chessrate.web.limits import DEFAULT_BODY, MAX_URL

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = str(tmp_path_factory.mktemp("refusals") / "demo.db")
    build_demo(db)
    return TestClient(create_app(WebSettings(list_db=db)))


def page(client: TestClient, method: str, url: str, language: str, **options: object) -> tuple[int, str]:
    """A browser's request: the status and the page's text."""
    answer = client.request(method, url, headers={"Accept": BROWSER, "Accept-Language": language}, **options)  # type: ignore[arg-type]
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["content-language"] == language
    assert "Accept-Language" in answer.headers["vary"]
    if answer.status_code != 404 or "/list/" not in url:  # a list's own 404 page is always a page
        assert "Accept" in {part.strip() for part in answer.headers["vary"].split(",")}
    text = html.unescape(answer.text)
    assert f'<html lang="{language}">' in text
    assert f'href="/game?lang={language}"' in text  # the way back, in the same language
    assert '<nav class="tabs"' in text  # the site's layout
    return answer.status_code, text


@pytest.mark.parametrize(
    ("language", "heading", "words"),
    [
        ("es", "No encontrado", "No hay nada en esta dirección."),
        ("ca", "No s’ha trobat", "No hi ha res en aquesta adreça."),
        ("en", "Not found", "There is nothing at this address."),
    ],
)
def test_no_page_here_is_a_page_in_the_readers_language(
    client: TestClient, language: str, heading: str, words: str
) -> None:
    status, text = page(client, "GET", "/nope", language)
    assert status == 404
    assert f"<h1>{heading}</h1>" in text
    assert words in text
    assert "Not Found" not in text


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "No hay nada en esta dirección."), ("ca", "No hi ha res en aquesta adreça.")],
)
def test_no_endpoint_here_is_json_in_the_readers_language(
    client: TestClient, language: str, words: str
) -> None:
    # The API answers JSON even to a browser.
    answer = client.get("/api/nope", headers={"Accept": BROWSER, "Accept-Language": language})
    assert answer.status_code == 404
    assert answer.json() == {"detail": words}
    assert answer.headers["content-language"] == language


def test_a_method_not_taken_keeps_405_and_its_allow_header(client: TestClient) -> None:
    answer = client.get("/api/game", headers={"Accept-Language": "es"})
    assert answer.status_code == 405
    assert answer.headers["allow"] == "POST"
    assert answer.json() == {"detail": "Esta dirección no admite peticiones GET."}
    status, text = page(client, "POST", "/help", "ca")
    assert status == 405
    assert "Aquesta adreça no admet peticions POST." in text


def test_a_body_too_large_is_said_in_the_readers_language(client: TestClient) -> None:
    body = b"x" * (DEFAULT_BODY + 1)
    answer = client.post("/api/game", content=body, headers={"Accept-Language": "ca"})
    assert answer.status_code == 413
    assert answer.json() == {"detail": "La petició ocupa més de 256 kB, el màxim que admet aquesta adreça."}
    status, text = page(client, "POST", "/game", "es", content=body)
    assert status == 413
    assert "La petición ocupa más de 256 kB, el máximo que admite esta dirección." in text


def test_a_url_too_long_is_a_page_in_the_readers_language(client: TestClient) -> None:
    status, text = page(client, "GET", "/game?rating=" + "1" * MAX_URL, "es")
    assert status == 414
    assert "La dirección tiene más de 8192 caracteres" in text
    assert "1111111111" not in text  # the long address is not repeated in the language links


def test_a_body_that_is_not_json_is_said_in_the_readers_language(client: TestClient) -> None:
    answer = client.post(
        "/api/game", content="{", headers={"Content-Type": "application/json", "Accept-Language": "es"}
    )
    assert answer.status_code == 422
    (problem,) = answer.json()["detail"]
    assert problem["type"] == "json_invalid"
    assert problem["msg"] == "el cuerpo no es JSON válido"
    assert problem["ctx"]["reason"] == "JSON decode error"  # pydantic's English kept as the reason


def test_an_event_that_is_not_an_id_is_not_found_as_a_player_is(client: TestClient) -> None:
    for url in ("/list/event/abc", "/list/player/abc"):
        status, text = page(client, "GET", url, "es")
        assert status == 404
        assert "<h1>No encontrado</h1>" in text
    assert "No hay ningún torneo abc." in page(client, "GET", "/list/event/abc", "es")[1]


@pytest.mark.parametrize(
    ("language", "words"),
    [("es", "falta este valor"), ("ca", "falta aquest valor"), ("en", "this value is missing")],
)
def test_a_missing_value_is_said_one_way(client: TestClient, language: str, words: str) -> None:
    headers = {"Accept-Language": language}
    # Left out of the body (pydantic) and sent blank (the request layer): the same words.
    left_out = client.post("/api/game", json={"opponent": 1600, "result": 1}, headers=headers)
    blank = client.post("/api/game", json={"rating": "", "opponent": 1600, "result": 1}, headers=headers)
    for answer in (left_out, blank):
        assert answer.status_code == 422
        (problem,) = answer.json()["detail"]
        assert problem["type"] == "missing"
        assert problem["loc"] == ["body", "rating"]
        assert problem["msg"] == words


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/api/game", {"rating": 1500, "opponent": 1600, "result": 1}),
        ("POST", "/api/game", {"rating": "x", "opponent": 1600, "result": 1}),
        ("POST", "/api/game", {"opponent": 1600}),
        ("GET", "/api/tables", None),
        ("GET", "/api/nope", None),
    ],
)
def test_api_answers_say_their_language(client: TestClient, method: str, url: str, body: object) -> None:
    answer = client.request(method, url, json=body, headers={"Accept-Language": "ca"})
    assert answer.headers["content-language"] == "ca"
    vary = {part.strip() for part in answer.headers["vary"].split(",")}
    assert {"Accept-Language", "Cookie"} <= vary
    assert client.request(method, url, json=body, params={"lang": "es"}).headers["content-language"] == "es"


def test_the_openapi_document_names_the_refusals(client: TestClient) -> None:
    responses = client.get("/openapi.json").json()["paths"]["/api/game"]["post"]["responses"]
    assert {"400", "413", "414", "422"} <= set(responses)
    assert "json_invalid" in responses["422"]["description"]
