"""Finding the games of PGN text and their tags, skipping the movetext unread (no move is parsed).

Two ways to one result, :class:`TagColumns` (each read tag's values, a column a tag, and the line
each game starts on): games laid out alike are taken by one pattern (:class:`_Layout`); any other
text is walked game by game by :func:`scan_headers`, which finds the games as
``chess.pgn.read_headers`` does ([PYCHESS]). ``tests/formats/test_pgn_reader.py`` and
``tests/formats/test_pgn_event_read.py`` check both against python-chess. What the tags mean is
read once, from the columns, by :mod:`chessrate.formats.pgn`.
"""

from __future__ import annotations

import functools
import graphlib
import io
import os
import re
from collections.abc import Generator, Iterator
from itertools import accumulate, compress, pairwise, repeat
from operator import add, gt
from typing import TextIO

from chessrate.formats.text import decode, open_text

#: A tag pair, as python-chess reads one (``chess.pgn.TAG_REGEX``): the value is kept as written.
_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+\"([^\r]*)\"\]\s*$")
#: What matters in movetext being skipped: comments in braces, and ``;`` comments to the line's end.
_COMMENT_MARK = re.compile(r"[;{}]")
#: :data:`_TAG` over many lines at once: within one line ``\s`` is ``[^\S\n]`` and ``[^\r]`` is
#: ``[^\r\n]`` (the line's only newline is its last character, after the ``"]``).
_TAGS = re.compile(r"^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[^\S\n]+\"([^\r\n]*)\"\][^\S\n]*$", re.MULTILINE)
#: Consecutive lines that start with ``[``: a game's tag pairs.
_TAG_LINES = re.compile(r"(?:\[[^\n]*(?:\n|\Z))+")
#: A blank line (``str.isspace``: ``\s`` is the same set of characters).
_BLANK_LINE = re.compile(r"^[^\S\n]*(?:\n|\Z)", re.MULTILINE)
#: Text read at a time from a handle (then to the end of its line).
_BLOCK = 1 << 20


def scan_headers(handle: TextIO) -> Iterator[tuple[int, dict[str, str]]]:
    """Each game's tag pairs and the line its headers start on, skipping the movetext unread.

    The games are those ``chess.pgn.read_headers`` finds, line by line the same way (a game ends
    at a blank line outside a brace comment; ``%`` lines are escapes; one blank line may stand
    between tag pairs), but no move is looked at. The handle is read in blocks of whole lines, and
    each block searched with compiled patterns: a game's tag lines at once, then its movetext up
    to the first blank line, which ends the game unless a brace comment is open there. Movetext
    with a ``;`` comment, an escape line or a comment open at a blank line is walked line by line
    (:func:`_movetext_end`). ``tests/formats/test_pgn_reader.py`` checks the two agree. Where a
    feature needs the moves, python-chess reads the game.
    """
    scanner = _Scanner()
    tail = ""
    while True:
        block = handle.read(_BLOCK)
        final = not block
        if block and not block.endswith("\n"):
            block += handle.readline()
        text = tail + block
        consumed = yield from scanner.games(text, final=final)
        tail = text[consumed:]
        if final:
            return


class _Scanner:
    """The games of a text, a block at a time; the line numbers carry on from block to block."""

    def __init__(self) -> None:
        self.line = 1  # the number of the line at the start of the next block
        self.fresh = True  # whether that line is the first one a game's search reads
        #: The game the last block's end cut in its movetext, which the next text starts with:
        #: its headers, where its movetext was read up to (from the game's start) and whether a
        #: comment is open there. Its movetext is read on from there: a game of any length is
        #: read once, not once a block (a comment that never closes made a file's one game).
        self.cut: tuple[dict[str, str], int, bool] | None = None

    def games(self, text: str, *, final: bool) -> Generator[tuple[int, dict[str, str]], None, int]:
        """The games whose end is in ``text`` (all of them if ``final``), then where the first
        unfinished one starts (returned by the generator)."""
        size = len(text)
        pos, line, fresh = 0, self.line, self.fresh
        while True:
            start = _game_start(text, pos, fresh=fresh)
            if start >= size:
                self.line = line + text.count("\n", pos, size)
                self.fresh = fresh and pos == size
                return size
            first = line + text.count("\n", pos, start)
            headers: dict[str, str] = {}
            movetext: int | None  # where the movetext is read from
            end, in_comment = None, False
            if self.cut is not None:  # the text starts with the game cut before
                headers, movetext, in_comment = self.cut
                self.cut = None
                end, in_comment = _movetext_end_by_line(text, movetext, in_comment=in_comment)
            else:
                movetext = _headers_end(text, start, headers)
                if movetext is not None:
                    end, in_comment = _movetext_end(text, movetext)
            if end is None and not final:
                if movetext is not None:  # its movetext is read on from the text's end
                    self.cut = headers, size - start, in_comment
                self.line, self.fresh = first, False  # its first line is read as it stands
                return start
            yield first, headers
            end = size if end is None else end
            pos, line, fresh = end, first + text.count("\n", start, end), True


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end + 1


