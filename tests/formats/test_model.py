"""The tournament model's own helpers."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from chessrate.formats import Player


@given(
    st.integers(1, 10**6),
    st.text(max_size=20),
    st.none() | st.integers(0, 4000),
    st.none() | st.integers(1, 10**9),
    st.none() | st.sampled_from(["GM", "IM", "WFM"]),
    st.integers(1, 10**6),
)
def test_a_player_of_games_is_the_constructors(
    number: int, name: str, rating: int | None, fide_id: int | None, title: str | None, line: int
) -> None:
    made = Player.of_games(number, name, rating=rating, fide_id=fide_id, title=title, line=line)
    built = Player(number=number, name=name, rating=rating, fide_id=fide_id, title=title, line=line)
    assert made == built
    assert hash(made) == hash(built)
    assert dataclasses.asdict(made) == dataclasses.asdict(built)
    assert vars(made) == vars(built)  # every field set, none more
    assert dataclasses.replace(made, cells=()) == built
