"""Bad and missing input, collected per field, with messages in the user's language.

Every value is parsed by :mod:`chessrate.parse`; an :class:`~chessrate.errors.InvalidInputError`
is kept under the path of the field that caused it, so that the web page shows the message beside
that field, the API answers 422 naming it and the command line prints one line about it. Paths are
tuples such as ``("games", 2, "opponent")``: the form's field is ``games-2-opponent``, the API's
``loc`` is ``["body", "games", 2, "opponent"]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from chessrate.errors import InvalidInputError, RatingError
from chessrate.requests.language import Translator

T = TypeVar("T")
Path = tuple[str | int, ...]

#: Fields that hold a rating, all checked by ``parse_rating``.
RATING_FIELDS = frozenset({"rating", "opponent", "average", "start_rating", "highest_rating"})
#: Longest part of a bad value repeated in a message.
VALUE_SHOWN = 30


def field_id(path: Path) -> str:
    """The form name and error-slot id of a field: ``games-2-opponent``."""
    return "-".join(str(part) for part in path)


def field_name(path: Path) -> str:
    """The field's own name, the last name in its path: ``opponent`` of ``games-2-opponent``."""
    return next((part for part in reversed(path) if isinstance(part, str)), "")


@dataclass
class Problem:
    path: Path
    value: object
    #: The library's reason, in English (the API's ``ctx.reason``).
    reason: str
    #: What the user reads beside the field, in their language.
    message: str
    #: The library's own sentence, in English, when the error is more than a bad value of the
    #: field (a club's rules that do not parse, a file refused): the command line prints it whole.
    detail: str | None


@dataclass
class Problems:
    """Errors and missing fields of one request."""

    t: Translator
    errors: dict[Path, Problem] = field(default_factory=dict)
    missing: list[Path] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.errors or self.missing)

    def parse(self, path: Path, text: str, parser: Callable[[str], T]) -> T | None:
        """``parser(text)``, or None with the error kept under ``path`` (or noted missing if blank)."""
        if not text.strip():
            self.missing.append(path)
            return None
        return self.attempt(path, text, lambda: parser(text))

    def optional(self, path: Path, text: str, parser: Callable[[str], T]) -> T | None:
        """Like :meth:`parse`, but a blank field is simply absent."""
        if not text.strip():
            return None
        return self.attempt(path, text, lambda: parser(text))

    def attempt(self, path: Path, value: object, compute: Callable[[], T]) -> T | None:
        try:
            return compute()
        except RatingError as error:
            self.add(path, value, error)
            return None

    def add(self, path: Path, value: object, error: RatingError | str, **extra: object) -> None:
        reason = error.reason if isinstance(error, InvalidInputError) else str(error)
        said = (
            input_reason(error.code, error.params, reason, self.t)
            if isinstance(error, InvalidInputError)
            else reason
        )
        detail = None if isinstance(error, str | InvalidInputError) else str(error)
        if path not in self.errors:
            message = self._message(path, value, said, extra)
            self.errors[path] = Problem(path, value, reason, message, detail)

    def _message(self, path: Path, value: object, reason: str, extra: dict[str, object]) -> str:
        _ = self.t.gettext
        name = field_name(path)
        shown = str(value) if value is not None else ""
        shown = shown if len(shown) <= VALUE_SHOWN else shown[: VALUE_SHOWN - 1] + "…"
        if "message" in extra:
            return str(extra["message"])
        if name in RATING_FIELDS:
            return _("“%(value)s” is not a rating: write a number from 0 to 4000, such as 1500.", value=shown)
        if name == "result":
            return _(
                "“%(value)s” is not a result: write 1, ½ (or 0.5) or 0, or win, draw or loss.", value=shown
            )
        if name == "points":
            return _(
                "“%(value)s”: points are whole or half points, from 0 to the number of games.", value=shown
            )
        if name == "games":
            return _("“%(value)s”: write the number of games, from 1 to 10,000.", value=shown)
        if name in {"rated_games", "games_this_period"}:
            return _("“%(value)s”: write a whole number of games, from 0 to 10,000.", value=shown)
        if name == "k":
            return _("“%(value)s”: K is a whole number from 1 to 1000, such as 20.", value=shown)
        if name == "birth_year":
            return _("“%(value)s” is not a birth year: write four digits, not in the future.", value=shown)
        if name == "as_of":
            return _(
                "“%(value)s” is not a day we know rules for: write YYYY-MM-DD, from 2014-07-01 on.",
                value=shown,
            )
        if name == "rules_toml":
            return _("The club’s rules could not be read: %(reason)s", reason=reason)
        return _("Check this value: %(reason)s", reason=reason)


