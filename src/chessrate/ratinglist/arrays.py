"""Ordering whole-number columns with numpy's fastest sort.

numpy sorts a column of whole numbers with its vectorised quicksort (tens of milliseconds for
millions of values), but its stable ``argsort``, ``lexsort`` and hashed ``unique`` are ten to
forty times slower on the columns of a period (millions of sides, hundreds of thousands of
players). A stable order is a plain sort of each value with its position in the low bits; the
distinct values are the sorted column without its repeats.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


def stable_order(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """``np.argsort(keys, kind="stable")``: the positions of ``keys`` in sorted order, equal keys
    in the order they come. Through a plain sort of ``key << bits | position`` when the keys are
    whole numbers from 0 and that fits in 63 bits; otherwise numpy's stable sort."""
    count = len(keys)
    if not count:
        return np.zeros(0, dtype=np.int64)
    bits = max(count - 1, 1).bit_length()
    low, high = int(keys.min()), int(keys.max())
    if low < 0 or high.bit_length() + bits > 63:
        return np.argsort(keys, kind="stable").astype(np.int64, copy=False)
    packed = (keys.astype(np.int64) << bits) | np.arange(count, dtype=np.int64)
    packed.sort()
    packed &= (1 << bits) - 1
    return packed


def distinct(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """``np.unique(values)``: the distinct values, sorted."""
    ordered = np.sort(values)
    if not len(ordered):
        return ordered
    keep = np.empty(len(ordered), dtype=np.bool_)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def lexical_order(*keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """``np.lexsort(keys)``: sorted by the last key, then the one before, ..., then position; one
    stable sort a key, the least significant first."""
    order = stable_order(keys[0])
    for key in keys[1:]:
        order = order[stable_order(key[order])]
    return order


def narrow(values: NDArray[np.int64]) -> NDArray[Any]:
    """``values`` as 32-bit whole numbers when every one fits (ids, indices, ratings: half the
    memory of a column of millions), else as they are; the values themselves unchanged. (Typed
    as any whole-number array: it stands where an int64 column did.)"""
    if len(values) and (int(values.min()) < -(1 << 31) or int(values.max()) >= 1 << 31):
        return values
    return values.astype(np.int32, copy=False)
