"""Speed and memory of reading a FIDE rating list: 1.2 million lines in the combined TXT layout.

A synthetic list (:mod:`chessrate.formats.fide_list_synthetic`: made-up players, FIDE's published
layout, Latin-1, CRLF) of ``--players`` lines (default 1,200,000, about the size of FIDE's combined
list) is written to a temporary file and read, each reader in a fresh process so that its peak
memory (``ru_maxrss``) is its own:

- ``chessrate open_fide_list``: every player built (ids, names, titles, three lists, flags), every
  cell checked;
- bare lines: the file decoded as Latin-1 and split in lines, nothing else (the floor: no reader is
  faster than its input);
- ``pandas.read_fwf`` with the same column positions, in chunks of 100,000 rows (how several public
  readers of FIDE's list do it), when pandas is installed (``pip install -e '.[bench]'``).

The issue's bar: under 15 s and under 200 MB peak for 1.2 million lines. Run from the repository
root::

    PYTHONPATH=src python benchmarks/fide_list.py                   # 1.2 million lines, ~30 s
    PYTHONPATH=src python benchmarks/fide_list.py --players 100000
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

from chessrate.formats import fide_list_synthetic as synthetic
from chessrate.formats.fide_list import open_fide_list

SECONDS_LIMIT = 15.0
MEGABYTES_LIMIT = 200.0


def read_chessrate(path: str) -> int:
    with open_fide_list(path) as fide:
        return sum(1 for _ in fide)


def read_bare(path: str) -> int:
    with open(path, encoding="latin-1", newline=None) as handle:
        return sum(1 for _ in handle) - 1


def read_pandas(path: str) -> int:
    import pandas as pd

    header = synthetic.COMBINED_HEADER
    starts = [header.index(word) for word in header.split() if word != "Number"]
    specs = list(zip(starts, [*starts[1:], len(header) + 1], strict=True))
    rows = 0
    with pd.read_fwf(path, colspecs=specs, encoding="latin-1", chunksize=100_000, dtype=str) as chunks:
        for chunk in chunks:
            rows += len(chunk)
    return rows


READERS = {
    "chessrate open_fide_list": read_chessrate,
    "bare lines": read_bare,
    "pandas read_fwf": read_pandas,
}


Measured = tuple[int, float, float, float]


def measure(name: str, path: str, queue: multiprocessing.Queue[Measured]) -> None:
    start, cpu = time.perf_counter(), time.process_time()
    rows = READERS[name](path)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    queue.put((rows, seconds, cpu_seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))


def in_child(name: str, path: str) -> Measured:
    """Rows, seconds (wall and CPU) and peak resident megabytes of one reader, in a fresh process."""
    context = multiprocessing.get_context("spawn")
    queue: multiprocessing.Queue[Measured] = context.Queue()
    process = context.Process(target=measure, args=(name, path, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_200_000, help="lines of the list")
    args = parser.parse_args()
    try:
        import pandas  # noqa: F401

        names = list(READERS)
    except ImportError:
        names = list(READERS)[:2]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players_list_foa.txt"
        start = time.perf_counter()
        with path.open("wb") as handle:
            synthetic.write_txt(handle, synthetic.synthetic_entries(args.players, seed=1))
        written = time.perf_counter() - start
        size = path.stat().st_size
        results = {name: in_child(name, str(path)) for name in names}
    print(
        f"{args.players} players, {size / 1e6:.0f} MB written in {written:.0f} s; Python "
        f"{platform.python_version()}, {platform.machine()}"
    )
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f} (wall time counts waiting for a core)")
    for name, (rows, seconds, cpu, megabytes) in results.items():
        rate = rows / cpu
        print(
            f"{name:26} {rows:9} rows {seconds:7.2f} s wall {cpu:7.2f} s CPU {rate:10.0f} rows/CPU s "
            f"peak {megabytes:6.0f} MB"
        )
    ours = results["chessrate open_fide_list"]
    print(f"chessrate / bare lines speed (CPU): {results['bare lines'][2] / ours[2]:.2f}")
    if "pandas read_fwf" in results:
        print(f"chessrate / pandas read_fwf speed (CPU): {results['pandas read_fwf'][2] / ours[2]:.2f}")
    verdict = "within" if ours[1] < SECONDS_LIMIT and ours[3] < MEGABYTES_LIMIT else "OVER"
    print(
        f"chessrate: {ours[1]:.1f} s wall ({ours[2]:.1f} s CPU), {ours[3]:.0f} MB peak: {verdict} the bar "
        "of 15 s and 200 MB"
    )


if __name__ == "__main__":
    main()
