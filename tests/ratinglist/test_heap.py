"""A run asks the C allocator to keep freed memory (``mallopt`` ``M_TOP_PAD``), and gives it its
default back after; asked, it gives freed memory back (``malloc_trim``); without either (not glibc)
nothing changes."""

from __future__ import annotations

import ctypes

import pytest

from chessrate.runtime.malloc import (
    DEFAULT_TOP_PAD,
    M_TOP_PAD,
    RUN_TOP_PAD,
    freed_memory_kept,
    freed_memory_returned,
)


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


class Trimming:
    def __init__(self) -> None:
        self.calls: list[int] = []

    def malloc_trim(self, pad: int) -> int:
        self.calls.append(pad)
        return 1


def test_freed_memory_is_given_back_with_no_pad() -> None:
    library = Trimming()
    assert freed_memory_returned(library) is True
    assert library.calls == [0]


def test_a_c_library_without_malloc_trim_gives_nothing_back() -> None:
    assert freed_memory_returned(object()) is False


def test_the_process_own_c_library_is_asked_when_none_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    library = Trimming()
    opened: list[object] = []

    def process_library(name: object) -> Trimming:
        opened.append(name)
        return library

    monkeypatch.setattr(ctypes, "CDLL", process_library)
    assert freed_memory_returned() is True
    assert opened == [None]  # the process's own C library
    assert library.calls == [0]
