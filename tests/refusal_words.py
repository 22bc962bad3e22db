"""The check shared by the tests of refusals said as codes (issue 24, docs/codes.md): a refusal raised
for real carries its code, the English catalog says the very sentence it raises, and Spanish and
Catalan say it in their own words."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chessrate.errors import CodedError, InvalidInputError
from chessrate.service.language import ENGLISH, translator
from chessrate.service.problems import input_reason


def assert_said_in_three_languages(
    refuse: Callable[[], object], code: str, english: str, spanish: str, catalan: str
) -> None:
    """``refuse()`` raises the refusal ``code``, said as these words in en, es and ca."""
    with pytest.raises((InvalidInputError, CodedError)) as raised:
        refuse()
    error = raised.value
    assert isinstance(error, InvalidInputError | CodedError)
    assert error.code == code
    said_as_raised = error.reason if isinstance(error, InvalidInputError) else str(error)
    assert said_as_raised == english
    assert input_reason(code, error.params, "", ENGLISH) == english
    assert input_reason(code, error.params, "", translator("es")) == spanish
    assert input_reason(code, error.params, "", translator("ca")) == catalan
