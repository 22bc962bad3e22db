"""Languages: negotiation, complete catalogs, the core's K reasons rendered in every language."""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import re
from decimal import Decimal
from importlib import resources

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from chessrate.cli import app as cli_app
from chessrate.ratinglist.k_reasons import k_reason_text, stored_k
from chessrate.service.explanations import k_reason
from chessrate.service.language import Translator
from chessrate.systems.elo.presets import ciabe_rule_set
from chessrate.systems.fide.k_factor import KFactor, PlayerProfile, apply_700_rule, fide_k_factor, given_k
from chessrate.systems.fide.regulations import FIDE_2014_07, FIDE_2025_10, FIDE_RB_2022_01
from chessrate.web.i18n import load_catalogs, negotiate

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@pytest.mark.parametrize(
    ("query", "cookie", "header", "expected"),
    [
        (None, None, "ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7", "ca"),
        (None, None, "fr-FR,fr;q=0.9,es;q=0.8", "es"),
        (None, None, "en-GB;q=0.4,ca;q=0.8", "ca"),
        (None, None, "de", "en"),
        (None, "es", "ca", "es"),
        ("ca", "es", "en", "ca"),
        ("xx", None, None, "en"),
    ],
)
def test_negotiate(query: str | None, cookie: str | None, header: str | None, expected: str) -> None:
    assert negotiate(query=query, cookie=cookie, accept_language=header) == expected


@pytest.mark.parametrize("language", ["es", "ca"])
def test_catalog_complete_and_placeholders_kept(language: str) -> None:
    po = resources.files("chessrate.web").joinpath("locale", language, "LC_MESSAGES", "messages.po")
    with po.open("rb") as source:
        catalog = read_po(source, locale=language)
    template = resources.files("chessrate.web").joinpath("locale", "messages.pot")
    with template.open("rb") as source:
        ids = {message.id for message in read_po(source) if message.id}
    messages = {message.id: message for message in catalog if message.id}
    assert ids <= set(messages), f"not in the {language} catalog: {sorted(ids - set(messages))[:5]}"
    for msgid, message in messages.items():
        assert message.string, f"untranslated in {language}: {msgid!r}"
        assert "fuzzy" not in message.flags, msgid
        assert set(PLACEHOLDER.findall(str(msgid))) == set(PLACEHOLDER.findall(str(message.string))), msgid


def core_k_reasons() -> list[KFactor]:
    """One KFactor for every sentence the rating core can write (FIDE 8.3.3, club bands, 700 rule)."""
    day = dt.date(2025, 12, 1)
    old_day = dt.date(2015, 1, 1)
    club = ciabe_rule_set()
    return [
        given_k(20),
        fide_k_factor(Decimal(2450), None, rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1500), None, rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(2300), PlayerProfile(highest_rating=2410), rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1700), PlayerProfile(birth_year=2010), rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1700), PlayerProfile(birth_year=2000), rules=FIDE_2014_07, day=old_day),
        fide_k_factor(Decimal(1700), PlayerProfile(rated_games=12), rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1700), PlayerProfile(rated_games=120), rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1700), PlayerProfile(birth_year=1980), rules=FIDE_2025_10, day=day),
        fide_k_factor(Decimal(1700), None, rules=FIDE_RB_2022_01, day=day),
        KFactor(
            k=15,
            code="k-fide-list",
            params=(("list", "rapid"), ("month", "SEP26")),
            article="FIDE rating list",
        ),
        KFactor(k=20, code="k-fide-list-in-force", article="FIDE rating list"),
        club.k_for(Decimal(1600), None),
        club.k_for(Decimal(1900), None),
        apply_700_rule(
            fide_k_factor(Decimal(1700), PlayerProfile(birth_year=2010), rules=FIDE_2025_10, day=day),
            20,
            max_k_times_games=700,
        ),
    ]


@pytest.mark.parametrize("language", ["es", "ca"])
@pytest.mark.parametrize("k", core_k_reasons(), ids=lambda k: k.code)
def test_every_core_k_reason_is_translated(language: str, k: KFactor) -> None:
    t = Translator(language, load_catalogs()[language])
    english = k_reason(k, Translator("en", load_catalogs()["en"]))
    assert english != t.gettext("K %(k)s.", k=k.k)  # the code has its own sentence
    translated = k_reason(k, t)
    assert translated != english
    assert str(k.k) in translated
    if k.cut is not None:
        assert "700" in translated
        assert "35" in translated  # [ELO-GUIDE]: K 40, 20 games -> K 35


