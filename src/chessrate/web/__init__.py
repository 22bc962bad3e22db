"""The web calculator: FastAPI, Jinja2 templates and htmx, in Spanish, Catalan and English."""

from __future__ import annotations

from chessrate.web.app import create_app
from chessrate.web.site import WebSettings

__all__ = ["WebSettings", "create_app"]
