"""The words and number formats of one language, for messages and the working in words.

A :class:`Translator` wraps a gettext catalog (the web's Babel catalogs in ``web/locale``) and
formats numbers and dates with the locale's CLDR data through Babel. :data:`ENGLISH`, the command
line's, has no catalog (the message ids are the English text) and writes numbers and dates by
CLDR's English patterns without loading Babel's locale data, which would cost the command line
~25 ms at each start; a property test holds it to Babel's output.
"""

from __future__ import annotations

import datetime as dt
import gettext
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel import Locale


@dataclass
class Translator:
    """The strings and number formats of one language."""

    language: str
    catalog: gettext.NullTranslations

    @property
    def locale(self) -> Locale:
        from babel import Locale

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
        return self._decimal(value, pattern)

    def fixed(self, value: Decimal | float, places: int = 2, *, signed: bool = False) -> str:
        """``value`` with exactly ``places`` decimals, as an expected score is printed (0.64)."""
        pattern = "0." + "0" * places if places else "0"
        if signed:
            pattern = "+" + pattern + ";-" + pattern
        return self._decimal(value, pattern)

    def change(self, value: Decimal | float | None) -> str:
        """A rating change unrounded: sign, one or two decimals (+7.2, +17.25)."""
        if value is None:
            return "—"
        return self._decimal(value, "+0.0#;-0.0#")

    def date(self, value: dt.date, style: str = "long") -> str:
        """A day as the locale writes it: in full (17 June 2022, 17 de junio de 2022) or ``medium``."""
        from babel.dates import format_date

        return format_date(value, format=style, locale=self.language)

    def whole(self, value: Decimal | int, *, signed: bool = False) -> str:
        return self._decimal(value, "+0;-0" if signed else "0")

    def _decimal(self, value: Decimal | float | int, pattern: str) -> str:
        from babel.numbers import format_decimal

        return format_decimal(Decimal(str(value)), format=pattern, locale=self.language)


class English(Translator):
    """English as CLDR writes it (``1,500.5`` has no grouping in our patterns), without Babel."""

    MONTHS = (
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    )  # fmt: skip

    def date(self, value: dt.date, style: str = "long") -> str:
        """CLDR's English date, long ``MMMM d, y`` (October 1, 2025) or medium ``MMM d, y`` (Oct 1, 2025)."""
        month = self.MONTHS[value.month - 1]
        return f"{month if style == 'long' else month[:3]} {value.day}, {value.year}"

    def _decimal(self, value: Decimal | float | int, pattern: str) -> str:
        """``pattern`` is one of ours: ``[+]0[.0…#…][;-…]``, rounded half to even as Babel does."""
        positive = pattern.split(";")[0]
        signed = positive.startswith("+")
        _, _, decimals = positive.lstrip("+").partition(".")
        exact = Decimal(str(value))
        number = exact.quantize(Decimal(1).scaleb(-len(decimals)), ROUND_HALF_EVEN)
        text = f"{abs(number):f}"
        if "." in text:
            whole, fraction = text.split(".")
            fraction = fraction.rstrip("0").ljust(decimals.count("0"), "0")
            text = f"{whole}.{fraction}" if fraction else whole
        if exact.is_signed():  # also when it rounds to zero: -0.4 is "-0", as Babel writes it
            return "-" + text
        return ("+" if signed else "") + text


#: English without a catalog: the message ids as written (the command line's language).
ENGLISH = English("en", gettext.NullTranslations())
