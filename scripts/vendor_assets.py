"""Copy the web calculator's browser assets from node_modules/ into the package.

Run `npm ci` first (it installs the versions pinned in package-lock.json from the npm registry),
then `python scripts/vendor_assets.py`. The files land in src/chessrate/web/static/vendor/
(gitignored) and are served by the app itself: no request leaves the machine.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from chessrate.web.assets import TEST_FILES, VENDOR_FILES  # noqa: E402


def main() -> int:
    modules = ROOT / "node_modules"
    target = ROOT / "src" / "chessrate" / "web" / "static" / "vendor"
    target.mkdir(parents=True, exist_ok=True)
    files = {**VENDOR_FILES, **TEST_FILES}
    missing = [source for source in files.values() if not (modules / source).is_file()]
    if missing:
        sys.stderr.write(f"missing in node_modules/: {', '.join(missing)}; run `npm ci` first\n")
        return 1
    for name, source in files.items():
        shutil.copyfile(modules / source, target / name)
        print(f"{source} -> {target.relative_to(ROOT) / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
