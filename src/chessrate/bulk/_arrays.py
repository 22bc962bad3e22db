"""Input checks and small helpers shared by the array engines: cheap whole-array reductions, so a
bad value is named (field and first bad value, :class:`~chessrate.errors.InvalidInputError`) before
any rating; and rounding half away from zero (B.02 8.3.4)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chessrate.errors import InvalidInputError
from chessrate.parse import MAX_RATING, MIN_RATING

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

#: The rating scale of the engines: whole ratings from 0 to 4000.
LOWEST = int(MIN_RATING)
HIGHEST = int(MAX_RATING)

#: The engines' refusals by code, in English with their values by name; the faces say the code from
#: the catalogs (docs/codes.md). Games and players are counted from 0, as the arrays index them.
REFUSALS = {
    "bulk-score": "game {game}: a score is 1, 0.5 or 0",
    "bulk-whole-array": "a one-dimensional array of whole numbers",
    "bulk-per-game": "one value per game ({games})",
    "bulk-index-negative": "game {game}: cannot be negative",
    "bulk-whole-per-game": "one whole number per game ({games})",
    "bulk-half-points": "game {game}: 0, 1 or 2 half points",
    "bulk-own-opponent": "game {game}: a player cannot play themself",
    "bulk-player-unknown": "game {game}: only {players} players rated",
    "bulk-rating-per-player": "one rating per player",
    "bulk-rating-per-game": "one per game ({games})",
    "bulk-whole-ratings": "the bulk engine rates whole-number ratings",
    "bulk-rating-range": "a rating is between {low} and {high}",
    "bulk-player-rating-range": "player {player}: a rating is between {low} and {high}",
    "bulk-per-player": "one value per player",
    "bulk-finite": "player {player}: a finite number",
    "bulk-setting-positive": "must be a finite number above zero",
    "whole-at-least-one": "a whole number of at least 1",
    "rules-need-k": "the rule set {rules!r} needs K to be given",
    "bulk-profile-per-player": "one whole number per player ({players}), -1 if unknown",
    "bulk-k-per-player": "one whole number per player ({players})",
    "bulk-k-positive": "player {player}: K is a whole number above zero",
    "bulk-deviation-range": "player {player}: an RD is between {low} and {high}",
    "bulk-volatility-range": "player {player}: a volatility is between {low} and {high}",
    "bulk-setting-range": "must be a number from {low} to {high}",
}


def refused(field: str, value: object, code: str, **params: object) -> InvalidInputError:
    """The refusal ``code`` of ``value`` in ``field``, its English filled in with ``params``."""
    return InvalidInputError(field, value, REFUSALS[code].format(**params), code=code, params=params)


def half_points(white_score: ArrayLike) -> NDArray[np.int8]:
    """White's scores (1, 0.5, 0) as half points (2, 1, 0), the engine's one-byte encoding."""
    scores = np.asarray(white_score, dtype=np.float64)
    halves = scores * 2.0
    bad = (halves != 0.0) & (halves != 1.0) & (halves != 2.0)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise refused("white_score", scores[first].item(), "bulk-score", game=first)
    return halves.astype(np.int8)


def indices(values: ArrayLike, field: str, n: int | None = None) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer):
        raise refused(field, array.dtype, "bulk-whole-array")
    if n is not None and len(array) != n:
        raise refused(field, len(array), "bulk-per-game", games=n)
    array = array.astype(np.intp, copy=False)
    if len(array) and array.min() < 0:
        first = int(np.flatnonzero(array < 0)[0])
        raise refused(field, int(array[first]), "bulk-index-negative", game=first)
    return array


def games(
    white: ArrayLike, black: ArrayLike, white_half_points: ArrayLike
) -> tuple[IntArray, IntArray, NDArray[np.int8]]:
    w = indices(white, "white")
    b = indices(black, "black", len(w))
    s = np.asarray(white_half_points)
    if s.shape != w.shape or not np.issubdtype(s.dtype, np.integer):
        raise refused("white_half_points", s.dtype, "bulk-whole-per-game", games=len(w))
    if len(s) and (s.min() < 0 or s.max() > 2):
        first = int(np.flatnonzero((s < 0) | (s > 2))[0])
        raise refused("white_half_points", int(s[first]), "bulk-half-points", game=first)
    if len(w) and (same := w == b).any():
        first = int(np.flatnonzero(same)[0])
        raise refused("black", int(b[first]), "bulk-own-opponent", game=first)
    return w, b, s.astype(np.int8, copy=False)


def check_players(w: IntArray, b: IntArray, players: int) -> None:
    for field, side in (("white", w), ("black", b)):
        if len(side) and side.max() >= players:
            first = int(np.flatnonzero(side >= players)[0])
            raise refused(field, int(side[first]), "bulk-player-unknown", game=first, players=players)


def ratings(values: ArrayLike, field: str, n: int | None = None) -> IntArray:
    array = np.asarray(values)
    if array.ndim != 1 or (n is not None and len(array) != n):
        if n is None:
            raise refused(field, array.shape, "bulk-rating-per-player")
        raise refused(field, array.shape, "bulk-rating-per-game", games=n)
    if not np.issubdtype(array.dtype, np.integer):
        whole = np.asarray(array, dtype=np.float64)
        if not np.all(whole == np.round(whole)):
            first = int(np.flatnonzero(whole != np.round(whole))[0])
            raise refused(field, whole[first].item(), "bulk-whole-ratings")
        array = whole.astype(np.int64)
    array = array.astype(np.int64, copy=False)
    if len(array) and (array.min() < LOWEST or array.max() > HIGHEST):
        first = int(np.flatnonzero((array < LOWEST) | (array > HIGHEST))[0])
        raise refused(field, int(array[first]), "bulk-rating-range", low=LOWEST, high=HIGHEST)
    return array


def floats(values: ArrayLike, field: str, *, n: int | None = None) -> FloatArray:
    """One finite number a player (``n`` of them, if given); the callers check their own ranges."""
    array = np.asarray(values, dtype=np.float64)
    if array.ndim != 1 or (n is not None and len(array) != n):
        raise refused(field, array.shape, "bulk-per-player")
    bad = ~np.isfinite(array)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise refused(field, array[first].item(), "bulk-finite", player=first)
    return array


def round_hundredths(hundredths: FloatArray) -> IntArray:
    """A whole number of hundredths (held exactly in a float) to the nearest whole number, 0.5 away
    from zero (B.02 8.3.4): floor((|h| + 50) / 100) with the sign of h. Exact while |h| < 2**40:
    the quotient's float error is then far below the 0.01 between x.99 and the next whole number.
    """
    magnitude = np.abs(hundredths)
    if len(magnitude) and magnitude.max() >= 2.0**40:  # beyond any real period; exact integers then
        whole = (magnitude.astype(np.int64) + 50) // 100
        return np.where(hundredths < 0, -whole, whole)
    magnitude += 50.0
    magnitude /= 100.0
    np.floor(magnitude, out=magnitude)
    np.copysign(magnitude, hundredths, out=magnitude)
    return magnitude.astype(np.int64)


def round_half_away(change: FloatArray) -> IntArray:
    """To the nearest whole number, 0.5 away from zero."""
    return (np.sign(change) * np.floor(np.abs(change) + 0.5)).astype(np.int64)
