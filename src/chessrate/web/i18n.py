"""Languages of the web calculator: Spanish, Catalan and English.

Strings come from the message catalogs (``locale/<lang>/LC_MESSAGES/messages.po``), English
included: the ``.po`` files are the source, read when the app starts by
:func:`chessrate.service.language.read_catalog` (the command line reads the same), so there is no
build step and a catalog can never be stale. A catalog becomes a
:class:`chessrate.service.language.Translator`, which also formats numbers with the locale's CLDR
symbols (a decimal comma in ``es`` and ``ca``); input accepts either, through :mod:`chessrate.parse`.
"""

from __future__ import annotations

import gettext

from chessrate.service.language import read_catalog

#: Languages offered, in the order of the language switcher. English is the fallback.
LANGUAGES = ("es", "ca", "en")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself, for the switcher.
LANGUAGE_NAMES = {"es": "Español", "ca": "Català", "en": "English"}

LANG_COOKIE = "chessrate_lang"


def load_catalogs() -> dict[str, gettext.NullTranslations]:
    """Every language's catalog; a message a catalog does not translate is said by its id."""
    return {language: read_catalog(language) for language in LANGUAGES}


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
