"""The options every Elo command shares, and the request layer's problems as one line.

:func:`with_rule_options` gives a command ``--k``, ``--rules``, ``--as-of``, ``--expected``,
``--no-cap`` and the player's profile, and hands them to it as one
:class:`~chessrate.service.options.OptionInputs`: the web form and the API build the same.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from chessrate.cli.language import N_
from chessrate.cli.language import say as _
from chessrate.errors import InvalidInputError, RatingError
from chessrate.service.language import Translator
from chessrate.service.options import OptionInputs, Outcome
from chessrate.service.problems import Path as FieldPath
from chessrate.service.problems import Problem, Problems

T = TypeVar("T")

KOpt = Annotated[
    str | None, typer.Option("--k", metavar="K", help=N_("K-factor; default: from the rule set."))
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="NAME|FILE.toml",
        help=N_("fide (default), fide-rapid, fide-blitz, elo, ciabe, or a club's FILE.toml."),
    ),
]
AsOfOpt = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="YYYY-MM-DD",
        help=N_("Apply the FIDE rules of this day (YYYY-MM-DD); default today."),
    ),
]
ExpectedOpt = Annotated[
    str | None,
    typer.Option("--expected", metavar="table|formula", help=N_("table (FIDE 8.1.2) or formula (logistic).")),
]
NoCapOpt = Annotated[bool, typer.Option("--no-cap", help=N_("Use the real difference: no 400-point rule."))]
BirthYearOpt = Annotated[
    str | None, typer.Option("--birth-year", metavar="YEAR", help=N_("For the junior K (FIDE 8.3.3)."))
]
RatedGamesOpt = Annotated[
    str | None, typer.Option("--rated-games", metavar="N", help=N_("Games rated so far."))
]
HighestOpt = Annotated[
    str | None, typer.Option("--highest-rating", metavar="RATING", help=N_("Highest published rating."))
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print the result as JSON."))]

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


def texts(**given: str | None) -> dict[str, str]:
    """The options as the request layer takes them, a form's fields: one left out is blank."""
    return {name: text or "" for name, text in given.items()}


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
    for name, given in (("--rules", rules), ("--as-of", as_of), ("--k", k), ("--expected", expected)):
        if given is not None and not given.strip():
            raise InvalidInputError(name, given, _("empty: leave the option out for its default"))
    spec = (rules or "fide").strip()
    rules_toml, origin = "", "club rules"
    if spec.lower().endswith(".toml"):
        from chessrate.cli.files import checked_file
        from chessrate.formats.text import decode  # only for a club file: the readers are not loaded
        from chessrate.service.tournament_file import MAX_SMALL_FILE
        from chessrate.systems.elo.presets import unreadable_rules_file

        if Path(spec).exists():
            checked_file(Path(spec), "--rules", MAX_SMALL_FILE)
        try:
            rules_toml = decode(Path(spec).read_bytes())[0]  # UTF-8, else Windows-1252, as the readers
        except OSError as error:
            raise unreadable_rules_file(spec, error) from None
        spec, origin = "custom", spec
    elif spec.lower() == "plain":
        spec = "elo"
    return OptionInputs(
        rules=spec,
        rules_toml=rules_toml,
        rules_origin=origin,
        expected=expected or "rules",
        cap="off" if no_cap else "auto",
        **texts(
            as_of=as_of, k=k, birth_year=birth_year, rated_games=rated_games, highest_rating=highest_rating
        ),
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


#: The command line's name of each field of the request layer (other fields: their own name).
OPTION_NAMES = {
    "as_of": "--as-of",
    "k": "--k",
    "rules": "--rules",
    "rules_toml": "--rules",
    "expected": "--expected",
    "cap": "--no-cap",
    "birth_year": "--birth-year",
    "rated_games": "--rated-games",
    "highest_rating": "--highest-rating",
    "games_this_period": "--games-this-period",
    "points": "--points",
    "average": "--average",
    "rounding": "--round-per-tournament",
    "k_file": "--k-file",
    "strict": "--strict",
    "players_list": "--players-list",
    "list_type": "--list-type",
}


def result_of(outcome: Outcome[T], names: dict[str, str] | None = None) -> T:
    """The outcome's result; else its first problem as the one-line error (exit 2).

    A field is named by the running command's option of the same name (``games_played``:
    ``--games-played``), by :data:`OPTION_NAMES`, or by ``names`` (``{"games": "--games"}``).
    """
    if outcome.result is not None and not outcome.problems:
        return outcome.result
    raise RatingError(problem_line(outcome.problems, {**command_options(), **OPTION_NAMES, **(names or {})}))


def command_options() -> dict[str, str]:
    """The running command's options by parameter name: ``{"games_played": "--games-played"}``."""
    from typer._click.globals import get_current_context  # Typer's own Click: no public name

    try:
        command = get_current_context().command
    except RuntimeError:  # not inside a command (a test calling result_of)
        return {}
    return {
        param.name: param.opts[0]
        for param in command.params
        if param.param_type_name == "option" and param.name and param.opts
    }


def problem_line(problems: Problems, names: dict[str, str] | None = None) -> str:
    """The first problem in a sentence that names the option or argument at fault.

    >>> from chessrate.service.language import ENGLISH
    >>> problems = Problems(ENGLISH)
    >>> problems.add(("as_of",), "yesterday", "a date is written YYYY-MM-DD")
    >>> problem_line(problems, OPTION_NAMES)
    "invalid --as-of 'yesterday': a date is written YYYY-MM-DD"
    """
    names = names or {}
    for path, problem in problems.errors.items():
        reason = said_reason(problem, problems.t)
        if problem.detail is not None:  # the library's whole sentence: in English, else its reason
            return problem.detail if problems.t.language == "en" else reason
        label = field_words(path, names)
        if problem.value is None or problem.value == "":  # not given: say which option to give
            return _("missing %(field)s: %(reason)s", field=label, reason=reason)
        return _(
            "invalid %(field)s %(value)s: %(reason)s", field=label, value=repr(problem.value), reason=reason
        )
    if problems.missing:
        return _("missing %(field)s", field=field_words(problems.missing[0], names))
    return _("nothing to calculate")


def said_reason(problem: Problem, t: Translator) -> str:
    """Why the field was refused, in ``t``'s language: from the error's code; a reason the request
    layer says in English only (no code) is said by the field's own message, as the web shows it."""
    if t.language == "en":  # the library's own words
        return problem.reason
    said = problem.said or problem.reason
    return said if said != problem.reason else problem.message


#: A game's fields as the command line's GAME argument names them.
GAME_FIELDS = {"opponent": N_("opponent rating"), "deviation": N_("opponent deviation")}
#: The fields an error may name by their own name (``invalid rating '-5'``), said from the catalogs.
FIELD_WORDS = (
    N_("event"), N_("format"), N_("rating"), N_("opponent"), N_("result"), N_("table"), N_("file"),
    N_("age"), N_("index"),
    N_("deviation"), N_("volatility"), N_("tau"), N_("level"), N_("points"), N_("games"),
    N_("average"), N_("system"), N_("days idle"), N_("games played"), N_("event end"), N_("c"),
    N_("standard rating"), N_("birth year"), N_("rated games"), N_("highest rating"), N_("start rating"),
    N_("players list"), N_("opponent k"), N_("periods idle"), N_("min deviation"), N_("gain factor"),
)  # fmt: skip
#: The parts of a field's path that have a word of their own: a game, a tournament.
PATH_WORDS = {"games": N_("game"), "events": N_("tournament")}


def field_label(field: str) -> str:
    """A field as an error names it: an option as typed (``--k``), else its words in the language
    (``rating``, ``game 2``, ``opponent rating``)."""
    if field.startswith("-"):
        return field
    return " ".join(part if part.isdigit() else _(part) for part in field.split(" "))


def field_words(path: FieldPath, names: dict[str, str] | None = None) -> str:
    """A field's path for people, counting from 1, options by their names.

    >>> field_words(("events", 1, "games", 0, "result"))
    'tournament 2 game 1 result'
    >>> field_words(("as_of",), OPTION_NAMES)
    '--as-of'
    """
    if len(path) == 1 and names and str(path[0]) in names:
        return names[str(path[0])]
    words = []
    for place, part in enumerate(path):
        if isinstance(part, int):
            words.append(str(part + 1))
        elif place and isinstance(path[place - 1], int) and part in GAME_FIELDS:
            words.append(_(GAME_FIELDS[part]))
        else:
            words.append(_(PATH_WORDS.get(part, part.replace("_", " "))))
    return " ".join(words)
