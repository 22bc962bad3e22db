"""Parsing of what users type: scores, ratings, numbers with a decimal comma, dates.

Pure functions shared by the command line, the web calculator and the file readers. Each raises
:class:`~chessrate.errors.InvalidInputError` naming the field and the value.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import TypeVar

from chessrate.errors import InvalidInputError

#: FIDE ratings outside this range are refused: a sanity bound (docs/security.md), as the databases'
#: CHECK; FIDE lists span roughly 1000-3000 and publish nothing below the floor (1400 since 2024).
MIN_RATING = Decimal(0)
MAX_RATING = Decimal(4000)

_THOUSANDS = re.compile(r"^\d{1,2}[.,]\d{3}$")

#: Bounds beyond any rating calculation (docs/security.md): a number typed has at most
#: :data:`MAX_NUMBER_LENGTH` characters and a size below :data:`MAX_MAGNITUDE`, so that no
#: exponent (``1e400``) or thousand-digit value reaches the arithmetic.
MAX_NUMBER_LENGTH = 40
MAX_MAGNITUDE = Decimal(10) ** 12
#: Largest K accepted (FIDE's K is 40 at most, B.02 8.3.3; clubs use more, none above this).
MAX_K = 1000
#: Most games a player can have in one rating period (a sanity bound, not a FIDE rule).
MAX_GAMES = 10_000

ONE = Decimal(1)
HALF = Decimal("0.5")
ZERO = Decimal(0)

#: Words and symbols for a game's result from the player's side, in English, Spanish and Catalan.
#: Numbers (``1``, ``0.5``, ``0,50``, ``1.00``) are read by value, not listed here.
SCORE_WORDS: dict[str, Decimal] = {
    "+": ONE, "w": ONE, "win": ONE, "won": ONE, "victoria": ONE, "victòria": ONE, "gana": ONE, "guanya": ONE,
    "½": HALF, "1/2": HALF, "=": HALF, "d": HALF, "draw": HALF, "drawn": HALF, "tablas": HALF, "taules": HALF,
    "empate": HALF,
    "-": ZERO, "l": ZERO, "loss": ZERO, "lost": ZERO, "derrota": ZERO, "pierde": ZERO, "perd": ZERO,
}  # fmt: skip
#: A score written as a number: digits with an optional decimal part (``0.50``, ``.5``, ``1.00``).
_SCORE_NUMBER = re.compile(r"^(?:\d{1,3}(?:\.\d{0,9})?|\.\d{1,9})$")
#: A game's result with colours (PGN's ``1-0``, ``0-1``, ``1/2-1/2``; ``½-½``, ``0.5-0.5``): White's
#: score first, so it says nothing of the player's own score where the colour is not given.
_COLOUR_RESULT = re.compile(r"^(?:1|0|½|1/2|0?\.5)\s*[-–]\s*(?:1|0|½|1/2|0?\.5)$")
#: The scores a game can give the player (FIDE B.02 8.1: a win 1, a draw ½, a loss 0).
SCORES = frozenset({ONE, HALF, ZERO})


#: Most digits of a whole number read from a file or a form (a FIDE id has 9 at most).
MAX_DIGITS = 18


def is_digits(text: str) -> bool:
    """ASCII digits only, at most :data:`MAX_DIGITS`: ``str.isdigit`` also accepts ``¹`` or ``٣``,
    which ``int()`` refuses, and ``int()`` refuses more than 4,300 digits."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def parse_decimal(text: str | int | Decimal, *, field: str) -> Decimal:
    """A finite number, written with a decimal point or a decimal comma (``0,5``) or as ``½``."""
    if isinstance(text, int | Decimal):
        value = Decimal(text)
    else:
        cleaned = text.strip().replace(",", ".").replace("½", ".5").replace("−", "-")
        if cleaned.startswith(".5") and len(cleaned) == 2:
            cleaned = "0.5"
        if len(cleaned) > MAX_NUMBER_LENGTH:
            raise InvalidInputError(
                field,
                _shown(text),
                f"longer than {MAX_NUMBER_LENGTH} characters",
                code="too-long",
                params={"length": MAX_NUMBER_LENGTH},
            )
        if not cleaned.isascii():
            # Decimal() reads "١٥٠٠" and "１５００" as 1500; the web form refuses them, so does this.
            raise InvalidInputError(field, text, "write the number with the digits 0-9", code="digits")
        try:
            value = Decimal(cleaned)
        except InvalidOperation:
            raise InvalidInputError(field, text, "not a number", code="not-a-number") from None
    if not value.is_finite():
        raise InvalidInputError(field, text, "not a finite number", code="not-finite")
    if abs(value) >= MAX_MAGNITUDE:
        raise InvalidInputError(field, _shown(text), "too large", code="too-large")
    return value


