"""The strength tab by username in a real browser (Debian's chromium, Playwright), es/ca/en (issue 31).

Two loopback servers stand in for Lichess and Chess.com (``CHESSRATE_LICHESS_URL``,
``CHESSRATE_CHESSCOM_URL``): a username goes in, the estimate and a link to each game on its
platform come out; a refusal is said beside the username field; ``serve --no-fetch``'s page says
the fetch is off. axe-core checks each page shown. The page itself asks nothing of any other host.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from chessrate.web import WebSettings, create_app

# The loopback platform server of the fetch tests (tests/platforms), shared rather than copied.
from ..platforms.platform_server import Platform, send, serve_platform, stream, user_games
from .browser_support import AXE, serve

NDJSON = "application/x-ndjson"
LICHESS_USER = "Browser_Tester"
CHESSCOM_USER = "Browser-Tester"


@pytest.fixture(scope="module")
def platforms() -> Iterator[tuple[Platform, Platform]]:
    """Lichess and Chess.com on the loopback, each with one user of two games."""
    with serve_platform() as lichess, serve_platform() as chesscom, pytest.MonkeyPatch.context() as env:
        lines = [
            json.dumps({"id": f"brows{n:03d}", "speed": "blitz", "pgn": pgn}).encode() + b"\n"
            for n, pgn in enumerate(user_games(LICHESS_USER, 2))
        ]
        lichess.routes[f"/api/games/user/{LICHESS_USER}"] = lambda h: stream(h, NDJSON, lines)
        base = f"/pub/player/{CHESSCOM_USER.lower()}/games"
        month = json.dumps({"games": [
            {"url": f"https://www.chess.com/game/live/{900 + n}", "pgn": pgn, "time_class": "rapid",
             "rules": "chess", "end_time": 1790000000 + n}
            for n, pgn in enumerate(user_games(CHESSCOM_USER, 2))
        ]}).encode()  # fmt: skip
        archives = json.dumps({"archives": [f"https://api.chess.com{base}/2026/11"]}).encode()
        chesscom.routes[f"{base}/archives"] = lambda h: send(h, 200, "application/json", archives)
        chesscom.routes[f"{base}/2026/11"] = lambda h: send(h, 200, "application/json", month)
        env.setenv("CHESSRATE_LICHESS_URL", lichess.url)
        env.setenv("CHESSRATE_CHESSCOM_URL", chesscom.url)
        yield lichess, chesscom


@pytest.fixture(scope="module")
def fetch_url(platforms: tuple[Platform, Platform]) -> Iterator[str]:
    # Every test of the module fetches from 127.0.0.1: a limit the tests do not reach.
    with serve(create_app(WebSettings(fetch_per_minute=100))) as url:
        yield url


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(path=AXE)
    tab = context.new_page()
    yield tab
    context.close()


def serious_violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
                .filter(v => v.impact === "serious" || v.impact === "critical")
                .map(v => v.id + ": " + v.nodes.map(n => n.target.join(" ")).slice(0, 3).join(", "));
        }"""
    )
    return found


@pytest.mark.parametrize(
    ("lang", "platform", "user", "button", "fetched", "link_text", "links"),
    [
        ("es", "lichess", LICHESS_USER, "Analizar", f"2 partidas de {LICHESS_USER} descargadas de Lichess",
         "Esta partida en Lichess", None),
        ("ca", "chesscom", CHESSCOM_USER, "Analitza", f"2 partides de {CHESSCOM_USER} baixades de Chess.com",
         "Aquesta partida a Chess.com",
         ["https://www.chess.com/game/live/901", "https://www.chess.com/game/live/900"]),
        ("en", "lichess", LICHESS_USER, "Analyse", f"2 games of {LICHESS_USER} fetched from Lichess",
         "This game on Lichess", None),
    ],
)  # fmt: skip
def test_a_username_in_the_estimate_and_game_links_out(
    page: Page,
    fetch_url: str,
    platforms: tuple[Platform, Platform],
    lang: str,
    platform: str,
    user: str,
    button: str,
    fetched: str,
    link_text: str,
    links: list[str] | None,
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{fetch_url}/strength?lang={lang}")
    page.locator("#f-platform").select_option(platform)
    page.locator("#f-user").fill(user)
    page.locator("#f-max").fill("2")
    page.get_by_role("button", name=button).click()
    expect(page.locator("#estimates")).to_be_visible(timeout=90_000)
    expect(page.locator("#estimates tbody th")).to_have_text([user])
    expect(page.locator("#fetched")).to_contain_text(fetched)
    anchors = page.get_by_role("link", name=link_text)
    expect(anchors).to_have_count(2)
    hrefs = [anchors.nth(n).get_attribute("href") for n in range(2)]
    lichess_url = platforms[0].url
    assert hrefs == (links or [f"{lichess_url}/brows000", f"{lichess_url}/brows001"])
    assert serious_violations(page) == []
    # The browser asked only the app: the platforms were asked by the server.
    own = urlsplit(fetch_url).netloc
    assert [url for url in requests if urlsplit(url).scheme != "data" and urlsplit(url).netloc != own] == []


def test_an_unknown_user_is_said_beside_the_field(page: Page, fetch_url: str) -> None:
    page.goto(f"{fetch_url}/strength?lang=es")
    page.locator("#f-user").fill("nobody_here")
    page.get_by_role("button", name="Analizar").click()
    error = page.locator("#error-user")
    expect(error).to_have_text(
        "No hay ninguna cuenta de Lichess llamada «nobody_here» (no existe o está cerrada)."
    )
    expect(page.locator("#f-user")).to_have_attribute("aria-invalid", "true")
    assert serious_violations(page) == []


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("es", "En este servidor está desactivada la descarga de partidas por nombre de usuario"),
        ("ca", "En aquest servidor està desactivada la baixada de partides per nom d’usuari"),
        ("en", "Fetching games by username is turned off on this server"),
    ],
)
def test_no_fetch_page_says_it_is_off(browser: Browser, lang: str, said: str) -> None:
    with serve(create_app(WebSettings(fetch_games=False))) as url:
        context = browser.new_context()
        context.add_init_script(path=AXE)
        page = context.new_page()
        page.goto(f"{url}/strength?lang={lang}")
        expect(page.locator("#fetch-off")).to_contain_text(said)
        expect(page.locator("#f-user")).to_have_count(0)
        assert serious_violations(page) == []
        context.close()
