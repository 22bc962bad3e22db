"""Rounding as rating regulations write it: to the nearest whole number, 0.5 away from zero."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def round_half_away_from_zero(value: Decimal) -> int:
    """FIDE B.02 8.3.4: "rounded to the nearest whole number. 0.5 is rounded away from zero."

    Decimal's ROUND_HALF_UP rounds ties away from zero (+2.5 -> 3, -2.5 -> -3); Python's
    ``round()`` rounds them to even and would be wrong here.
    """
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))
