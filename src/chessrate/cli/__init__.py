"""The ``chessrate`` command line: parse arguments, call the request layer, render the result.

Errors in the user's input print one line on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer
from typer._click.exceptions import MissingParameter, NoArgsIsHelpError  # Typer's own Click

from chessrate.cli.app import app
from chessrate.errors import RatingError


def main(argv: list[str] | None = None) -> None:
    """Run the command line; the exit code is 2 for any bad input."""
    try:
        app(args=argv, prog_name="chessrate", standalone_mode=False)
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
        fail(" ".join(str(error).split()))


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
    return f"missing {label}" + (f" ({help_text})" if help_text else "")


def fail(message: str) -> None:
    sys.stderr.write(f"chessrate: error: {message}\n")
    sys.exit(2)


__all__ = ["app", "main"]
