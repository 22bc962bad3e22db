"""Rendering for the command line: a Rich table by default, JSON with ``--json``.

Rich is imported only to print a table, so that ``--json`` starts faster.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import typer

from chessrate.service.documents import json_bytes, to_json

if TYPE_CHECKING:
    from rich.console import Console


@functools.cache
def console() -> Console:
    """Rich's console: the terminal's width (or ``COLUMNS``); 120 into a file or a pipe.

    No emoji codes: a name such as ":smile:" is printed as written.
    """
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 120, emoji=False)


JsonOption = typer.Option(False, "--json", help="Print the result as JSON.")


def to_jsonable(value: Any) -> Any:
    """Decimals become JSON numbers (whole numbers stay whole); mappings and lists recurse."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.is_finite() else float(value)
    if isinstance(value, Mapping):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(item) for item in value]
    return value


def print_json(data: Mapping[str, Any] | Sequence[Any]) -> None:
    sys.stdout.write(json.dumps(to_jsonable(data), ensure_ascii=False, indent=2) + "\n")


def print_json_streamed(head: Mapping[str, Any], key: str, items: Iterable[Mapping[str, Any]]) -> None:
    """:func:`print_json` of ``{**head, key: [*items]}``, the same text, written item by item as
    ``items`` come (a list of any length in bounded memory)."""
    opening = json.dumps({**to_jsonable(head), key: []}, ensure_ascii=False, indent=2)
    assert opening.endswith("[]\n}")
    write = sys.stdout.write
    write(opening[: -len("]\n}")])
    separator = "\n"
    for item in items:
        text = json.dumps(to_jsonable(item), ensure_ascii=False, indent=2)
        write(separator + "    " + text.replace("\n", "\n    "))
        separator = ",\n"
    write("]\n}\n" if separator == "\n" else "\n  ]\n}\n")


def print_document(document: Any) -> None:
    """A document of :mod:`chessrate.service.documents`, as the API answers it."""
    sys.stdout.write(to_json(document) + "\n")


def print_big_document(document: Any) -> None:
    """:func:`print_document` of a document of tens of MB (:func:`json_bytes`): the same text,
    its UTF-8 written to a UTF-8 standard output as it is, not decoded and encoded again."""
    data = json_bytes(document)
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None or codecs.lookup(sys.stdout.encoding or "ascii").name != "utf-8":
        sys.stdout.write(data.decode() + "\n")
        return
    sys.stdout.flush()  # what was written as text before goes first
    buffer.write(data)  # not data + b"\n": a copy of tens of MB
    buffer.write(b"\n")
    buffer.flush()


def fmt(value: Any, *, signed: bool = False, places: int | None = None) -> str:
    """A number for people: Decimals as written, floats to ``places``, ``None`` as a dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float | Decimal) and places is not None:
        text = f"{value:.{places}f}"
    elif (
        isinstance(value, Decimal)
        and isinstance(exponent := value.as_tuple().exponent, int)
        and exponent < -4
    ):
        text = f"{value:.4f}"
    else:
        text = str(value)
    if signed and isinstance(value, int | float | Decimal) and value > 0:
        text = "+" + text
    return text


def print_table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str | None = None
) -> None:
    from rich.markup import escape
    from rich.table import Table

    # Every text is escaped: a name such as "[/bold]" from a file is printed, not read as markup.
    table = Table(
        title=escape(title),
        caption=escape(caption) if caption is not None else None,
        title_justify="left",
        caption_justify="left",
    )
    for column in columns:
        table.add_column(
            escape(column),
            justify="left" if column in {"", "name"} else "right",
            min_width=18 if column == "name" else None,
        )
    for row in rows:
        table.add_row(*(escape(str(cell)) for cell in row))
    console().print(table)


def print_summary(title: str, items: Sequence[tuple[str, Any]], *, notes: Sequence[str] = ()) -> None:
    """A two-column table of labelled values, then each note as a paragraph (the why, in words)."""
    print_table(title, ["", "value"], items)
    for note in notes:
        console().print(note, highlight=False, markup=False)
