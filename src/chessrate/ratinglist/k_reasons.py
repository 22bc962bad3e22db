"""A list line's K reason as the store keeps it: the core's code and values, never words.

``list_entries.k_reason`` holds one compact JSON object per reason (docs/codes.md)::

    {"article":"FIDE B.02 8.3.3","code":"k-new-player","params":{"games":10,"needed":30}}

with ``"cut": [K before, games, limit]`` when the 700 rule cut K (FIDE B.02 8.3.3). The faces say it
in the user's language from the catalogs (:func:`chessrate.service.explanations.k_reason`). Stores
made before kept English sentences; migration 0006 turned them into these.
"""

from __future__ import annotations

import json

from chessrate.systems.fide.k_factor import K_REASONS, KFactor, SevenHundredCut


def k_reason_text(k: KFactor) -> str:
    """``k``'s reason (code, values, article, the 700 rule's cut) as the store keeps it."""
    stored: dict[str, object] = {"article": k.article, "code": k.code, "params": dict(k.params)}
    if k.cut is not None:
        stored["cut"] = [k.cut.k, k.cut.games, k.cut.limit]
    return json.dumps(stored, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def stored_k(k: int, text: str) -> KFactor:
    """The K ``k`` of a list line and its stored reason ``text`` (:func:`k_reason_text`)."""
    stored = json.loads(text)
    cut = stored.get("cut")
    code, params = str(stored["code"]), stored.get("params", {})
    names = K_REASONS.get(code, tuple(params))  # the core's order of the values
    return KFactor(
        k=k,
        code=code,
        params=tuple((name, params[name]) for name in names if name in params),
        article=str(stored.get("article", "")),
        cut=SevenHundredCut(k=cut[0], games=cut[1], limit=cut[2]) if cut else None,
    )
