"""The package's public names, imported when first asked for (``chessrate/__init__.py``, PEP 562)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import chessrate

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_and_module_is_reachable() -> None:
    for name in chessrate.__all__:
        assert getattr(chessrate, name) is not None, name
    assert chessrate.systems.elo.calculate.rate_game is chessrate.rate_game
    assert chessrate.systems.fide.__name__ == "chessrate.systems.fide"
    assert set(chessrate.__all__) <= set(dir(chessrate))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = chessrate.nope


def test_importing_the_package_does_not_import_the_rating_core() -> None:
    code = "import sys, chessrate.errors; print('chessrate.systems.elo.calculate' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert done.stdout.strip() == "False"


def test_a_player_is_one_identity_record_everywhere() -> None:
    from chessrate.identity import PlayerIdentity
    from chessrate.ratinglist.queries import ListRow, PlayerView
    from chessrate.tournament.report import PlayerReport

    for record in (ListRow, PlayerView, PlayerReport):
        assert issubclass(record, PlayerIdentity), record
        declared_again = set(vars(record)["__annotations__"]) & set(PlayerIdentity.__annotations__)
        assert not declared_again, (record, declared_again)


def test_no_public_name_clashes_with_another_of_the_same_name() -> None:
    # One entry per system at the top; a name that another public module also exports is that
    # same object (``chessrate.EloGame`` is the Elo calculator's game, ``chessrate.formats.Game``
    # a file's game: they no longer share a name).
    import chessrate.formats

    for name in set(chessrate.__all__) & set(chessrate.formats.__all__):
        assert getattr(chessrate, name) is getattr(chessrate.formats, name), name
    assert "Game" not in chessrate.__all__
    assert "rate_period" not in chessrate.__all__
    for system in ("elo", "glicko", "glicko2", "dwz", "uscf", "ecf", "lichess", "chesscom"):
        assert any(system in name.lower() for name in chessrate.__all__), system


def test_importing_the_package_imports_no_rating_system() -> None:
    code = "import sys, chessrate; print(sorted(m for m in sys.modules if m.startswith('chessrate.')))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src")},
    )
    assert done.stdout.strip() == "[]"


def test_all_is_every_public_name() -> None:
    assert set(chessrate.__all__) == {"__version__", *chessrate._HOMES}
