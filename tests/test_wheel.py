"""chessrate installed as users install it: the sdist and the wheel built from this checkout by the
standard build (``python -m build``), the wheel installed in a fresh virtual environment outside the
repository, and the commands a new user tries first, run there.

The fresh environment takes chessrate from the wheel alone; its dependencies are this suite's own
(a ``.pth`` line naming their folder, whose editable chessrate is not loaded), so that the check
needs no network. The build runs without isolation for the same reason: the suite's environment
has the build requirements (``setuptools>=69``, ``build``).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRF = ROOT / "tests" / "data" / "trf" / "fide-example.trf"
#: The browser assets every page needs, vendored by the build (build_backend/chessrate_build.py).
VENDOR = ("htmx.min.js", "uPlot.iife.min.js", "uPlot.min.css", "swagger-ui-bundle.js", "swagger-ui.css")
#: One short game for the engine (Scholar's mate).
PGN = (
    '[Event "smoke"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n'
    "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh environment with the wheel built from this checkout."""
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheels = sorted(dist.glob("chessrate-*.whl"))
    sdists = sorted(dist.glob("chessrate-*.tar.gz"))
    assert len(wheels) == 1, wheels
    assert len(sdists) == 1, sdists
    names = zipfile.ZipFile(wheels[0]).namelist()
    for name in VENDOR:
        assert f"chessrate/web/static/vendor/{name}" in names, name
    env = work / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    site = Path(
        subprocess.run(
            [str(env / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "suite_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    pip = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, str(wheels[0])],
        check=True,
        timeout=300,
    )
    return env / "bin"


def run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["PATH"] = f"{bin_dir}:{environment.get('PATH', '')}:/usr/games"
    command = [str(bin_dir / "chessrate"), *args]
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)


def test_the_installed_package_is_the_wheel(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [str(installed / "python"), "-c", "import chessrate; print(chessrate.__file__)"],
        cwd=tmp_path,
        env={key: value for key, value in os.environ.items() if key != "PYTHONPATH"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(done.stdout.strip()).is_relative_to(installed.parent), done.stdout
    assert not Path(done.stdout.strip()).is_relative_to(ROOT)


def test_version(installed: Path, tmp_path: Path) -> None:
    done = run(installed, "--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"chessrate {version('chessrate')}\n"


def test_serve_answers_every_asset_its_pages_name(installed: Path, tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    server = subprocess.Popen(
        [str(installed / "chessrate"), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/game", timeout=5).read()
                break
            except OSError:
                assert server.poll() is None, server.stderr.read() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.2)
        referenced: set[str] = set()
        for page in ("/game", "/glicko", "/strength", "/report", "/docs"):
            html = urllib.request.urlopen(f"{base}{page}", timeout=30).read().decode()
            referenced |= set(re.findall(r"""(?:src|href)=["'](/static/[^"'?#]+)""", html))
        served = {}
        for path in sorted(referenced):
            with urllib.request.urlopen(f"{base}{path}", timeout=30) as answer:
                served[path.rsplit("/", 1)[-1]] = (answer.status, len(answer.read()))
        for name in VENDOR:
            status, size = served[name]
            assert status == 200, name
            assert size > 1000, name
        openapi = json.loads(urllib.request.urlopen(f"{base}/openapi.json", timeout=30).read())
        assert openapi["info"]["version"] == version("chessrate")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_list_demo_report_and_strength(installed: Path, tmp_path: Path) -> None:
    demo = run(installed, "list", "demo", "--db", str(tmp_path / "demo.db"), cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    shown = run(installed, "list", "show", "--db", str(tmp_path / "demo.db"), "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    report = run(installed, "report", str(TRF), "--format", "csv", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert len(report.stdout.splitlines()) > 2
    games = tmp_path / "smoke.pgn"
    games.write_text(PGN, encoding="utf-8")
    strength = run(installed, "strength", str(games), "--json", cwd=tmp_path)
    assert strength.returncode == 0, strength.stderr
    players = json.loads(strength.stdout)["players"]
    assert {player["player"] for player in players} == {"A", "B"}
