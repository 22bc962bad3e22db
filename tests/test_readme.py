"""Every example of the README runs, as written, on the files the repository ships.

- ``chessrate`` lines of the ``sh`` blocks run one after another in a temporary directory (so
  ``--db club.db`` lands there) that sees the repository's ``src/``, through ``chessrate.cli.main``,
  the function the ``chessrate`` command calls; each must exit 0 and print something.
- The ``serve`` line starts the real command (``.venv/bin/chessrate``), on a free port instead of
  8000, and must serve the list the lines before it built at ``/list``; then it is stopped.
- The quick start's ``make run`` and ``make test`` are checked with ``make -n`` (what they would
  run), not run: ``make test`` is the command that runs this test.
- The ``python`` block is executed; a line ``expression  # value`` must give that value.
- Every relative link of the README points to a file of the repository.
"""

from __future__ import annotations

import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from chessrate.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, re.M | re.S)


def commands() -> list[list[str]]:
    """Every command line of the sh blocks, split as the shell splits it (comments dropped)."""
    return [
        shlex.split(line, comments=True)
        for block in blocks("sh")
        for line in block.splitlines()
        if line.strip()
    ]


def test_the_readme_has_its_examples() -> None:
    programs = [words[0] for words in commands()]
    assert programs.count("make") == 2
    assert programs.count("chessrate") >= 20
    assert set(programs) == {"make", "chessrate"}


def test_quick_start_targets_exist() -> None:
    make = shutil.which("make")
    assert make, "make is not installed"
    quick = [words for words in commands() if words[0] == "make"]
    assert quick == [["make", "run"], ["make", "test"]]
    run = subprocess.run([make, "-n", "run", "PORT=8099"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "chessrate serve --list-db chessrate.db --port 8099" in run.stdout
    test = subprocess.run([make, "-n", "test"], cwd=ROOT, capture_output=True, text=True)
    assert test.returncode == 0, test.stderr
    assert "scripts/test.sh" in test.stdout


def run_in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_command_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "src").symlink_to(ROOT / "src", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    ran = 0
    for words in commands():
        if words[0] != "chessrate":
            continue
        if words[1] == "serve":
            serve_and_read_the_list(words, tmp_path)
            continue
        code, out, err = run_in_process(words[1:], capsys)
        assert (code, err.startswith("chessrate: error")) == (0, False), f"{shlex.join(words)}: {err}"
        assert out.strip(), shlex.join(words)
        ran += 1
    assert ran >= 20
    assert (tmp_path / "club.db").is_file()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_and_read_the_list(words: list[str], cwd: Path) -> None:
    """The real ``chessrate serve`` on a free port; the list the examples before it built, at /list."""
    port = free_port()
    chessrate = Path(sys.executable).with_name("chessrate")
    server = subprocess.Popen(
        [str(chessrate), *words[1:], "--port", str(port)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert "List of April 1, 2026" in fetch(f"http://127.0.0.1:{port}/list", server)
    finally:
        server.terminate()
        server.wait(timeout=10)


def fetch(url: str, server: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return str(response.read().decode("utf-8"))
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                output = server.stdout.read().decode() if server.stdout else ""
                pytest.fail(f"chessrate serve did not answer on {url}: {output}")
            time.sleep(0.2)


def test_the_library_example_gives_the_values_it_shows() -> None:
    (code,) = blocks("python")
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    shown = [line.split("#", 1) for line in code.splitlines() if "#" in line]
    assert shown
    for expression, value in shown:
        result = eval(expression, namespace)
        given = ", ".join(map(repr, result)) if isinstance(result, tuple) else repr(result)
        assert given == value.strip()


def test_relative_links_point_to_files() -> None:
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert len(links) > 5
    assert [link for link in links if not (ROOT / link).exists()] == []
