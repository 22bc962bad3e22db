"""Rounding as rating regulations write it: to the nearest whole number, 0.5 away from zero."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def round_half_away_from_zero(value: Decimal | float) -> int:
    """FIDE B.02 8.3.4: "rounded to the nearest whole number. 0.5 is rounded away from zero."

    The one rounding of every system (FIDE, DWZ, US Chess: their ratings are positive, where half
    away from zero is half up). Decimal's ROUND_HALF_UP rounds ties away from zero (+2.5 -> 3,
    -2.5 -> -3); Python's ``round()`` rounds them to even and would be wrong here. A float is
    converted exactly, so 0.49999999999999994 stays below the half (``floor(x + 0.5)`` gives 1).
    """
    exact = value if isinstance(value, Decimal) else Decimal(value)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
