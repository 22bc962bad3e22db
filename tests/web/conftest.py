"""Fixtures of the web tests: the app with a fixed day, a TestClient."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from chessrate.web import WebSettings, create_app

#: A day under the FIDE rules of 1 October 2025 (cap only below 2650), fixed so tests do not age.
TODAY = dt.date(2025, 12, 1)


@pytest.fixture(scope="session")
def settings() -> WebSettings:
    return WebSettings(today=lambda: TODAY)


@pytest.fixture(scope="session")
def app(settings: WebSettings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    """A client of its own for each test: no language cookie carried over."""
    return TestClient(app)
