"""The strength page's games by username (issue 31) through the app, against a loopback server
standing in for Lichess and Chess.com: the games fetched, estimated and linked; each refusal a field
error in es, ca and en; the per-client limit; ``--no-fetch``; a client that leaves."""

from __future__ import annotations

import asyncio
import html
import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient

from chessrate.service.fetch import FetchInputs
from chessrate.service.language import translator
from chessrate.service.problems import Problems
from chessrate.web import WebSettings, create_app
from chessrate.web.fetches import ClientLimits, fetch_games

from .platform_server import Platform, send, stream, user_games

NDJSON = "application/x-ndjson"
USER = "Fetch_Tester-1"


def lichess_lines(count: int) -> list[bytes]:
    return [
        json.dumps({"id": f"game{n:04d}", "speed": "blitz", "pgn": pgn}).encode() + b"\n"
        for n, pgn in enumerate(user_games(USER, count))
    ]


def client_of(**settings: object) -> TestClient:
    """An app of its own (its own per-client counts), with these settings."""
    return TestClient(create_app(WebSettings(**settings)))  # type: ignore[arg-type]


@pytest.fixture
def both(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> Platform:
    """The loopback server as Lichess and as Chess.com."""
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", platform.url)
    monkeypatch.setenv("CHESSRATE_CHESSCOM_URL", platform.url)
    return platform


def field_error(page: str, name: str = "user") -> str:
    match = re.search(rf'<span class="error" id="error-{name}">([^<]*)</span>', page)
    assert match, f"no error slot for {name}"
    return html.unescape(match.group(1))


def test_lichess_games_by_username_without_javascript(both: Platform) -> None:
    lines = lichess_lines(2)
    both.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, lines)
    page = client_of().post("/strength", data={"platform": "lichess", "user": USER, "max": "2", "lang": "en"})
    assert page.status_code == 200, field_error(page.text)
    (seen,) = both.requests
    assert seen.path == f"/api/games/user/{USER}"
    assert seen.query["max"] == ["2"]  # the number asked for, within the web's 40
    assert seen.headers["Accept"] == NDJSON
    assert 'id="estimates"' in page.text
    rows = re.findall(r'<th scope="row" class="name">([^<]*)</th>\s*<td><strong>', page.text)
    assert rows == [USER]  # the user's estimate, as chessrate strength --lichess USER
    assert f"2 games of {USER} fetched from Lichess" in page.text
    for n in range(2):
        assert (
            f'<a href="{both.url}/game{n:04d}" rel="noopener noreferrer external">This game on Lichess</a>'
            in (page.text)
        )


def test_chesscom_games_by_username_as_a_job_in_spanish(both: Platform) -> None:
    base = "/pub/player/fetch_tester/games"
    games = [
        {"url": f"https://www.chess.com/game/live/{100 + n}", "pgn": pgn, "time_class": "blitz",
         "rules": "chess", "end_time": 1790000000 + n}
        for n, pgn in enumerate(user_games("Fetch_Tester", 2))
    ]  # fmt: skip
    archives = {"archives": [f"https://api.chess.com{base}/2026/11"]}
    both.routes[f"{base}/archives"] = lambda h: send(
        h, 200, "application/json", json.dumps(archives).encode()
    )
    both.routes[f"{base}/2026/11"] = lambda h: send(
        h, 200, "application/json", json.dumps({"games": games}).encode()
    )
    client = client_of()
    started = client.post(
        "/strength/jobs",
        data={"platform": "chesscom", "user": "Fetch_Tester", "max": "2", "speed": "blitz", "lang": "es"},
    )
    assert 'id="progress"' in started.text, started.text
    key = started.text.split('hx-get="/strength/jobs/')[1].split("?")[0]
    deadline = time.monotonic() + 60
    while 'id="progress"' in (answer := client.get(f"/strength/jobs/{key}?lang=es")).text:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    text = html.unescape(answer.text)
    assert 'id="estimates"' in text
    assert "2 partidas de Fetch_Tester descargadas de Chess.com" in text
    # Newest first: the month's last game is the first analysed.
    assert re.findall(
        r'<a href="([^"]+)" rel="noopener noreferrer external">Esta partida en Chess.com</a>', text
    ) == [
        "https://www.chess.com/game/live/101",
        "https://www.chess.com/game/live/100",
    ]
    assert [s.path for s in both.requests] == [f"{base}/archives", f"{base}/2026/11"]


