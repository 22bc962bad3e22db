"""Copy the web calculator's browser assets from node_modules/ into the package.

Run `npm ci` first (it installs the versions pinned in package-lock.json from the npm registry),
then `python scripts/vendor_assets.py`. The files land in src/chessrate/web/static/vendor/
(gitignored) and are served by the app itself: no request leaves the machine. axe-core, which only
the browser tests use, stays in node_modules/ and is never served.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from chessrate.web.assets import VENDOR_FILES  # noqa: E402


def main() -> int:
    modules = ROOT / "node_modules"
    target = ROOT / "src" / "chessrate" / "web" / "static" / "vendor"
    target.mkdir(parents=True, exist_ok=True)
    files = VENDOR_FILES
    missing = [source for source in files.values() if not (modules / source).is_file()]
    if missing:
        sys.stderr.write(f"missing in node_modules/: {', '.join(missing)}; run `npm ci` first\n")
        return 1
    for name, source in files.items():
        shutil.copyfile(modules / source, target / name)
        print(f"{source} -> {target.relative_to(ROOT) / name}")
    # Only these are served: a file left from an older copy (the tests' axe-core) is removed.
    for stale in sorted(target.iterdir()):
        if stale.is_file() and stale.name not in files and not stale.name.startswith("."):
            stale.unlink()
            print(f"removed {stale.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
