"""The ``chessrate`` command line: parse arguments, call the library, render the result.

Errors in the user's input print one line on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import sys

import click

from chessrate.cli import elo_commands  # noqa: F401  (registers the commands)
from chessrate.cli.app import app
from chessrate.errors import RatingError


def main(argv: list[str] | None = None) -> None:
    """Run the command line; the exit code is 2 for any bad input."""
    command = typer_main_command()
    try:
        command.main(args=argv, prog_name="chessrate", standalone_mode=False)
    except RatingError as error:
        sys.stderr.write(f"chessrate: error: {error}\n")
        sys.exit(2)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        sys.stderr.write(f"chessrate: error: {error.format_message()}\n")
        sys.exit(2)
    except click.exceptions.Abort:
        sys.stderr.write("chessrate: aborted\n")
        sys.exit(130)


def typer_main_command() -> click.Command:
    import typer.main

    return typer.main.get_command(app)


__all__ = ["app", "main"]
