"""Any text given to the analysis's PGN reader: games or a FileFormatError, never another exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessrate.analysis import read_games
from chessrate.errors import FileFormatError

PIECES = st.sampled_from(
    ['[White "a"]', '[Variant "Atomic"]', '[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]', "1.", "e4", "e5", "Nf3",
     "{ [%eval #-3] }", "{ [%eval 0.3] }", "(", ")", "1-0", "*", "\n", "\n\n", "O-O", "Qxf7#", "%", ";", "$1",
     "\x00"]
)  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.lists(PIECES, max_size=40).map(" ".join)))
def test_read_games_never_crashes(text: str) -> None:
    try:
        games = read_games(text)
    except FileFormatError:
        return
    assert games
