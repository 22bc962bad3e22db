"""Languages of the web calculator: Spanish, Catalan and English.

Strings come from Babel message catalogs (``locale/<lang>/LC_MESSAGES/messages.po``). The ``.po``
files are the source and are compiled in memory when the app starts (:func:`load_catalogs`), so
there is no build step and a catalog can never be stale. A catalog becomes a
:class:`chessrate.service.language.Translator`, which also formats numbers with the locale's CLDR
symbols (a decimal comma in ``es`` and ``ca``); input accepts either, through :mod:`chessrate.parse`.
"""

from __future__ import annotations

import gettext
from importlib import resources
from io import BytesIO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

#: Languages offered, in the order of the language switcher. English is the fallback.
LANGUAGES = ("es", "ca", "en")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself, for the switcher.
LANGUAGE_NAMES = {"es": "Español", "ca": "Català", "en": "English"}

LANG_COOKIE = "chessrate_lang"


def load_catalogs() -> dict[str, gettext.NullTranslations]:
    """Every catalog, compiled in memory from its ``.po`` file; English falls back to the msgids."""
    catalogs: dict[str, gettext.NullTranslations] = {}
    root = resources.files("chessrate.web").joinpath("locale")
    for language in LANGUAGES:
        po = root.joinpath(language, "LC_MESSAGES", "messages.po")
        if not po.is_file():
            catalogs[language] = gettext.NullTranslations()
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=language)
        compiled = BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        catalogs[language] = Translations(compiled)
    return catalogs


def negotiate(
    *, query: str | None, cookie: str | None, accept_language: str | None, default: str = DEFAULT_LANGUAGE
) -> str:
    """The language: ``?lang=`` first, then the cookie, then the browser's Accept-Language."""
    for choice in (query, cookie):
        if choice and choice.lower() in LANGUAGES:
            return choice.lower()
    for tag in _accepted(accept_language or ""):
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return default if default in LANGUAGES else DEFAULT_LANGUAGE


def _accepted(header: str) -> list[str]:
    """Language tags of an Accept-Language header, highest quality first (RFC 9110 12.5.4)."""
    weighted: list[tuple[float, int, str]] = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag.strip().lower()))
    return [tag for _, _, tag in sorted(weighted)]