def _shown(text: object) -> str:
    """A value to repeat in a message, cut to a few characters."""
    shown = str(text) if not isinstance(text, int) or text.bit_length() < 64 else "a huge number"
    return shown if len(shown) <= MAX_NUMBER_LENGTH else shown[:MAX_NUMBER_LENGTH] + "…"


def parse_score(text: str | int | Decimal, *, field: str = "result") -> Decimal:
    """A game's score for the player: 1, ½ or 0, as a word of :data:`SCORE_WORDS` or a number.

    >>> parse_score("tablas"), parse_score("½"), parse_score("0,50"), parse_score("1.00")
    (Decimal('0.5'), Decimal('0.5'), Decimal('0.5'), Decimal('1'))

    A result with colours (``1-0``) is refused: it is White's score, and the player's colour is
    not known here (the file readers, which know it, read such results themselves).
    """
    key = str(text) if isinstance(text, int | Decimal) else text.strip().lower().replace(",", ".")
    if key in SCORE_WORDS:
        return SCORE_WORDS[key]
    if _COLOUR_RESULT.match(key):
        raise InvalidInputError(
            field,
            text,
            "a result with colours says White's score: write 1, ½ or 0 from the player's side",
            code="colour-result",
        )
    if _SCORE_NUMBER.match(key):
        value = Decimal(key)
        if value in SCORES:
            return value.normalize() if value else ZERO
    raise InvalidInputError(field, text, "a result is 1, 0.5, 0, ½, win, draw or loss", code="result")


def parse_rating(
    text: str | int | Decimal,
    *,
    field: str = "rating",
    low: int | Decimal = MIN_RATING,
    high: int | Decimal = MAX_RATING,
) -> Decimal:
    """A rating between :data:`MIN_RATING` and :data:`MAX_RATING`, or a system's own ``low`` and
    ``high`` (fractions allowed for averages).

    >>> parse_rating("1500,5")
    Decimal('1500.5')
    >>> parse_rating("1.500")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    chessrate.errors.InvalidInputError: invalid rating '1.500': write a rating without a thousands ...
    """
    if isinstance(text, str) and _THOUSANDS.match(text.strip()):
        # "1.500" is fifteen hundred in Spanish and Catalan, 1.5 in English: refuse, never guess.
        raise InvalidInputError(
            field, text, "write a rating without a thousands separator, e.g. 1500", code="thousands-separator"
        )
    value = parse_decimal(text, field=field)
    return check_rating(field, value, low=low, high=high, shown=text)


_Rating = TypeVar("_Rating", int, float, Decimal)


def check_rating(
    field: str,
    value: _Rating,
    *,
    low: int | Decimal,
    high: int | Decimal,
    whole: bool = False,
    shown: object = None,
) -> _Rating:
    """``value`` when it is a finite number from ``low`` to ``high`` (a whole one with ``whole``):
    the one rating check of every system, each giving its own bounds, cited where they are defined
    (:data:`MIN_RATING` and :data:`MAX_RATING` for FIDE; ``chessrate.systems.dwz.rating``, ``ecf``, ``uscf``,
    ``pools``). ``shown`` is the value as typed, for the message."""
    shown = value if shown is None else shown
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise InvalidInputError(field, shown, "not a number", code="not-a-number")
    if not (value.is_finite() if isinstance(value, Decimal) else math.isfinite(value)):
        raise InvalidInputError(field, shown, "not a finite number", code="not-finite")
    if whole and not isinstance(value, int):
        raise InvalidInputError(field, shown, "this rating is a whole number", code="whole-rating")
    if not low <= value <= high:
        raise InvalidInputError(
            field,
            shown,
            f"a rating is between {low} and {high}",
            code="rating-range",
            params={"low": low, "high": high},
        )
    return value


