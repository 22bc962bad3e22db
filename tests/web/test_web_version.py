"""One version: pyproject.toml's, read from the package metadata by the package, the API and the pages."""

from __future__ import annotations

import tomllib
from pathlib import Path

from fastapi.testclient import TestClient

import chessrate

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_version_is_pyprojects_everywhere(client: TestClient) -> None:
    written = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    assert chessrate.__version__ == written
    assert client.get("/openapi.json").json()["info"]["version"] == written
    assert f"chessrate {written}</p>" in client.get("/?lang=en").text
