"""The browser assets, installed from the npm registry (``npm ci``) and served from the package.

``scripts/vendor_assets.py`` copies each file of :data:`VENDOR_FILES` from ``node_modules/`` into
``static/vendor/``; nothing is fetched from another host. Without them the calculator still works
by submitting the form, and says which file is missing.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: Served name -> path under ``node_modules/`` (versions pinned in package-lock.json).
VENDOR_FILES: dict[str, str] = {
    "htmx.min.js": "htmx.org/dist/htmx.min.js",
    "uPlot.iife.min.js": "uplot/dist/uPlot.iife.min.js",
    "uPlot.min.css": "uplot/dist/uPlot.min.css",
    # The API's /docs page (FastAPI's default would load these from a CDN).
    "swagger-ui-bundle.js": "swagger-ui-dist/swagger-ui-bundle.js",
    "swagger-ui.css": "swagger-ui-dist/swagger-ui.css",
}

INSTALL_HINT = "run `npm ci --ignore-scripts` and `python scripts/vendor_assets.py` at the repository root"


def static_dir() -> Path:
    return Path(str(resources.files("chessrate.web").joinpath("static")))


def missing_assets(static: Path) -> list[str]:
    """The vendor files not installed under ``static/vendor``."""
    return [name for name in VENDOR_FILES if not (static / "vendor" / name).is_file()]