def test_serve_command_starts_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    started: dict[str, object] = {}

    def fake_serve(app: object, *, host: str, port: int, forwarded_allow_ips: str | None) -> None:
        started.update(app=app, host=host, port=port)

    monkeypatch.setattr("chessrate.web.server.serve", fake_serve)
    result = CliRunner().invoke(cli_app, ["serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert (started["host"], started["port"]) == ("127.0.0.1", 8123)
    assert type(started["app"]).__name__ == "FastAPI"


def test_serve_rejects_a_bad_port() -> None:
    from chessrate.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", "http"])
    assert stop.value.code == 2


@pytest.mark.parametrize("language", ["es", "ca", "en"])
@pytest.mark.parametrize("k", core_k_reasons(), ids=lambda k: k.code)
def test_a_k_reason_stored_with_its_source_is_translated(language: str, k: KFactor) -> None:
    # A rating list stores the reason's code, values and article (chessrate.ratinglist.k_reasons): the
    # reason is said as the calculator says it, the source after it in brackets.
    t = Translator(language, load_catalogs()[language])
    stored = stored_k(k.k, k_reason_text(k))
    assert stored == k
    said = k_reason(stored, t, source=True)
    plain = k_reason(dataclasses.replace(k, k=k.cut.k if k.cut else k.k, cut=None), t)  # before the 700 rule
    club = ciabe_rule_set()
    source = club.source_in(language) if k.article == club.source else k.article  # the club's in its words
    words = {"given": t.gettext("given by you"), "FIDE rating list": t.gettext("FIDE rating list")}
    source = words.get(k.article, source)
    assert said.startswith(f"{plain.removesuffix('.')} ({source}).")
    assert "rating from" not in said or language == "en"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("es", "K 10: el tramo de Elo desde 1825 (Ciabe, «Calculador de Elo» [CIABE]: K 25/20/15/10 para"),
        ("ca", "K 10: el tram d’Elo des de 1825 (Ciabe, «Calculador de Elo» [CIABE]: K 25/20/15/10 per a"),
    ],
)
def test_a_club_bands_k_on_the_rating_list_is_translated(
    tmp_path_factory: pytest.TempPathFactory, language: str, words: str
) -> None:
    from fastapi.testclient import TestClient

    from chessrate.ratinglist.demo import build_demo
    from chessrate.web import WebSettings, create_app

    db = str(tmp_path_factory.mktemp("ciabe") / "demo.db")
    build_demo(db, rules="ciabe")
    page = TestClient(create_app(WebSettings(list_db=db))).get(f"/list/player/17?lang={language}").text
    assert words in html.unescape(page)
    assert "rating from" not in page


#: Words the Spanish and Catalan catalogs keep to one term per sense (the translators' choices).
WORDING = {
    "es": [
        (r"\bperíodo", "periodo, not período"),
        (r"\bid FIDE", "ID FIDE"),
        (r"regla de 700", "la regla de los 700"),
        (r"(?<![./(])\brating\b", "Elo or puntuación, not rating"),
        (r"\b[Pp]erformance\b", "rendimiento"),
        (r"\b(el|del|al|un|este|ese) K\b", "la K"),
        (r"\bK (elegido|recortado|dado|reducido)\b|\blo conserva\b|Elo, y lo baja", "la K"),
    ],
    "ca": [
        (r"(?<=\w)'(?=\w)", "the apostrophe ’"),
        (r"\bid FIDE", "ID FIDE"),
        (r"regla de 700", "la regla dels 700"),
        (r"qualificació", "període de valoració"),
        (r"\b[Pp]erformance\b", "rendiment"),
        (r"\b([Ee]l|del|al|un|aquest|[Ee]l teu|[Ee]l seu) K\b", "la K"),
        (r"\bK (triat|retallat|donat|reduït)\b|\bel conserva\b", "la K"),
        (r"en vigor: %|versió: %", "a sentence, not a label"),
        # "el 1 de desembre" is "l’1 de desembre": no article before a date (say "el dia").
        (
            r"\b([Ee]l|[Dd]el|[Aa]l|des de la data) %\((date|day|since|first|last|start|end|version)\)s",
            "el dia",
        ),
    ],
}


@pytest.mark.parametrize("language", ["es", "ca"])
def test_one_term_per_sense(language: str) -> None:
    po = resources.files("chessrate.web").joinpath("locale", language, "LC_MESSAGES", "messages.po")
    with po.open("rb") as source:
        catalog = read_po(source, locale=language)
    found = []
    for message in catalog:
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            for pattern, choice in WORDING[language]:
                if text and re.search(pattern, text):
                    found.append(f"{choice}: {text[:90]}")
    assert found == []


@pytest.mark.parametrize(("language", "column"), [("es", "Elo"), ("ca", "Elo"), ("en", "Rating")])
def test_the_elo_column_has_its_own_word(language: str, column: str) -> None:
    # "Rating" in the rating list and the report's CSV is the Elo (msgctxt "Elo rating"); elsewhere (a
    # Glicko or a pool's rating) it is "Puntuación" / "Puntuació".
    catalog = load_catalogs()[language]
    assert catalog.pgettext("Elo rating", "Rating") == column
    assert catalog.gettext("Rating") == {"es": "Puntuación", "ca": "Puntuació", "en": "Rating"}[language]
