"""A list line's K reason and note are stored as codes with their values, not as English sentences.

Until 0005 ``list_entries.k_reason`` held the core's English sentence and its article
(``K 40: new to the list, 10 rated games so far (fewer than 30) (FIDE B.02 8.3.3)``), which the
web read back with regular expressions to say it in Spanish or Catalan. From 0006 it holds the
reason's code and values as JSON (:mod:`chessrate.ratinglist.k_reasons`, docs/codes.md)::

    {"article":"FIDE B.02 8.3.3","code":"k-new-player","params":{"games":10,"needed":30}}

The note (an initial rating's working, the floor, Glicko-2's growing deviation) is likewise a list
of clauses, each a code with its values (:mod:`chessrate.ratinglist.notes`).

This migration is the one place that still reads those sentences: the templates below are the
sentences chessrate wrote up to 0005, frozen here (the upgrade matches them, the downgrade writes
them). A sentence none of them matches is kept whole (``k-unknown``, ``note-text``: ``params.text``),
and the downgrade gives it back as it was.

Revision ID: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
from collections.abc import Callable
from string import Formatter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"

_PROFILE_UNKNOWN = (
    "; profile unknown, so K from the rating alone (give birth year, rated games and highest rating for the "
    "full rule)"
)
#: The sentences written up to 0005 (chessrate.fide.k_factor, ruleset.KByRatingBand, ratinglist.elo_period),
#: by the code each becomes. A field holds digits, but for ``rules`` (any text).
SENTENCES = {
    "k-given": "K {k} given",
    "k-fide-list-in-force": "K {k} from the FIDE list in force (no history in this list)",
    "k-everyone": "K {k} for every player ({rules})",
    "k-rating-alone-established": "K {k}: rated {limit} or more" + _PROFILE_UNKNOWN,
    "k-rating-alone-standard": "K {k}: rated below {limit}" + _PROFILE_UNKNOWN,
    "k-established": "K {k}: a published rating has reached {limit}; it stays {k} even if the rating drops",
    "k-junior-end-of-year": (
        "K {k}: junior (born {year}) until the end of the year of their 18th birthday, rating under {limit}"
    ),
    "k-junior-birthday": "K {k}: junior (born {year}) until their 18th birthday, rating under {limit}",
    "k-new-player": "K {k}: new to the list, {games} rated games so far (fewer than {needed})",
    "k-standard": "K {k}: rating under {limit}, {games} rated games",
    "k-standard-games-unknown": "K {k}: rating under {limit}, rated games unknown, taken as 30 or more",
    "k-band": "K {k}: rating from {low} to {high}",
    "k-band-top": "K {k}: rating from {low} up",
}
#: The 700 rule's clause after the reason (B.02 8.3.3), and its article after the reason's.
CUT = (
    "; {k} x {games} games exceeds {limit}, so K is {reduced}, the largest whole number with "
    "K x {games} <= {limit}"
)
CUT_ARTICLE = "; FIDE B.02 8.3.3 (700 rule)"
TEXT_FIELDS = {"rules"}


def _match(
    template: str, text: str, texts: frozenset[str] = frozenset()
) -> tuple[dict[str, str], str] | None:
    """The fields of ``template`` read from the start of ``text``, and the text after it; None if it
    does not fit."""
    values: dict[str, str] = {}
    at = 0
    parts = list(Formatter().parse(template))
    for index, (literal, name, _, _) in enumerate(parts):
        if not text.startswith(literal, at):
            return None
        at += len(literal)
        if name is None:
            continue
        if name in TEXT_FIELDS | texts:  # up to the next literal (the template's last field holds the rest)
            following = parts[index + 1][0] if index + 1 < len(parts) else ""
            end = text.rfind(following, at) if following else len(text)
        else:
            end = at
            while end < len(text) and text[end].isdigit():
                end += 1
        if end <= at or values.get(name, text[at:end]) != text[at:end]:
            return None
        values[name] = text[at:end]
        at = end
    return values, text[at:]


def _number(value: str, name: str) -> int | str:
    return value if name in TEXT_FIELDS else int(value)


def coded(sentence: str) -> dict[str, object]:
    """A stored sentence of 0005 as 0006 stores it (without the ``k``, which is its own column)."""
    for code, template in SENTENCES.items():
        found = _match(template, sentence)
        if found is None:
            continue
        values, rest = found
        stored: dict[str, object] = {
            "code": code,
            "params": {name: _number(value, name) for name, value in values.items() if name != "k"},
        }
        cut = _match(CUT, rest)
        if cut is not None:
            numbers, rest = cut
            stored["cut"] = [int(numbers["k"]), int(numbers["games"]), int(numbers["limit"])]
        if rest.startswith(" (") and rest.endswith(")"):
            article = rest[2:-1]
            stored["article"] = article.removesuffix(CUT_ARTICLE) if "cut" in stored else article
            return stored
    return {"article": "", "code": "k-unknown", "params": {"text": sentence}}


def sentence(k: int, stored: dict[str, object]) -> str:
    """A 0006 reason as 0005 stored it."""
    params = stored.get("params") or {}
    assert isinstance(params, dict)
    if stored["code"] == "k-unknown":
        return str(params["text"])
    cut = stored.get("cut")
    before = cut[0] if isinstance(cut, list) else k
    text = SENTENCES[str(stored["code"])].format(k=before, **params)
    article = str(stored.get("article", ""))
    if isinstance(cut, list):
        text += CUT.format(k=cut[0], games=cut[1], limit=cut[2], reduced=k)
        article += CUT_ARTICLE
    return f"{text} ({article})"


#: The notes written up to 0005 (chessrate.fide.performance, ratinglist.initial, .publish,
#: .glicko2_period): a whole note, or the clauses of an initial rating's reason, by code.
GLICKO2_NO_GAMES = "no games: the deviation grows (Glicko-2 Step 6)"
BELOW_FLOOR = "{rating} is below the floor {floor}: shown as unrated ({article})"
REASONS = {
    "initial-no-games": "no games against rated opponents",
    "initial-zero-score": "a score of zero in a first event is disregarded ({article})",
    "initial-games": "{n} games against rated opponents",
    "initial-needs": "a first rating needs at least {n} ({article})",
    "initial-pooled-months": "results may be pooled over {n} months",
    "initial-below-lowest": "{rating} is below the lowest published rating {floor}",
    "initial-working": "Ru = Ra + dp = {sum}, rounded {rating}",
    "initial-capped": "{rating} capped at the maximum initial rating {limit}",
}
POOLED = "{n} games against rated opponents from {first} to {last}"
DROPPED = "; a zero score in the first event is disregarded (B.02 8.2.1)"
NOTE_TEXTS = frozenset({"sum", "first", "last", "article"})


def _clause(code: str, template: str, text: str) -> dict[str, object] | None:
    found = _match(template, text, NOTE_TEXTS)
    if found is None or found[1]:
        return None
    values = {name: value if name in NOTE_TEXTS else int(value) for name, value in found[0].items()}
    return {"code": code, "params": values}


def _reason(text: str) -> dict[str, object] | None:
    return next((c for code, t in REASONS.items() if (c := _clause(code, t, text)) is not None), None)


def note_clauses(note: str) -> list[dict[str, object]]:
    """A note of 0005 as 0006 stores it."""
    if note == GLICKO2_NO_GAMES:
        return [{"code": "glicko2-no-games", "params": {}}]
    below = _clause("below-floor", BELOW_FLOOR, note)
    if below is not None:
        return [below]
    body, _, source = note.rpartition(" (")
    dropped = body.endswith(DROPPED)
    *parts, pooled = body.removesuffix(DROPPED).split("; ")
    last = _clause("pooled", POOLED, pooled)
    reasons = [_reason(part) for part in parts]
    found = [reason for reason in reasons if reason is not None]
    if last is None or not source.endswith(")") or len(found) != len(reasons):
        return [{"code": "note-text", "params": {"text": note}}]
    params = last["params"]
    assert isinstance(params, dict)
    return [*found, {"code": "pooled", "params": {**params, "source": source[:-1], "dropped": dropped}}]


def note_sentence(clauses: list[dict[str, Any]]) -> str:
    """A 0006 note as 0005 stored it."""
    first = clauses[0]
    if first["code"] == "note-text":
        return str(first["params"]["text"])
    if first["code"] == "glicko2-no-games":
        return GLICKO2_NO_GAMES
    if first["code"] == "below-floor":
        return BELOW_FLOOR.format(**first["params"])
    *reasons, pooled = clauses
    params = dict(pooled["params"])
    source, dropped = params.pop("source"), params.pop("dropped")
    text = "; ".join(REASONS[clause["code"]].format(**clause["params"]) for clause in reasons)
    return f"{text}; {POOLED.format(**params)}{DROPPED if dropped else ''} ({source})"


def _entries() -> sa.TableClause:
    return sa.table(
        "list_entries",
        sa.column("version_id", sa.Integer),
        sa.column("player_id", sa.Integer),
        sa.column("k", sa.Integer),
        sa.column("k_reason", sa.Text),
        sa.column("note", sa.Text),
    )


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _rewrite(column: str, convert: Callable[[int | None, str], str]) -> None:
    """Each distinct (K, text) of ``column`` converted once; every line holding it updated in one
    statement."""
    entries = _entries()
    text = entries.c[column]
    connection = op.get_bind()
    pairs = connection.execute(sa.select(entries.c.k, text).distinct().where(text.is_not(None))).all()
    for k, old in pairs:
        new = convert(k, old)
        if new != old:
            same_k = entries.c.k.is_(None) if k is None else entries.c.k == k
            connection.execute(entries.update().where(text == old, same_k).values({column: new}))


def upgrade() -> None:
    _rewrite("k_reason", lambda k, reason: _json(coded(reason)))
    _rewrite("note", lambda k, note: _json(note_clauses(note)))


def downgrade() -> None:
    _rewrite("k_reason", lambda k, reason: sentence(k or 0, json.loads(reason)))
    _rewrite("note", lambda k, note: note_sentence(json.loads(note)))
