"""The calculator in a real browser: Debian's chromium, headless, driven by Playwright.

The app runs under uvicorn in a background thread on a free localhost port. Every request the page
makes is recorded: none may go to another host.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .browser_support import DATA, REQUESTS


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-GB", viewport={"width": 1200, "height": 900})
    tab = context.new_page()
    tab.on("request", lambda request: REQUESTS.append(request.url))
    yield tab
    context.close()


def test_guide_three_games_live(page: Page, base_url: str) -> None:
    # [ELO-GUIDE]: K 20, 1500: win v 1400, draw v 1600, loss v 1550: "+1,4, así que el nuevo Elo es 1501".
    page.goto(f"{base_url}/tournament")
    page.get_by_label("Your rating", exact=True).fill("1500")
    page.get_by_label("K-factor").select_option("20")
    for index, (opponent, result) in enumerate([("1400", "1"), ("1600", "½"), ("1550", "0")]):
        page.locator(f"#f-games-{index}-opponent").press_sequentially(opponent)
        page.locator(f"#f-games-{index}-result").press_sequentially(result)
    expect(page.locator("#change")).to_have_text("+1.4")
    expect(page.locator("#new-rating")).to_have_text("1501")
    expect(page.locator("#result")).to_contain_text("A draw against a stronger player gains points")


def test_ciabe_tournament_with_ciabe_rules(page: Page, base_url: str) -> None:
    # [CIABE]: 1800, opponents 1500..2000, 4.5 points, Ciabe's K 15: 17.25 -> 1817.
    page.goto(f"{base_url}/tournament")
    page.get_by_label("Your rating", exact=True).fill("1800")
    page.get_by_role("radio", name="total points").check()
    for added in range(3, 7):  # three rows to start with; wait for each new row before the next click
        page.get_by_role("button", name="+ Add a game").click()
        expect(page.locator(f"#f-games-{added}-opponent")).to_be_visible()
    page.get_by_role("button", name="Remove game 7").click()
    expect(page.locator("#f-games-6-opponent")).to_have_count(0)
    expect(page.locator("#f-games-5-opponent")).to_be_focused()  # the focus moves once the rows settle
    for index, opponent in enumerate(["1500", "1600", "1700", "1800", "1900", "2000"]):
        page.locator(f"#f-games-{index}-opponent").fill(opponent)
    page.get_by_label("Total points", exact=True).fill("4,5")
    page.get_by_label("Rule set").select_option("ciabe")
    expect(page.locator("#new-rating")).to_have_text("1817")
    expect(page.locator("#change")).to_have_text("+17.25")
    expect(page.locator("#k")).to_have_text("15")


def test_switch_to_catalan_keeps_the_values(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/game")
    page.get_by_label("Your rating", exact=True).fill("1500")
    page.get_by_label("Opponent’s rating").fill("1400")
    page.get_by_label("Win").check()
    expect(page.locator("#expected")).to_have_text("0.64")
    page.get_by_role("link", name="Català").click()
    expect(page.locator("html")).to_have_attribute("lang", "ca")
    expect(page.locator("#expected")).to_have_text("0,64")
    expect(page.locator("#change")).to_have_text("+7,2")
    page.get_by_label("El teu Elo", exact=True).fill("1500,5")
    expect(page.locator("#new-rating")).to_have_text("1507,5")


def test_bad_rating_shows_its_message_and_the_page_keeps_working(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/game")
    page.get_by_label("Your rating", exact=True).fill("15OO")
    page.get_by_label("Opponent’s rating").fill("1600")
    page.get_by_label("Draw").check()
    expect(page.locator("#error-rating")).to_have_text(
        "“15OO” is not a rating: write a number from 0 to 4000, such as 1500."
    )
    expect(page.locator("#f-rating")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Your rating", exact=True).fill("1500")
    expect(page.locator("#error-rating")).to_have_text("")
    expect(page.locator("#f-rating")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#new-rating")).to_have_text("1503")


def test_chart_renders_with_the_game_marked(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/game?rating=1500&opponent=1600&result=0.5")
    expect(page.locator("#chart")).to_have_attribute("data-ready", "true")
    canvas = page.locator("#chart canvas")
    expect(canvas).to_have_count(1)
    assert canvas.bounding_box()["width"] > 200  # type: ignore[index]
    expect(page.locator("#chart-marks")).to_have_attribute("data-marks", "[[-100.0, 0.36]]")


def test_works_with_javascript_off(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.on("request", lambda request: REQUESTS.append(request.url))
    page.goto(f"{base_url}/tournament")
    page.locator("#f-rating").fill("1500")
    page.locator("#f-k_preset").select_option("20")
    for index, (opponent, result) in enumerate([("1400", "1"), ("1600", "tablas"), ("1550", "0")]):
        page.locator(f"#f-games-{index}-opponent").fill(opponent)
        page.locator(f"#f-games-{index}-result").fill(result)
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#new-rating")).to_have_text("1501")
    context.close()


def test_tournament_file_uploaded_then_downloaded(page: Page, base_url: str) -> None:
    # Candidates 2022 (tests/test_report.py, by hand from table 8.1.2): Nepomniachtchi 2766 -> 2792.
    start = len(REQUESTS)
    page.goto(f"{base_url}/report")
    page.locator("#f-file").set_input_files(DATA / "pgn" / "candidates-2022.pgn")  # htmx posts on change
    expect(page.locator("#row-4 td.new")).to_have_text("2792")
    expect(page.locator("#row-4")).to_contain_text("+26.4")
    page.locator("#row-4 a").click()
    expect(page.locator("#player-4 table")).to_be_visible()  # the details open at their link
    with page.expect_download() as info:
        page.get_by_role("button", name="Download CSV").click()
    download = info.value
    assert download.suggested_filename == "candidates-2022-ratings.csv"
    rows = Path(download.path()).read_text(encoding="utf-8-sig").splitlines()
    assert any(row.startswith('4,"Nepomniachtchi, Ian",') and ",2792," in row for row in rows)
    own = urlsplit(base_url).netloc
    assert [url for url in REQUESTS[start:] if urlsplit(url).netloc != own] == []


def test_tournament_file_without_javascript(browser: Browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.on("request", lambda request: REQUESTS.append(request.url))
    page.goto(f"{base_url}/report?lang=es")
    page.locator("#f-file").set_input_files(DATA / "pgn" / "candidates-2022.pgn")
    page.get_by_role("button", name="Ver el informe").click()
    expect(page.locator("#row-4 td.new")).to_have_text("2792")
    expect(page.locator("#row-4")).to_contain_text("+26,4")
    with page.expect_download() as info:  # the download form posts the file's text back
        page.get_by_role("button", name="Descargar CSV").click()
    assert ";2792;" in Path(info.value.path()).read_text(encoding="utf-8-sig")  # a Spanish spreadsheet's CSV
    context.close()


def test_dwz_worked_example_typed_live(page: Page, base_url: str) -> None:
    # sktroisdorf.de (2018-11-15): 1000 v 1200, juniors, Index >= 1: win 1101 / 1132, draw 1035 / 1177,
    # loss 985 / 1232. The stakes panel shows the opponent's side of each.
    page.goto(f"{base_url}/dwz")
    page.get_by_label("Your DWZ").press_sequentially("1000")
    page.get_by_label("Your age").press_sequentially("15")
    page.get_by_label("Index").press_sequentially("1")
    page.locator("#f-games-0-opponent").press_sequentially("1200")
    page.locator("#f-games-0-result").press_sequentially("1")
    expect(page.locator("#new-rating")).to_have_text("1101")
    expect(page.locator("#dwz-e")).to_have_text("5")
    for key, mine, theirs in (("win", "1101", "1132"), ("draw", "1035", "1177"), ("loss", "985", "1232")):
        row = page.locator(f"#stakes-{key} td")
        expect(row.nth(1)).to_have_text(mine)
        expect(row.nth(3)).to_have_text(theirs)
    page.locator("#f-games-0-result").fill("½")
    expect(page.locator("#new-rating")).to_have_text("1035")
    page.locator("#f-games-0-result").fill("0")
    expect(page.locator("#new-rating")).to_have_text("985")
    page.get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    page.get_by_label("Tu DWZ").fill("1200")
    page.locator("#f-games-0-opponent").fill("1000")
    expect(page.locator("#new-rating")).to_have_text("1132")  # the 1200 loses to the 1000


@pytest.mark.parametrize(
    ("expected", "changes"),
    [("table", ("+15.2", "+5.2", "-4.8")), ("formula", ("+15.19", "+5.19", "-4.81"))],
)
def test_stakes_panel_1500_v_1700_k20(
    page: Page, base_url: str, expected: str, changes: tuple[str, ...]
) -> None:
    # Table 8.1.2, D = -200 -> PD .24: +15.2, +5.2, -4.8; the formula's E 0.2403: +15.19, +5.19, -4.81.
    page.goto(f"{base_url}/game")
    page.get_by_label("Your rating", exact=True).fill("1500")
    page.get_by_label("Opponent’s rating").fill("1700")
    page.get_by_label("Draw").check()
    page.get_by_label("K-factor").select_option("20")
    page.locator(f"#f-expected-{expected}").check()
    for key, change in zip(("win", "draw", "loss"), changes, strict=True):
        expect(page.locator(f"#stakes-{key} .stakes-change")).to_have_text(change)
        expect(page.locator(f"#stakes-{key} .stakes-opponent-change")).to_have_text(
            change.replace("+", "*").replace("-", "+").replace("*", "-")
        )
    expect(page.locator("#stakes")).to_contain_text("your opponent loses exactly what you gain")


#: Words that would be English left untranslated on a Spanish or Catalan page (titles of sources,
#: quoted in « », are names and stay as published).
ENGLISH_WORDS = (
    "Your ",
    "your ",
    "rating",
    "Result",
    "expected",
    "Win",
    "Draw",
    "Loss",
    "At stake",
    "opponent",
    "Opponent",
    "Game by game",
    "players",
    " the ",
    " and ",
    "February",
    "April",
    "Published",
    "estimate",
    "Change",
    "Bonus",
    "Start",
    "Sample",
    "Value",
    "Source",
)
SYSTEM_PAGES = (
    "/dwz?rating=1000&age=15&index=1&games-0-opponent=1200&games-0-result=1",
    "/uscf?rating=1700&games_played=30&games-0-opponent=1700&games-0-result=1&games-1-opponent=1700"
    "&games-1-result=1&games-2-opponent=1700&games-2-result=1",
    "/uscf?rating=1500&games_played=6&games-0-opponent=1400&games-0-result=1",
    "/ecf?rating=1800&junior=on&games-0-opponent=1800&games-0-result=1",
    "/chesscom?level=beginner&games-0-opponent=900&games-0-deviation=350&games-0-result=1",
    "/pools?rating=1800&from_pool=lichess-blitz&to_pool=fide&also-0-pool=lichess-classical&also-0-rating=1900",
    "/pools?rating=1800&from_pool=lichess-blitz&to_pool=chesscom-blitz",
    "/game?rating=1500&opponent=1700&result=1&k_preset=20",
    "/glicko?system=glicko2&rating=1500&deviation=200&volatility=0.06&games-0-opponent=1400"
    "&games-0-deviation=30&games-0-result=1",
)


@pytest.mark.parametrize("language", ["es", "ca"])
def test_no_english_left_on_the_system_pages(page: Page, base_url: str, language: str) -> None:
    for path in SYSTEM_PAGES:
        page.goto(f"{base_url}{path}&lang={language}")
        expect(page.locator("#new-rating, #conversions").first).to_be_visible()
        text = page.locator("main").inner_text()
        unquoted = re.sub(r"«[^»]*»", "", text)
        left = [word for word in ENGLISH_WORDS if re.search(rf"\b{re.escape(word.strip())}\b", unquoted)]
        assert not left, f"{path} in {language}: {left}"


def test_no_request_leaves_the_machine(page: Page, base_url: str) -> None:
    # Runs last in this file: every request recorded by the tests above, plus the help page's.
    page.goto(f"{base_url}/help")
    page.goto(f"{base_url}/docs")  # FastAPI's Swagger UI, its assets served locally
    expect(page.locator(".swagger-ui .info")).to_be_visible()
    page.goto(
        f"{base_url}/period?rating=1500&k_preset=20&events-0-games-0-opponent=1400&events-0-games-0-result=1"
    )
    expect(page.locator("#chart")).to_have_attribute("data-ready", "true")
    own = urlsplit(base_url).hostname  # this machine (the rating-list tests serve on another port)
    assert REQUESTS, "no request was recorded"
    foreign = [url for url in REQUESTS if urlsplit(url).scheme != "data" and urlsplit(url).hostname != own]
    assert foreign == []
