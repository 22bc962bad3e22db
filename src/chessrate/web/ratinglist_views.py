"""What the rating list's pages show, in the page's language: words for statuses and fields, the
sort orders, K's reasons, a player's chart. Below the router (:mod:`chessrate.web.ratinglist_pages`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from chessrate.ratinglist.k_reasons import stored_k
from chessrate.ratinglist.list_page import has_games
from chessrate.ratinglist.queries import PlayerView
from chessrate.service.explanations import k_reason
from chessrate.service.language import Template, Translator, said
from chessrate.systems.elo.ruleset import RuleSet

#: The names of the rating list's forms' fields, as the pages say them.
FIELD_LABELS: dict[str, Template] = {
    "period": said("Period"),
    "file": said("File"),
    "end": said("End date"),
    "player": said("Player"),
    "rules": said("Rule set"),
}


def status_word(t: Translator, status: str) -> str:
    """A list's status in the page's language (the words of list.html)."""
    words = {"published": t.gettext("published"), "superseded": t.gettext("superseded")}
    return words.get(status, t.gettext("draft"))


def latest_with_games(engine: Engine, periods: list[str]) -> str:
    """The newest published period on which someone played (an empty month shows nothing new)."""
    return next((period for period in reversed(periods) if has_games(engine, period)), periods[-1])


def k_text(t: Translator, rule_sets: tuple[RuleSet, ...] = ()) -> Any:
    """Why K was what it was, from the reason the list stored (its code and values), in ``t``'s
    language, with its source (a club's in that language too: one of ``rule_sets``)."""

    def text(k: int | None, reason: str | None) -> str:
        if not reason:
            return ""
        return k_reason(stored_k(k or 0, reason), t, rule_sets, source=True)

    return text


def history_chart(player: PlayerView) -> dict[str, Any] | None:
    """The player's published ratings by list date, for the chart (app.js draws it with uPlot)."""
    points = [(line.list_date, line.rating) for line in player.history if line.rating is not None]
    if not points:
        return None
    return {
        "days": [day.isoformat() for day, _ in points],
        "ratings": [rating for _, rating in points],
        "first": points[0][0],
        "last": points[-1][0],
    }
