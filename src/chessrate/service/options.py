"""The rule options beside every Elo calculation: text in, a rule set, a day, K and a profile out.

The command line's options (``--rules``, ``--as-of``, ``--k``...) and the web's form fields and API
body fields of the same names become one :class:`OptionInputs`, each value as the user typed it;
:func:`resolve_options` turns it into :class:`Options`, with each bad value kept under its field in
:class:`~chessrate.service.problems.Problems`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Generic, TypeVar

from chessrate.errors import InvalidInputError, RuleSetError
from chessrate.parse import parse_count, parse_date, parse_k, parse_rating
from chessrate.service.problems import Path, Problems
from chessrate.systems.elo.presets import resolve_rule_set, rule_set_from_toml
from chessrate.systems.elo.ruleset import FIDE_LISTS, CapMode, DifferenceCap, Expected, RuleSet
from chessrate.systems.fide.k_factor import PlayerProfile
from chessrate.systems.fide.regulations import rules_in_force

#: The rule sets by name; ``custom`` is a club's rules given as TOML text (``rules_toml``).
RULE_SET_CHOICES = (*FIDE_LISTS, "elo", "ciabe", "custom")
EXPECTED_CHOICES = ("rules", "table", "formula")
CAP_CHOICES = tuple(mode.value for mode in CapMode)
#: Longest club TOML accepted.
MAX_TOML = 20_000

T = TypeVar("T")


@dataclass(kw_only=True)
class ProfileInputs:
    """The player's profile for FIDE's K rules (all blank: unknown)."""

    birth_year: str = ""
    rated_games: str = ""
    highest_rating: str = ""


@dataclass(kw_only=True)
class OptionInputs(ProfileInputs):
    """The rule options beside every Elo calculation."""

    rules: str = "fide"
    as_of: str = ""
    rules_toml: str = ""
    expected: str = "rules"
    cap: str = "auto"
    #: Blank or ``rules``: K from the rule set; otherwise a number.
    k: str = ""
    #: Where ``rules_toml`` came from, for its error messages (the command line: the file's name).
    rules_origin: str = "club rules"


@dataclass(kw_only=True)
class Options:
    rules: RuleSet
    day: dt.date
    k: int | None
    profile: PlayerProfile | None
    cap_mode: CapMode
    #: The 400-point rule of the rule set before the user's choice (to explain it).
    rule_set_cap: DifferenceCap | None


@dataclass
class Outcome(Generic[T]):
    """A calculation's result, or None with the problems that prevented it."""

    result: T | None
    problems: Problems
    options: Options | None = None


def resolve_options(inputs: OptionInputs, problems: Problems, *, today: dt.date) -> Options | None:
    """The options resolved; None when any of them is wrong (each problem kept under its field)."""
    day = resolve_day(inputs.as_of, problems, today=today)
    rules = _rule_set(inputs, problems, day=day)
    expected = inputs.expected.strip().lower() or "rules"
    if expected not in EXPECTED_CHOICES:
        problems.add(("expected",), inputs.expected, one_of("expected", inputs.expected, EXPECTED_CHOICES))
    cap_text = inputs.cap.strip().lower() or CapMode.AUTO.value
    cap_mode = CapMode(cap_text) if cap_text in CAP_CHOICES else None
    if cap_mode is None:
        problems.add(("cap",), inputs.cap, one_of("cap", inputs.cap, CAP_CHOICES))
    k_text = inputs.k.strip()
    k = None if k_text.lower() in {"", "rules"} else problems.optional(("k",), k_text, parse_k)
    profile = profile_from(inputs, problems, today=today)
    if rules is None or cap_mode is None or day is None:
        return None
    if k is None and rules.k_policy is None and ("k",) not in problems.errors:
        problems.add(
            ("k",),
            k_text,
            f"the rule set {rules.name!r} has no rule for K, so K must be given",
            message=problems.t.gettext("This rule set has no rule for K: choose 40, 20, 10 or your own."),
        )
    if problems.errors:
        return None
    base_cap = rules.cap
    if expected in {"table", "formula"}:
        rules = rules.with_expected(Expected(expected))
    return Options(
        rules=rules.with_cap(cap_mode),
        day=day,
        k=k,
        profile=profile,
        cap_mode=cap_mode,
        rule_set_cap=base_cap,
    )


