"""Fixtures of the web tests: the app with a fixed day, a TestClient, and for the browser tests one
chromium and the app served on a free localhost port (shared by every browser test of the session)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Playwright, expect, sync_playwright

from chessrate.web import WebSettings, create_app
from chessrate.web.assets import INSTALL_HINT, missing_assets

from .browser_support import CHROMIUM, CHROMIUM_ARGS, TODAY, serve

# A live update waits for the server: on a loaded 2-core machine 5 s (Playwright's default) was
# not always enough, and a wait that times out is a failure whatever the page would have shown.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def settings() -> WebSettings:
    return WebSettings(today=lambda: TODAY)


@pytest.fixture(scope="session")
def app(settings: WebSettings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    """A client of its own for each test: no language cookie carried over."""
    return TestClient(app)


@pytest.fixture(scope="session")
def base_url(settings: WebSettings) -> Iterator[str]:
    missing = missing_assets(settings.static)
    if missing:
        pytest.fail(f"web assets missing ({', '.join(missing)}): {INSTALL_HINT}")
    with serve(create_app(settings)) as url:
        yield url


# One Playwright driver and one browser for every browser test module (two sync drivers cannot run at once).
@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    # Debian's chromium (apt-get install chromium); Playwright never downloads a browser here.
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()
