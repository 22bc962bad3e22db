"""A list line's K reason is stored as a code with its values, not as an English sentence.

Until 0005 ``list_entries.k_reason`` held the core's English sentence and its article
(``K 40: new to the list, 10 rated games so far (fewer than 30) (FIDE B.02 8.3.3)``), which the
web read back with regular expressions to say it in Spanish or Catalan. From 0006 it holds the
reason's code and values as JSON (:mod:`chessrate.ratinglist.k_reasons`, docs/codes.md)::

    {"article":"FIDE B.02 8.3.3","code":"k-new-player","params":{"games":10,"needed":30}}

This migration is the one place that still reads those sentences: the templates below are the
sentences chessrate wrote up to 0005, frozen here (the upgrade matches them, the downgrade writes
them). A sentence none of them matches is kept whole as ``k-unknown`` (``params.text``), and the
downgrade gives it back as it was.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
from collections.abc import Callable
from string import Formatter

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

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


def _match(template: str, text: str) -> tuple[dict[str, str], str] | None:
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
        if name in TEXT_FIELDS:  # up to the next literal (the template's last field holds the rest)
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


def _entries() -> sa.TableClause:
    return sa.table(
        "list_entries",
        sa.column("version_id", sa.Integer),
        sa.column("player_id", sa.Integer),
        sa.column("k", sa.Integer),
        sa.column("k_reason", sa.Text),
    )


def _rewrite(convert: Callable[[int | None, str], str]) -> None:
    """Each distinct (K, reason) converted once; every line holding it updated in one statement."""
    entries = _entries()
    connection = op.get_bind()
    pairs = connection.execute(
        sa.select(entries.c.k, entries.c.k_reason).distinct().where(entries.c.k_reason.is_not(None))
    ).all()
    for k, reason in pairs:
        new = convert(k, reason)
        if new != reason:
            connection.execute(
                entries.update()
                .where(entries.c.k_reason == reason, entries.c.k.is_(None) if k is None else entries.c.k == k)
                .values(k_reason=new)
            )


def upgrade() -> None:
    _rewrite(
        lambda k, reason: json.dumps(coded(reason), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    )


def downgrade() -> None:
    _rewrite(lambda k, reason: sentence(k or 0, json.loads(reason)))
