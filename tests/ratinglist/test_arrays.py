"""The fast orderings of whole-number columns are numpy's stable ones, value for value."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from chessrate.ratinglist.arrays import distinct, lexical_order, narrow, stable_order

#: Small ranges (many repeats), ids, and values past what a packed sort takes (numpy's sort then).
COLUMNS = st.one_of(
    arrays(np.int64, st.integers(0, 300), elements=st.integers(0, 5)),
    arrays(np.int64, st.integers(0, 300), elements=st.integers(0, 2**31)),
    arrays(np.int64, st.integers(0, 300), elements=st.integers(-(2**62), 2**62)),
)


@given(COLUMNS)
def test_stable_order_is_numpys_stable_argsort(keys: np.ndarray) -> None:
    assert stable_order(keys).tolist() == np.argsort(keys, kind="stable").tolist()


@given(COLUMNS)
def test_distinct_is_numpys_unique(values: np.ndarray) -> None:
    assert distinct(values).tolist() == np.unique(values).tolist()


@given(
    st.integers(0, 200).flatmap(lambda n: st.tuples(*(arrays(np.int64, n, elements=st.integers(0, 4)),) * 3))
)
def test_lexical_order_is_numpys_lexsort(keys: tuple[np.ndarray, ...]) -> None:
    assert lexical_order(*keys).tolist() == np.lexsort(keys).tolist()


@given(arrays(np.int64, st.integers(0, 50), elements=st.integers(-(2**40), 2**40)))
def test_narrow_keeps_every_value_and_is_32_bit_only_where_all_fit(values: np.ndarray) -> None:
    narrowed = narrow(values)
    assert narrowed.tolist() == values.tolist()
    fits = bool(len(values) == 0 or (values.min() >= -(2**31) and values.max() < 2**31))
    assert narrowed.dtype == (np.int32 if fits else np.int64)
