"""Rendering for the command line: a Rich table by default, JSON with ``--json``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from chessrate.requests.documents import to_json

# Wide enough for the report's eleven columns when the output is a file or a pipe.
# No emoji codes: a name such as ":smile:" is printed as written.
console = Console(width=None if sys.stdout.isatty() else 120, emoji=False)

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


def print_document(document: Any) -> None:
    """A document of :mod:`chessrate.requests.documents`, as the API answers it."""
    sys.stdout.write(to_json(document) + "\n")


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
    console.print(table)


def print_summary(title: str, items: Sequence[tuple[str, Any]]) -> None:
    """A two-column table of labelled values."""
    print_table(title, ["", "value"], items)
