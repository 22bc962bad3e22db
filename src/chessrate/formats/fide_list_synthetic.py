"""FIDE rating lists written in the published layouts: synthetic lists for tests and benchmarks, and
extracts of a list read (:func:`extract_text`, which the web's download form sends back).

The players are made up, drawn by ``random.Random(seed)``; the layouts are FIDE's: the header lines
below are those of the files of FIDE's download page [FIDE-LISTS] (``docs/fide-list.md``),
and every value starts at its header word's column, left-aligned, as in FIDE's files. Lines are
padded to the header's width and end in CRLF; the text is Latin-1.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO
from xml.sax.saxutils import escape

from chessrate.formats.fide_list import LIST_TYPES, FideListPlayer, ListType

#: The combined list's header (``players_list_foa.txt`` in ``players_list.zip``).
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit"
    "           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
#: A single list's header; ``{month}`` is the list's month, as ``SEP26``.
SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit"
    "           FOA {month} Gms K  B-day Flag"
)

_SURNAMES = (
    "García", "Martínez", "Fernández", "López", "Pérez", "Sánchez", "Muñoz", "Núñez", "Ibáñez",
    "Puig", "Vidal", "Ferrer", "Solà", "Castellà", "Müller", "Schäfer", "Dubois", "Lefèvre",
    "Håkansson", "Østergaard", "Smith", "Jones", "Ivanov", "Kowalski", "Rossi", "Çelik", "Öztürk",
)  # fmt: skip
_GIVEN = (
    "Ana", "José", "María", "Àlex", "Núria", "Jordi", "Íñigo", "Zoë", "Jürgen", "Chloé", "Søren",
    "Magnus", "Olga", "Pau", "Laia", "Martí", "Ramón", "Inés", "Élodie", "Björn",
)  # fmt: skip
_FEDERATIONS = ("ESP", "FRA", "GER", "ITA", "NOR", "SWE", "ENG", "USA", "POL", "TUR", "AND")
_TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM")
_OTHER = ("IA", "FA", "NA", "FT", "IO", "DI")


@dataclass(frozen=True, kw_only=True)
class SyntheticEntry:
    """One player's values, as written (``None``: the cell is left blank)."""

    fide_id: int
    name: str
    federation: str
    sex: str
    title: str = ""
    women_title: str = ""
    other_titles: str = ""
    online_title: str = ""
    #: (rating, games, K) per list; a rating of None is written as nothing, 0 as ``0``.
    lists: dict[ListType, tuple[int | None, int, int | None]]
    birth_year: int | None
    flag: str = ""


def synthetic_entries(count: int, *, seed: int = 0, first_id: int = 9_000_001) -> Iterator[SyntheticEntry]:
    """``count`` made-up players: accented Latin-1 names, titles, all flags, some blank ratings."""
    draw = random.Random(seed)
    for index in range(count):
        sex = "F" if draw.random() < 0.2 else "M"
        birth = draw.randint(1940, 2018)
        inactive = draw.random() < 0.3
        flag = ("w" if sex == "F" else "") + ("i" if inactive else "")
        lists: dict[ListType, tuple[int | None, int, int | None]] = {}
        for kind in LIST_TYPES:
            if draw.random() < 0.15:
                lists[kind] = (None, 0, None)  # not rated in this list
                continue
            rating = draw.randint(1400, 2800)
            k = 40 if birth >= 2008 and rating < 2300 else (10 if rating >= 2400 else 20)
            lists[kind] = (rating, 0 if inactive else draw.randint(0, 12), k)
        title = draw.choice(_TITLES) if draw.random() < 0.05 else ""
        yield SyntheticEntry(
            fide_id=first_id + index,
            name=f"{draw.choice(_SURNAMES)}, {draw.choice(_GIVEN)}",
            federation=draw.choice(_FEDERATIONS),
            sex=sex,
            title=title,
            women_title="WFM" if sex == "F" and draw.random() < 0.03 else "",
            other_titles=",".join(draw.sample(_OTHER, 2)) if draw.random() < 0.02 else "",
            lists=lists,
            birth_year=None if draw.random() < 0.02 else birth,
            flag=flag,
        )


def _columns(header: str) -> dict[str, int]:
    """Where each header word starts (``ID Number`` as one)."""
    return {match.group(): match.start() for match in re.finditer(r"ID Number|\S+", header)}


