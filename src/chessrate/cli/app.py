"""The Typer application every command module registers on, and the modules it loads per command.

``chessrate game`` imports only :mod:`chessrate.cli.elo_commands`: :data:`COMMANDS` names the
module of each command, and :class:`CommandsByModule` imports it when the command is asked for
(``--help`` imports them all, to list them).
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from chessrate.cli.language import N_
from chessrate.cli.language import say as _
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


class SaidInLanguage:
    """A command or group whose help is said in the command line's language (:mod:`.language`).

    Its help texts are written in English and marked for the catalogs (``N_``); they are said
    when the command is built, which is after :func:`chessrate.cli.main` has chosen the language.
    Click's and Typer's own words (``Usage:``, ``Options``, ``[required]``) are said here too.
    """

    help: str | None
    short_help: str | None
    params: list[Any]

    def say_help(self) -> None:
        self.help = _(inspect.cleandoc(self.help)) if self.help else self.help
        self.short_help = _(self.short_help) if self.short_help else self.short_help
        for param in self.params:
            if getattr(param, "help", None):
                param.help = _(inspect.cleandoc(param.help))

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage:") + " ")

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):  # type: ignore[attr-defined]
            record = param.get_help_record(ctx)
            if record is not None and param.param_type_name in sections:
                name, text = record
                if "--help" in param.opts or param.name in TYPER_OPTIONS:  # added after __init__
                    text = text.replace(param.help, _(param.help))
                sections[param.param_type_name].append((name, _said_extras(text)))
        for kind, heading in (("argument", _("Arguments")), ("option", _("Options"))):
            if sections[kind]:
                with formatter.section(heading):
                    formatter.write_dl(sections[kind])
        if isinstance(self, TyperGroup):
            self.format_commands(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):  # type: ignore[attr-defined]
            command = self.get_command(ctx, name)  # type: ignore[attr-defined]
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _command in rows)
            with formatter.section(_("Commands")):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])


#: The options Typer adds to the application after it is built, their help said where it is shown.
TYPER_OPTIONS = {"install_completion", "show_completion"}
#: Typer's marks after an option's help: ``[default: elo]``, ``[required]``.
_EXTRAS = re.compile(r"\[(default: (?P<default>[^\]]*)|env var: (?P<var>[^\]]*)|required)\]")


def _said_extras(text: str) -> str:
    def said(mark: re.Match[str]) -> str:
        if mark["default"] is not None:
            return "[" + _("default: %(default)s", default=mark["default"]) + "]"
        if mark["var"] is not None:
            return "[" + _("env var: %(var)s", var=mark["var"]) + "]"
        return "[" + _("required") + "]"

    return _EXTRAS.sub(said, text)


class Group(SaidInLanguage, TyperGroup):
    """A group of commands (``chessrate list``) whose help is said in the command line's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.say_help()


class CommandsByModule(Group):
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


class Command(SaidInLanguage, TyperCommand):
    """A command whose arguments may be negative numbers, with a plain usage line.

    ``chessrate game -1500 1700 1`` reaches the rating's check (``invalid rating '-1500'``)
    instead of Click's ``No such option: -1``; an unknown option is still refused by name. Every
    argument and option value has a metavar (``RATING``, ``--k K``; by default its name in
    capitals), so the usage line and ``--help`` read ``RATING OPPONENT RESULT``, never ``<str>``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.say_help()
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
            if not isinstance(group.cls, type) or group.cls is TyperGroup:  # None, or Typer's default
                group.cls = Group
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
    help=N_("Chess ratings as your federation, club or online platform computes them, with the working."),
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


def _check_language(given: str | None) -> str | None:
    """``--lang`` is one of the catalogs' languages; :func:`chessrate.cli.main` has already used it."""
    from chessrate.service.language import LANGUAGES

    if given is not None and given.strip().lower() not in LANGUAGES:
        from chessrate.errors import InvalidInputError

        raise InvalidInputError("--lang", given, _("use es, ca or en"))
    return given


@app.callback()
def chessrate(
    show_version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help=N_("Print the version and exit.")
    ),
    lang: str | None = typer.Option(
        None,
        "--lang",
        metavar="es|ca|en",
        callback=_check_language,
        help=N_(
            "The language of the output and the help: es, ca or en; default: the environment's "
            "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."
        ),
    ),
) -> None:
    """Chess ratings as your federation, club or online platform computes them, with the working."""
