"""FIDE Rating Regulations, tables 8.1.1 and 8.1.2, as printed in the Handbook.

Source: FIDE Handbook B.02 (B022024, applied from 1 March 2024), §8.1 [FIDE-RR-2024 §8.1], read
through a transcription and cross-checked against four independent copies (docs/sources.md). The same tables
stand in every version of the regulations since 2009 (older chapters number them 8.1(a)/8.1(b)).
"""

from __future__ import annotations

from bisect import bisect_left
from decimal import ROUND_HALF_UP, Decimal

from chessrate.errors import InvalidInputError

# FIDE B.02 8.1.2: difference in rating D -> scoring probability PD for the higher (H) and the
# lower (L) rated player. Each row: (D from, D to, PD H, PD L); the last row is "> 735".
PD_TABLE: tuple[tuple[int, int | None, str, str], ...] = (
    (0, 3, ".50", ".50"),     (4, 10, ".51", ".49"),    (11, 17, ".52", ".48"),
    (18, 25, ".53", ".47"),   (26, 32, ".54", ".46"),   (33, 39, ".55", ".45"),
    (40, 46, ".56", ".44"),   (47, 53, ".57", ".43"),   (54, 61, ".58", ".42"),
    (62, 68, ".59", ".41"),   (69, 76, ".60", ".40"),   (77, 83, ".61", ".39"),
    (84, 91, ".62", ".38"),   (92, 98, ".63", ".37"),   (99, 106, ".64", ".36"),
    (107, 113, ".65", ".35"), (114, 121, ".66", ".34"), (122, 129, ".67", ".33"),
    (130, 137, ".68", ".32"), (138, 145, ".69", ".31"), (146, 153, ".70", ".30"),
    (154, 162, ".71", ".29"), (163, 170, ".72", ".28"), (171, 179, ".73", ".27"),
    (180, 188, ".74", ".26"), (189, 197, ".75", ".25"), (198, 206, ".76", ".24"),
    (207, 215, ".77", ".23"), (216, 225, ".78", ".22"), (226, 235, ".79", ".21"),
    (236, 245, ".80", ".20"), (246, 256, ".81", ".19"), (257, 267, ".82", ".18"),
    (268, 278, ".83", ".17"), (279, 290, ".84", ".16"), (291, 302, ".85", ".15"),
    (303, 315, ".86", ".14"), (316, 328, ".87", ".13"), (329, 344, ".88", ".12"),
    (345, 357, ".89", ".11"), (358, 374, ".90", ".10"), (375, 391, ".91", ".09"),
    (392, 411, ".92", ".08"), (412, 432, ".93", ".07"), (433, 456, ".94", ".06"),
    (457, 484, ".95", ".05"), (485, 517, ".96", ".04"), (518, 559, ".97", ".03"),
    (560, 619, ".98", ".02"), (620, 735, ".99", ".01"), (736, None, "1.0", ".00"),
)  # fmt: skip

# FIDE B.02 8.1.1: fractional score p -> rating difference dp. "For a zero or 1.0 score dp is
# necessarily indeterminate but is shown notionally as 800." Rows for p = 1.00 down to .50; the
# rest follows from dp(p) = -dp(1 - p), as the printed table shows.
DP_TABLE_UPPER_HALF: tuple[tuple[str, int], ...] = (
    ("1.00", 800), (".99", 677), (".98", 589), (".97", 538), (".96", 501), (".95", 470),
    (".94", 444), (".93", 422), (".92", 401), (".91", 383), (".90", 366), (".89", 351),
    (".88", 336), (".87", 322), (".86", 309), (".85", 296), (".84", 284), (".83", 273),
    (".82", 262), (".81", 251), (".80", 240), (".79", 230), (".78", 220), (".77", 211),
    (".76", 202), (".75", 193), (".74", 184), (".73", 175), (".72", 166), (".71", 158),
    (".70", 149), (".69", 141), (".68", 133), (".67", 125), (".66", 117), (".65", 110),
    (".64", 102), (".63", 95), (".62", 87), (".61", 80), (".60", 72), (".59", 65),
    (".58", 57), (".57", 50), (".56", 43), (".55", 36), (".54", 29), (".53", 21),
    (".52", 14), (".51", 7), (".50", 0),
)  # fmt: skip

_ROW_ENDS = [row[1] if row[1] is not None else 10**9 for row in PD_TABLE]
_PD_HIGH = [Decimal(row[2]) for row in PD_TABLE]
_PD_LOW = [Decimal(row[3]) for row in PD_TABLE]
_DP_BY_PERCENT: dict[int, int] = {}
for _p, _dp in DP_TABLE_UPPER_HALF:
    _percent = int(Decimal(_p) * 100)
    _DP_BY_PERCENT[_percent] = _dp
    _DP_BY_PERCENT[100 - _percent] = -_dp

CENT = Decimal("0.01")


def scoring_probability(difference: int) -> Decimal:
    """PD from table 8.1.2 for a player whose rating exceeds the opponent's by ``difference``.

    FIDE B.02 8.1.2: the H column when the player is the higher rated (D >= 0), the L column
    when lower, from the row that holds |D|. ``difference`` is whole: ratings on a FIDE list are.
    """
    row = bisect_left(_ROW_ENDS, abs(difference))
    return _PD_HIGH[row] if difference >= 0 else _PD_LOW[row]


def rating_difference(fractional_score: Decimal) -> int:
    """dp from table 8.1.1 for a fractional score p between 0 and 1.

    p is first rounded to the nearest hundredth, 0.005 upwards: the Title Regulations' rule for
    the same table ("All percentages are rounded to the nearest whole number. 0.5% is rounded
    up.", [FIDE-TR-2024 §1.4.9]); B.02 itself is silent on it.
    """
    if not 0 <= fractional_score <= 1:
        raise InvalidInputError(
            "fractional_score", fractional_score, "p is between 0 and 1", code="fractional-score"
        )
    percent = int(fractional_score.quantize(CENT, rounding=ROUND_HALF_UP) * 100)
    return _DP_BY_PERCENT[percent]
