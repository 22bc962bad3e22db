"""The rating list's own refusals on the admin page, in the reader's language (their codes): a file
imported twice, a period out of order, the database refusing to write. Never the store's English."""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from chessrate.ratinglist.demo import build_demo
from chessrate.ratinglist.store import init_store
from chessrate.web import WebSettings, create_app

PASSWORD = "correct horse battery"
SWISS = Path(__file__).resolve().parents[1] / "data/trf/swiss-9-rounds.trf"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = str(tmp_path_factory.mktemp("admin-refusals") / "demo.db")
    build_demo(db)  # swiss-9-rounds.trf is one of its events
    return TestClient(create_app(WebSettings(list_db=db, list_admin_password=PASSWORD)))


def signed_in(client: TestClient, language: str) -> str:
    """Sign in; the admin form's token."""
    headers = {"Accept-Language": language}
    page = client.get("/list/admin", headers=headers).text
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found is not None
    client.post("/list/admin/login", data={"password": PASSWORD, "token": found.group(1)}, headers=headers)
    found = re.search(r'name="token" value="([^"]+)"', client.get("/list/admin", headers=headers).text)
    assert found is not None
    return found.group(1)


def message(page: str) -> str:
    found = re.search(r'<p class="notice" id="admin-message" role="alert">(.*?)</p>', page, re.S)
    assert found is not None, page
    return " ".join(html.unescape(found.group(1)).split())


def import_swiss(client: TestClient, language: str) -> tuple[int, str]:
    answer = client.post(
        "/list/admin/import",
        data={"token": signed_in(client, language)},
        files={"file": ("swiss-9-rounds.trf", SWISS.read_bytes())},
        headers={"Accept-Language": language},
    )
    return answer.status_code, message(answer.text)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", r"ya se importó como torneo \d+ «[^»]+» desde swiss-9-rounds\.trf; no se ha importado nada"),
        (
            "ca",
            r"ja es va importar com a torneig \d+ «[^»]+» des de swiss-9-rounds\.trf; no s’ha importat res",
        ),
        ("en", r"was already imported as event \d+ “[^”]+” from swiss-9-rounds\.trf; nothing was imported"),
    ],
)
def test_a_file_imported_twice_is_said_in_the_readers_language(
    client: TestClient, language: str, said: str
) -> None:
    status, shown = import_swiss(client, language)
    assert status == 422
    assert re.search(r"swiss-9-rounds\.trf " + said, shown), shown
    assert "in English" not in shown
    assert "sha256" not in shown  # the store's English sentence is not shown


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "el periodo 2035-01 no se puede calcular antes que el 2026-03: calcula los periodos en orden"),
        ("ca", "el període 2035-01 no es pot calcular abans del 2026-03: calcula els períodes en ordre"),
        ("en", "period 2035-01 cannot be run before 2026-03: run the periods in order"),
    ],
)
def test_a_period_out_of_order_is_said_in_the_readers_language(
    client: TestClient, language: str, said: str
) -> None:
    answer = client.post(
        "/list/admin/run",
        data={"token": signed_in(client, language), "period": "2035-01"},
        headers={"Accept-Language": language},
    )
    assert answer.status_code == 422
    assert said in message(answer.text)


@pytest.fixture
def read_only() -> Iterator[Callable[[], None]]:
    """Once called: every new SQLite connection refuses to write (``PRAGMA query_only``), as a
    read-only file does."""

    def refuse(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.execute("PRAGMA query_only = ON")

    yield lambda: event.listen(Engine, "connect", refuse)
    if event.contains(Engine, "connect", refuse):
        event.remove(Engine, "connect", refuse)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "la base de datos ha rechazado la importación de swiss-9-rounds.trf y no se ha importado nada "
         "(lo explica en inglés: attempt to write a readonly database)"),
        ("ca", "la base de dades ha rebutjat la importació de swiss-9-rounds.trf i no s’ha importat res "
         "(ho explica en anglès: attempt to write a readonly database)"),
    ],
)  # fmt: skip
def test_the_database_refusing_the_import_is_one_line(
    tmp_path: Path, read_only: Callable[[], None], language: str, said: str
) -> None:
    db = str(tmp_path / "read-only.db")
    init_store(db).dispose()
    read_only()
    client = TestClient(create_app(WebSettings(list_db=db, list_admin_password=PASSWORD)))
    status, shown = import_swiss(client, language)
    assert status == 422
    assert said in shown


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "no es una base de datos de chessrate"),
        ("ca", "no és una base de dades de chessrate"),
        ("en", "is not a chessrate store"),
    ],
)
def test_a_file_that_is_not_a_store_is_said_on_every_list_page(
    tmp_path: Path, language: str, said: str
) -> None:
    not_a_store = tmp_path / "notes.txt"
    not_a_store.write_text("not a database\n")
    client = TestClient(create_app(WebSettings(list_db=str(not_a_store))))
    for path in ("/list", "/list/events", "/list/event/1", "/list/player/1"):
        answer = client.get(path, headers={"Accept-Language": language})
        assert answer.status_code == 503, (path, answer.status_code)
        assert f"{not_a_store} {said}" in html.unescape(answer.text)
