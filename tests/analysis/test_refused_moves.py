"""A move python-chess refuses is named by its kind and its SAN, from the refusal's class, not its words."""

from __future__ import annotations

import pytest

from chessrate.analysis.games import read_games
from chessrate.errors import FileFormatError


@pytest.mark.parametrize(
    ("moves", "code", "move"),
    [
        # Black's e-pawn cannot reach e4 in one move, and White's pawn stands there.
        ("1. e4 e4 *", "illegal-move", "e4"),
        # Knights on b1 and f3 both reach d2 once the d-pawn has gone: "Nd2" names neither.
        ("1. d4 a6 2. Nf3 a5 3. Nd2 *", "ambiguous-move", "Nd2"),
        # After mate (4. Qxf7#) no move is legal; the refused one is in the main line after a comment.
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {mate} Ke7 *", "illegal-move", "Ke7"),
    ],
)
def test_a_refused_move_is_named_by_its_kind_and_san(moves: str, code: str, move: str) -> None:
    with pytest.raises(FileFormatError) as raised:
        read_games(f'[White "a"]\n[Black "b"]\n\n{moves}\n')
    assert raised.value.code == code
    assert dict(raised.value.params) == {"game": 1, "move": move}


def test_a_refused_move_in_a_variation_names_that_move() -> None:
    # The variation (1... e4, instead of 1... e5) is refused; its SAN is named, not the main line's.
    with pytest.raises(FileFormatError) as raised:
        read_games('[White "a"]\n\n1. e4 e5 (1... e4) 2. Nf3 *\n')
    assert raised.value.code == "illegal-move"
    assert dict(raised.value.params)["move"] == "e4"
