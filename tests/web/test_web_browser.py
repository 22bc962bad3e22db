"""The calculator in a real browser: Debian's chromium, headless, driven by Playwright.

The app runs under uvicorn in a background thread on a free localhost port. Every request the page
makes is recorded: none may go to another host.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_support import DATA, REQUESTS
from playwright.sync_api import Browser, Page, expect


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
    for _ in range(4):
        page.get_by_role("button", name="+ Add a game").click()
        expect(page.locator("#f-games-0-opponent")).to_be_visible()
    page.get_by_role("button", name="Remove game 7").click()
    expect(page.locator("#f-games-6-opponent")).to_have_count(0)
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