def test_a_stream_cut_half_way_is_estimated_from_the_games_kept(both: Platform) -> None:
    lines = lichess_lines(3)
    chunks = [lines[0], lines[1][:40]]
    both.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, chunks, cut=True)
    page = client_of().post("/strength", data={"platform": "lichess", "user": USER, "max": "3", "lang": "ca"})
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert "1 partida de Fetch_Tester-1 baixada de Lichess" in text
    assert "la resposta de Lichess s’ha tallat a la partida 2: es conserva 1 partida sencera anterior" in text
    assert 'id="estimates"' in text


def _unknown(h: BaseHTTPRequestHandler) -> None:
    send(h, 404, "application/json", b'{"error":"Not found"}')


def _limited(h: BaseHTTPRequestHandler) -> None:
    send(h, 429, "application/json", b'{"error":"Too many requests"}', Retry_After="60")


def _html(h: BaseHTTPRequestHandler) -> None:
    send(h, 200, "text/html", b"<html>maintenance</html>")


def _empty(h: BaseHTTPRequestHandler) -> None:
    stream(h, NDJSON, [])


@pytest.mark.parametrize(
    ("answer", "fields", "lang", "said"),
    [
        (_unknown, {"user": "nobody_here"}, "es",
         "No hay ninguna cuenta de Lichess llamada «nobody_here» (no existe o está cerrada)."),
        (_unknown, {"user": "nobody_here"}, "en",
         "No Lichess account named “nobody_here” (unknown or closed)."),
        (_empty, {"user": USER, "speed": "rapid"}, "ca", f"«{USER}» no té partides rapid a Lichess."),
        (_empty, {"user": USER, "speed": "rapid"}, "en", f"“{USER}” has no rapid games on Lichess."),
        (_limited, {"user": USER}, "es",
         "Lichess está limitando nuestras peticiones (429): vuelve a intentarlo dentro de unos minutos."),
        (_limited, {"user": USER}, "en",
         "Lichess is limiting our requests (429): try again in a few minutes."),
        (_html, {"user": USER}, "ca",
         "Lichess ha respost una cosa diferent de les partides que documenta la seva API."),
        (_html, {"user": USER}, "en", "Lichess answered something other than the games its API documents."),
    ],
)  # fmt: skip
def test_each_refusal_is_a_field_error_in_the_pages_language(
    both: Platform,
    answer: object,
    fields: dict[str, str],
    lang: str,
    said: str,
) -> None:
    both.routes[f"/api/games/user/{fields['user']}"] = answer  # type: ignore[assignment]
    client = client_of()
    page = client.post("/strength", data={"platform": "lichess", "lang": lang, **fields})
    assert page.status_code == 422
    assert field_error(page.text) == said
    assert 'aria-invalid="true"' in page.text.split('id="f-user"')[1].split(">")[0]
    assert len(both.requests) == 1  # a 429 is reported, not waited out, on the web
    block = client.post("/strength/jobs", data={"platform": "lichess", "lang": lang, **fields})
    assert block.status_code == 200  # htmx swaps it; the message goes beside the field (errors-data)
    errors = json.loads(html.unescape(block.text.split("data-errors='")[1].split("'")[0]))
    assert errors == {"user": said}