def _line(header: str, starts: dict[str, int], values: dict[str, str]) -> str:
    line = [" "] * len(header)
    for word, text in values.items():
        start = starts[word]
        line[start : start + len(text)] = text
    return "".join(line)


def _cell(value: int | None) -> str:
    return "" if value is None else str(value)


def txt_lines(
    entries: Iterable[SyntheticEntry], *, list_type: ListType | None = None, month: dt.date | None = None
) -> Iterator[str]:
    """The header and one line per player: the combined list, or ``list_type``'s single list."""
    if list_type is None:
        header = COMBINED_HEADER
    else:
        header = SINGLE_HEADER.format(month=(month or dt.date(2026, 9, 1)).strftime("%b%y").upper())
    yield header
    month_word = header.split()[-5]
    starts = _columns(header)
    for entry in entries:
        values = {
            "ID Number": str(entry.fide_id), "Name": entry.name, "Fed": entry.federation,
            "Sex": entry.sex, "Tit": entry.title, "WTit": entry.women_title, "OTit": entry.other_titles,
            "FOA": entry.online_title, "B-day": _cell(entry.birth_year), "Flag": entry.flag,
        }  # fmt: skip
        if list_type is None:
            for kind, (rating, games, k) in entry.lists.items():
                words = {"standard": ("SRtng", "SGm", "SK"), "rapid": ("RRtng", "RGm", "Rk")}.get(
                    kind, ("BRtng", "BGm", "BK")
                )
                values |= dict(zip(words, (_cell(rating), str(games), _cell(k)), strict=True))
        else:
            rating, games, k = entry.lists[list_type]
            values |= {month_word: _cell(rating), "Gms": str(games), "K": _cell(k)}
        yield _line(header, starts, values)


def write_txt(
    handle: BinaryIO,
    entries: Iterable[SyntheticEntry],
    *,
    list_type: ListType | None = None,
    month: dt.date | None = None,
) -> None:
    """Write a TXT list (Latin-1, CRLF) to a binary handle."""
    for line in txt_lines(entries, list_type=list_type, month=month):
        handle.write(line.encode("latin-1") + b"\r\n")


def xml_text(entries: Iterable[SyntheticEntry], *, list_type: ListType | None = None) -> Iterator[str]:
    """The XML form, piece by piece: ``<playerslist><player>...`` as FIDE writes it (no declaration)."""
    yield "<playerslist>\n"
    for entry in entries:
        parts = [
            ("fideid", str(entry.fide_id)), ("name", entry.name), ("country", entry.federation),
            ("sex", entry.sex), ("title", entry.title), ("w_title", entry.women_title),
            ("o_title", entry.other_titles), ("foa_title", entry.online_title),
        ]  # fmt: skip
        kinds = LIST_TYPES if list_type is None else (list_type,)
        for kind in kinds:
            rating, games, k = entry.lists[kind]
            prefix = "" if kind == "standard" or list_type is not None else f"{kind}_"
            parts += [
                (f"{prefix}rating", _cell(rating)),
                (f"{prefix}games", str(games)),
                (f"{prefix}k", _cell(k)),
            ]
        parts += [("birthday", _cell(entry.birth_year)), ("flag", entry.flag)]
        body = "".join(f"    <{tag}>{escape(value)}</{tag}>\n" for tag, value in parts)
        yield f"  <player>\n{body}  </player>\n"
    yield "</playerslist>\n"


def entry_of(player: FideListPlayer) -> SyntheticEntry:
    """A player read from a list, to be written again."""
    lists: dict[ListType, tuple[int | None, int, int | None]] = {}
    for kind in LIST_TYPES:
        entry = player.rating(kind)
        lists[kind] = (entry.rating, entry.games or 0, entry.k) if entry else (None, 0, None)
    return SyntheticEntry(
        fide_id=player.fide_id, name=player.name, federation=player.federation or "", sex=player.sex or "",
        title=player.title or "", women_title=player.women_title or "",
        other_titles=",".join(player.other_titles)[:15], online_title=player.online_title or "",
        lists=lists, birth_year=player.birth_year, flag=player.flag,
    )  # fmt: skip


def extract_text(players: Iterable[FideListPlayer]) -> str:
    """Some players of a list as a combined TXT list (LF line ends; encode it as Latin-1)."""
    return "".join(line + "\n" for line in txt_lines(entry_of(player) for player in players))
