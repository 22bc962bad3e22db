"""The Typer application every command module registers on, and the modules it loads per command.

``chessrate game`` imports only :mod:`chessrate.cli.elo_commands`: :data:`COMMANDS` names the
module of each command, and :class:`CommandsByModule` imports it when the command is asked for
(``--help`` imports them all, to list them).
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
from typer.core import TyperGroup

#: Each command and the module that registers it on :data:`app`, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "game": "chessrate.cli.elo_commands",
    "tournament": "chessrate.cli.elo_commands",
    "games": "chessrate.cli.elo_commands",
    "period": "chessrate.cli.elo_commands",
    "k-factor": "chessrate.cli.elo_commands",
    "performance": "chessrate.cli.elo_commands",
    "initial": "chessrate.cli.elo_commands",
    "table": "chessrate.cli.elo_commands",
    "glicko": "chessrate.cli.glicko_commands",
    "glicko2": "chessrate.cli.glicko_commands",
    "dwz": "chessrate.cli.system_commands",
    "uscf": "chessrate.cli.system_commands",
    "ecf": "chessrate.cli.system_commands",
    "convert": "chessrate.cli.system_commands",
    "stakes": "chessrate.cli.system_commands",
    "report": "chessrate.cli.report_commands",
    "analyse": "chessrate.cli.strength_commands",
    "strength": "chessrate.cli.strength_commands",
    "list": "chessrate.cli.list_commands",
    "serve": "chessrate.cli.web_commands",
}


class CommandsByModule(TyperGroup):
    """A group that imports a command's module only when that command is run."""

    # ``Any``: Typer's Context and Command are of the Click it vendors (``typer._click``).
    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        importlib.import_module(module)
        group = typer.main.get_group(app)  # built again with what is now registered
        return group.commands.get(cmd_name)


app = typer.Typer(
    name="chessrate",
    cls=CommandsByModule,
    help="Chess ratings as your federation, club or online platform computes them, with the working.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def chessrate() -> None:
    """Chess ratings as your federation, club or online platform computes them, with the working."""
