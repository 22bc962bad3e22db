"""The ``chessrate`` command line: parse arguments, call the request layer, render the result.

Errors in the user's input print one line on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

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
    except typer.TyperException as error:  # usage errors: unknown option, missing argument
        fail(" ".join(str(error).split()))


def fail(message: str) -> None:
    sys.stderr.write(f"chessrate: error: {message}\n")
    sys.exit(2)


__all__ = ["app", "main"]
