"""The tournament model's own helpers."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrate.formats import Game, Kind, Player


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


GAMES = st.builds(
    Game,
    round=st.none() | st.integers(0, 99),
    white=st.integers(1, 10**6),
    black=st.integers(1, 10**6),
    white_score=st.none() | st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
    black_score=st.none() | st.sampled_from([Decimal(0), Decimal("0.5"), Decimal(1)]),
    kind=st.sampled_from(Kind),
    counts_for_rating=st.booleans(),
    code=st.text(max_size=8),
    line=st.integers(1, 10**6),
    colours_known=st.booleans(),
    white_rating=st.none() | st.integers(0, 4000),
    black_rating=st.none() | st.integers(0, 4000),
    date=st.none() | st.dates(),
)


@given(st.lists(GAMES, max_size=5))
def test_games_of_columns_are_the_constructors(games: list[Game]) -> None:
    names = [field.name for field in dataclasses.fields(Game)]
    columns: dict[str, list[Any]] = {name: [getattr(game, name) for game in games] for name in names}
    made = Game.of_columns(**columns)
    assert made == tuple(games)
    assert [hash(game) for game in made] == [hash(game) for game in games]
    assert [vars(game) for game in made] == [vars(game) for game in games]  # every field set, none more
    assert [dataclasses.replace(game) for game in made] == games


def test_games_of_columns_of_unequal_lengths_are_refused() -> None:
    columns: dict[str, list[Any]] = {field.name: [] for field in dataclasses.fields(Game)}
    with pytest.raises(ValueError, match="zip"):
        Game.of_columns(**columns | {"line": [1]})
