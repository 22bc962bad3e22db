"""The errors chessrate raises: every one is a ``ValueError`` that names the input at fault."""

from __future__ import annotations


class RatingError(ValueError):
    """Base class of every error chessrate raises on bad input or impossible requests."""


class InvalidInputError(RatingError):
    """A value given by the user is malformed or out of range.

    ``field`` names the input (``rating``, ``result``, ``k``...) so that every face can show the
    message beside the field that caused it.
    """

    def __init__(self, field: str, value: object, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"invalid {field} {value!r}: {reason}")


class RuleSetError(RatingError):
    """A rule set is unknown, or its definition (a club TOML file) is malformed."""


class ConvergenceError(RatingError):
    """An iterative computation did not converge within its bounded number of steps."""
