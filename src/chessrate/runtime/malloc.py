"""Freed memory kept by the C allocator while a period run makes and drops its big arrays.

A run of 2×10^6 games makes and drops arrays of millions of values one after the other. glibc's
``malloc`` gives memory it frees at the top of its heap back to the system, and the next array
then faults every page in again: 0.6–1.5 s of system time a run (``benchmarks/list_scale.py``,
the shared 2-core machine). Asking it to keep a pad of 1 GiB at the top of the heap (``mallopt``'s
``M_TOP_PAD``) lets the next arrays reuse those pages; the peak RSS does not grow (the pages
kept are those the run already held). Where the C library has no ``mallopt`` (not glibc) nothing
changes. Once the run has dropped a stage's big arrays (the texts its games were read from, the
computation's temporaries), :func:`freed_memory_returned` gives what is freed back at once
(``malloc_trim``): the holes they leave are not kept to stack under the next stage's peak.

Source: ``mallopt(3)``, the Linux man-pages project, "M_TOP_PAD"; glibc ``malloc/malloc.h``
(``#define M_TOP_PAD -2``) and ``malloc/malloc.c`` (``DEFAULT_TOP_PAD`` 128 KiB).
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: glibc ``malloc.h``.
M_TOP_PAD = -2
#: glibc ``malloc.c``: the pad when none is asked for.
DEFAULT_TOP_PAD = 128 * 1024
#: The pad kept during a run.
RUN_TOP_PAD = 1 << 30


@contextmanager
def freed_memory_kept(library: Any = None) -> Iterator[None]:
    """Inside the block, freed memory is kept for reuse rather than given back to the system;
    after it, the C library's default again. ``library``: the C library (the process's own)."""
    try:
        mallopt = (library if library is not None else ctypes.CDLL(None)).mallopt
    except (OSError, AttributeError):  # no mallopt: not glibc
        yield
        return
    mallopt(M_TOP_PAD, RUN_TOP_PAD)
    try:
        yield
    finally:
        mallopt(M_TOP_PAD, DEFAULT_TOP_PAD)


def freed_memory_returned(library: Any = None) -> bool:
    """Give the memory the C allocator holds freed back to the system (glibc's ``malloc_trim(0)``:
    every arena, not only the top of the heap), so that what is allocated next does not stack on
    it; whether the library did so. Where the C library has no ``malloc_trim`` (not glibc), False.

    The pad asked of ``malloc_trim`` is 0 even inside :func:`freed_memory_kept`, by choice: a run
    calls this once a stage's big arrays are dropped, and the top of the heap they leave is given
    back too, not kept as :data:`RUN_TOP_PAD` under the next stage's peak. The ``M_TOP_PAD`` asked
    for stays in force: the heap grows by it again, and frees after the trim keep it.

    Source: ``malloc_trim(3)``, the Linux man-pages project (glibc 2.8 and later release free
    pages anywhere in an arena, not only at its top)."""
    try:
        trim = (library if library is not None else ctypes.CDLL(None)).malloc_trim
    except (OSError, AttributeError):  # no malloc_trim: not glibc
        return False
    return bool(trim(0))
