"""The Content-Security-Policy in a real browser: no page, nor the API's /docs, breaks a rule of it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import uvicorn
from playwright.sync_api import sync_playwright

from chessrate.web import WebSettings, create_app
from chessrate.web.calculator_pages import MODES
from chessrate.web.server import listening_socket

CHROMIUM = "/usr/bin/chromium"
PAGES = [*(mode.path for mode in MODES), "/report", "/help"]


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    sock = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(WebSettings()), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(timeout=5)


def visit_every_page(base_url: str) -> list[str]:
    """Open every page and /docs in Chromium; the CSP violations the console reported."""
    violations: list[str] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page()
        page.on(
            "console",
            lambda message: (
                violations.append(message.text) if "Content Security Policy" in message.text else None
            ),
        )
        for path in PAGES:
            page.goto(base_url + path)
            page.wait_for_load_state("networkidle")
        page.goto(base_url + "/game?rating=1500&games-0-opponent=1600&games-0-result=1")
        page.wait_for_load_state("networkidle")
        page.goto(base_url + "/docs")
        page.wait_for_selector(".swagger-ui .info .title", timeout=20_000)  # its script ran
        browser.close()
    return violations


def test_no_csp_violation_on_any_page(base_url: str) -> None:
    # In a thread of its own: the other browser tests keep Playwright's event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(visit_every_page, base_url).result() == []