def test_a_platform_that_never_answers_ends_at_the_web_deadline(
    silent: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", silent)
    start = time.monotonic()
    page = client_of(fetch_seconds=1.0).post(
        "/strength", data={"platform": "lichess", "user": USER, "lang": "en"}
    )
    assert time.monotonic() - start < 5
    assert page.status_code == 422
    assert field_error(page.text) == "Lichess did not answer within 1 s."


@pytest.mark.parametrize(
    ("platform_name", "user", "lang", "said"),
    [
        ("lichess", "a", "en",
         "Not a Lichess username: 2 to 30 letters, digits, _ or -, the first and last a letter or digit."),
        ("lichess", "x/../../admin", "ca",
         "No és un nom d’usuari de Lichess: de 2 a 30 lletres, xifres, _ o -, la primera i l’última, "
         "lletra o xifra."),
        ("chesscom", "https://evil.example/x", "es",
         "No es un nombre de usuario de Chess.com: de 3 a 20 letras, cifras, _ o -."),
        ("chesscom", "a" * 21, "en", "Not a Chess.com username: 3 to 20 letters, digits, _ or -."),
    ],
)  # fmt: skip
def test_a_username_the_platform_would_refuse_is_never_sent(
    both: Platform, platform_name: str, user: str, lang: str, said: str
) -> None:
    page = client_of().post("/strength", data={"platform": platform_name, "user": user, "lang": lang})
    assert page.status_code == 422
    assert field_error(page.text) == said
    assert both.requests == []


def test_a_platform_not_offered_and_too_many_games_are_field_errors(both: Platform) -> None:
    client = client_of()
    page = client.post("/strength", data={"platform": "evil.example", "user": USER, "lang": "en"})
    assert (page.status_code, field_error(page.text, "platform")) == (422, "Write one of: lichess, chesscom.")
    page = client.post("/strength", data={"platform": "lichess", "user": USER, "max": "41", "lang": "en"})
    assert (page.status_code, field_error(page.text, "max")) == (422, "It must be at most 40.")
    assert both.requests == []


def test_each_client_may_start_a_few_fetches_a_minute(both: Platform) -> None:
    both.routes["/api/games/user/nobody_here"] = _unknown
    client = client_of(fetch_per_minute=2)
    data = {"platform": "lichess", "user": "nobody_here", "lang": "en"}
    assert [client.post("/strength", data=data).status_code for _ in range(2)] == [422, 422]
    page = client.post("/strength", data=data)
    assert page.status_code == 429
    assert 0 < int(page.headers["Retry-After"]) <= 60
    assert field_error(page.text) == "At most 2 fetches a minute from one address: try again in a minute."
    assert len(both.requests) == 2  # the third never reached the platform
    assert "at most 2 fetches a minute from one address, 30 seconds each" in html.unescape(
        client.get("/strength").text
    )


def test_client_limits_count_a_sliding_minute() -> None:
    limits = ClientLimits(2)
    assert [limits.start("a", now) for now in (0.0, 10.0)] == [0.0, 0.0]
    assert limits.start("a", 20.0) == 40.0  # the first frees at 60 s
    assert limits.start("b", 20.0) == 0.0  # another address counts on its own
    assert limits.start("a", 60.0) == 0.0


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", "En este servidor está desactivada la descarga de partidas por nombre de usuario"),
        ("ca", "En aquest servidor està desactivada la baixada de partides per nom d’usuari"),
        ("en", "Fetching games by username is turned off on this server (chessrate serve --no-fetch)"),
    ],
)
def test_no_fetch_turns_it_off_and_the_page_says_so(both: Platform, lang: str, said: str) -> None:
    client = client_of(fetch_games=False)
    page = html.unescape(client.get(f"/strength?lang={lang}").text)
    assert said in page
    assert 'id="f-user"' not in page
    refused = client.post("/strength", data={"platform": "lichess", "user": USER, "lang": lang})
    assert refused.status_code == 422
    assert field_error(refused.text).startswith(said)
    assert both.requests == []


def test_a_username_and_a_pgn_together_are_refused(both: Platform) -> None:
    page = client_of().post("/strength", data={"pgn": "1. e4 e5 *", "platform": "lichess", "user": USER})
    assert (page.status_code, field_error(page.text)) == (
        422,
        "Give a username or the games (PGN), not both.",
    )
    assert both.requests == []


def test_a_client_that_leaves_stops_the_fetch(both: Platform) -> None:
    sent: list[int] = []
    lines = lichess_lines(1) * 60

    def slowly(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", NDJSON)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        try:
            for line in lines:
                h.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                h.wfile.flush()
                sent.append(1)
                time.sleep(0.2)
        except OSError:  # the fetch stopped reading and closed the connection
            return

    both.routes[f"/api/games/user/{USER}"] = slowly
    left = threading.Event()
    threading.Timer(0.6, left.set).start()

    async def is_disconnected() -> bool:
        return left.is_set()

    request = SimpleNamespace(
        app=SimpleNamespace(state=SimpleNamespace(site=SimpleNamespace(settings=WebSettings()))),
        client=SimpleNamespace(host="192.0.2.1"),
        is_disconnected=is_disconnected,
    )
    start = time.monotonic()
    problems = Problems(translator("en"))
    fetch = fetch_games(request, FetchInputs(platform="lichess", user=USER, max_games="40"), problems, 30.0)  # type: ignore[arg-type]
    # In a thread of its own: a browser test (tests/web) may have left an event loop running in this one.
    with ThreadPoolExecutor(1) as thread:
        ended = thread.submit(asyncio.run, fetch).result()
    assert ended.gone
    assert time.monotonic() - start < 5  # the request ends at once (0.6 s, then a poll of 0.5 s)
    time.sleep(1.5)  # the fetch stops at its next line (one every 0.2 s) and closes the connection
    stopped_at = len(sent)
    time.sleep(1.5)
    assert len(sent) == stopped_at < 40  # nothing more is read once its client has gone
