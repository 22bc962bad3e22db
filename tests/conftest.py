"""Shared test helpers."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from chessrate.cli import main
from chessrate.cli.language import use

# The property tests check properties, not speed: on a shared 2-core machine a slow draw is no
# failure (no deadline, no too_slow health check). CI runs them derandomized, so that a run can be
# repeated exactly; locally they explore new examples each time.
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("local", parent=UNTIMED)
settings.register_profile("ci", parent=UNTIMED, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: with two workers one of them starts the minutes-long refit at once
    while the other takes the rest, rather than the refit starting late and the run waiting for it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """The command line's language is the process's (``--lang`` sets it for what follows): a test that
    ran a command in Spanish or Catalan leaves English behind, so that the library's doctests, which
    run on the same worker, read as written."""
    yield
    use("en")


class CliRun:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``chessrate ARGS...``; returns exit code, stdout and stderr. Tables are drawn 120 wide
    whatever the terminal the tests run in (``COLUMNS``)."""
    monkeypatch.setenv("COLUMNS", "120")

    def run(*args: str) -> CliRun:
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
        captured = capsys.readouterr()
        return CliRun(code, captured.out, captured.err)

    return run


@pytest.fixture
def fake_engine(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> str:
    """tests/analysis/fake_engine.py as the engine found by default (``engine.DEFAULT_ENGINE``);
    ``FAKE_ENGINE_DIES_ON`` and ``FAKE_ENGINE_SLOW`` (monkeypatch.setenv) set how it behaves."""
    import sys
    from pathlib import Path

    script = Path(__file__).parent / "analysis" / "fake_engine.py"
    path = tmp_path_factory.mktemp("engine") / "fakefish"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n', encoding="utf-8")
    path.chmod(0o755)
    monkeypatch.setattr("chessrate.analysis.engine.DEFAULT_ENGINE", str(path))
    monkeypatch.delenv("FAKE_ENGINE_DIES_ON", raising=False)
    monkeypatch.delenv("FAKE_ENGINE_SLOW", raising=False)
    return str(path)
