"""Every rating system chessrate rates by, in one place: its name, title, the module of its maths,
and the command and web page that show it.

Plain text only: importing this module imports no system (the command line reads it at start-up to
find a command's module). A new system is one new folder under ``chessrate/systems/`` plus its
line here (docs/architecture.md, "Adding a federation", works it through for the ECF).
"""

from __future__ import annotations

from typing import NamedTuple


class RatingSystem(NamedTuple):
    """One rating system and the faces that show it."""

    #: The system's short name, as the points at stake and the documents name it.
    name: str
    title: str
    #: The module of its maths (``chessrate.systems.*``): nothing of files, the web or a database.
    module: str
    #: The module of the command line that registers its ``commands`` (``chessrate.cli.*``).
    cli_module: str
    commands: tuple[str, ...]
    #: The web calculator's pages that show it.
    pages: tuple[str, ...]
    #: Where its rules are published.
    source: str


#: In the order the command line's ``--help`` lists their commands.
SYSTEMS: tuple[RatingSystem, ...] = (
    RatingSystem(
        "elo",
        "Elo, under FIDE's rating regulations or a club's rules",
        "chessrate.systems.elo.calculate",
        "chessrate.cli.elo_commands",
        ("game", "tournament", "games", "period", "k-factor", "performance", "initial", "table"),
        ("/game", "/average", "/tournament", "/period", "/k-factor", "/performance"),
        "FIDE Handbook B.02 (chessrate.systems.fide)",
    ),
    RatingSystem(
        "glicko",
        "Glicko (Glicko-1)",
        "chessrate.systems.glicko.glicko1",
        "chessrate.cli.glicko_commands",
        ("glicko",),
        (),
        "Glickman, The Glicko system (glicko.pdf)",
    ),
    RatingSystem(
        "chesscom",
        "Chess.com's Glicko (an estimate)",
        "chessrate.systems.glicko.chesscom",
        "chessrate.cli.glicko_commands",
        ("glicko",),
        ("/chesscom",),
        "Chess.com's help pages (docs/systems.md)",
    ),
    RatingSystem(
        "glicko2",
        "Glicko-2",
        "chessrate.systems.glicko.glicko2",
        "chessrate.cli.glicko_commands",
        ("glicko2",),
        ("/glicko",),
        "Glickman, Example of the Glicko-2 system (glicko2.pdf)",
    ),
    RatingSystem(
        "lichess",
        "Lichess's Glicko-2",
        "chessrate.systems.glicko.lichess",
        "chessrate.cli.glicko_commands",
        ("glicko2",),
        ("/glicko",),
        "lila and scalachess (docs/glicko.md)",
    ),
    RatingSystem(
        "dwz",
        "DWZ (Deutscher Schachbund)",
        "chessrate.systems.dwz.rating",
        "chessrate.cli.system_commands",
        ("dwz",),
        ("/dwz",),
        "DSB Wertungsordnung",
    ),
    RatingSystem(
        "uscf",
        "US Chess",
        "chessrate.systems.uscf.rating",
        "chessrate.cli.system_commands",
        ("uscf",),
        ("/uscf",),
        "The US Chess Rating System (Glickman et al.)",
    ),
    RatingSystem(
        "ecf",
        "ECF (English Chess Federation)",
        "chessrate.systems.ecf.rating",
        "chessrate.cli.system_commands",
        ("ecf",),
        ("/ecf",),
        "ECF rating system",
    ),
)


def system_commands() -> dict[str, str]:
    """Each system's command and the command-line module that registers it, in :data:`SYSTEMS`' order."""
    return {command: system.cli_module for system in SYSTEMS for command in system.commands}


def rating_system(name: str) -> RatingSystem:
    """The system of that name (``KeyError`` for none)."""
    for system in SYSTEMS:
        if system.name == name:
            return system
    raise KeyError(name)
