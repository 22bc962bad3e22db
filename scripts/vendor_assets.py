"""Copy the web calculator's browser assets from node_modules/ into the package.

Run `npm ci` first (it installs the versions pinned in package-lock.json from the npm registry),
then `python scripts/vendor_assets.py`. The files land in src/chessrate/web/static/vendor/
(gitignored) and are served by the app itself: no request leaves the machine. axe-core, which only
the browser tests use, stays in node_modules/ and is never served. The build backend
(build_backend/chessrate_build.py) calls the same code before a wheel or an sdist is built.
"""

from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS_MODULE = Path("src", "chessrate", "web", "assets.py")
TARGET = Path("src", "chessrate", "web", "static", "vendor")


def vendor_files(root: Path = ROOT) -> dict[str, str]:
    """``VENDOR_FILES`` as chessrate.web.assets declares it, read from its source: importing the
    package would need FastAPI, which a build environment does not have."""
    tree = ast.parse((root / ASSETS_MODULE).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "VENDOR_FILES":
            value = ast.literal_eval(node.value) if node.value is not None else None
            if isinstance(value, dict):
                return {str(name): str(source) for name, source in value.items()}
    raise SystemExit(f"no VENDOR_FILES in {ASSETS_MODULE}")


def missing_files(root: Path = ROOT) -> list[str]:
    """The vendor files not (or empty) in the package."""
    target = root / TARGET
    return [
        name
        for name in vendor_files(root)
        if not (target / name).is_file() or not (target / name).stat().st_size
    ]


def main(root: Path = ROOT) -> int:
    modules = root / "node_modules"
    target = root / TARGET
    target.mkdir(parents=True, exist_ok=True)
    files = vendor_files(root)
    missing = [source for source in files.values() if not (modules / source).is_file()]
    if missing:
        sys.stderr.write(f"missing in node_modules/: {', '.join(missing)}; run `npm ci` first\n")
        return 1
    for name, source in files.items():
        shutil.copyfile(modules / source, target / name)
        print(f"{source} -> {TARGET / name}", file=sys.stderr)
    # Only these are served: a file left from an older copy (the tests' axe-core) is removed.
    for stale in sorted(target.iterdir()):
        if stale.is_file() and stale.name not in files and not stale.name.startswith("."):
            stale.unlink()
            print(f"removed {stale.relative_to(root)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
