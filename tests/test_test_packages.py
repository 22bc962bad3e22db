"""Every test folder holding a conftest.py is a package (its ``__init__.py``), up to ``tests``: pytest
then imports each conftest and helper by its dotted name (``tests.web.conftest``), so that any
folders run on one command line (``pytest tests/web tests/ratinglist`` failed: two modules named
``conftest``, pytest's "import file mismatch")."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_folder_with_a_conftest_is_a_package() -> None:
    folders = {path.parent for path in TESTS.rglob("conftest.py")}
    assert folders >= {TESTS, TESTS / "web", TESTS / "ratinglist"}
    for folder in folders:
        # The folder and each one above it up to tests/: a package inside packages.
        for package in (folder, *folder.parents[: len(folder.relative_to(TESTS).parts)]):
            assert (package / "__init__.py").is_file(), package.relative_to(TESTS.parent)