def resolve_day(text: str, problems: Problems, *, today: dt.date) -> dt.date | None:
    """``as_of`` as a day whose FIDE rules we know; blank: ``today``."""
    if not text.strip():
        return today
    day = problems.optional(("as_of",), text, lambda value: parse_date(value, field="as_of"))
    if day is not None:
        # The rules must be known on that day (the first version is of 2014-07-01).
        known = problems.attempt(("as_of",), text, lambda: rules_in_force(day))
        return day if known is not None else None
    return None


def _rule_set(inputs: OptionInputs, problems: Problems, *, day: dt.date | None) -> RuleSet | None:
    choice = inputs.rules.strip().lower() or "fide"
    if choice == "custom":
        text = inputs.rules_toml
        if not text.strip():
            problems.missing.append(("rules_toml",))
            return None
        if len(text) > MAX_TOML:
            problems.add(
                ("rules_toml",),
                text[:20],
                InvalidInputError(
                    "rules_toml",
                    text[:20],
                    f"longer than {MAX_TOML} characters",
                    code="too-long",
                    params={"length": MAX_TOML},
                ),
            )
            return None
        try:
            return rule_set_from_toml(text, origin=inputs.rules_origin)
        except RuleSetError as error:
            problems.add(("rules_toml",), text[:20], error)
            return None
    if choice not in RULE_SET_CHOICES:
        problems.add(
            ("rules",),
            inputs.rules,
            InvalidInputError(
                "rules",
                inputs.rules,
                "not a rule set we know: use fide, fide-rapid, fide-blitz, elo or ciabe, "
                "or a club's own rules",
                code="rules-not-a-choice",
            ),
            message=problems.t.gettext("Choose a rule set from the list."),
        )
        return None
    if day is None:
        return None
    return problems.attempt(("rules",), choice, lambda: resolve_rule_set(choice, as_of=day))


def profile_from(inputs: ProfileInputs, problems: Problems, *, today: dt.date) -> PlayerProfile | None:
    """The player's profile for the K rules; None when nothing of it is given."""
    birth_year, rated_games, highest_rating = inputs.birth_year, inputs.rated_games, inputs.highest_rating
    if not (birth_year.strip() or rated_games.strip() or highest_rating.strip()):
        return None

    def year(text: str) -> int:
        value = parse_count(text, field="birth_year", minimum=1900)
        if value > today.year:
            raise InvalidInputError(
                "birth_year", text, "a birth year cannot be in the future", code="future-year"
            )
        return value

    highest = problems.optional(
        ("highest_rating",), highest_rating, lambda text: parse_rating(text, field="highest_rating")
    )
    return PlayerProfile(
        birth_year=problems.optional(("birth_year",), birth_year, year),
        rated_games=problems.optional(
            ("rated_games",), rated_games, lambda text: parse_count(text, field="rated_games")
        ),
        highest_rating=int(highest) if highest is not None else None,
    )


def one_of(field: str, value: str, choices: tuple[str, ...]) -> InvalidInputError:
    """A value that is not one of ``choices`` (the API and the command line take these words)."""
    words = ", ".join(choices)
    return InvalidInputError(field, value, f"use one of {words}", code="one-of", params={"choices": words})


def read_rating(problems: Problems, path: Path, text: str) -> Decimal | None:
    """The rating typed in the field at ``path`` (required)."""
    name = str(path[-1])
    return problems.parse(path, text, lambda value: parse_rating(value, field=name))