def _game_start(text: str, pos: int, *, fresh: bool) -> int:
    """Where the next game's headers start: blank and ``%``/``;`` lines skipped, and, when
    ``fresh``, byte-order marks at the start of the first line looked at (python-chess drops them
    there)."""
    while fresh and pos < len(text) and text[pos] == "\ufeff":
        pos += 1
    while pos < len(text):
        end = _line_end(text, pos)
        if not text[pos:end].isspace() and text[pos] not in "%;":
            return pos
        pos = end
    return pos


def _headers_end(text: str, pos: int, headers: dict[str, str]) -> int | None:
    """The tag pairs from ``pos`` into ``headers``; where the movetext starts, ``None`` at the end
    of the text."""
    blank_seen = False
    size = len(text)
    while pos < size:
        if text[pos] == "[":
            tags = _TAG_LINES.match(text, pos)
            assert tags is not None  # the line starts with "["
            headers.update(_TAGS.findall(tags.group()))
            pos, blank_seen = tags.end(), False
            continue
        end = _line_end(text, pos)
        if text[pos] in "%;":
            pos = end
        elif not blank_seen and text[pos:end].isspace():
            pos, blank_seen = end, True
        else:
            return pos
    return None


def _movetext_end(text: str, pos: int) -> tuple[int | None, bool]:
    """Where the game whose movetext starts at ``pos`` ends (after its blank line), ``None`` when
    the text ends first; and then whether a brace comment is open at the text's end."""
    blank = _BLANK_LINE.search(text, pos)
    if blank is None or blank.start() == len(text):
        return _movetext_end_by_line(text, pos)  # no blank line: the game may go on
    stop = blank.start()
    if text.find(";", pos, stop) < 0:
        opening = text.rfind("{", pos, stop)
        if opening < 0 and text.find("}", pos, stop) < 0:
            return blank.end(), False  # no comment at all
        if opening < text.rfind("}", pos, stop) and not _has_escape(text, pos, stop):
            return blank.end(), False  # the last brace closes: no comment is open at the blank line
    return _movetext_end_by_line(text, pos)


def _has_escape(text: str, pos: int, stop: int) -> bool:
    return text.startswith("%", pos) or text.find("\n%", pos, stop) >= 0


def _movetext_end_by_line(text: str, pos: int, *, in_comment: bool = False) -> tuple[int | None, bool]:
    """:func:`_movetext_end` line by line, as python-chess reads the movetext (from a line start
    where a brace comment is open or not)."""
    while pos < len(text):
        end = _line_end(text, pos)
        line = text[pos:end]
        if not in_comment:
            if line.isspace():
                return end, False
            if line.startswith("%"):
                pos = end
                continue
        if "{" in line or "}" in line or ";" in line:
            in_comment = _still_in_comment(line, in_comment=in_comment)
        pos = end
    return None, in_comment


def _still_in_comment(line: str, *, in_comment: bool) -> bool:
    """Whether a brace comment is still open at the end of a movetext line."""
    for mark in _COMMENT_MARK.finditer(line):
        token = mark.group(0)
        if token == "{":
            in_comment = True
        elif token == ";" and not in_comment:
            break
        elif token == "}":
            in_comment = False
    return in_comment


# A file's games are read by one pattern (_Layout) where they lay their tags out alike: each tag
# pair alone on its line in the plain form ``[Name "value"]``, the names in an order learnt from
# the games (a game with a tag not seen yet adds it). The pattern matches a whole game so laid out:
# its tags, a blank line, movetext whose end python-chess finds at the first blank line outside a
# brace comment, and the blank lines after that; or else one line. Where every line no game took
# is blank, the pattern's games are the scanner's games and the tags it captured are their headers
# (docs/formats.md, "Reading for an import", says why; tests/formats/test_pgn_event_read.py checks
# it); elsewhere the file is read game by game.

