"""Who a player is, as a tournament file, a rating list and a report name them: one record for all.

The fields are those of FIDE's rating list and of a TRF player line (FIDE C.04 Annex 2, "001"
records): name, FIDE id, title, federation, year of birth and sex. A report's line
(:class:`chessrate.tournament.report.PlayerReport`) and a rating list's row and player
(:mod:`chessrate.ratinglist.queries`) are this record and more; a JSON document is built from it
by :func:`identity_fields`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The record's fields, in the order of FIDE's list.
IDENTITY_FIELDS = ("name", "fide_id", "title", "federation", "birth_year", "sex")


@dataclass(frozen=True, kw_only=True)
class PlayerIdentity:
    """A player's identity; None where the source does not say."""

    name: str
    fide_id: int | None = None
    #: ``GM``, ``IM``, ``WGM``... as written in full (a TRF's ``g`` is read as ``GM``).
    title: str | None = None
    #: FIDE's three-letter code of the federation, such as ``ESP``.
    federation: str | None = None
    birth_year: int | None = None
    #: ``m`` or ``w`` as the source writes it.
    sex: str | None = None


def identity_fields(source: Any) -> dict[str, Any]:
    """The identity's fields read from anything that has them: a stored row, a file's player, a
    record; as keyword arguments for a record that is an identity and more."""
    return {name: getattr(source, name, None) for name in IDENTITY_FIELDS}
