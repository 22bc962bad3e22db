"""The same event imported twice, whatever its file's bytes: the same games on the same days.

A tournament saved again (CRLF line ends, another encoding, bytes appended, tags reordered) has
new bytes but the same games. Its fingerprint is made of what is rated: the event's first and
last days and each game's round, players (as stored, after matching by FIDE id or name) and
result, sorted. It is stored with the event (``events.games_fingerprint``, indexed), so finding an
earlier import is one index lookup, whatever the store's size. An import whose fingerprint is that
of a stored event still rated is refused.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Sequence
from decimal import Decimal

#: A game as the fingerprint sees it: round, white's and black's stored ids, their scores.
GameKey = tuple[int | None, int, int, Decimal | None, Decimal | None]


def fingerprint(start: dt.date, end: dt.date, keys: Iterable[GameKey]) -> str:
    """The sha256 of the event's days and its games, in a fixed order and notation."""

    def score(value: Decimal | None) -> str:
        return "" if value is None else _notation(str(value))

    lines = sorted(
        f"{'' if rnd is None else rnd}|{white}|{black}|{score(ws)}|{score(bs)}"
        for rnd, white, black, ws, bs in keys
    )
    return _digest(start, end, lines)


def fingerprint_columns(
    start: dt.date,
    end: dt.date,
    rounds: Sequence[int | None],
    white_ids: Sequence[int],
    black_ids: Sequence[int],
    white_scores: Sequence[str | None],
    black_scores: Sequence[str | None],
) -> str:
    """:func:`fingerprint` of games given as columns, scores as their stored text (``str`` of the
    decimal): the same text hashed, without a key tuple a game."""
    notation: dict[str | None, str] = {None: ""}
    for text in {*white_scores, *black_scores}:
        if text is not None:
            notation[text] = _notation(text)
    if len({len(rounds), len(white_ids), len(black_ids), len(white_scores), len(black_scores)}) != 1:
        raise ValueError("the columns of a fingerprint differ in length")
    # The lines of :func:`fingerprint` built by ``str.format`` over the columns (``format`` writes
    # a whole number as ``f"{n}"`` does): no Python code runs a game.
    written_rounds = rounds if None not in rounds else ["" if rnd is None else rnd for rnd in rounds]
    lines = sorted(
        map(
            "{}|{}|{}|{}|{}".format,
            written_rounds,
            white_ids,
            black_ids,
            map(notation.__getitem__, white_scores),
            map(notation.__getitem__, black_scores),
        )
    )
    return _digest(start, end, lines)


def _notation(score: str) -> str:
    """A score in the fingerprint's notation: the decimal normalised, written without exponent."""
    return format(Decimal(score).normalize(), "f")


def _digest(start: dt.date, end: dt.date, lines: list[str]) -> str:
    text = "\n".join([start.isoformat(), end.isoformat(), *lines])
    return hashlib.sha256(text.encode()).hexdigest()
