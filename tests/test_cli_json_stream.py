"""A list written item by item (``list show --json``, ``list export``) is the very text of the
whole document written at once."""

from __future__ import annotations

import contextlib
import io
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chessrate.cli.output import print_json, print_json_streamed

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=8),
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
    st.floats(allow_nan=False, allow_infinity=False),
)
OBJECTS = st.dictionaries(st.text(max_size=6), st.one_of(VALUES, st.lists(VALUES, max_size=3)), max_size=4)


def written(write: Any, *args: Any) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        write(*args)
    return out.getvalue()


@given(head=OBJECTS, items=st.lists(OBJECTS, max_size=4))
def test_streamed_json_is_the_whole_documents_text(head: dict[str, Any], items: list[dict[str, Any]]) -> None:
    head.pop("players", None)
    whole = written(print_json, {**head, "players": items})
    assert written(print_json_streamed, head, "players", iter(items)) == whole


def test_a_decimal_item_is_written_as_a_number() -> None:
    text = written(print_json_streamed, {"period": "2025-10"}, "players", iter([{"change": Decimal("1.50")}]))
    assert text == '{\n  "period": "2025-10",\n  "players": [\n    {\n      "change": 1.5\n    }\n  ]\n}\n'
