"""chessrate's build backend: setuptools, once the web calculator's browser assets are in place.

A wheel without htmx, uPlot and Swagger UI serves pages that no longer update as you type, without
charts, and a ``/docs`` without its UI. So before a wheel or an sdist is built, every file of
``chessrate.web.assets.VENDOR_FILES`` must be in ``src/chessrate/web/static/vendor``:

- in a checkout they are copied from ``node_modules`` after ``npm ci`` (the versions pinned by
  ``package-lock.json``, from the npm registry), by ``scripts/vendor_assets.py``;
- an sdist ships them, so a wheel built from it needs no npm.

When they cannot be put in place (no npm, ``npm ci`` fails), the build stops and says why: never a
silent half wheel. Editable installs (``make setup``) are left to ``make assets``.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

from setuptools import build_meta  # type: ignore[import-untyped]
from setuptools.build_meta import (  # type: ignore[import-untyped]  # noqa: F401  (the other hooks)
    build_editable,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent


class AssetsMissing(RuntimeError):
    """The browser assets are not in the package and cannot be vendored here."""


def _load(path: Path) -> ModuleType:
    """A module of the tree by its path, without importing the chessrate package (its web
    package needs FastAPI, which the build environment does not have)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise AssetsMissing(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def vendored_assets() -> None:
    """Every vendor file in ``static/vendor``, after ``npm ci`` when some are missing."""
    vendor = _load(ROOT / "scripts" / "vendor_assets.py")
    if not vendor.missing_files(ROOT):
        return
    npm = shutil.which("npm")
    if npm is None or not (ROOT / "package-lock.json").is_file():
        why = "npm is not installed (apt-get install npm)" if npm is None else "package-lock.json is missing"
        raise AssetsMissing(
            f"the web assets (htmx, uPlot, Swagger UI) are missing and cannot be installed: {why}"
        )
    command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise AssetsMissing(f"`npm ci` failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    if vendor.main() != 0 or (missing := vendor.missing_files(ROOT)):
        raise AssetsMissing(f"the web assets are still missing after `npm ci`: {', '.join(missing)}")


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, object] | None = None,
    metadata_directory: str | None = None,
) -> str:
    vendored_assets()
    return str(build_meta.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: dict[str, object] | None = None) -> str:
    vendored_assets()
    return str(build_meta.build_sdist(sdist_directory, config_settings))
