"""A club server on the internet: limits, headers, numbers that used to give 500 (issue 12).

The rating-list admin is tested in tests/ratinglist/test_web_admin_security.py; a real uvicorn
(long URLs) in test_web_server.py.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from chessrate.web.calculator_pages import MODES
from chessrate.web.headers import CONTENT_SECURITY_POLICY
from chessrate.web.limits import DEFAULT_BODY, MAX_URL, UPLOAD_BODY

#: Every calculator mode's page, the tournament-file page and the help.
PAGES = [*(mode.path for mode in MODES), "/report", "/help"]


def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    for url in [*PAGES, "/api/tables", "/openapi.json", "/static/app.css", "/nowhere"]:
        headers = client.get(url).headers
        assert headers["x-content-type-options"] == "nosniff", url
        assert headers["x-frame-options"] == "DENY", url
        assert headers["referrer-policy"] == "same-origin", url
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, url
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "strict-transport-security" not in headers  # plain http: no HSTS


def test_hsts_only_over_https(app: FastAPI) -> None:
    secure = TestClient(app, base_url="https://testserver")
    assert secure.get("/game").headers["strict-transport-security"] == "max-age=31536000"


def test_no_page_has_inline_script_or_style(client: TestClient) -> None:
    # The CSP allows neither: every script and style must come from /static.
    for url in PAGES:
        html = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), url
        assert "<style" not in html, url
        assert not re.search(r"\sstyle=", html), url
        assert not re.search(r"\son[a-z]+=", html), url


def test_the_api_docs_allow_their_one_inline_script_by_hash(client: TestClient) -> None:
    response = client.get("/docs")
    (script,) = re.findall(r"<script>(.*?)</script>", response.text, flags=re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    policy = response.headers["content-security-policy"]
    assert f"'sha256-{digest}'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]


def test_a_long_url_is_answered_414(client: TestClient) -> None:
    response = client.get("/game?rating=" + "1" * MAX_URL)
    assert response.status_code == 414
    assert client.get("/game?rating=" + "1" * 100).status_code == 200


@pytest.mark.parametrize(("url", "limit"), [("/api/period", DEFAULT_BODY), ("/game", DEFAULT_BODY)])
def test_a_declared_body_over_the_limit_is_refused_unread(app: FastAPI, url: str, limit: int) -> None:
    status, read = call(app, url, chunks=[b"x" * 1000], content_length=limit + 1)
    assert status == 413
    assert read == 0  # not one chunk of the body was asked for


def test_a_streamed_body_over_the_limit_is_cut(app: FastAPI) -> None:
    # No Content-Length (chunked): reading stops at the limit.
    chunk = b'{"a": "' + b"x" * 60_000
    status, read = call(app, "/api/period", chunks=[chunk] * 20, content_length=None)
    assert status == 413
    assert read <= DEFAULT_BODY // len(chunk) + 1


def test_uploads_have_the_larger_limit(app: FastAPI) -> None:
    status, _ = call(app, "/report", chunks=[b"x"], content_length=UPLOAD_BODY + 1)
    assert status == 413
    assert UPLOAD_BODY > 20_000_000


def call(app: FastAPI, url: str, *, chunks: list[bytes], content_length: int | None) -> tuple[int, int]:
    """POST ``chunks`` to ``app`` at the ASGI level; the status and how many chunks it read."""
    headers = [(b"content-type", b"application/json")]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
        "root_path": "",
        "app": app,
    }
    pending: Iterator[bytes] = iter(chunks)
    read = 0
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        chunk = next(pending, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    # In a thread of its own: a browser test may have left an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    return statuses[0], read


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/game", '{"rating": 1500, "opponent": 1600, "result": 1, "as_of": 1e400}', "as_of"),
        ("/api/k-factor", '{"rating": 2100, "games_this_period": ' + "9" * 400 + "}", "games_this_period"),
        ("/api/glicko", {"deviation": "1e400", "games": [{"opponent": 1500, "deviation": 50, "result": 1}]},
         "deviation"),
        ("/api/glicko", '{"games": [{"opponent": 1500, "deviation": 1e400, "result": 1}]}', "deviation"),
        ("/api/tournament",
         {"rating": 1500, "rules": "elo", "k": "1e400", "games": [{"opponent": 1500, "result": 1}]}, "k"),
        ("/api/average",
         {"rating": 1500, "rules": "elo", "k": "1e400", "games": 5, "points": 3, "average": 1500}, "k"),
        ("/api/average", {"rating": 1500, "games": "1e400", "points": 3, "average": 1500}, "games"),
        ("/api/game", {"rating": "١٥٠٠", "opponent": 1600, "result": 1}, "rating"),
        ("/api/game", {"rating": "１５００", "opponent": 1600, "result": 1}, "rating"),
        ("/api/game", {"rating": 1500, "opponent": 1600, "result": 1, "rules": "elo", "k": 1001}, "k"),
        ("/api/k-factor", {"rating": 2100, "games_this_period": 10_001}, "games_this_period"),
    ],
)  # fmt: skip
def test_numbers_that_gave_500_give_422(client: TestClient, url: str, body: Any, field: str) -> None:
    if isinstance(body, str):  # JSON that Python would not write: 1e400, 400 digits
        response = client.post(url, content=body, headers={"content-type": "application/json"})
    else:
        response = client.post(url, json=body)
    assert response.status_code == 422, response.text
    assert field in {str(part) for problem in response.json()["detail"] for part in problem["loc"]}


def test_a_number_of_5000_digits_is_refused_as_unreadable_json(client: TestClient) -> None:
    # Python's json stops at 4,300 digits (int_max_str_digits): 400, documented, not 500.
    body = '{"rating": 2100, "games_this_period": ' + "9" * 5000 + "}"
    response = client.post("/api/k-factor", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400


def test_a_json_body_of_the_wrong_kind_is_refused(client: TestClient) -> None:
    assert client.post("/api/glicko", json={"days_idle": False, "games": []}).status_code == 422


def test_a_huge_games_count_on_the_average_page(client: TestClient) -> None:
    response = client.post(
        "/average", data={"rating": "1500", "games": "1e400", "points": "3", "average": "1500"}
    )
    assert response.status_code == 200
    match = re.search(r"data-errors='([^']*)'", response.text)
    assert match is not None
    assert "games" in json.loads(html.unescape(match.group(1)))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("overflow.pgn", b'[Event "E"]\n[Date "2024.01.99999999999999999999"]\n[White "A"]\n[Black "B"]\n'
         b'[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n'),
        ("overflow.trf", b"012 Club\n042 2024/01/99999999999999999999\n"
         b"001    1      Player, One                       1500\n"),
    ],
)  # fmt: skip
def test_an_overflowing_date_is_a_warning_not_a_500(client: TestClient, name: str, data: bytes) -> None:
    files = {"file": (name, data, "application/octet-stream")}
    api = client.post("/api/report", files=files)
    assert api.status_code in {200, 422}, api.text
    assert client.post("/report", files=files).status_code == 200
    assert client.post("/report.csv", files=files).status_code in {200, 422}


@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_report_csv_neutralises_formulas(client: TestClient, language: str) -> None:
    # The plain CSV (English) and the spreadsheet's CSV of Spanish and Catalan (";", decimal commas).
    pgn = (
        '[Event "E"]\n[Date "2024.05.01"]\n[White "=HYPERLINK(\\"x\\")"]\n[Black "@SUM(A1)"]\n'
        '[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n'
    )
    response = client.post(
        "/report.csv", files={"file": ("f.pgn", pgn.encode(), "text/plain")}, data={"lang": language}
    )
    assert response.status_code == 200
    assert (";" in response.text.splitlines()[0]) == (language != "en")
    assert "'=HYPERLINK" in response.text
    assert "'@SUM(A1)" in response.text
    assert not re.search(r'(^|[,;])"?[=@+]', response.text.lstrip("\ufeff"), flags=re.MULTILINE)


def test_the_tests_accessibility_checker_is_not_served(client: TestClient) -> None:
    # axe-core is for the browser tests only (injected from node_modules): the site does not ship it.
    assert client.get("/static/vendor/axe.min.js").status_code == 404
    assert client.get("/static/vendor/htmx.min.js").status_code == 200
