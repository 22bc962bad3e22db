"""Rules of publication checked on their own: the 1 March 2024 adjustment, the floor, periods."""

from __future__ import annotations

import pytest

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.facts import Entry
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.publish import publish_fide
from chessrate.ratinglist.statuses import EntryStatus


def entry(rating: int) -> Entry:
    return Entry(player_id=1, status=EntryStatus.RATED, rating_before=rating, rating=rating, games=0)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        pytest.param(1000, 1400, id="C4355-1000"),
        pytest.param(1500, 1700, id="C4355-1500"),
        pytest.param(1600, 1760, id="FIDE-2538-1600"),
        pytest.param(1700, 1820, id="FIDE-PROP-formula-1700"),
        pytest.param(1950, 1970, id="C4355-1950"),
        pytest.param(2000, 2000, id="FIDE-PROP-2000-unchanged"),
    ],
)
def test_one_time_adjustment_on_the_list_of_1_march_2024(before: int, after: int) -> None:
    (published,) = publish_fide({1: entry(before)}, Period(2024, 2)).values()
    assert published.rating == after


@pytest.mark.parametrize("period", [Period(2024, 1), Period(2024, 3)])
def test_no_adjustment_on_other_lists(period: Period) -> None:
    (published,) = publish_fide({1: entry(1600)}, period).values()
    assert (published.rating, published.adjustment) == (1600, None)


@pytest.mark.parametrize(
    ("period", "rating", "status"),
    [
        pytest.param(Period(2024, 4), 1399, "dropped", id="B.02-7.2.1-2024-below-1400"),
        pytest.param(Period(2024, 4), 1400, "rated", id="B.02-7.2.1-2024-at-1400"),
        pytest.param(Period(2023, 6), 1399, "rated", id="B.02-2022-floor-1000"),
        pytest.param(Period(2023, 6), 999, "dropped", id="B.02-2022-below-1000"),
    ],
)
def test_floor_shows_a_player_as_unrated(period: Period, rating: int, status: str) -> None:
    (published,) = publish_fide({1: entry(rating)}, period).values()
    assert published.status == status
    assert (published.rating is None) is (status == "dropped")


def test_period_arithmetic() -> None:
    period = Period.parse("2024-12")
    assert (str(period.next()), str(period.previous()), str(period.minus_months(25))) == (
        "2025-01", "2024-11", "2022-11",
    )  # fmt: skip
    assert period.list_date.isoformat() == "2025-01-01"


@pytest.mark.parametrize("text", ["2024-13", "2024-1", "24-01", "2024/01", ""])
def test_bad_period_names_the_field(text: str) -> None:
    with pytest.raises(InvalidInputError, match="invalid period"):
        Period.parse(text)
