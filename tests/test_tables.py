"""FIDE tables 8.1.1 and 8.1.2 (B.02 §8.1), checked against the handbook values of [FIDE-RR-2024 §8.1]."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from chessrate.errors import InvalidInputError
from chessrate.systems.fide.tables import PD_TABLE, rating_difference, scoring_probability

# Every row edge of table 8.1.2, read from the handbook layout [FIDE-RR-2024 §8.1.2].
ROW_EDGES = [
    (0, ".50"), (3, ".50"), (4, ".51"), (10, ".51"), (11, ".52"), (17, ".52"), (18, ".53"), (25, ".53"),
    (26, ".54"), (32, ".54"), (33, ".55"), (39, ".55"), (40, ".56"), (46, ".56"), (47, ".57"), (53, ".57"),
    (54, ".58"), (61, ".58"), (62, ".59"), (68, ".59"), (69, ".60"), (76, ".60"), (77, ".61"), (83, ".61"),
    (84, ".62"), (91, ".62"), (92, ".63"), (98, ".63"), (99, ".64"), (106, ".64"), (107, ".65"),
    (113, ".65"), (114, ".66"), (121, ".66"), (122, ".67"), (129, ".67"), (130, ".68"), (137, ".68"),
    (138, ".69"), (145, ".69"), (146, ".70"), (153, ".70"), (154, ".71"), (162, ".71"), (163, ".72"),
    (170, ".72"), (171, ".73"), (179, ".73"), (180, ".74"), (188, ".74"), (189, ".75"), (197, ".75"),
    (198, ".76"), (206, ".76"), (207, ".77"), (215, ".77"), (216, ".78"), (225, ".78"), (226, ".79"),
    (235, ".79"), (236, ".80"), (245, ".80"), (246, ".81"), (256, ".81"), (257, ".82"), (267, ".82"),
    (268, ".83"), (278, ".83"), (279, ".84"), (290, ".84"), (291, ".85"), (302, ".85"), (303, ".86"),
    (315, ".86"), (316, ".87"), (328, ".87"), (329, ".88"), (344, ".88"), (345, ".89"), (357, ".89"),
    (358, ".90"), (374, ".90"), (375, ".91"), (391, ".91"), (392, ".92"), (411, ".92"), (412, ".93"),
    (432, ".93"), (433, ".94"), (456, ".94"), (457, ".95"), (484, ".95"), (485, ".96"), (517, ".96"),
    (518, ".97"), (559, ".97"), (560, ".98"), (619, ".98"), (620, ".99"), (735, ".99"), (736, "1.0"),
    (2000, "1.0"),
]  # fmt: skip


@pytest.mark.parametrize(("difference", "pd_high"), ROW_EDGES, ids=lambda v: f"fide-8.1.2-{v}")
def test_row_edges_of_table_8_1_2(difference: int, pd_high: str) -> None:
    assert scoring_probability(difference) == Decimal(pd_high)
    # The lower-rated player reads the L column: H + L = 1, and D = 0 is .50 either way.
    assert scoring_probability(-difference) == (Decimal(pd_high) if difference == 0 else 1 - Decimal(pd_high))


def test_table_8_1_2_rows_are_contiguous_from_zero() -> None:
    assert PD_TABLE[0][0] == 0
    for (_, end, _, _), (start, _, _, _) in itertools.pairwise(PD_TABLE):
        assert end is not None
        assert start == end + 1
    assert all(Decimal(h) + Decimal(low) == 1 for _, _, h, low in PD_TABLE)


# Table 8.1.1 entries from the handbook layout [FIDE-RR-2024 §8.1.1].
DP_ENTRIES = [
    ("1.00", 800), ("0.99", 677), ("0.92", 401), ("0.85", 296), ("0.76", 202), ("0.57", 50),
    ("0.51", 7), ("0.50", 0), ("0.49", -7), ("0.43", -50), ("0.29", -158), ("0.20", -240),
    ("0.08", -401), ("0.01", -677), ("0.00", -800),
]  # fmt: skip


@pytest.mark.parametrize(("p", "dp"), DP_ENTRIES, ids=lambda v: f"fide-8.1.1-{v}")
def test_table_8_1_1(p: str, dp: int) -> None:
    assert rating_difference(Decimal(p)) == dp


def test_table_8_1_1_rounds_p_half_up() -> None:
    # B.01 1.4.9: "All percentages are rounded to the nearest whole number. 0.5% is rounded up."
    assert rating_difference(Decimal("0.565")) == rating_difference(Decimal("0.57")) == 50
    assert rating_difference(Decimal("0.5649")) == 43


def test_the_two_tables_are_mirror_images() -> None:
    # B.02 8.1: "the two tables are effectively mirror-images": dp(PD_H) lies in that row's D range.
    for start, end, high, _ in PD_TABLE[:-1]:
        assert end is not None
        assert start <= rating_difference(Decimal(high)) <= end


def test_a_fractional_score_out_of_range_names_itself() -> None:
    # Table 8.1.1 is defined for p from 0 to 1 only.
    with pytest.raises(InvalidInputError, match="fractional_score"):
        rating_difference(Decimal("1.01"))
