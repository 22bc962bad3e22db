"""A game's result as users type it: 1, ½ or 0 from the player's side (FIDE B.02 8.1: a win is
worth 1, a draw ½, a loss 0), in words or as any decimal equal to one of them; never a result with
colours, which gives White's score where the player's colour is not known."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chessrate.errors import InvalidInputError
from chessrate.parse import SCORE_WORDS, parse_in_range, parse_score

SCORES = [Decimal(0), Decimal("0.5"), Decimal(1)]


@given(
    score=st.sampled_from(SCORES),
    zeros=st.integers(min_value=0, max_value=6),
    leading=st.integers(min_value=0, max_value=1),
    comma=st.booleans(),
    spaces=st.sampled_from(["", " ", "\t"]),
)
def test_any_decimal_equal_to_a_score_is_that_score(
    score: Decimal, zeros: int, leading: int, comma: bool, spaces: str
) -> None:
    whole, _, fraction = f"{score:f}".partition(".")
    fraction += "0" * zeros
    text = "0" * leading + whole + ("." + fraction if fraction else ("." + "0" * zeros if zeros else ""))
    if comma:
        text = text.replace(".", ",")
    assert parse_score(spaces + text + spaces) == score


@given(st.decimals(min_value=0, max_value=999, places=3, allow_nan=False, allow_infinity=False))
def test_any_other_number_is_refused(value: Decimal) -> None:
    if value in SCORES:
        assert parse_score(str(value)) == value
        return
    with pytest.raises(InvalidInputError) as refused:
        parse_score(str(value))
    assert refused.value.code == "result"


@pytest.mark.parametrize(
    "text", ["1-0", "0-1", "1/2-1/2", "½-½", "0.5-0.5", "0,5-0,5", "1 - 0", "0–1", ".5-.5"]
)
def test_a_result_with_colours_is_refused(text: str) -> None:
    # `game 1500 1700 0-1` was scored 0, the player silently taken as White.
    with pytest.raises(InvalidInputError) as refused:
        parse_score(text)
    assert refused.value.code == "colour-result"
    assert "from the player's side" in refused.value.reason


@given(st.sampled_from(sorted(SCORE_WORDS)), st.booleans())
def test_the_words_in_any_case(word: str, upper: bool) -> None:
    assert parse_score(f" {word.upper() if upper else word} ") == SCORE_WORDS[word]


@given(st.text(max_size=12))
def test_any_text_is_a_score_or_a_coded_refusal(text: str) -> None:
    refusal: InvalidInputError | None = None
    try:
        score = parse_score(text)
    except InvalidInputError as refused:
        refusal = refused
    if refusal is None:
        assert score in SCORES
    else:
        assert (refusal.field, refusal.code in {"result", "colour-result"}) == ("result", True)


def test_a_bounded_number_names_its_bound() -> None:
    assert parse_in_range("0,3", field="tau", minimum=Decimal("0.3"), maximum=Decimal("1.2")) == Decimal(
        "0.3"
    )
    with pytest.raises(InvalidInputError) as low:
        parse_in_range("1e-300", field="tau", minimum=Decimal("0.3"))
    assert (low.value.code, low.value.params) == ("minimum", {"minimum": Decimal("0.3")})
    with pytest.raises(InvalidInputError) as high:
        parse_in_range("1e6", field="deviation", minimum=Decimal(1), maximum=Decimal(350))
    assert (high.value.code, high.value.params) == ("maximum", {"maximum": Decimal(350)})
