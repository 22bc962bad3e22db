"""The web's last rough spots of issue 27, each in a real browser (Debian's chromium, Playwright), with
the console's errors counted on every page: none.

- one request per change when a result is clicked right after typing (/game, /average, /glicko, on a
  desktop and a phone), and no htmx:afterRequest or htmx:sendAbort error;
- the date field keeps a visible focus ring while its calendar button has the focus;
- every system's page names its own rating, and the stakes panel writes its changes with the same
  decimals on every row;
- the link "Copy link" copies keeps the page's language;
- the report with a FIDE list says how many of the file's players the list holds;
- the strength chart's legend shows no "--" before the pointer is on it.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Request, expect

from chessrate.formats import read_tournament
from chessrate.formats.fide_list_synthetic import SyntheticEntry, write_txt

from .browser_support import DATA

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


class Watched:
    """A tab, the console errors it logged and the calculator posts it made."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.posts: list[str] = []
        page.on("console", self._console)
        page.on("request", self._request)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def _request(self, request: Request) -> None:
        if request.method == "POST":
            self.posts.append(request.url)

    def settle(self) -> None:
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(400)  # past the 120 ms of the input trigger, and its answer
        self.page.wait_for_load_state("networkidle")


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def watched(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Watched]:
    context = browser.new_context(locale="en-GB", viewport=request.param)
    yield Watched(context.new_page())
    context.close()