#: The tags :mod:`chessrate.formats.pgn` reads; the others are matched and not kept.
READ_TAGS = frozenset(
    {
        "Event", "Site", "Date", "Round", "Result", "Variant",
        "White", "WhiteElo", "WhiteFideId", "WhiteTitle",
        "Black", "BlackElo", "BlackFideId", "BlackTitle",
    }
)  # fmt: skip
#: A plain tag pair: alone on its line, one space between name and value, which runs to the
#: ``"]`` that ends the line (what :data:`_TAG` takes of it).
_PLAIN_TAG = re.compile(r'\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*) ".*"\]\n')
#: The movetext's first line: not blank, a tag or an escape, or a comment (read with the tags).
_MOVETEXT_START = r"(?:[^\S\n]*\n)?+(?![\[%;])(?=[^\S\n]*\S)"
#: Movetext outside brace comments: no ``{``, a ``;`` comment to the line's end, a line break only
#: before a line that is not blank and not a ``%`` escape.
_OUTSIDE = r"[^{;\n]*+(?:;[^\n]*+)?+(?:\n(?!%)(?=[^\S\n]*\S)[^{;\n]*+(?:;[^\n]*+)?+)*+"
#: Movetext in which every brace comment closes (python-chess's comment ends at the first ``}``).
_MOVETEXT = rf"(?>{_OUTSIDE}(?:\{{[^}}]*+\}}{_OUTSIDE})*+)"
#: Movetext read as lines alone, up to the first blank line: right where a game's last brace, if
#: any, is a ``}`` (:func:`_open_comment`), and several times quicker (Python's ``re`` runs ``.``
#: much faster than a class of characters such as ``[^{;\n]``).
_MOVETEXT_LINES = r".*+(?:\n(?=[^\S\n]*\S).*+)*+"
#: The movetext's end, a blank line or the end of the text, and the blank lines after it.
_MOVETEXT_END = r"(?:\n[^\S\n]*(?:\n|\Z)|\Z)(?:[^\S\n]*\n)*+"
#: Blank lines (it matches any text, at least with none).
_BLANK_LINES = re.compile(r"(?:[^\S\n]*\n)*+")
#: The most times a file's layout may be learnt again before it is read game by game.
_MOST_LAYOUTS = 8
#: The most tag names a layout may hold before the file is read game by game: a game's pattern
#: tries each, so a file of many distinct names would take time as games times names. The real
#: files of tests/data/pgn hold 12 to 21 distinct names (a Lichess export the most).
_MOST_LAYOUT_NAMES = 64


class _Layout:
    """Games whose tags are among ``names``, in that order (see above): :attr:`pattern` for any
    movetext, :attr:`lines_pattern` for movetext as lines alone."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        read = [name for name in names if name in READ_TAGS]
        #: Where each read tag's value is in a match; 0 is the whole game, -1 a line no game took.
        #: A ``Variant`` value comes with its opening quote: a missing Variant is standard chess
        #: and an empty one is not, and both would capture ``""``.
        self.index = {name: 1 + position for position, name in enumerate(read)}
        lines = []
        for name in names:
            if name == "Variant":
                value = '(".*)"'
            elif name in READ_TAGS:
                value = '"(.*)"'
            else:
                value = '".*"'
            lines.append(rf"(?:\[{re.escape(name)} {value}\]\n)?+")
        tags = rf"(?=\[){''.join(lines)}{_MOVETEXT_START}"
        self.pattern = re.compile(rf"({tags}{_MOVETEXT}{_MOVETEXT_END})|([^\n]*+\n?)")
        self.lines_pattern = re.compile(rf"({tags}{_MOVETEXT_LINES}{_MOVETEXT_END})|([^\n]*+\n?)")


@functools.lru_cache(maxsize=64)
def _layout(names: tuple[str, ...]) -> _Layout:
    return _Layout(names)


def _plain_tag_names(text: str, pos: int) -> tuple[str, ...] | None:
    """The names of the tag pairs from ``pos`` to the first line that is not one; ``None`` unless
    there is one, each is plain and no name comes twice."""
    names: list[str] = []
    while text.startswith("[", pos):
        tag = _PLAIN_TAG.match(text, pos)
        if tag is None or len(names) == _MOST_LAYOUT_NAMES:
            return None
        names.append(tag.group(1))
        pos = tag.end()
    return tuple(names) if names and len(set(names)) == len(names) else None


def _in_order(orders: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    """Every name of ``orders`` in an order that keeps each one's; ``None`` when they disagree."""
    sorter: graphlib.TopologicalSorter[str] = graphlib.TopologicalSorter()
    for names in orders:
        sorter.add(names[0])
        for before, after in pairwise(names):
            sorter.add(after, before)
    try:
        return tuple(sorter.static_order())
    except graphlib.CycleError:
        return None


