"""Every test folder is a package (its ``__init__.py``), up to ``tests``: pytest then imports each
test module, conftest and helper by its dotted name (``tests.web.conftest``,
``tests.formats.trf_oracle``), so that any folders run on one command line (``pytest tests/web
tests/ratinglist`` failed: two modules named ``conftest``, pytest's "import file mismatch"), two
folders may hold modules of one name, and a test imports its neighbours relatively (``from
.test_trf_quirks import ...``), never as top-level modules found on ``sys.path``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_folder_with_tests_or_a_conftest_is_a_package() -> None:
    folders = {path.parent for pattern in ("conftest.py", "test_*.py") for path in TESTS.rglob(pattern)}
    assert folders >= {TESTS, TESTS / "web", TESTS / "ratinglist", TESTS / "formats", TESTS / "systems"}
    for folder in folders:
        # The folder and each one above it up to tests/: a package inside packages.
        for package in (folder, *folder.parents[: len(folder.relative_to(TESTS).parts)]):
            assert (package / "__init__.py").is_file(), package.relative_to(TESTS.parent)