@pytest.fixture
def tab(browser: Browser) -> Iterator[Watched]:
    context = browser.new_context(locale="en-GB", viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield Watched(context.new_page())
    context.close()


def _one_request_per_change(w: Watched, path: str, typed: str, value: str, click: str) -> None:
    page = w.page
    page.goto(path)
    page.locator("#f-rating").press_sequentially("1500")
    w.settle()
    before = len(w.posts)
    page.locator(typed).fill(value)  # a value typed, then a click at once: one change
    page.locator(click).check()
    w.settle()
    assert len(w.posts) - before == 1, w.posts[before:]
    expect(page.locator("#result-body")).to_be_visible()
    assert w.errors == []


def test_game_one_request_per_change(watched: Watched, base_url: str) -> None:
    _one_request_per_change(watched, f"{base_url}/game", "#f-opponent", "1700", "#f-result-1")
    expect(watched.page.locator("#new-rating")).to_have_text("1515")  # K 20: 20 x (1 - .24) = +15.2


def test_average_one_request_per_change(watched: Watched, base_url: str) -> None:
    page = watched.page
    page.goto(f"{base_url}/average")
    page.locator("#f-games").fill("5")
    page.locator("#f-points").fill("3")
    watched.settle()
    _one_request_per_change(watched, page.url, "#f-average", "1550", "#f-expected-formula")


def test_glicko_one_request_per_change(watched: Watched, base_url: str) -> None:
    _one_request_per_change(watched, f"{base_url}/glicko", "#f-games-0-opponent", "1400", "#f-system-glicko2")


def test_the_date_fields_calendar_button_keeps_the_focus_ring(tab: Watched, base_url: str) -> None:
    # "From 'Reglamento', Tab four times": the day, month and year, then the calendar button.
    page = tab.page
    page.goto(f"{base_url}/game?lang=es")
    page.locator("#f-rules").focus()
    rings = []
    for _ in range(4):
        page.keyboard.press("Tab")
        rings.append(
            page.evaluate(
                "() => { const e = document.activeElement, s = getComputedStyle(e);"
                " return [e.id, s.outlineStyle, s.outlineWidth]; }"
            )
        )
    assert rings[-1] == ["f-as_of", "solid", "3px"], rings
    assert all(ring == ["f-as_of", "solid", "3px"] for ring in rings), rings
    assert tab.errors == []


@pytest.mark.parametrize(
    ("path", "language", "headline"),
    [
        ("/dwz?rating=1000&age=15&index=1&games-0-opponent=1200&games-0-result=1", "en", "New DWZ"),
        ("/dwz?rating=1000&age=15&index=1&games-0-opponent=1200&games-0-result=1", "es", "Nueva DWZ"),
        ("/ecf?rating=1800&games-0-opponent=1800&games-0-result=1", "en", "New ECF rating"),
        ("/uscf?rating=1700&games_played=30&games-0-opponent=1700&games-0-result=1", "en",
         "New US Chess rating"),
        ("/glicko?system=lichess&games-0-opponent=1500&games-0-deviation=500&games-0-result=1", "en",
         "New Lichess rating"),
        ("/glicko?system=glicko2&rating=1500&deviation=200&volatility=0.06&games-0-opponent=1400"
         "&games-0-deviation=30&games-0-result=1", "en", "New Glicko-2 rating"),
        ("/chesscom?level=beginner&games-0-opponent=900&games-0-deviation=350&games-0-result=1", "en",
         "New Chess.com rating (estimate)"),
    ],
)  # fmt: skip
def test_every_system_page_names_its_own_rating(
    tab: Watched, base_url: str, path: str, language: str, headline: str
) -> None:
    page = tab.page
    page.goto(f"{base_url}{path}&lang={language}")
    expect(page.locator(".headline .label")).to_have_text(headline)
    assert "Elo" not in page.locator(".headline").inner_text()
    assert tab.errors == []


def test_the_dwz_stakes_panel_names_the_dwz_and_writes_two_decimals(tab: Watched, base_url: str) -> None:
    # [DWZ-EXAMPLE]: 1000 v 1200, juniors, Index 1: win 1101 / 1132, draw 1035 / 1177, loss 985 / 1232.
    page = tab.page
    page.goto(f"{base_url}/dwz?rating=1000&age=15&index=1&games-0-opponent=1200&games-0-result=1&lang=es")
    header = page.locator("#stakes thead").inner_text()
    assert "Tu nueva DWZ" in header
    assert "Nueva DWZ del rival" in header
    assert "Elo" not in header
    changes = page.locator("#stakes .stakes-change, #stakes .stakes-opponent-change").all_inner_texts()
    assert len(changes) == 6
    assert all(len(text.split(",")[1]) == 2 for text in changes), changes
    expect(page.locator("#stakes-draw .stakes-change")).to_have_text("+34,70")
    assert tab.errors == []


def test_copy_link_keeps_the_language(tab: Watched, base_url: str) -> None:
    page = tab.page
    page.goto(f"{base_url}/game?lang=es")
    page.locator("#f-rating").press_sequentially("1500")
    page.locator("#f-opponent").press_sequentially("1600")
    page.locator("#f-result-0\\.5").check()
    expect(page).to_have_url(re.compile(r"opponent=1600"))
    assert "lang=es" in page.url
    page.locator("#copy-link").click()
    expect(page.locator("#share-status")).not_to_be_empty()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "lang=es" in copied
    assert "opponent=1600" in copied
    assert tab.errors == []


def test_the_report_says_how_many_players_the_fide_list_holds(
    tab: Watched, base_url: str, tmp_path: Path
) -> None:
    example = DATA / "trf/fide-example.trf"
    players = [p for p in read_tournament(example).tournament.players if p.fide_id]
    listed = players[:3]  # a list that holds three of the file's players
    entries = [
        SyntheticEntry(
            fide_id=p.fide_id or 0, name=p.name, federation="GER", sex="M",
            lists={"standard": (p.rating, 0, 20)}, birth_year=1975,
        )
        for p in listed
    ]  # fmt: skip
    buffer = io.BytesIO()
    write_txt(buffer, entries, list_type="standard", month=dt.date(2005, 7, 1))
    players_list = tmp_path / "standard_jul05frl.txt"
    players_list.write_bytes(buffer.getvalue())
    page = tab.page
    page.goto(f"{base_url}/report?lang=en")
    # Each change posts the form; a second change before the first answer would replace it
    # (hx-sync "this:replace"), which htmx logs as an aborted request: let the first one answer.
    with page.expect_response(lambda answer: answer.url.endswith("/report")):
        page.locator("#f-players_list").set_input_files(str(players_list))
    page.locator("#f-file").set_input_files(str(example))
    total = len(read_tournament(example).tournament.players)
    expect(page.locator("#players-found")).to_have_text(
        f"3 of the file’s {total} players found in the list ({len(players)} with a FIDE id)"
    )
    assert tab.errors == []


def _short_game() -> str:
    with (DATA / "pgn" / "lichess-export.pgn").open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return str(min(games, key=lambda g: len(list(g.mainline_moves()))))


def test_the_strength_charts_legend_shows_no_dashes_before_hover(tab: Watched, base_url: str) -> None:
    page = tab.page
    page.goto(f"{base_url}/strength?lang=es")
    page.locator("#f-pgn").fill(_short_game())
    page.get_by_role("button", name="Analizar").click()
    expect(page.locator(".eval-chart[data-ready='true']")).to_have_count(1, timeout=60_000)
    legend = page.locator(".eval-chart .u-legend").first.inner_text()
    assert "--" not in legend, legend
    assert "Jugada" in legend
    assert tab.errors == []