class TagColumns:
    """The games of a text as tag columns (:attr:`values`, a tag's value ``""`` where a game has
    not got it; a ``Variant`` value with its opening quote) and the line each starts on, read a
    part at a time by the layout's pattern (:meth:`add`) or a game at a time (:meth:`add_game`)."""

    def __init__(self) -> None:
        self.layout: _Layout | None = None
        self.values: dict[str, list[str]] = {}
        self.lines: list[int] = []
        self._orders: list[tuple[str, ...]] = []  # the orders of tags the layout was learnt from
        self._layouts = 0  # how many times it was learnt

    def add(self, text: str, end: int, line: int) -> int | None:
        """The games of ``text[:end]``, whose first line is ``line``, and the number of the line
        after it; ``None`` when a line no game took is not blank, and no layout takes the game
        there (:meth:`_learn`)."""
        if self.layout is None:
            names = _plain_tag_names(text, _BLANK_LINES.match(text).end())  # type: ignore[union-attr]
            if names is None:
                return None
            self.layout, self._orders = _layout(names), [names]
        as_lines = True  # the movetext read as lines first; where that fails, as movetext
        while True:
            if as_lines:
                found = self.layout.lines_pattern.findall(text, 0, end)
            else:
                found = _until_missed(self.layout.pattern, text, end)
            columns = list(zip(*found, strict=True))
            games, others = columns[0], columns[-1]
            missed = not all(map(str.isspace, filter(None, others)))
            if not missed and not (as_lines and _open_comment(games)):
                return self._keep(columns, line)
            if missed and self._learn(text, games, others):
                continue  # a new layout: the part again
            if not as_lines:
                return None
            as_lines = False

    def texts(self, name: str) -> list[str]:
        """A tag's texts in the games, ``""`` in each where it is missing (as ``headers.get``)."""
        return self.values.get(name) or [""] * len(self.lines)

    def kept(self, keep: list[bool]) -> TagColumns:
        """The games that ``keep`` says."""
        kept = TagColumns()
        kept.lines = list(compress(self.lines, keep))
        kept.values = {name: list(compress(column, keep)) for name, column in self.values.items()}
        return kept

    def add_game(self, headers: dict[str, str], line: int) -> None:
        """One game's tags (as :func:`scan_headers` gives them), which starts on ``line``."""
        before = len(self.lines)
        self.lines.append(line)
        for name in READ_TAGS.intersection(headers):
            value = headers[name]
            self.values.setdefault(name, [""] * before).append('"' + value if name == "Variant" else value)
        for column in self.values.values():
            if len(column) == before:
                column.append("")

    def _learn(self, text: str, games: tuple[str, ...], others: tuple[str, ...]) -> bool:
        """A new layout for the games the pattern did not take (a ``[`` line it did not take after
        a game or a blank line): their tags put in order with those of the games before; ``False``
        when there is none (their tags are all in order already, one is not plain, or the orders
        disagree)."""
        learnt = set()
        starts = accumulate(map(add, map(len, games), map(len, others)), initial=0)
        after_game = True  # whether the text before the line is a game or a blank line
        for start, game, other in zip(starts, games, others, strict=False):
            if other.startswith("[") and after_game:
                names = _plain_tag_names(text, start)
                if names is None:
                    return False
                learnt.add(names)
            after_game = bool(game) or other.isspace()
        self._layouts += 1
        ordered = _in_order([*self._orders, *sorted(learnt)])
        if (
            ordered is None
            or self.layout is None
            or ordered == self.layout.names
            or self._layouts > _MOST_LAYOUTS
            or len(ordered) > _MOST_LAYOUT_NAMES
        ):
            return False
        self._orders.extend(sorted(learnt))
        self.layout = _layout(ordered)
        return True

    def _keep(self, columns: list[tuple[str, ...]], line: int) -> int:
        """The games of a match's ``columns`` kept; the number of the line after the match."""
        games, others = columns[0], columns[-1]
        before = len(self.lines)
        newlines = map(add, map(str.count, games, repeat("\n")), map(str.count, others, repeat("\n")))
        starts: list[int] = list(accumulate(newlines, initial=line))  # each match's first line, then the next
        self.lines.extend(compress(starts, games))
        assert self.layout is not None
        for name, index in self.layout.index.items():
            self.values.setdefault(name, [""] * before).extend(compress(columns[index], games))
        return starts[-1]


