"""How long the command line takes to start, against importing the library. Not a test.

    python benchmarks/cli_startup.py [--runs 21]

Runs ``chessrate game 1500 1700 1 --json`` (the script pip installs) and
``python -c "import chessrate"`` one after the other, each in a fresh interpreter, ``--runs``
times, and prints the median wall time of each and their ratio. Bytecode is cached, as it is for
an installed package (``PYTHONDONTWRITEBYTECODE`` is dropped for these runs). The command line
imports per command (``chessrate.cli.app.COMMANDS``), so one game loads neither the web, the
database, numpy nor python-chess; the ratio is to stay at most 2.
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
COMMANDS = {
    "python -c 'import chessrate'": [sys.executable, "-c", "import chessrate"],
    "chessrate game 1500 1700 1 --json": [
        sys.executable,
        "-m",
        "chessrate",
        "game",
        "1500",
        "1700",
        "1",
        "--json",
    ],
}


def wall_time(command: list[str]) -> float:
    # As an installed package runs: the bytecode cached (the warm-up run writes it).
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(SRC)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():  # once each first, to warm the file cache and .pyc files
        wall_time(command)
    for _ in range(runs):
        for name, command in COMMANDS.items():
            times[name].append(wall_time(command))
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:40} median {median * 1000:6.1f} ms over {runs} runs")
    library, command = medians.values()
    print(f"ratio: {command / library:.2f} (at most 2)")


if __name__ == "__main__":
    main()
