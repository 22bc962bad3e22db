"""The ``chessrate`` command line: parse arguments, call the request layer, render the result.

Errors in the user's input print one line on stderr and exit with code 2, never a traceback. The
language (``--lang``, else the environment's, else English: :mod:`chessrate.cli.language`) is
chosen before the command is built, so that its help, its output and its errors are said in it.
"""

from __future__ import annotations

import re
import sys

import typer
from typer._click.exceptions import MissingParameter, NoArgsIsHelpError  # Typer's own Click

from chessrate.cli.app import app
from chessrate.cli.language import N_, chosen_language, lang_first, use, words
from chessrate.cli.language import say as _
from chessrate.errors import CodedError, InvalidInputError, RatingError


def main(argv: list[str] | None = None) -> None:
    """Run the command line; the exit code is 2 for any bad input."""
    args = lang_first(sys.argv[1:] if argv is None else argv)
    use(chosen_language(args))
    try:
        app(args=args, prog_name="chessrate", standalone_mode=False)
    except InvalidInputError as error:
        fail(invalid_line(error))
    except CodedError as error:
        fail(coded_line(error))
    except RatingError as error:
        fail(str(error))
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.Abort:
        sys.stderr.write("chessrate: aborted\n")
        sys.exit(130)
    except NoArgsIsHelpError as asked:  # "chessrate", "chessrate list": the help, as with --help
        sys.stdout.write(asked.format_message() + "\n")
    except MissingParameter as missing:  # "missing OPPONENT (the opponent's rating)"
        fail(missing_words(missing))
    except typer.TyperException as error:  # usage errors: unknown option, missing argument
        fail(click_words(" ".join(str(error).split())))


def invalid_line(error: InvalidInputError) -> str:
    """``invalid FIELD 'VALUE': REASON``, the field and the reason in the command line's language."""
    from chessrate.cli.options import field_label

    if words().language == "en":  # the library's own words
        return str(error)
    return _(
        "invalid %(field)s %(value)s: %(reason)s",
        field=field_label(error.field),
        value=repr(error.value),
        reason=_reason(error.code, error.params, error.reason),
    )


def coded_line(error: CodedError) -> str:
    """A refusal with its code, said in the command line's language (English: the library's words)."""
    if words().language == "en":
        return str(error)
    return _reason(error.code, error.params, str(error))


def _reason(code: str, params: dict[str, object], reason: str) -> str:
    """The reason from its code in the language; without one, as raised (the command line's own
    reasons are said in the language where they are raised)."""
    if code:
        from chessrate.service.problems import input_reason

        return input_reason(code, params, reason, words())
    return reason


#: Click's usage errors (English in its code), each said from the catalogs; the English as Click's.
CLICK_ERRORS = (
    (re.compile(r"No such option: (?P<name>\S+)(?P<rest>.*)"), N_("No such option: %(name)s")),
    (re.compile(r"No such command '(?P<name>.*)'\.(?P<rest>)"), N_("No such command '%(name)s'.")),
    (
        re.compile(r"Got unexpected extra arguments? \((?P<name>.*)\)(?P<rest>)"),
        N_("Got unexpected extra argument(s) (%(name)s)"),
    ),
    (
        re.compile(r"Option '(?P<name>[^']*)' requires an argument\.(?P<rest>)"),
        N_("Option '%(name)s' requires an argument."),
    ),
    (
        re.compile(r"Option '(?P<name>[^']*)' does not take a value\.(?P<rest>)"),
        N_("Option '%(name)s' does not take a value."),
    ),
)


def click_words(message: str) -> str:
    """A usage error of Click in the command line's language (``No such option: --x``); others as said."""
    for pattern, template in CLICK_ERRORS:
        if found := pattern.match(message):
            said = _(template, name=found["name"])
            # Click's "Did you mean --k?" is English: kept in English only.
            return said + found["rest"] if words().language == "en" else said
    return message


def missing_words(missing: MissingParameter) -> str:
    """The argument or option left out, as ``--help`` names it, with its help."""
    param = missing.param
    if param is None:
        return " ".join(missing.format_message().split())
    label = param.metavar if param.param_type_name == "argument" and param.metavar else "/".join(param.opts)
    help_text = (getattr(param, "help", None) or "").strip().rstrip(".")
    first = help_text.split()[0] if help_text else ""
    if len(first) == 1 or not first.isupper():  # "Your rating": "your rating"; "OPPONENT:RESULT…" stays
        help_text = help_text[:1].lower() + help_text[1:]
    if help_text:
        return _("missing %(name)s (%(help)s)", name=label, help=help_text)
    return _("missing %(name)s", name=label)


def fail(message: str) -> None:
    sys.stderr.write(_("chessrate: error: %(message)s", message=message) + "\n")
    sys.exit(2)


__all__ = ["app", "main"]
