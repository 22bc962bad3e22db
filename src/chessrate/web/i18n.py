"""Languages of the web calculator: Spanish, Catalan and English.

Strings come from Babel message catalogs (``locale/<lang>/LC_MESSAGES/messages.po``). The ``.po``
files are the source and are compiled in memory when the app starts (:func:`load_catalogs`), so
there is no build step and a catalog can never be stale. Numbers are formatted with the locale's
CLDR symbols (a decimal comma in ``es`` and ``ca``); input accepts either, through
:mod:`chessrate.parse`.
"""

from __future__ import annotations

import datetime as dt
import gettext
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from io import BytesIO

from babel import Locale
from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
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


@dataclass(frozen=True)
class Translator:
    """The strings and number formats of one language."""

    language: str
    catalog: gettext.NullTranslations

    @property
    def locale(self) -> Locale:
        return Locale.parse(self.language)

    def gettext(self, message: str, **values: object) -> str:
        text = self.catalog.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, count: int, **values: object) -> str:
        text = self.catalog.ngettext(singular, plural, count)
        return text % {"num": count, **values}

    def number(self, value: Decimal | float | int | None, places: int = 2, *, signed: bool = False) -> str:
        """``value`` with up to ``places`` decimals (at least one when ``signed`` and fractional)."""
        if value is None:
            return "—"
        pattern = "0" if places == 0 else "0." + "#" * places
        if signed:
            pattern = "+" + pattern + ";-" + pattern
        return format_decimal(Decimal(str(value)), format=pattern, locale=self.language)

    def fixed(self, value: Decimal | float, places: int = 2, *, signed: bool = False) -> str:
        """``value`` with exactly ``places`` decimals, as an expected score is printed (0.64)."""
        pattern = "0." + "0" * places if places else "0"
        if signed:
            pattern = "+" + pattern + ";-" + pattern
        return format_decimal(Decimal(str(value)), format=pattern, locale=self.language)

    def change(self, value: Decimal | float | None) -> str:
        """A rating change unrounded: sign, one or two decimals (+7.2, +17.25)."""
        if value is None:
            return "—"
        return format_decimal(Decimal(str(value)), format="+0.0#;-0.0#", locale=self.language)

    def date(self, value: dt.date) -> str:
        """A day as the locale writes it in full: 17 June 2022, 17 de junio de 2022."""
        return format_date(value, format="long", locale=self.language)

    def whole(self, value: Decimal | int, *, signed: bool = False) -> str:
        pattern = "+0;-0" if signed else "0"
        return format_decimal(Decimal(value), format=pattern, locale=self.language)