# The reasons of chessrate.parse (InvalidInputError.code), in the user's language.
_INPUT_REASONS: dict[str, Callable[[Translator, dict[str, object]], str]] = {
    "not-a-number": lambda t, p: t.gettext("not a number"),
    "not-finite": lambda t, p: t.gettext("not a finite number"),
    "result": lambda t, p: t.gettext("a result is 1, ½ (or 0.5) or 0, or win, draw or loss"),
    "thousands-separator": lambda t, p: t.gettext(
        "write a rating without a thousands separator, such as 1500"
    ),
    "rating-range": lambda t, p: t.gettext("a rating is between %(low)s and %(high)s", **p),
    "points-range": lambda t, p: t.gettext("points are between 0 and the %(games)s games played", **p),
    "half-points": lambda t, p: t.gettext("points are whole or half points"),
    "not-whole": lambda t, p: t.gettext("not a whole number"),
    "minimum": lambda t, p: t.gettext("it must be at least %(minimum)s", **p),
    "k": lambda t, p: t.gettext("K is a whole number above zero"),
    "date": lambda t, p: t.gettext("a date is written YYYY-MM-DD"),
    "too-large": lambda t, p: t.gettext("too large"),
    "too-long": lambda t, p: t.gettext("longer than %(length)s characters", **p),
    "digits": lambda t, p: t.gettext("write the number with the digits 0-9"),
    "maximum": lambda t, p: t.gettext("it must be at most %(maximum)s", **p),
    "k-maximum": lambda t, p: t.gettext("K is at most %(maximum)s", **p),
    "above-zero": lambda t, p: t.gettext("it must be above zero"),
    "not-negative": lambda t, p: t.gettext("it cannot be negative"),
    "one-of": lambda t, p: t.gettext("write one of: %(choices)s", **p),
    # FIDE's rating list given beside a tournament (formats.fide_list, report.players_list_for).
    "zip-members": lambda t, p: t.gettext("the zip holds %(count)s files, not one list", **p),
    "zip-unreadable": lambda t, p: t.gettext("the zip cannot be read"),
    "not-a-list": lambda t, p: (
        t.gettext("not a FIDE rating list: the header line has no %(missing)s", **p)
        if p.get("missing")
        else t.gettext(
            "not a FIDE rating list: the header line has no rating column (SRtng, or the month as SEP26)"
        )
    ),
    "list-type": lambda t, p: t.gettext("a list is standard, rapid or blitz"),
    "list-type-by-name": lambda t, p: t.gettext(
        "by its name, the file is FIDE’s %(list)s list", list=_list_word(t, p)
    ),
    "list-type-unnamed": lambda t, p: t.gettext(
        "the file holds one list and its name does not say which: choose standard, rapid or blitz"
    ),
    # Games given to estimate strength from (analysis.games, strength).
    "unreadable-movetext": lambda t, p: t.gettext("game %(game)s: its moves cannot be read", **p),
    "illegal-move": lambda t, p: t.gettext("game %(game)s: the move %(move)s is not legal there", **p),
    "invalid-move": lambda t, p: t.gettext("game %(game)s: “%(move)s” is not a move", **p),
    "ambiguous-move": lambda t, p: t.gettext(
        "game %(game)s: the move %(move)s could be made by more than one piece", **p
    ),
    "unreadable-game": lambda t, p: t.gettext(
        "game %(game)s: its position (FEN) or moves cannot be read", **p
    ),
    "variant": lambda t, p: t.gettext("game %(game)s: the variant “%(variant)s” is not standard chess", **p),
    "too-many-games": lambda t, p: t.gettext("more than %(count)s games", **p),
    "no-game": lambda t, p: t.gettext("no game found in the PGN"),
    "no-moves": lambda t, p: t.gettext("no move to judge in the games"),
    "no-player-games": lambda t, p: t.gettext("no game of this player in the file"),
    "no-estimate": lambda t, p: t.gettext("no estimate could be made from these moves"),
    "list-type-missing": lambda t, p: t.gettext("the file is FIDE’s %(list)s list", list=_list_word(t, p)),
}


def list_type_words(kind: str, t: Translator) -> str:
    """``standard``, ``rapid``, ``blitz`` in the user's language."""
    return {
        "standard": t.gettext("standard"),
        "rapid": t.gettext("rapid"),
        "blitz": t.gettext("blitz"),
    }.get(kind, kind)


def _list_word(t: Translator, p: dict[str, object]) -> str:
    return list_type_words(str(p["list"]), t)


def input_reason(code: str, params: dict[str, object], reason: str, t: Translator) -> str:
    """Why a value was refused (an :class:`~chessrate.errors.InvalidInputError`), in ``t``'s language."""
    render = _INPUT_REASONS.get(code)
    try:
        return render(t, params) if render else reason
    except (KeyError, TypeError, ValueError):
        return reason