def check_score(field: str, score: object) -> None:
    """Refuse a game's score other than 1, 0.5 or 0 (:data:`SCORES`), as a number of any kind."""
    if (
        isinstance(score, bool)
        or not isinstance(score, int | float | Decimal)
        or (isinstance(score, Decimal) and not score.is_finite())
        or score not in SCORES
    ):
        raise InvalidInputError(field, score, "a result is 1, 0.5 or 0", code="result")


def parse_points(text: str | int | Decimal, *, games: int, field: str = "points") -> Decimal:
    """Total points from ``games`` games: a multiple of 0.5 between 0 and ``games``."""
    value = parse_decimal(text, field=field)
    if value < 0 or value > games:
        raise InvalidInputError(
            field,
            text,
            f"points are between 0 and the {games} games played",
            code="points-range",
            params={"games": games},
        )
    if (value * 2) % 1 != 0:
        raise InvalidInputError(field, text, "points are whole or half points", code="half-points")
    return value


def _check_bounds(
    value: Decimal, text: object, *, field: str, minimum: int | Decimal, maximum: int | Decimal | None
) -> None:
    """Refuse ``value`` below ``minimum`` or above ``maximum`` (None: no maximum), naming the field."""
    if value < minimum:
        raise InvalidInputError(
            field, text, f"must be at least {minimum}", code="minimum", params={"minimum": minimum}
        )
    if maximum is not None and value > maximum:
        raise InvalidInputError(
            field, text, f"must be at most {maximum}", code="maximum", params={"maximum": maximum}
        )


def parse_count(text: str | int, *, field: str, minimum: int = 0, maximum: int | None = None) -> int:
    """A whole number of at least ``minimum`` and at most ``maximum`` (games, periods, years)."""
    value = parse_decimal(text, field=field)
    if value != value.to_integral_value():
        raise InvalidInputError(field, text, "not a whole number", code="not-whole")
    _check_bounds(value, text, field=field, minimum=minimum, maximum=maximum)
    return int(value)


def parse_in_range(
    text: str | int | Decimal, *, field: str, minimum: Decimal, maximum: Decimal | None = None
) -> Decimal:
    """A number from ``minimum`` to ``maximum`` (both included; no maximum: None), fractions allowed."""
    value = parse_decimal(text, field=field)
    _check_bounds(value, text, field=field, minimum=minimum, maximum=maximum)
    return value


def parse_k(text: str | int | Decimal, *, field: str = "k") -> int:
    """A K-factor: a whole number above zero, at most :data:`MAX_K`."""
    value = parse_decimal(text, field=field)
    if value != value.to_integral_value() or value <= 0:
        raise InvalidInputError(field, text, "K is a whole number above zero", code="k")
    if value > MAX_K:
        raise InvalidInputError(
            field, text, f"K is at most {MAX_K}", code="k-maximum", params={"maximum": MAX_K}
        )
    return int(value)


def parse_date(text: str | dt.date, *, field: str = "date") -> dt.date:
    """An ISO date, ``YYYY-MM-DD``."""
    if isinstance(text, dt.date):
        return text
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInputError(field, text, "a date is written YYYY-MM-DD", code="date") from None


_Choice = TypeVar("_Choice", bound=StrEnum)


def parse_choice(kind: type[_Choice], text: str, *, field: str) -> _Choice:
    """One of ``kind``'s values, in any case and with spaces around; else refused with the values."""
    try:
        return kind(text.strip().lower())
    except ValueError:
        known = ", ".join(choice.value for choice in kind)
        raise InvalidInputError(field, text, f"use one of {known}") from None
