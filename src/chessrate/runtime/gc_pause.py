"""Python's cycle collector, paused while a big job makes its objects.

A month of a rating list or a big tournament file makes hundreds of thousands of objects (lines,
games, workings, the document), none of them in a cycle, and the collector would walk every live
one again and again: a second or more of a 2×10^6-game ``list run``, a fifth of a 70,000-game
``report`` (``benchmarks/list_scale.py``, ``benchmarks/report_scale.py``). Reference counting
still frees everything as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """The cycle collector off inside the block, and back as it was after it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
