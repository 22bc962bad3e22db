"""The check that Spanish and Catalan say no English, shared by the web pages and the command line.

Two checks. The catalogs are wrapped (:class:`Recording`) so that every message id asked for and
missing from the catalog is recorded: there must be none. And a text shown in es or ca must not be
shown identically in English (:func:`shared_english`): what bypasses the catalogs, the core's own
words, a rule set's title.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable

#: Text that is the same in every language: names, symbols, formulas, the FIDE article numbers.
SAME_EVERYWHERE = re.compile(
    r"^(chessrate|chess|rate|(Glicko-2 / Lichess|Glicko-1 / Chess\.com|US Chess)( · chessrate)?|"
    r"(Chess\.com|Lichess) (blitz|bullet)|Lichess|Chess\.com|Glicko-2|FIDE|TRF|PGN|CSV|"
    r"English|Español|Català|JSON|[A-Z]?[a-z]?[\W\d]*|[\W\d]*[a-zA-Z]*[\W\d]*|Ru = .*|E = .*|τ|"
    r"Club Ciabe.*|· error:|lichess, glicko2)$"  # "error" is Spanish too
)


class Recording(gettext.NullTranslations):
    """A catalog that records every message id it does not hold."""

    def __init__(self, inner: gettext.NullTranslations, missing: set[str]) -> None:
        super().__init__()
        self.inner = inner
        self.missing = missing
        self.known = getattr(inner, "_catalog", {})

    def gettext(self, message: str) -> str:
        if message not in self.known:
            self.missing.add(message)
        return self.inner.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        if f"{context}\x04{message}" not in self.known:
            self.missing.add(message)
        return self.inner.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if (singular, 0) not in self.known:
            self.missing.add(singular)
        return self.inner.ngettext(singular, plural, n)


def is_english_words(text: str) -> bool:
    """Whether ``text`` says something in words (two of three letters or more) that is not the same
    in every language."""
    return len(re.findall(r"[a-z]{3,}", text)) >= 2 and not SAME_EVERYWHERE.match(text)


def shared_english(english: Iterable[str], other: Iterable[str]) -> list[str]:
    """The texts of ``other`` (a page or an output in es or ca) that the English one shows too."""
    return sorted(text for text in set(english) & set(other) if is_english_words(text))
