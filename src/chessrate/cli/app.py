"""The Typer application every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="chessrate",
    help="Chess ratings as your federation, club or online platform computes them, with the working.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
