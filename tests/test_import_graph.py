"""The layers of ``src/chessrate``, read with ``ast``: no import cycle, no private name across modules.

Imports inside functions count for cycles too; those under ``if TYPE_CHECKING:`` do not. No
module imports a private name (``_x``) of another module; a private module
(``chessrate._x``) is imported only from inside the package that holds it. The layers
go one way: the maths knows nothing of the request layer, the request layer nothing of the faces.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "chessrate"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    module_name(path): path
    for path in sorted((SRC / PACKAGE).rglob("*.py"))
    if "migrations" not in path.parts
}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that can run: anywhere but under ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node):
            yield from _runtime_imports(node.orelse)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    yield from _runtime_imports([child])


def _all_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _absolute(node: ast.ImportFrom, importer: str) -> str:
    if node.level == 0:
        return node.module or ""
    package = importer.split(".")
    if MODULES[importer].name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(node: ast.Import | ast.ImportFrom, importer: str) -> Iterator[tuple[str, str | None]]:
    """(module, name imported from it or None) of the package's own modules."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == PACKAGE:
                yield alias.name, None
        return
    source = _absolute(node, importer)
    if source.split(".")[0] != PACKAGE:
        return
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        yield (submodule, None) if submodule in MODULES else (source, alias.name)


def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def import_graph() -> dict[str, set[str]]:
    """Each module and the package's modules it imports, also inside functions (not TYPE_CHECKING)."""
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        edges = set()
        for node in _runtime_imports(_tree(module).body):
            for target, _ in _targets(node, module):
                if target in MODULES and target != module:
                    edges.add(target)
        graph[module] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_checker_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a"}}) is None


def test_no_import_cycle() -> None:
    assert find_cycle(import_graph()) is None


def test_no_private_name_imported_from_another_module() -> None:
    found = []
    for module in MODULES:
        for node in _all_imports(_tree(module)):
            for target, name in _targets(node, module):
                private = name is not None and name.startswith("_") and not name.startswith("__")
                private_module = any(part.startswith("_") for part in target.split("."))
                if private and target != module:
                    found.append(f"{module} imports {name} from {target}")
                elif private_module and not _inside(module, _owner_of_private(target)):
                    found.append(f"{module} imports the private module {target}")
    assert not found, found


def _inside(module: str, package: str) -> bool:
    """Whether ``module`` is ``package`` itself (its ``__init__``) or one of its modules."""
    return module == package or module.startswith(package + ".")


def _owner_of_private(module: str) -> str:
    """The package a private module belongs to: ``chessrate`` for ``chessrate._x``."""
    parts = module.split(".")
    first_private = next(index for index, part in enumerate(parts) if part.startswith("_"))
    return ".".join(parts[:first_private])


# Each layer, and the layers it must never import (at load time or inside a function).
FACES = ("chessrate.cli", "chessrate.web")
SERVICE = "chessrate.service"
STORE = "chessrate.ratinglist"
#: The maths of every system and the layers beside it: nothing of the web, a database or a report. (A
#: club's TOML rules file is decoded by chessrate.formats.text, as every file the readers take.)
PURE = (*FACES, SERVICE, STORE, "chessrate.tournament", "chessrate.analysis", "chessrate.strength")
LAYERS = {
    SERVICE: FACES,
    "chessrate.systems": PURE,
    "chessrate.comparisons": PURE,
    "chessrate.bulk": (*FACES, SERVICE, STORE, "chessrate.tournament"),
    "chessrate.runtime": (*PURE, "chessrate.systems", "chessrate.formats"),
    "chessrate.formats": (*FACES, SERVICE, STORE, "chessrate.tournament"),
    "chessrate.tournament": (*FACES, SERVICE, STORE),
    # Games by username (issue 31): HTTP to the two platforms, nothing of the layers above or the maths.
    "chessrate.platforms": (*PURE, "chessrate.systems", "chessrate.formats", "chessrate.bulk"),
    STORE: FACES,
    "chessrate.analysis": (*FACES, SERVICE, STORE, "chessrate.strength", "chessrate.tournament"),
    "chessrate.strength": (*FACES, SERVICE, STORE, "chessrate.tournament"),
    "chessrate.testing": (*FACES, SERVICE),
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_downwards_only(layer: str) -> None:
    wrong = []
    for module in MODULES:
        if module != layer and not module.startswith(layer + "."):
            continue
        for node in _all_imports(_tree(module)):
            for target, _ in _targets(node, module):
                if any(target == above or target.startswith(above + ".") for above in LAYERS[layer]):
                    wrong.append(f"{module} imports {target}")
    assert not wrong, wrong


ROUTERS = {f"chessrate.web.{name}" for name in ("calculator_pages", "report_page", "api", "ratinglist_pages")}
#: Who may import the routers and the application: the package exports the app, the app assembles.
ASSEMBLERS = {"chessrate.web": {"chessrate.web.app"}, "chessrate.web.app": ROUTERS}


def test_the_web_is_a_tree() -> None:
    # The routers stand side by side on web/site.py; only web/app.py assembles them.
    wrong = []
    for module in MODULES:
        if not module.startswith("chessrate.web"):
            continue
        allowed = ASSEMBLERS.get(module, set())
        for node in _all_imports(_tree(module)):
            for target, _ in _targets(node, module):
                upper = target in ROUTERS or target == "chessrate.web.app"
                if upper and target != module and target not in allowed:
                    wrong.append(f"{module} imports {target}")
    assert not wrong, wrong
