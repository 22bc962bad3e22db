"""A big document's JSON is written by pydantic-core: the stdlib's text, the same numbers where not.

:func:`chessrate.service.documents.json_bytes` (``report --format json``) writes what
:func:`~chessrate.service.documents.to_json` (``json.dumps(asdict(document), indent=2)``, ten times
slower on a big report) writes, byte for byte, but for a float below 0.0001, written without an
exponent: it reads back the same number.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from chessrate.service.documents import json_bytes, to_json


@dataclass(kw_only=True, eq=False)
class Leaf:
    number: int | float | None
    flag: bool | None
    text: str


@dataclass(kw_only=True, eq=False)
class Document:
    name: str
    values: list[Any]
    leaves: list[Leaf]
    nested: dict[str, Any]


texts = st.text(st.characters(codec="utf-8"))  # any text UTF-8 can write (no lone surrogate)
floats = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(st.integers(-(10**20), 10**20), floats)
leaves = st.builds(
    Leaf, number=st.one_of(st.none(), numbers), flag=st.one_of(st.none(), st.booleans()), text=texts
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
documents = st.builds(
    Document,
    name=texts,
    values=st.lists(st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=6),
    leaves=st.lists(leaves, max_size=5),
    nested=st.dictionaries(texts, st.one_of(scalars, st.lists(leaves, max_size=2)), max_size=4),
)


def stdlib(document: Any) -> str:
    return json.dumps(dataclasses.asdict(document), ensure_ascii=False, indent=2)


def test_to_json_is_the_stdlib() -> None:
    document = Leaf(number=1e-05, flag=True, text="é")
    assert to_json(document) == stdlib(document) == '{\n  "number": 1e-05,\n  "flag": true,\n  "text": "é"\n}'


@given(documents)
def test_the_same_document_as_the_stdlib_reads_it(document: Document) -> None:
    assert json.loads(json_bytes(document)) == json.loads(stdlib(document))


@given(documents.filter(lambda d: "e-" not in stdlib(d)))
def test_the_stdlib_text_byte_for_byte_without_tiny_floats(document: Document) -> None:
    assert json_bytes(document).decode() == stdlib(document)


def test_a_tiny_float_is_the_same_number_without_an_exponent() -> None:
    document = Leaf(number=9.999000099990002e-05, flag=None, text="é")
    text = json_bytes(document).decode()
    assert text == '{\n  "number": 0.00009999000099990002,\n  "flag": null,\n  "text": "é"\n}'
    assert json.loads(text)["number"] == 9.999000099990002e-05


def test_a_lone_surrogate_is_escaped_as_json_escapes_it() -> None:
    document = Leaf(number=1, flag=True, text="report-\udc80.pgn")  # a file name that is not UTF-8
    assert json.loads(json_bytes(document))["text"] == "report-\udc80.pgn"
    assert b'"report-\\udc80.pgn"' in json_bytes(document)
