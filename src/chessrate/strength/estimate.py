"""Estimates of playing strength from analysed games: per game and per player over several games.

The kind of game (``kind``: online rapid/blitz or over-the-board classical) is given, or read from
each game's tags (``chessrate.strength.kind``); a player's games of both kinds are read as the kind
of most of them (online on a tie), and the estimate says which kind it assumed and why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from chessrate.analysis.games import GameAnalysis
from chessrate.errors import InvalidInputError
from chessrate.strength.features import feature_row
from chessrate.strength.kind import KIND_NAMES, kind_and_reason
from chessrate.strength.model import Estimate, StrengthModel, load_model


@dataclass(frozen=True)
class PlayerEstimate:
    """One player's estimate over all the player's games in the file, and why that kind of game."""

    player: str
    estimate: Estimate
    kind_reason: str = ""


def check_kind(kind: str | None) -> str | None:
    """``kind`` as given ("" or "auto": None, read from the tags); an unknown kind is an error."""
    if kind is None or kind.strip().lower() in {"", "auto"}:
        return None
    value = kind.strip().lower()
    if value not in KIND_NAMES:
        raise InvalidInputError("kind", kind, f"must be auto, {' or '.join(KIND_NAMES)}")
    return value


def _kinds(analyses: Sequence[GameAnalysis], kind: str | None) -> list[tuple[str, str]]:
    given = check_kind(kind)
    if given is not None:
        return [(given, "chosen by the user")] * len(analyses)
    return [kind_and_reason(a.headers) for a in analyses]


def game_estimates(
    analysis: GameAnalysis, model: StrengthModel | None = None, kind: str | None = None
) -> tuple[Estimate, Estimate]:
    """(White's, Black's) estimate from this one game."""
    model = model or load_model()
    assumed = _kinds([analysis], kind)[0][0]
    return (
        model.estimate([feature_row(analysis, chess.WHITE, model.book)], assumed),
        model.estimate([feature_row(analysis, chess.BLACK, model.book)], assumed),
    )


def player_estimates(
    analyses: Sequence[GameAnalysis],
    player: str | None = None,
    model: StrengthModel | None = None,
    kind: str | None = None,
) -> list[PlayerEstimate]:
    """Each player's estimate from all of the player's games (players by name, as in the file).

    With ``player``, only that player (names compared without case); an unknown name is an error.
    ``kind``: online, otb, or None/"auto" to read it from the tags.
    """
    model = model or load_model()
    kinds = _kinds(analyses, kind)
    rows: dict[str, list[list[float]]] = {}
    reasons: dict[str, list[tuple[str, str]]] = {}
    names: dict[str, str] = {}
    for analysis, game_kind in zip(analyses, kinds, strict=True):
        for white in (chess.WHITE, chess.BLACK):
            name = analysis.player(white).name
            if analysis.player(white).moves == 0:
                continue
            key = name.casefold()
            names.setdefault(key, name)
            rows.setdefault(key, []).append(feature_row(analysis, white, model.book))
            reasons.setdefault(key, []).append(game_kind)
    if player is not None:
        key = player.casefold()
        if key not in rows:
            raise InvalidInputError(
                "player", player, "no game of this player in the file", code="no-player-games"
            )
        keys = [key]
    else:
        keys = list(rows)
    out = []
    for key in keys:
        assumed, reason = _majority(reasons[key])
        out.append(PlayerEstimate(names[key], model.estimate(rows[key], assumed), reason))
    return out


def _majority(kinds: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The kind of most of a player's games (online on a tie), with the reason of its first game."""
    counts = Counter(k for k, _ in kinds)
    chosen = "online" if counts["online"] >= counts["otb"] else "otb"
    reason = next(r for k, r in kinds if k == chosen)
    if len(counts) > 1:
        reason += f" ({counts[chosen]} of {len(kinds)} games)"
    return chosen, reason
