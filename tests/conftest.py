"""Shared test helpers."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import settings

from chessrate.cli import main

# CI runs the property tests derandomized, so that a run can be repeated exactly; locally they
# explore new examples each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


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
