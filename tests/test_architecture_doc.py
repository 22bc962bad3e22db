"""docs/architecture.md is true to the code and complete: it names every package under
src/chessrate, and every module path and ``chessrate.…`` name it gives (outside its table of old
import paths, "Moved") exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "chessrate"
DOC = ROOT / "docs" / "architecture.md"


def _text() -> str:
    """The page without its "Moved" section, whose left column names paths that no longer exist."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("\n## Moved")
    end = text.index("\n## ", start + 1)
    return text[:start] + text[end:]


def test_every_package_is_on_the_page() -> None:
    text = DOC.read_text(encoding="utf-8")
    packages = sorted(
        path.parent.relative_to(PACKAGE).as_posix() + "/"
        for path in PACKAGE.rglob("__init__.py")
        if path.parent != PACKAGE and "migrations" not in path.parts
    )
    missing = [package for package in packages if not re.search(rf"(?<![\w/]){re.escape(package)}", text)]
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_every_module_path_on_the_page_exists() -> None:
    wrong = []
    for path in sorted(set(re.findall(r"`([\w/]+\.(?:py|html))`", _text()))):
        if "/" in path:
            found = any((base / path).exists() for base in (PACKAGE, PACKAGE.parent, PACKAGE / "web", ROOT))
        else:
            found = any(PACKAGE.rglob(path))
        if not found:
            wrong.append(path)
    assert not wrong, f"docs/architecture.md names files that do not exist: {wrong}"


def test_every_dotted_name_on_the_page_exists() -> None:
    wrong = []
    for name in sorted(set(re.findall(r"`(chessrate(?:\.\w+)+)`", _text()))):
        if not _resolves(name):
            wrong.append(name)
    assert not wrong, f"docs/architecture.md names what does not exist: {wrong}"


def _resolves(name: str) -> bool:
    """Whether ``name`` is a module, or a module's attribute (``chessrate.__version__``)."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_the_checks_can_fail() -> None:
    assert not _resolves("chessrate.requests.documents")
    assert not _resolves("chessrate.systems.elo.calculate.Nope")
    assert _resolves("chessrate.systems.registry.SYSTEMS")
