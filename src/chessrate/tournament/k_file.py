"""A K per player, given beside a tournament file: CSV text with the columns ``player,k``."""

from __future__ import annotations

import csv
import io

from chessrate.errors import InvalidInputError
from chessrate.parse import is_digits, parse_k


def read_k_file(text: str, *, origin: str) -> dict[str, int]:
    """A K per player from CSV text with the columns ``player,k`` (a FIDE id or a start number).

    Raises :class:`~chessrate.errors.InvalidInputError` (field ``k_file``, coded ``k-file-…`` with the
    line) for a file that is not such a CSV, or a K that is not one (its own code as ``reason_code``).
    """
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as error:  # a NUL byte, a quote left open
        raise InvalidInputError(
            "k_file", origin, f"not a CSV file: {error}", code="k-file-csv", params={"detail": str(error)}
        ) from None
    if not rows or [cell.strip().lower() for cell in rows[0]] != ["player", "k"]:
        raise InvalidInputError(
            "k_file", origin, "the first line must be the header 'player,k'", code="k-file-header"
        )
    table: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{origin} line {line}"
        if len(row) != 2 or not is_digits(row[0].strip()):
            shown = ",".join(row)
            raise InvalidInputError(
                "k_file",
                where,
                f"line {line}: expected 'player,k', got {shown!r}",
                code="k-file-row",
                params={"line": line, "value": shown},
            )
        try:
            table[row[0].strip()] = parse_k(row[1], field="k")
        except InvalidInputError as error:
            raise InvalidInputError(
                "k_file",
                where,
                f"line {line}: K {row[1].strip()!r}: {error.reason}",
                code="k-file-k",
                params={
                    **error.params,
                    "line": line,
                    "value": row[1].strip(),
                    "reason_code": error.code,
                    "detail": error.reason,
                },
            ) from None
    return table
