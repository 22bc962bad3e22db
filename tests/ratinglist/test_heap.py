"""A run asks the C allocator to keep freed memory (``mallopt`` ``M_TOP_PAD``), and gives it its
default back after; without ``mallopt`` (not glibc) nothing changes."""

from __future__ import annotations

import pytest

from chessrate.runtime.malloc import DEFAULT_TOP_PAD, M_TOP_PAD, RUN_TOP_PAD, freed_memory_kept


class Library:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def mallopt(self, option: int, value: int) -> int:
        self.calls.append((option, value))
        return 1


def test_the_pad_is_asked_for_inside_and_given_back_after_even_on_error() -> None:
    library = Library()
    with freed_memory_kept(library):
        assert library.calls == [(M_TOP_PAD, RUN_TOP_PAD)]
    assert library.calls[-1] == (M_TOP_PAD, DEFAULT_TOP_PAD)
    library.calls.clear()
    with pytest.raises(KeyError), freed_memory_kept(library):
        raise KeyError("a run that fails")
    assert library.calls == [(M_TOP_PAD, RUN_TOP_PAD), (M_TOP_PAD, DEFAULT_TOP_PAD)]


def test_a_c_library_without_mallopt_changes_nothing() -> None:
    with freed_memory_kept(object()):
        pass
