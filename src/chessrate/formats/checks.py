"""Consistency checks of a TRF file: the result codes the two sides of a pairing may give, each
side's score, and the declared counts of players. The pairings themselves are checked in
:mod:`.trf_games`."""

from __future__ import annotations

from decimal import Decimal

from chessrate.formats.model import Player, ProblemLog

#: The two sides' codes that agree (first player, second player); blank/blank is a pending pairing.
AGREEING_CODES = frozenset(
    {
        ("1", "0"),
        ("0", "1"),
        ("=", "="),
        ("W", "L"),
        ("L", "W"),
        ("D", "D"),
        ("+", "-"),
        ("-", "+"),
        ("-", "-"),
        ("", ""),
    }
)

#: A game's score for the side with this code: TRF16/TRF26 result codes.
GAME_SCORE = {
    "1": Decimal(1), "W": Decimal(1), "+": Decimal(1),
    "=": Decimal("0.5"), "D": Decimal("0.5"),
    "0": Decimal(0), "L": Decimal(0), "-": Decimal(0),
}  # fmt: skip


def check_counts(
    players: list[Player],
    declared: tuple[int | None, int | None],
    declared_rated: tuple[int | None, int | None],
    log: ProblemLog,
) -> None:
    """Records 062 and 072 (players, rated players; each with its line) against the file."""
    count, line = declared
    if count is not None and count != len(players):
        log.warning(
            line,
            "player-count",
            f"record 062 announces {count} players; the file has {len(players)}",
            count=count,
            found=len(players),
        )
    rated = sum(1 for p in players if p.rating is not None)
    count, line = declared_rated
    if count is not None and count != rated:
        log.warning(
            line,
            "rated-count",
            f"record 072 announces {count} rated players; the file has {rated}",
            count=count,
            found=rated,
        )
