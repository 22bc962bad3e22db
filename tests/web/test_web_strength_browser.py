"""The "Strength from the moves" tab in a real browser (Debian's chromium, Playwright), es/ca/en.

A real game is pasted, the progress block appears, then the estimate as a range and one uPlot chart
per game. Every request the page makes is recorded: none may leave the machine.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import chess.pgn
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect

from chessrate.web import WebSettings, create_app
from chessrate.web.assets import INSTALL_HINT, missing_assets

LICHESS = Path(__file__).parents[1] / "data" / "pgn" / "lichess-export.pgn"
REQUESTS: list[str] = []


def two_short_games() -> str:
    with LICHESS.open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return "\n\n".join(str(g) for g in sorted(games, key=lambda g: len(list(g.mainline_moves())))[:2])


@pytest.fixture(scope="module")
def base_url(settings: WebSettings) -> Iterator[str]:
    missing = missing_assets(settings.static)
    if missing:
        pytest.fail(f"web assets missing ({', '.join(missing)}): {INSTALL_HINT}")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.on("request", lambda request: REQUESTS.append(request.url))
    yield tab
    context.close()


@pytest.mark.parametrize(
    ("lang", "button", "range_header", "scale", "open_words"),
    [
        ("es", "Analizar", "Rango", "Escala: puntuación de Lichess de 2016–17", ("al menos", "como mucho")),
        (
            "ca",
            "Analitza",
            "Interval",
            "Escala: puntuació de Lichess del 2016–17",
            ("com a mínim", "com a màxim"),
        ),
        ("en", "Analyse", "Range", "Scale: Lichess rating of 2016–17", ("at least", "at most")),
    ],
)
def test_paste_watch_progress_see_chart_and_range(
    page: Page,
    base_url: str,
    lang: str,
    button: str,
    range_header: str,
    scale: str,
    open_words: tuple[str, str],
) -> None:
    page.goto(f"{base_url}/strength?lang={lang}")
    page.locator("#f-pgn").fill(two_short_games())
    page.get_by_role("button", name=button).click()
    expect(page.locator("#progress")).to_be_attached()  # the job's progress block comes first
    expect(page.locator("#estimates")).to_be_visible(timeout=60_000)
    expect(page.locator("#estimates thead")).to_contain_text(range_header)
    rows = page.locator("#estimates tbody tr")
    expect(rows).to_have_count(4)
    # A range "1450 – 1900", or an open one in words ("at least 2400", "at most 1100").
    cell = rows.first.locator("td.range").inner_text()
    estimate = int(rows.first.locator("td strong").inner_text())
    numbers = [int(n) for n in re.findall(r"\d+", cell)]
    if cell.startswith(open_words[0]):
        assert numbers[0] <= estimate
    elif cell.startswith(open_words[1]):
        assert estimate <= numbers[0]
    else:
        low, high = numbers
        assert low <= estimate <= high
    expect(page.locator("#scale")).to_contain_text(scale)
    expect(page.locator(".eval-chart[data-ready='true']")).to_have_count(2)
    expect(page.locator(".eval-chart canvas").first).to_be_visible()


def test_no_request_leaves_the_machine(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/strength")
    own = urlsplit(base_url).netloc
    assert REQUESTS
    assert [url for url in REQUESTS if urlsplit(url).scheme != "data" and urlsplit(url).netloc != own] == []
