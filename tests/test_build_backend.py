"""The build backend stops and says why when it cannot vendor the browser assets: never a silent
half wheel (build_backend/chessrate_build.py)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = ("build_backend/chessrate_build.py", "scripts/vendor_assets.py", "src/chessrate/web/assets.py")


def backend_in(tree: Path) -> ModuleType:
    """The backend of a copy of the tree without node_modules nor vendored assets."""
    for name in FILES:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tree / name)
    spec = importlib.util.spec_from_file_location("chessrate_build_copy", tree / FILES[0])
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_npm_the_build_stops_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = backend_in(tmp_path)
    (tmp_path / "package-lock.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    with pytest.raises(backend.AssetsMissing, match=r"npm is not installed \(apt-get install npm\)"):
        backend.build_wheel(str(tmp_path / "dist"))
    assert not (tmp_path / "dist").exists()


def test_without_the_lock_file_the_build_stops_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = backend_in(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(backend.AssetsMissing, match=r"package-lock\.json is missing"):
        backend.build_sdist(str(tmp_path / "dist"))


def test_a_failing_npm_stops_the_build_with_its_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = backend_in(tmp_path)
    (tmp_path / "package-lock.json").write_text("{}", encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(
        "#!/bin/sh\necho 'npm ERR! network unreachable' >&2\nexit 1\n", encoding="utf-8"
    )
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    with pytest.raises(backend.AssetsMissing, match=r"`npm ci` failed \(1\): npm ERR! network unreachable"):
        backend.build_wheel(str(tmp_path / "dist"))
