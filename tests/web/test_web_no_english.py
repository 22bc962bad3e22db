"""No English in Spanish or Catalan (issue 14, defect 4): every page and mode rendered in es and ca.

Two checks (``tests/no_english.py``, shared with the command line's ``test_cli_lang.py``). The catalogs
are wrapped so that every message id the pages ask for and the catalog lacks is recorded: there must be
none. And the text the pages show in es or ca must not contain a sentence shown identically in English
(what bypasses the catalogs: the core's own words, a rule set's title).
"""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.demo import build_demo
from chessrate.web import WebSettings, create_app, site
from chessrate.web.i18n import load_catalogs

from ..no_english import Recording, shared_english
from .browser_support import TODAY
from .test_web_report import BROKEN_SWISS, CANDIDATES, FIDE_EXAMPLE, upload

#: Every calculator with values (a result), blank, and with the cases that bring the core's words:
#: the Ciabe club's K bands, the 700 rule, a capped game, an error.
CALCULATOR_PAGES = (
    "/game",
    "/game?rating=1500&opponent=1000&result=1&k_preset=20",
    "/game?rating=1500&opponent=1600&result=0.5&rules=ciabe",
    "/game?rating=1500&opponent=1600&result=0.5&rules=elo&k_preset=20",
    "/game?rating=15OO&opponent=1600&result=2",
    "/average?rating=1500&games=5&points=3,5&average=1550&k_preset=20",
    "/tournament?rating=1800&scoring=total&points=4,5&rules=ciabe&games-0-opponent=1500&games-1-opponent=1600"
    "&games-2-opponent=1700&games-3-opponent=1800&games-4-opponent=1900&games-5-opponent=2000",
    "/tournament?rating=1500&birth_year=2012&games-0-opponent=1400&games-0-result=1&games-1-opponent=1600"
    "&games-1-result=x",
    "/period?rating=1500&birth_year=2012&events-0-games-0-opponent=1400&events-0-games-0-result=1"
    + "".join(f"&events-1-games-{i}-opponent=1500&events-1-games-{i}-result=1" for i in range(20)),
    "/k-factor?rating=1850&birth_year=2010&games_this_period=25",
    "/k-factor?rating=2450",
    "/performance?games-0-opponent=1700&games-0-result=1&games-1-opponent=1800&games-1-result=0",
    "/glicko?system=lichess&games-0-opponent=1500&games-0-deviation=500&games-0-result=1",
    "/glicko?system=glicko2&rating=1500&deviation=200&volatility=0,06&tau=0,5&games-0-opponent=1400"
    "&games-0-deviation=30&games-0-result=1",
    "/glicko?system=glicko2&deviation=0&volatility=-1&games-0-opponent=1500&games-0-deviation=600"
    "&games-0-result=1",
    "/glicko?system=lichess&days_idle=-3&gain_factor=0&games-0-opponent=1500&games-0-deviation=50"
    "&games-0-result=1",
    "/help",
    "/strength",
    "/report",
    # The other rating systems.
    "/dwz?rating=1000&age=15&index=1&games-0-opponent=1200&games-0-result=1",
    "/uscf?rating=1500&games_played=6&games-0-opponent=1400&games-0-result=1",
    "/ecf?rating=1800&junior=on&games-0-opponent=1800&games-0-result=1",
    "/chesscom?level=beginner&games-0-opponent=900&games-0-deviation=350&games-0-result=1",
    "/pools?rating=1800&from_pool=lichess-blitz&to_pool=fide",
    # ... and with bad values, whose reasons come from the core.
    "/dwz?rating=-5&age=abc&index=x&games-0-opponent=1200&games-0-result=1",
    "/uscf?rating=1500&games_played=-1&games-0-opponent=1400&games-0-result=3",
    "/ecf?rating=abc&games-0-opponent=1800&games-0-result=1",
    "/chesscom?level=zzz&rating=1500&deviation=0&games-0-opponent=900&games-0-deviation=0&games-0-result=1",
    "/pools?rating=1800&from_pool=nope&to_pool=fide",
    "/pools?rating=-1&from_pool=lichess-blitz&to_pool=fide",
    "/glicko?system=nope&games-0-opponent=1500&games-0-deviation=50&games-0-result=1",
    # ... and with fields left blank, named in the page's language.
    "/pools?rating=1800&from_pool=&to_pool=",
    "/dwz?rating=1000&games-0-opponent=1200&games-0-result=1",
    "/uscf?rating=1500&games-0-opponent=1400&games-0-result=1",
    "/chesscom?level=&rating=1500&games-0-opponent=900&games-0-result=1",
    "/glicko?system=glicko2&rating=1500&games-0-opponent=1400&games-0-result=1",
)
LIST_PAGES = (
    "/list",
    "/list/events",
    "/list/event/1",
    "/list/player/13400304",
    "/list/player/1",
    "/list/player/0",
    "/list/admin",
)
ADMIN_PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, dict[str, set[str]]]:
    missing: dict[str, set[str]] = {"es": set(), "ca": set(), "en": set()}
    catalogs = load_catalogs()
    wrapped = {language: Recording(catalogs[language], missing[language]) for language in catalogs}
    db = str(tmp_path_factory.mktemp("list") / "demo.db")
    build_demo(db)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site, "load_catalogs", lambda: wrapped)
        app = create_app(WebSettings(today=lambda: TODAY, list_db=db, list_admin_password=ADMIN_PASSWORD))
    return TestClient(app), missing


