"""Speed of reading PGN: chessrate's reader against python-chess's header and full game readers.

The largest PGN file of ``tests/data/pgn`` is repeated into a temporary file of at least
``--megabytes`` (default 100) and read three ways, reporting games per second and ratios:

- ``chessrate.formats.read_pgn`` (its own tag-pair scanner, line numbers, checks and the model);
- ``chessrate.formats.pgn.read_pgn_event`` (what ``chessrate list import`` reads: the same facts, the
  games as columns, games laid out alike read by one pattern);
- ``chess.pgn.read_headers`` in a loop (headers only, nothing built);
- ``chess.pgn.read_game`` in a loop (full move parsing). It is about 50 times slower
  (python-chess, [PYCHESS] in docs/sources.md), so it reads only the first ``--full-megabytes`` (default 5)
  of the same file; games per second is a rate, so the figures compare.

Run from the repository root (about a minute for 100 MB on one core)::

    PYTHONPATH=src python benchmarks/pgn_read.py            # 100 MB
    PYTHONPATH=src python benchmarks/pgn_read.py --megabytes 5 --full-megabytes 1
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from chessrate.formats import read_pgn
from chessrate.formats.pgn import read_pgn_event

DATA = Path(__file__).parents[1] / "tests" / "data" / "pgn"


def build_file(source: Path, megabytes: float, folder: Path) -> Path:
    """``source`` repeated until the file holds at least ``megabytes`` MB (10**6 bytes)."""
    data = source.read_bytes().rstrip(b"\n") + b"\n\n"
    copies = max(1, -(-int(megabytes * 1_000_000) // len(data)))
    path = folder / f"{source.stem}-x{copies}.pgn"
    with path.open("wb") as out:
        for _ in range(copies):
            out.write(data)
    return path


def prefix(path: Path, megabytes: float) -> Path:
    """The first games of ``path`` making up at least ``megabytes`` MB, cut at a game boundary."""
    out = path.with_name(path.stem + "-prefix.pgn")
    limit = int(megabytes * 1_000_000)
    written = 0
    with path.open("rb") as source, out.open("wb") as target:
        for line in source:
            if written >= limit and line.startswith(b"[Event "):
                break
            target.write(line)
            written += len(line)
    return out


def count_headers(path: Path) -> int:
    with path.open(encoding="utf-8") as handle:
        games = 0
        while chess.pgn.read_headers(handle) is not None:
            games += 1
    return games


def count_games(path: Path) -> int:
    with path.open(encoding="utf-8") as handle:
        games = 0
        while chess.pgn.read_game(handle) is not None:
            games += 1
    return games


def count_chessrate(path: Path) -> int:
    return len(read_pgn(path).tournament.games)


def count_event(path: Path) -> int:
    return len(read_pgn_event(path).games)


def timed(function: Callable[[Path], int], path: Path) -> tuple[int, float]:
    start = time.perf_counter()
    games = function(path)
    return games, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=100.0, help="size of the test file")
    parser.add_argument("--full-megabytes", type=float, default=5.0, help="how much of it read_game reads")
    args = parser.parse_args()
    source = max(DATA.glob("*.pgn"), key=lambda p: p.stat().st_size)
    with tempfile.TemporaryDirectory() as folder:
        big = build_file(source, args.megabytes, Path(folder))
        small = prefix(big, min(args.full_megabytes, args.megabytes))
        rows = [
            ("chessrate read_pgn", *timed(count_chessrate, big), big.stat().st_size),
            ("chessrate read_pgn_event", *timed(count_event, big), big.stat().st_size),
            ("chess.pgn.read_headers", *timed(count_headers, big), big.stat().st_size),
            ("chess.pgn.read_game", *timed(count_games, small), small.stat().st_size),
        ]
    print(
        f"source {source.name} ({source.stat().st_size} bytes), Python "
        f"{platform.python_version()}, chess {chess.__version__}, {platform.machine()}"
    )
    rates = {}
    for name, games, seconds, size in rows:
        rates[name] = games / seconds
        print(f"{name:24} {size / 1e6:6.1f} MB {games:8} games {seconds:8.2f} s {rates[name]:10.0f} games/s")
    ours = rates["chessrate read_pgn"]
    print(f"chessrate / read_headers speed: {ours / rates['chess.pgn.read_headers']:.2f}")
    print(f"chessrate / read_game speed:    {ours / rates['chess.pgn.read_game']:.1f}")
    event = rates["chessrate read_pgn_event"] / rates["chess.pgn.read_headers"]
    print(f"read_pgn_event / read_headers speed: {event:.2f}")


if __name__ == "__main__":
    main()
