"""How long the command line takes to start, against importing the library. Not a test.

    python benchmarks/cli_startup.py [--runs 21]

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


def run(command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run of ``command``, in seconds."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(SRC)
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{command} exited with {process.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
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