def visible_text(page: str) -> set[str]:
    """The page's text nodes (scripts, styles and attributes left out), each stripped, and their parts
    after a colon (a translated message may end in the core's English reason: "Comprueba: must be...")."""
    body = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    texts = {html.unescape(text).strip() for text in re.split(r"<[^>]+>", body)}
    parts = {part.strip() for text in texts for part in text.split(": ")[1:]}
    return (texts | parts) - {""}


def english_leaks(english: str, other: str) -> list[str]:
    return shared_english(visible_text(english), visible_text(other))


def report_words(page: str) -> str:
    """The tournament-file page's own words: its problems, working and messages (not the file's names)."""
    parts = re.findall(
        r'<ul id="file-problems">.*?</ul>|<dl class="working".*?</dl>|<p class="(?:notice|hint|error)".*?</p>'
        r'|<span class="error"[^>]*>.*?</span>',
        page,
        flags=re.S,
    )
    return "<br>".join(parts)


def list_words(page: str) -> str:
    """A rating-list page's own words: its notes and K reasons, headings and messages (not the names)."""
    parts = re.findall(r'<p class="(?:notice|hint)".*?</p>|<h2>.*?</h2>|<th[ >].*?</th>', page, flags=re.S)
    return "<br>".join(parts).replace(" · ", "<br>")  # a line's K reason, then its score


@pytest.mark.parametrize("language", ["es", "ca"])
def test_every_page_in_spanish_and_catalan_has_no_english(
    recorded: tuple[TestClient, dict[str, set[str]]], language: str
) -> None:
    client, missing = recorded
    leaks: dict[str, list[str]] = {}
    for path in CALCULATOR_PAGES + LIST_PAGES:
        joiner = "&" if "?" in path else "?"
        pages = {code: client.get(f"{path}{joiner}lang={code}") for code in (language, "en")}
        assert pages[language].status_code in {200, 404}, path
        assert f'<html lang="{language}">' in pages[language].text, path
        # The live fragment too (what htmx swaps in while typing).
        if "?" in path and not path.startswith(("/help", "/list", "/report")):
            client.get(f"{path}&lang={language}", headers={"HX-Request": "true"})
        if path.startswith("/list") and path != "/list/admin":
            # Names of players and events are the same everywhere: the list's own words only.
            found = english_leaks(list_words(pages["en"].text), list_words(pages[language].text))
        else:
            found = english_leaks(pages["en"].text, pages[language].text)
        if found:
            leaks[path] = found
    for name, data, form in (
        ("candidates-2022.pgn", CANDIDATES, {}),
        ("fide-example.trf", FIDE_EXAMPLE, {"as_of": "2025-01-01", "k_preset": "rules"}),
        ("broken.trf", BROKEN_SWISS, {}),
        ("broken.trf", BROKEN_SWISS, {"strict": "on"}),
        ("empty.trf", b"", {}),
    ):
        english = client.post("/report", files=upload(name, data), data={**form, "lang": "en"}).text
        other = client.post("/report", files=upload(name, data), data={**form, "lang": language}).text
        found = english_leaks(report_words(english), report_words(other))
        if found:
            leaks[f"/report {name} {form}"] = found
    assert sorted(missing[language]) == []
    assert leaks == {}, "\n".join(f"{where}: {texts}" for where, texts in leaks.items())