def _until_missed(pattern: re.Pattern[str], text: str, end: int) -> list[tuple[str, ...]]:
    """The matches of a layout's :attr:`~_Layout.pattern` in ``text[:end]`` up to the first line
    no game took that is not blank. A game whose brace comment does not close is searched to the
    end of the text before the pattern takes one line instead: stopping at the first keeps the
    search linear where every game of a text is so (the lines pattern's games never fail that
    late)."""
    found = []
    for match in pattern.finditer(text, 0, end):
        found.append(groups := match.groups(""))
        if groups[-1] and not groups[-1].isspace():
            break
    return found


def _open_comment(games: tuple[str, ...]) -> bool:
    """Whether a game read as lines may end in a brace comment: its last brace is a ``{``.

    Where the last brace is a ``}``, no comment is open at the blank line after it: python-chess
    closes a comment at any ``}`` inside one, and ignores one outside a comment (after a ``;``, in a
    ``%`` line) only when no comment is open. A ``{`` may open nothing (in a tag's value, after a
    ``;``): then the part is read the other way, which knows.
    """
    return any(map(gt, map(str.rfind, games, repeat("{")), map(str.rfind, games, repeat("}"))))


def _laid_out_games(blocks: Iterator[str]) -> TagColumns | None:
    """The games of the text ``blocks`` make up, ``None`` where :meth:`TagColumns.add` fails.

    The text is read a part at a time, each cut after its last blank line before a ``[``: the end
    of a game when the part's games are laid out alike.
    """
    games = TagColumns()
    line = 1  # the number of the first line of ``text``
    text = next(blocks, "").lstrip("\ufeff")  # python-chess drops them from the first line
    searched = 0  # where a cut may be in ``text`` (none before)
    while True:
        block = next(blocks, None)
        end = len(text) if block is None else text.rfind("\n\n[", searched) + 2
        if end > 1:
            after = games.add(text, end, line)
            if after is None:
                return None
            line, text = after, text[end:]
        if block is None:
            return games
        searched = max(len(text) - 2, 0)
        text += block


def _text_blocks(source: bytes | str | os.PathLike[str]) -> tuple[Iterator[str], str]:
    """The text of ``source`` as :func:`_open` reads it, in blocks of whole lines of about
    :data:`_BLOCK` characters; and its encoding, as :func:`_open` names it."""
    if isinstance(source, os.PathLike):
        handle, encoding = open_text(source)
        return _handle_blocks(handle), encoding
    text, encoding = (source, "str") if isinstance(source, str) else decode(source)
    if "\r" in text:  # universal newlines, as io.StringIO(text, newline=None) reads them
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _string_blocks(text), encoding


def _handle_blocks(handle: TextIO) -> Iterator[str]:
    with handle:
        while block := handle.read(_BLOCK):
            yield block if block.endswith("\n") else block + handle.readline()


def _string_blocks(text: str) -> Iterator[str]:
    start = 0
    while start < len(text):
        end = text.find("\n", start + _BLOCK - 1) + 1 or len(text)
        yield text[start:end]
        start = end


def tag_columns(source: bytes | str | os.PathLike[str]) -> tuple[TagColumns, str]:
    """The games of ``source`` (its bytes, its text, or a path) as tag columns, and its encoding:
    by the layout's pattern where the games are laid out alike, else game by game."""
    blocks, encoding = _text_blocks(source)
    columns = _laid_out_games(blocks)
    if columns is None or not columns.lines:  # a game without tags is the scanner's to find
        columns = TagColumns()
        handle, _ = _open(source)
        with handle:
            for line, headers in scan_headers(handle):
                columns.add_game(headers, line)
    return columns, encoding


def _open(source: bytes | str | os.PathLike[str]) -> tuple[TextIO, str]:
    if isinstance(source, os.PathLike):
        return open_text(source)
    if isinstance(source, str):
        return io.StringIO(source, newline=None), "str"
    text, encoding = decode(source)
    return io.StringIO(text, newline=None), encoding
