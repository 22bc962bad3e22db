"""Rendering for the command line: a Rich table by default, JSON with ``--json``.

Rich is imported only to print a table, so that ``--json`` starts faster.
"""

from __future__ import annotations

import codecs
import functools
import json
import os
import re
import sys
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import typer

from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
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


JsonOption = typer.Option(False, "--json", help=N_("Print the result as JSON."))


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


def decimal_point() -> str:
    """The decimal separator of the command line's language, from its catalog (es, ca: a comma,
    as CLDR and the web write it); the catalog, not Babel, whose locale data would cost every
    start ~20 ms."""
    return words().catalog.pgettext("decimal separator", ".")


def number(text: str) -> str:
    """A number written in English (``+15.20``, ``1500``) in the command line's language (``+15,20``)."""
    point = decimal_point()
    return text if point == "." else text.replace(".", point)


def fixed(value: Any, places: int) -> str:
    """``value`` with exactly ``places`` decimals, the decimal separator the language's."""
    return number(f"{value:.{places}f}")


def fmt(value: Any, *, signed: bool = False, places: int | None = None) -> str:
    """A number for people: Decimals as written, floats to ``places``, ``None`` as a dash, the
    decimal separator the language's."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
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
    return number(text)


#: Where a title may break: between its phrases ("One game — FIDE 2025-10-01 (in force on …)").
TITLE_BREAKS = re.compile(r" (?=— |\()")
#: The least width of a column of names.
NAME_WIDTH = 18
#: The frame of a Rich table: a rule on each side and a border and padding around every cell.
FRAME, PER_COLUMN = 1, 3


def title_lines(title: str, width: int) -> list[str]:
    """``title`` in lines of at most ``width`` characters, broken only between its phrases (a
    phrase longer than the line stands alone on its line, whole)."""
    lines: list[str] = []
    for phrase in TITLE_BREAKS.split(title):
        if lines and len(lines[-1]) + 1 + len(phrase) <= width:
            lines[-1] += " " + phrase
        else:
            lines.append(phrase)
    return lines


def table_width(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The width of the table with no cell folded: every column as wide as its widest cell."""
    widths = [max(map(len, column.splitlines() or [""])) for column in columns]
    widths = [
        max(width, NAME_WIDTH) if name in {"name", _("name")} else width
        for width, name in zip(widths, columns, strict=True)
    ]
    for row in rows:
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=False)]
    return FRAME + sum(width + PER_COLUMN for width in widths)


def print_table(
    title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, caption: str | None = None
) -> None:
    """A table under its title; where the terminal is too narrow for it whole, each row stacked
    as ``column: value`` lines, so that no cell and no title phrase is folded. ``columns`` are
    English (``name`` is the column of names), said here in the command line's language."""
    from rich.markup import escape
    from rich.table import Table

    out = console()
    names = [column == "name" for column in columns]
    columns = [_(column) if column else column for column in columns]
    cells = [[str(cell) for cell in row] for row in rows]
    # Every text is escaped: a name such as "[/bold]" from a file is printed, not read as markup.
    for line in title_lines(title, out.width):
        out.print(escape(line), style="italic", highlight=False)
    if table_width(columns, cells) > out.width:
        print_stacked(columns, cells)
    else:
        table = Table(caption=escape(caption) if caption is not None else None, caption_justify="left")
        for column, is_name in zip(columns, names, strict=True):
            table.add_column(
                escape(column),
                justify="left" if is_name or not column else "right",
                min_width=NAME_WIDTH if is_name else None,
                no_wrap=True,
            )
        for row in cells:
            table.add_row(*(escape(cell) for cell in row))
        out.print(table)
        return
    if caption is not None:
        out.print(caption, highlight=False, markup=False)


def print_stacked(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Each row as lines of ``column: value`` (the first column's value heads the row), a blank
    line between rows: the layout of a terminal too narrow for the table."""
    out = console()
    if len(columns) == 2:  # label and value: one line each, a long value going on under itself
        for label, value in rows:
            for line in textwrap.wrap(f"{label}: {value}", out.width, subsequent_indent="  ") or [""]:
                out.print(line, highlight=False, markup=False)
        return
    columns = [" ".join(column.split()) for column in columns]  # a header of two lines, on one
    label_width = max((len(column) for column in columns[1:]), default=0)
    indent = 2 + label_width + 2
    for index, row in enumerate(rows):
        if index:
            out.print()
        head = f"{columns[0]}: {row[0]}" if columns[0] else row[0]
        out.print(head, style="bold", highlight=False, markup=False)
        for column, cell in zip(columns[1:], row[1:], strict=False):
            # A long value goes on under itself, broken between words.
            lines = textwrap.wrap(cell, max(out.width - indent, 20)) or [""]
            out.print(f"  {column.ljust(label_width)}  {lines[0]}", highlight=False, markup=False)
            for line in lines[1:]:
                out.print(" " * indent + line, highlight=False, markup=False)


def print_summary(title: str, items: Sequence[tuple[str, Any]], *, notes: Sequence[str] = ()) -> None:
    """A two-column table of labelled values, then each note as a paragraph (the why, in words)."""
    print_table(title, ["", "value"], items)
    for note in notes:
        console().print(note, highlight=False, markup=False)
