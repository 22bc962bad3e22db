"""The command line's language: ``--lang``, else the environment as gettext reads it, else English.

:func:`main <chessrate.cli.main>` calls :func:`use` with :func:`chosen_language` of the arguments
and the environment before Typer builds a command, so every word the command says, its help
included, comes from the same catalogs as the web (``web/locale``), through one
:class:`~chessrate.service.language.Translator`. A help text is written in English, marked with
:func:`N_` for the catalogs, and said in the language when its command is built
(:mod:`chessrate.cli.app`). A sentence said while a command runs is ``say("...")``, imported as
``_`` (the name the catalogs' extraction looks for).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from chessrate.errors import N_ as N_  # re-exported: a help text marked for the catalogs, said by say()
from chessrate.service.language import (
    ENGLISH,
    LANGUAGES,
    Translator,
    language_of_environment,
    translator,
)

#: The translator of the running command line (English until :func:`use` says otherwise).
_said: list[Translator] = [ENGLISH]


def use(language: str) -> Translator:
    """Say everything from now on in ``language`` (``en``, ``es``, ``ca``)."""
    _said[0] = translator(language)
    return _said[0]


def words() -> Translator:
    """The translator of the running command line."""
    return _said[0]


def say(message: str, /, **values: object) -> str:
    """``message`` in the command line's language, with its ``%(name)s`` values."""
    text = _said[0].catalog.gettext(message)
    return text % values if values else text


def lang_first(argv: Sequence[str]) -> list[str]:
    """``argv`` with a ``--lang`` given after the command's name moved before it, where it belongs.

    ``chessrate game 1500 1700 1 --lang es`` is read as ``chessrate --lang es game 1500 1700 1``;
    nothing after ``--`` is looked at, and a ``--lang`` already before the command stays there.
    """
    args = list(argv)
    if lang_argument(args) is not None:
        return args
    for place, arg in enumerate(args):
        if arg == "--":
            break
        if arg.startswith("--lang="):
            return [arg, *args[:place], *args[place + 1 :]]
        if arg == "--lang" and place + 1 < len(args):
            return [arg, args[place + 1], *args[:place], *args[place + 2 :]]
    return args


def lang_argument(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` among the global options (before the command's name), if given."""
    for place, arg in enumerate(argv):
        if arg == "--":
            return None
        if arg == "--lang":
            return argv[place + 1] if place + 1 < len(argv) else None
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if not arg.startswith("-"):  # the command: its own options follow
            return None
    return None


def chosen_language(argv: Sequence[str], environ: Mapping[str, str] = os.environ) -> str:
    """``--lang`` if it names a language of the catalogs, else the environment's, else English.

    A ``--lang`` value that is no such language leaves the choice to the environment, and the
    option's own check then refuses it in that language (:func:`chessrate.cli.app.chessrate`).
    """
    given = (lang_argument(argv) or "").strip().lower()
    if given in LANGUAGES:
        return given
    return language_of_environment(environ)


#: Typer's and Click's own words in the help, said from the catalogs (Click's ``gettext`` has no
#: catalog of ours; :mod:`chessrate.cli.app` says these where Click would).
CLICK_WORDS = (
    N_("Usage:"),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("required"),
    N_("default: %(default)s"),
    N_("env var: %(var)s"),
    N_("Show this message and exit."),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
)
