"""How long the command line takes to start, against importing the library. Not a test.

    python benchmarks/cli_startup.py [--runs 21]
    python benchmarks/cli_startup.py --against REF [--runs 21]   # this tree against a git ref's
    python benchmarks/cli_startup.py --languages [--runs 21]     # --lang en against es and ca

With ``--against REF`` the same ``chessrate game 1500 1700 1 --json`` runs from this tree's
``src`` and from REF's (``git archive`` into a temporary folder), one after the other, and the
ratios this/REF are printed; with ``--languages`` this tree's ``chessrate --lang en game ...``
against ``--lang es`` and ``--lang ca`` (issue 30: the language costs the start little).

Runs ``chessrate game 1500 1700 1 --json`` (the script pip installs beside the interpreter) and
``python -c "import chessrate"`` one after the other, each in a fresh interpreter, ``--runs``
times, and prints the median wall time and the median CPU time (user + system) of each, and their
ratios. On a busy machine the wall time includes waiting for a core; the CPU time does not.
Bytecode is cached, as it is for an installed package (``PYTHONDONTWRITEBYTECODE`` is dropped for
these runs). The command line imports per command (``chessrate.cli.app.COMMANDS``), so one game
loads neither the web, the database, numpy nor python-chess; the ratio is to stay at most 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
#: The ``chessrate`` script pip installs beside the interpreter; ``python -m chessrate`` without it.
SCRIPT = Path(sys.executable).with_name("chessrate")
CHESSRATE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "chessrate"]
COMMANDS = {
    "python -c 'import chessrate'": [sys.executable, "-c", "import chessrate"],
    "chessrate game 1500 1700 1 --json": [*CHESSRATE, "game", "1500", "1700", "1", "--json"],
}


GAME = ["game", "1500", "1700", "1", "--json"]


def run(command: list[str], src: Path = SRC) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``command``, in seconds."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(src)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{command} exited with {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def medians(commands: dict[str, tuple[list[str], Path]], runs: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU time of each command, run in turn ``runs`` times after one warm-up each."""
    for command, src in commands.values():  # warm the file cache and write bytecode
        run(command, src)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (command, src) in commands.items():
            times[name].append(run(command, src))
    return {
        name: (statistics.median(t[0] for t in values), statistics.median(t[1] for t in values))
        for name, values in times.items()
    }


def compare(commands: dict[str, tuple[list[str], Path]], runs: int) -> None:
    """Each command's medians, and each one's ratio to the first."""
    found = medians(commands, runs)
    base_wall, base_cpu = next(iter(found.values()))
    for name, (wall, cpu) in found.items():
        print(
            f"{name:44} wall {wall * 1000:6.1f} ms  cpu {cpu * 1000:6.1f} ms  "
            f"ratio wall {wall / base_wall:.3f} cpu {cpu / base_cpu:.3f}  (medians of {runs})"
        )
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")


def against(ref: str, runs: int) -> None:
    """This tree's ``chessrate game`` against REF's, from REF's ``src`` exported by ``git archive``."""
    root = SRC.parent
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", ref, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        module = [sys.executable, "-m", "chessrate", *GAME]
        compare(
            {f"{ref}: chessrate game ... --json": (module, Path(folder) / "src"), "this tree": (module, SRC)},
            runs,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--against", metavar="REF", help="compare this tree's start-up to a git ref's")
    parser.add_argument("--languages", action="store_true", help="compare --lang en, es and ca")
    arguments = parser.parse_args()
    runs = arguments.runs
    if arguments.against:
        against(arguments.against, runs)
        return
    if arguments.languages:
        module = [sys.executable, "-m", "chessrate"]
        compare(
            {
                f"chessrate --lang {code} game ... --json": ([*module, "--lang", code, *GAME], SRC)
                for code in ("en", "es", "ca")
            },
            runs,
        )
        return
    for command in COMMANDS.values():  # once each first, to warm the file cache and write bytecode
        run(command)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            times[name].append(run(command))
    wall = {name: statistics.median(t[0] for t in values) for name, values in times.items()}
    cpu = {name: statistics.median(t[1] for t in values) for name, values in times.items()}
    for name in COMMANDS:
        print(
            f"{name:36} wall {wall[name] * 1000:6.1f} ms  cpu {cpu[name] * 1000:6.1f} ms  (medians of {runs})"
        )
    library, command = COMMANDS
    print(
        f"ratio: wall {wall[command] / wall[library]:.2f}, cpu {cpu[command] / cpu[library]:.2f} (at most 2)"
    )


if __name__ == "__main__":
    main()
