"""Monthly rating periods, written ``YYYY-MM``.

FIDE B.02 7.1: "On the first day of each month, FIDE shall prepare a list which incorporates all
rated play during the rating period into the previous list"; 7.1.1: "The rating period ... is the
period where a certain rating list is valid" [FIDE-RR-2024 §7.1]. So period ``2024-03`` is the
month of March 2024: the list of 1 March is in force during it, its events are rated from that
list, and running it publishes the list of 1 April 2024.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from chessrate.errors import InvalidInputError

_PATTERN = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True, order=True)
class Period:
    """One monthly rating period."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: str, *, field: str = "period") -> Period:
        match = _PATTERN.fullmatch(text.strip())
        if not match or not 1 <= int(match.group(2)) <= 12 or int(match.group(1)) < 1:
            raise InvalidInputError(
                field, text, "a rating period is written YYYY-MM, e.g. 2024-03", code="period-format"
            )
        if (int(match.group(1)), int(match.group(2))) >= (9999, 12):
            # Its list would be dated 10000-01-01, past the last day Python's dates know.
            raise InvalidInputError(field, text, "the last rating period is 9999-11", code="period-last")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def from_month_number(cls, number: int) -> Period:
        """The period of a month number (:attr:`month_number`)."""
        return cls(number // 12, number % 12 + 1)

    @classmethod
    def of(cls, day: dt.date) -> Period:
        """The period a day falls in."""
        return cls(day.year, day.month)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def month_number(self) -> int:
        """The period as a whole number, in order: ``year * 12 + month - 1``."""
        return self.year * 12 + self.month - 1

    @property
    def first_day(self) -> dt.date:
        """The first day of the month, the date of the list in force during the period."""
        return dt.date(self.year, self.month, 1)

    @property
    def list_date(self) -> dt.date:
        """The date of the list this period's run publishes: the first day of the next month."""
        return self.next().first_day

    def next(self) -> Period:
        return Period(self.year + self.month // 12, self.month % 12 + 1)

    def previous(self) -> Period:
        return Period(self.year - (self.month == 1), (self.month - 2) % 12 + 1)

    def minus_months(self, months: int) -> Period:
        return Period.from_month_number(self.month_number - months)
