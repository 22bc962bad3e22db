"""The systems' registry (chessrate.systems.registry) names what the code has: each system's maths
module, its commands on the command line and its pages on the web."""

from __future__ import annotations

import importlib

from chessrate.cli.app import COMMANDS
from chessrate.systems.registry import SYSTEMS, rating_system
from chessrate.web.calculator_pages import MODES


def test_every_system_is_a_module_with_its_command_and_page() -> None:
    pages = {mode.path for mode in MODES}
    for system in SYSTEMS:
        assert importlib.import_module(system.module).__name__.startswith("chessrate.systems."), system
        for command in system.commands:
            assert COMMANDS[command] == system.cli_module, (system.name, command)
        assert set(system.pages) <= pages, (system.name, set(system.pages) - pages)


def test_the_names_are_the_issue_s_systems() -> None:
    names = [system.name for system in SYSTEMS]
    assert names == ["elo", "glicko", "chesscom", "glicko2", "lichess", "dwz", "uscf", "ecf"]
    assert rating_system("ecf").module == "chessrate.systems.ecf.rating"
