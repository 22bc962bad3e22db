"""The command line's English writes numbers and dates exactly as Babel's English locale does, and its
Spanish and Catalan numbers as Babel's (without loading Babel's locale data)."""

from __future__ import annotations

import datetime as dt
import gettext
from collections.abc import Callable
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from chessrate.service.language import ENGLISH, Translator


class Babel(Translator):
    """A translator that writes numbers with Babel itself (chessrate's do without its locale data)."""

    def _decimal(self, value: Decimal | float | int, pattern: str) -> str:
        from babel.numbers import format_decimal

        return format_decimal(Decimal(str(value)), format=pattern, locale=self.language)

    def date(self, value: dt.date, style: str = "long") -> str:
        from babel.dates import format_date

        return format_date(value, format=style, locale=self.language)


BABEL_ENGLISH = Babel("en", gettext.NullTranslations())

FORMATS: list[Callable[[Translator, Decimal], str]] = [
    lambda t, v: t.number(v),
    lambda t, v: t.number(v, 1),
    lambda t, v: t.number(v, 0),
    lambda t, v: t.number(v, signed=True),
    lambda t, v: t.fixed(v),
    lambda t, v: t.fixed(v, 1, signed=True),
    lambda t, v: t.fixed(v, 0),
    lambda t, v: t.change(v),
    lambda t, v: t.whole(v.to_integral_value()),
    lambda t, v: t.whole(v.to_integral_value(), signed=True),
]

values = st.decimals(min_value=-100_000, max_value=100_000, places=4, allow_nan=False)


@given(values)
def test_numbers_as_babel_writes_them(value: Decimal) -> None:
    for write in FORMATS:
        assert write(ENGLISH, value) == write(BABEL_ENGLISH, value)


@given(values, st.sampled_from(["es", "ca"]))
def test_spanish_and_catalan_numbers_as_babel_writes_them(value: Decimal, language: str) -> None:
    ours, babel = (
        Translator(language, gettext.NullTranslations()),
        Babel(language, gettext.NullTranslations()),
    )
    for write in FORMATS:
        assert write(ours, value) == write(babel, value)


@given(st.floats(min_value=-4000, max_value=4000, allow_nan=False))
def test_floats_as_babel_writes_them(value: float) -> None:
    assert ENGLISH.number(value) == BABEL_ENGLISH.number(value)
    assert ENGLISH.change(value) == BABEL_ENGLISH.change(value)


@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31)))
def test_dates_as_babel_writes_them(day: dt.date) -> None:
    assert ENGLISH.date(day) == BABEL_ENGLISH.date(day)


def test_cldr_english_examples() -> None:
    # CLDR English: the long date "MMMM d, y"; "-0" keeps the sign of a value that rounds to zero.
    assert ENGLISH.date(dt.date(2025, 10, 1)) == "October 1, 2025"
    assert ENGLISH.whole(Decimal("-0.4").to_integral_value()) == "-0"
    assert ENGLISH.change(Decimal("7.2")) == "+7.2"
    assert ENGLISH.fixed(Decimal("0.635")) == "0.64"


@given(
    st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31)),
    st.sampled_from(["es", "ca"]),
    st.sampled_from(["long", "medium"]),
)
def test_spanish_and_catalan_dates_as_babel_writes_them(day: dt.date, language: str, style: str) -> None:
    ours, babel = (
        Translator(language, gettext.NullTranslations()),
        Babel(language, gettext.NullTranslations()),
    )
    assert ours.date(day, style) == babel.date(day, style)
