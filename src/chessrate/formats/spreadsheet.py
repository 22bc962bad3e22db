"""Cells of a CSV file that a spreadsheet will open: text is never read as a formula.

OWASP, "CSV Injection" (owasp.org/www-community/attacks/CSV_Injection): a cell beginning with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return may be run as a formula by a spreadsheet;
prefix such a cell with a single quote. Numbers (a negative rating change) are left as they are.
"""

from __future__ import annotations

import re

#: What a spreadsheet may take for the start of a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")


def neutralise(value: object) -> object:
    """``value``, with a text that a spreadsheet would read as a formula quoted by a leading ``'``.

    >>> neutralise("=HYPERLINK(1)"), neutralise("-12"), neutralise(-12), neutralise("Ann")
    ("'=HYPERLINK(1)", '-12', -12, 'Ann')
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value
