"""Points per TRF result code, as the file's scoring system says (for checking declared points).

The keys are JaVaFo's ``XXS`` names ([AUM]): ``WW``/``BW`` win
with White/Black, ``WD``/``BD`` draw, ``WL``/``BL`` loss, ``FW``/``FL`` forfeit win/loss, ``ZPB``,
``HPB``, ``FPB`` zero-, half- and full-point bye, ``PAB`` pairing-allocated bye. TRF26 ``162`` and
bbpPairings' ``BB?`` records are mapped onto them (see ``docs/formats.md``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

ONE = Decimal(1)
HALF = Decimal("0.5")
ZERO = Decimal(0)

#: Defaults: win 1, draw ½, loss 0 (TRF26 162 defaults W 1.0, D 0.5, L 0.0); forfeit win and the
#: full-point and pairing-allocated byes score as a win, the half-point bye as a draw, the
#: zero-point bye and the forfeit loss as a loss (as bbpPairings maps ``+ F U`` to a win, ``H`` to a
#: draw and ``- Z`` to a loss, [bbp] ``trf.cpp``).
DEFAULT_POINTS: dict[str, Decimal] = {
    "WW": ONE, "BW": ONE, "WD": HALF, "BD": HALF, "WL": ZERO, "BL": ZERO,
    "FW": ONE, "FL": ZERO, "ZPB": ZERO, "HPB": HALF, "FPB": ONE, "PAB": ONE,
}  # fmt: skip

#: Which XXS keys a shortcut or another record's symbol sets. Our choice where the sources are
#: silent: a "win" value also applies to forfeit wins and the full-point and pairing-allocated byes,
#: a "draw" value to the half-point bye, a "loss" value to forfeit losses.
_GROUPS: dict[str, tuple[str, ...]] = {
    "W": ("WW", "BW", "FW", "FPB", "PAB"),
    "D": ("WD", "BD", "HPB"),
    "L": ("WL", "BL", "FL"),
}
#: TRF26 ``162`` symbols ([TRF26]: W, D, L, A, P, X); ``P`` read as the pairing-allocated bye.
_SYMBOLS_162: dict[str, tuple[str, ...]] = {**_GROUPS, "P": ("PAB",)}
#: bbpPairings ``BBW BBD BBL BBZ BBF BBU`` ([BBP] ``README.txt``).
_BBP: dict[str, tuple[str, ...]] = {
    "BBW": ("WW", "BW", "FW"),
    "BBD": ("WD", "BD"),
    "BBL": ("WL", "BL", "FL"),
    "BBZ": ("ZPB",),
    "BBF": ("FPB",),
    "BBU": ("PAB",),
}

_PAIR = re.compile(r"([A-Z]+)\s*=\s*(\S+)")
_SYMBOL_VALUE = re.compile(r"([A-Z])\s*(\d+(?:[.,]\d+)?)")


@dataclass(frozen=True)
class Scoring:
    """Points for each kind of round result; :data:`DEFAULT_POINTS` unless the file sets them."""

    points: dict[str, Decimal] = field(default_factory=lambda: dict(DEFAULT_POINTS))

    def for_cell(self, code: str, colour: str | None) -> Decimal:
        """Points of one TRF cell: its code (``1 = 0 + - W D L H F U Z`` or blank) and colour."""
        side = "B" if colour == "b" else "W"
        key = {
            "1": side + "W",
            "W": side + "W",
            "=": side + "D",
            "D": side + "D",
            "0": side + "L",
            "L": side + "L",
            "+": "FW",
            "-": "FL",
            "H": "HPB",
            "F": "FPB",
            "U": "PAB",
            "Z": "ZPB",
            "": "ZPB",
        }.get(code)
        return ZERO if key is None else self.points[key]

    def with_values(self, keys: tuple[str, ...], value: Decimal) -> Scoring:
        """A copy with ``keys`` set to ``value``."""
        return replace(self, points={**self.points, **dict.fromkeys(keys, value)})


#: A value as the scoring records write them (``1.0``, ``0,5``, ``3``): at most four digits on each
#: side of the point, no sign, no exponent. Our bound: a player's points fill columns 81-84
#: ([TRF16], [TRF26]), so no value needs more; it keeps the sums exact and cheap (``1E-1000000``
#: would make the points a million-digit number).
_VALUE = re.compile(r"\d{1,4}(?:[.,]\d{1,4})?")


def _decimal(text: str) -> Decimal | None:
    if not _VALUE.fullmatch(text):
        return None
    return Decimal(text.replace(",", "."))


def apply_xxs(scoring: Scoring, text: str) -> tuple[Scoring, list[str]]:
    """Apply a JaVaFo ``XXS CODE=VALUE ...`` record; returns the scoring and what was not read."""
    keys = {**{key: (key,) for key in DEFAULT_POINTS}, **_GROUPS}
    return _apply_pairs(scoring, text, _PAIR, keys, "{}={}")


def apply_162(scoring: Scoring, text: str) -> tuple[Scoring, list[str]]:
    """Apply a TRF26 ``162`` record (``W 1.0  D 0.5 ...``); returns what was not understood."""
    return _apply_pairs(scoring, text, _SYMBOL_VALUE, _SYMBOLS_162, "{} {}")


def _apply_pairs(
    scoring: Scoring, text: str, pairs: re.Pattern[str], keys: dict[str, tuple[str, ...]], written: str
) -> tuple[Scoring, list[str]]:
    """Apply each (name, value) pair ``pairs`` finds in ``text`` to the XXS keys ``keys`` gives the
    name; returns the scoring and what was not understood (each pair as ``written``)."""
    unread = []
    found = pairs.findall(text)
    if not found:
        unread.append(text.strip())
    for name, raw in found:
        value = _decimal(raw)
        if value is None or name not in keys:
            unread.append(written.format(name, raw))
            continue
        scoring = scoring.with_values(keys[name], value)
    return scoring, unread


def apply_bbp(scoring: Scoring, record: str, text: str) -> tuple[Scoring, list[str]]:
    """Apply a bbpPairings ``BBW 1.0``-style record; returns what was not understood."""
    value = _decimal(text.strip())
    keys = _BBP.get(record)
    if value is None or keys is None:
        return scoring, [f"{record} {text.strip()}"]
    return scoring.with_values(keys, value), []
