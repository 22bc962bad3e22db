"""The Typer application every command module registers on, and the modules it loads per command.

``chessrate game`` imports only :mod:`chessrate.cli.elo_commands`: :data:`COMMANDS` names the
module of each command, and :class:`CommandsByModule` imports it when the command is asked for
(``--help`` imports them all, to list them).
"""

from __future__ import annotations

import importlib
import re
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from chessrate.systems.registry import system_commands

#: Each command and the module that registers it on :data:`app`, in the order ``--help`` lists them:
#: the rating systems' commands as :mod:`chessrate.systems.registry` names them, then the others.
COMMANDS: dict[str, str] = {
    **system_commands(),
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
        return _build(cmd_name)


#: A negative number: an argument (a rating refused by name), not an option.
NEGATIVE_NUMBER = re.compile(r"-\d[\d.,]*")


class Command(TyperCommand):
    """A command whose arguments may be negative numbers, with a plain usage line.

    ``chessrate game -1500 1700 1`` reaches the rating's check (``invalid rating '-1500'``)
    instead of Click's ``No such option: -1``; an unknown option is still refused by name. Every
    argument and option value has a metavar (``RATING``, ``--k K``; by default its name in
    capitals), so the usage line and ``--help`` read ``RATING OPPONENT RESULT``, never ``<str>``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            flag = getattr(param, "is_flag", False) or getattr(param, "count", False)
            if param.metavar is None and not flag:
                param.metavar = (param.name or "").upper().replace("_", "-")

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        before_end = args[: args.index("--")] if "--" in args else args
        if any(NEGATIVE_NUMBER.fullmatch(arg) for arg in before_end):
            known = {name for param in self.get_params(ctx) for name in param.opts + param.secondary_opts}
            for arg in before_end:
                if (
                    arg.startswith("-")
                    and not NEGATIVE_NUMBER.fullmatch(arg)
                    and arg.split("=")[0] not in known
                ):
                    ctx.fail(f"No such option: {arg}")
            ctx.ignore_unknown_options = True  # Click then leaves "-1500" among the arguments
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name != "argument":
                continue
            name = param.metavar or ""
            name += "..." if param.nargs != 1 and not name.endswith("...") else ""
            pieces.append(name if param.required else f"[{name}]")
        return pieces


def _build(name: str) -> Any:
    """The Click command ``name``, built from what its module registered on :data:`app` (only it)."""
    for command in app.registered_commands:
        if name == (command.name or typer.main.get_command_name(command.callback.__name__)):  # type: ignore[union-attr]
            if command.cls in (None, TyperCommand):  # not a class of its own
                command.cls = Command
            return typer.main.get_command_from_info(
                command,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
    for group in app.registered_groups:
        if group.name == name:
            for command in group.typer_instance.registered_commands if group.typer_instance else ():
                if command.cls in (None, TyperCommand):
                    command.cls = Command
            return typer.main.get_group_from_info(
                group,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
                suggest_commands=app.suggest_commands,
            )
    return None


app = typer.Typer(
    name="chessrate",
    cls=CommandsByModule,
    help="Chess ratings as your federation, club or online platform computes them, with the working.",
    no_args_is_help=True,
    # --install-completion and --show-completion for bash, zsh, fish and PowerShell (README)
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(asked: bool) -> None:
    if asked:
        import chessrate as package  # its __version__ reads the metadata only when asked

        typer.echo(f"chessrate {package.__version__}")
        raise typer.Exit


@app.callback()
def chessrate(
    show_version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Chess ratings as your federation, club or online platform computes them, with the working."""
