"""The HTML pages without a browser: JavaScript-off submission, fragments, rows, languages, errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.web import WebSettings, create_app
from chessrate.web.assets import VENDOR_FILES

PAGES = [
    "/game", "/average", "/tournament", "/report", "/period", "/k-factor", "/performance", "/glicko", "/help",
    "/dwz", "/uscf", "/ecf", "/chesscom", "/pools",
]  # fmt: skip
GUIDE_FORM = {
    "rating": "1500",
    "k_preset": "20",
    "games-0-opponent": "1400",
    "games-0-result": "1",
    "games-1-opponent": "1600",
    "games-1-result": "½",
    "games-2-opponent": "1550",
    "games-2-result": "derrota",
}


def text_of(html: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)
    assert match, f"no element {element_id}"
    return match.group(1).strip()


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("lang", ["es", "ca", "en"])
def test_every_page_in_every_language(client: TestClient, path: str, lang: str) -> None:
    response = client.get(f"{path}?lang={lang}")
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in response.text
    assert response.headers["content-language"] == lang


def test_home_redirects_to_one_game(client: TestClient) -> None:
    response = client.get("/", follow_redirects=False)
    assert response.headers["location"] == "/game"


def test_form_submitted_without_javascript(client: TestClient) -> None:
    # [ELO-GUIDE]: +7.2, +2.8, -8.6 = +1.4, "el nuevo Elo es 1501".
    html = client.post("/tournament", data=GUIDE_FORM).text
    assert text_of(html, "new-rating") == "1501"
    assert text_of(html, "change") == "+1.4"
    assert "A draw against a stronger player gains points" in html


def test_htmx_request_gets_the_fragment(client: TestClient) -> None:
    response = client.post("/tournament", data=GUIDE_FORM, headers={"HX-Request": "true"})
    # The aria-live region stays: only its content is swapped.
    assert response.text.lstrip().startswith('<div id="result-body"')
    assert "aria-live" not in response.text
    assert "<html" not in response.text
    assert 'hx-swap-oob="true"' in response.text  # the language links follow the values
    assert response.headers["hx-replace-url"].startswith("/tournament?rating=1500")


def test_removing_a_row_updates_the_url_and_the_language_links(client: TestClient) -> None:
    # Issue 14, defect 1: after removing game 2 (index 1) the URL and the links show games 1 and 3.
    form = {
        "rating": "1500", "scoring": "each", "lang": "es", "action": "remove:games:1",
        "games-0-opponent": "1400", "games-0-result": "1",
        "games-1-opponent": "1600", "games-1-result": "0,5",
        "games-2-opponent": "1550", "games-2-result": "0",
    }  # fmt: skip
    response = client.post("/tournament", data=form, headers={"HX-Request": "true"})
    url = response.headers["hx-replace-url"]
    assert "games-1-opponent=1550" in url
    assert "1600" not in url
    assert "games-2" not in url
    links = re.findall(r'href="([^"]+)" hreflang="(\w+)"', response.text)
    assert {code for _, code in links} == {"es", "ca", "en"}
    assert all("1600" not in href and "games-1-opponent=1550" in href for href, _ in links)
    assert 'id="f-games-1-opponent" name="games-1-opponent" value="1550"' in response.text
    assert re.search(r'id="f-games-1-opponent"[^>]*autofocus', response.text)  # the focus stays in the list


def test_removing_a_tournament_of_a_period_updates_the_url(client: TestClient) -> None:
    form = {
        "rating": "1500", "action": "remove:events:0",
        "events-0-games-0-opponent": "1400", "events-0-games-0-result": "1",
        "events-1-start_rating": "1510", "events-1-games-0-opponent": "1550", "events-1-games-0-result": "0",
    }  # fmt: skip
    response = client.post("/period", data=form, headers={"HX-Request": "true"})
    url = response.headers["hx-replace-url"]
    assert "events-0-start_rating=1510" in url
    assert "events-0-games-0-opponent=1550" in url
    assert "1400" not in url
    assert "events-1" not in url


def test_ciabe_total_points_with_ciabe_rules(client: TestClient) -> None:
    form = {"rating": "1800", "scoring": "total", "points": "4.5", "rules": "ciabe"}
    form |= {f"games-{i}-opponent": str(r) for i, r in enumerate([1500, 1600, 1700, 1800, 1900, 2000])}
    html = client.post("/tournament", data=form).text
    assert text_of(html, "new-rating") == "1817"
    assert text_of(html, "change") == "+17.25"


def test_catalan_numbers_use_a_decimal_comma(client: TestClient) -> None:
    html = client.get("/game?rating=1500&opponent=1400&result=1&lang=ca").text
    assert text_of(html, "expected") == "0,64"
    assert text_of(html, "change") == "+7,2"


def test_decimal_comma_accepted_in_every_language(client: TestClient) -> None:
    html = client.get("/average?rating=1500&games=1&points=0,5&average=1700&k_preset=20").text
    assert text_of(html, "change") == "+5.2"


def test_bad_rating_shows_its_message_beside_the_field(client: TestClient) -> None:
    form = dict(GUIDE_FORM, **{"games-1-opponent": "16OO"})
    html = client.post("/tournament", data=form).text
    assert "“16OO” is not a rating" in text_of(html, "error-games-1-opponent")
    assert 'id="f-games-1-opponent" name="games-1-opponent" value="16OO"' in html
    assert "new-rating" not in html


def test_bad_rating_message_in_spanish(client: TestClient) -> None:
    html = client.post("/game?lang=es", data={"rating": "dos mil", "opponent": "1500", "result": "1"}).text
    assert text_of(html, "error-rating").startswith("«dos mil» no es un Elo")


def test_rows_added_and_removed_on_the_server(client: TestClient) -> None:
    html = client.post("/tournament", data={**GUIDE_FORM, "action": "add:games"}).text
    assert 'name="games-3-opponent"' in html
    html = client.post("/tournament", data={**GUIDE_FORM, "action": "remove:games:0"}).text
    assert 'name="games-2-opponent"' not in html
    assert 'name="games-0-opponent" value="1600"' in html
    fragment = client.post(
        "/period", data={"action": "add:events:1:games"}, headers={"HX-Request": "true"}
    ).text
    assert fragment.lstrip().startswith('<div id="calculator"')
    assert 'name="events-1-games-2-opponent"' in fragment


def test_language_from_browser_cookie_and_query(client: TestClient) -> None:
    assert (
        '<html lang="ca">' in client.get("/game", headers={"Accept-Language": "ca-ES,ca;q=0.9,en;q=0.5"}).text
    )
    response = client.get("/game?lang=es")
    assert response.cookies.get("chessrate_lang") == "es"
    fresh = TestClient(client.app)
    fresh.cookies.set("chessrate_lang", "es")
    assert '<html lang="es">' in fresh.get("/game").text


def test_uploaded_club_rules_file(client: TestClient) -> None:
    # A club TOML with K 32 for everyone, uploaded without JavaScript.
    toml = (
        'name = "club"\nexpected = "formula"\nrounding = "tournament"\nk_by_rating = [{ from = 0, k = 32 }]\n'
    )
    form = {"rating": "1500", "opponent": "1500", "result": "1", "rules": "custom"}
    html = client.post("/game", data=form, files={"rules_file": ("club.toml", toml.encode())}).text
    assert text_of(html, "new-rating") == "1516"  # 32 x (1 - 0.5)


def test_broken_club_rules_named(client: TestClient) -> None:
    form = {"rating": "1500", "opponent": "1500", "result": "1", "rules": "custom", "rules_toml": "k = [[["}
    html = client.post("/game", data=form).text
    assert "The club’s rules could not be read" in text_of(html, "error-rules_toml")


def test_page_starts_and_names_missing_assets(tmp_path: Path) -> None:
    (tmp_path / "app.css").write_text("")
    app = create_app(WebSettings(static=tmp_path))
    html = TestClient(app).get("/game").text
    for name in VENDOR_FILES:
        assert name in html


@settings(max_examples=60, deadline=None)
@given(
    rating=st.text(max_size=12),
    opponent=st.text(max_size=12),
    result=st.text(max_size=6),
    points=st.text(max_size=6),
    k=st.text(max_size=6),
    as_of=st.text(max_size=12),
    action=st.sampled_from(
        ["", "add:games", "remove:games:7", "remove:games:x", "add:events:9:games", "bogus"]
    ),
)
def test_no_input_breaks_a_page(
    app: FastAPI, rating: str, opponent: str, result: str, points: str, k: str, as_of: str, action: str
) -> None:
    form = {
        "rating": rating, "games-0-opponent": opponent, "games-0-result": result, "points": points,
        "k_preset": "custom", "k": k, "as_of": as_of, "action": action,
        "scoring": "total" if points else "each",
    }  # fmt: skip
    client = TestClient(app)
    for path in ["/tournament", "/period", "/performance"]:
        response = client.post(path, data=form)
        assert response.status_code == 200
        assert "Traceback" not in response.text


#: A club TOML with K 32 for everyone, titled in Spanish and saved as Windows-1252 (as Notepad may).
CLUB_1252 = (
    'name = "club"\ntitle = "Peña Ajedrecística"\nexpected = "formula"\nrounding = "tournament"\n'
    "k_by_rating = [{ from = 0, k = 32 }]\n"
).encode("cp1252")


def test_a_windows_1252_rules_file_is_read_as_the_readers_read_text(client: TestClient) -> None:
    form = {"rating": "1500", "opponent": "1500", "result": "1", "rules": "custom"}
    html = client.post("/game", data=form, files={"rules_file": ("club.toml", CLUB_1252)}).text
    assert text_of(html, "new-rating") == "1516"
    assert "Peña Ajedrecística" in html
    assert "\ufffd" not in html


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "El archivo de reglas «big.toml» ocupa más de 20 kB"),
        ("ca", "El fitxer de regles «big.toml» ocupa més de 20 kB"),
        ("en", "The rules file “big.toml” is larger than 20 kB"),
    ],
)
def test_a_rules_file_too_large_is_refused_not_cut(client: TestClient, lang: str, words: str) -> None:
    # The club's rules first, then 20,001 bytes in all: cut at 20,000 bytes they would read well.
    big = CLUB_1252 + b"#" * (20_001 - len(CLUB_1252))
    form = {"rating": "1500", "opponent": "1500", "result": "1", "rules": "custom", "lang": lang}
    page = client.post("/game", data=form, files={"rules_file": ("big.toml", big)}).text
    assert words in text_of(page, "error-rules_file").replace("&lt;", "<")
    assert re.search(r'<input id="f-rules_file"[^>]*aria-invalid="true"', page)
    assert 'id="new-rating"' not in page  # no result from a file not read
    # One byte less is read.
    page = client.post("/game", data=form, files={"rules_file": ("big.toml", big[:-1])}).text
    assert text_of(page, "new-rating") == "1516"


@pytest.mark.parametrize("path", ["/game", "/dwz", "/pools", "/help"])
def test_one_navigation_for_the_tabs_none_nested(client: TestClient, path: str) -> None:
    page = client.get(f"{path}?lang=es").text
    navs = re.findall(r"<nav\b[^>]*>", page)
    assert [nav for nav in navs if "Otros sistemas" in nav] == []
    assert len([nav for nav in navs if 'class="tabs"' in nav]) == 1
    tabs = page[page.index('<nav class="tabs"') : page.index("</nav>", page.index('<nav class="tabs"'))]
    assert "<nav" not in tabs[4:]  # no navigation inside the tabs' own
    assert 'aria-label="Otros sistemas de valoración"' in tabs  # the second row is a named list in it


@pytest.mark.parametrize(
    ("path", "english"),
    [
        (
            "/pools?rating=1800&from_pool=lichess-blitz&to_pool=chesscom-blitz",
            "Comparing Lichess and Chess.com Ratings",
        ),
        ("/report", "Download lists"),
        ("/uscf", "The US Chess Rating System"),
        ("/uscf", "Approximating Formulas for the US Chess Rating System"),
    ],
)
@pytest.mark.parametrize("lang", ["es", "ca"])
def test_english_titles_in_other_languages_say_so(
    client: TestClient, path: str, english: str, lang: str
) -> None:
    joiner = "&" if "?" in path else "?"
    page = client.get(f"{path}{joiner}lang={lang}").text
    assert f'«<span lang="en">{english}</span>»' in page  # WCAG 3.1.2, language of parts
    assert f'<span lang="en">{english}</span>' not in client.get(f"{path}{joiner}lang=en").text


def test_the_api_docs_page_names_its_language(client: TestClient) -> None:
    page = client.get("/docs")
    assert '<html lang="en">' in page.text  # WCAG 3.1.1: Swagger UI is in English
    assert "'sha256-" in page.headers["content-security-policy"]
