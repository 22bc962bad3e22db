"""The kind of game, from its tags: online rapid/blitz (the Lichess scale) or over-the-board classical.

One rule for every game (no name, event or rating is looked at):

- a ``TimeControl`` of one period "base+increment" (seconds) estimated at under 1,500 s by lila's
  rule, base + 40 x increment (lila ``Speed``: 1,500 s and more is classical), is **online**;
- else a ``Site`` that is a web address (lichess.org, chess.com and the like export one) is **online**;
- else (classical or multi-period time control, or none with a place for a site) **otb**.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from chessrate.strength.features import time_control

#: lila's ``Speed``: a game estimated at 1,500 s or more is classical.
CLASSICAL_SECONDS = 1500
#: What each kind is called.
KIND_NAMES = {"online": "online rapid/blitz", "otb": "over-the-board classical"}


def game_kind(headers: Mapping[str, str]) -> str:
    """``online`` or ``otb`` for a game's tags (see the module's docstring)."""
    return kind_and_reason(headers)[0]


def kind_and_reason(headers: Mapping[str, str]) -> tuple[str, str]:
    """The kind and the tag that decided it, in words."""
    tag = headers.get("TimeControl", "")
    base, increment = time_control(tag)
    if not math.isnan(base) and base + 40 * increment < CLASSICAL_SECONDS:
        return "online", f"TimeControl {tag}: under {CLASSICAL_SECONDS} s, base + 40 x increment"
    site = headers.get("Site", "")
    if site.lower().startswith(("http://", "https://", "www.")):
        return "online", f"Site {site} is a web address"
    if not math.isnan(base):
        return "otb", f"TimeControl {tag}: classical, {CLASSICAL_SECONDS} s or more"
    return "otb", "no web address in Site and no rapid or blitz TimeControl"
