"""The options every Elo command shares, and the request layer's problems as one line.

:func:`with_rule_options` gives a command ``--k``, ``--rules``, ``--as-of``, ``--expected``,
``--no-cap`` and the player's profile, and hands them to it as one
:class:`~chessrate.requests.options.OptionInputs`: the web form and the API build the same.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from chessrate.errors import RatingError, RuleSetError
from chessrate.requests.options import OptionInputs, Outcome
from chessrate.requests.problems import Path as FieldPath
from chessrate.requests.problems import Problems

T = TypeVar("T")

KOpt = Annotated[str | None, typer.Option("--k", help="K-factor; default: from the rule set.")]
RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", help="fide (default), elo, ciabe, or a club's FILE.toml."),
]
AsOfOpt = Annotated[
    str | None, typer.Option("--as-of", help="Apply the FIDE rules of this day (YYYY-MM-DD); default today.")
]
ExpectedOpt = Annotated[
    str | None, typer.Option("--expected", help="table (FIDE 8.1.2) or formula (logistic).")
]
NoCapOpt = Annotated[bool, typer.Option("--no-cap", help="Use the real difference: no 400-point rule.")]
BirthYearOpt = Annotated[str | None, typer.Option("--birth-year", help="For the junior K (FIDE 8.3.3).")]
RatedGamesOpt = Annotated[str | None, typer.Option("--rated-games", help="Games rated so far.")]
HighestOpt = Annotated[str | None, typer.Option("--highest-rating", help="Highest published rating.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]

#: The options every Elo command shares, in the order ``--help`` shows them.
RULE_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("k", KOpt),
    ("rules", RulesOpt),
    ("as_of", AsOfOpt),
    ("expected", ExpectedOpt),
    ("no_cap", NoCapOpt),
    ("birth_year", BirthYearOpt),
    ("rated_games", RatedGamesOpt),
    ("highest_rating", HighestOpt),
)


def rule_options(
    *,
    rules: str | None = None,
    as_of: str | None = None,
    expected: str | None = None,
    no_cap: bool = False,
    k: str | None = None,
    birth_year: str | None = None,
    rated_games: str | None = None,
    highest_rating: str | None = None,
) -> OptionInputs:
    """The options as typed; a club's ``FILE.toml`` is read here, its text checked by the request layer."""
    spec = (rules or "fide").strip()
    rules_toml, origin = "", "club rules"
    if spec.lower().endswith(".toml"):
        try:
            rules_toml = Path(spec).read_text(encoding="utf-8")
        except OSError as error:
            raise RuleSetError(f"cannot read rule set file {spec!r}: {error.strerror}") from None
        spec, origin = "custom", spec
    elif spec.lower() == "plain":
        spec = "elo"
    return OptionInputs(
        rules=spec,
        rules_toml=rules_toml,
        rules_origin=origin,
        as_of=as_of or "",
        expected=expected or "rules",
        cap="off" if no_cap else "auto",
        k=k or "",
        birth_year=birth_year or "",
        rated_games=rated_games or "",
        highest_rating=highest_rating or "",
    )


def with_rule_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command the shared rule and K options; it receives them as ``options``."""
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "options"]
    shared = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=annotation,
            default=False if name == "no_cap" else None,
        )
        for name, annotation in RULE_OPTIONS
    ]

    @functools.wraps(command)
    def run(**given: Any) -> None:
        options = rule_options(**{name: given.pop(name) for name, _ in RULE_OPTIONS})
        command(options=options, **given)

    run.__signature__ = inspect.Signature(own + shared)  # type: ignore[attr-defined]
    return run


def result_of(outcome: Outcome[T]) -> T:
    """The outcome's result; else its first problem as the one-line error (exit 2)."""
    if outcome.result is not None and not outcome.problems:
        return outcome.result
    raise RatingError(problem_line(outcome.problems))


#: Fields whose problems name the command line's option instead (``missing --k: ...``).
OPTION_NAMES = {"k": "--k", "players_list": "--players-list", "list_type": "--list-type"}


def problem_line(problems: Problems) -> str:
    """The first problem in a sentence: ``invalid rating 'abc': not a number``."""
    for problem in problems.errors.values():
        field = str(problem.path[0])
        option = OPTION_NAMES.get(field) if len(problem.path) == 1 else None
        if option is None:
            return problem.detail
        if problem.value in ("", None):
            return f"missing {option}: {problem.reason}"
        return f"invalid {option} {problem.value!r}: {problem.reason}"
    if problems.missing:
        return f"missing {field_words(problems.missing[0])}"
    return "nothing to calculate"


def field_words(path: FieldPath) -> str:
    """A field's path for people, counting from 1.

    >>> field_words(("events", 1, "games", 0, "result"))
    'event 2 game 1 result'
    """
    words = []
    for part in path:
        if isinstance(part, int):
            words.append(str(part + 1))
        else:
            words.append({"games": "game", "events": "event"}.get(part, part.replace("_", " ")))
    return " ".join(words)
