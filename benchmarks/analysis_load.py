"""The web's analyses under load, at the real caps (issue 29, docs/security.md). Not a test.

    PYTHONPATH=src python benchmarks/analysis_load.py [--seconds 60] [--posters 8] [--readers 50]

Starts ``chessrate serve`` as its own process on a free loopback port (the default caps: 2 workers,
4 waiting, 300 plies a game, 4,000 positions, 180 s of engine time) and, from this process:

1. load: ``--posters`` clients posting three real games each to the no-JavaScript form, again and
   again, and ``--readers`` clients reading calculator pages (``--pause`` seconds between pages,
   about the issue's 47 pages a second for 50 readers; 0 for readers that never pause), for
   ``--seconds``. Prints the pages'
   p50 and p99, each analysis's answer (200; 503 with or without ``Retry-After``), the most engines
   seen at once and the server's peak memory.
2. longest: the longest analysis the web allows (positions just under the cap) while one client
   reads ``/game`` in turn: the pages' median and worst, the analysis's time.
3. huge: 40 random games of 1,000 plies to ``POST /strength``, then one game of 400,000 plies to
   ``/strength/jobs`` while ``/game`` is read: each answer's time, the worst page, peak memory.
4. gone: an analysis whose client leaves: seconds until no engine runs.

Engines are counted as the server's child processes; memory is the server's RSS, engines included.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import chess
import chess.pgn
import httpx2 as httpx  # the client the dev dependencies install (pyproject: httpx2)
import psutil

ROOT = Path(__file__).resolve().parent.parent
LICHESS = ROOT / "tests" / "data" / "pgn" / "lichess-export.pgn"
PAGES = ["/game", "/tournament", "/period", "/k-factor", "/performance", "/glicko", "/help"]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``chessrate serve`` in its own process, watched: engines at once and memory, at their peak."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "chessrate", "serve", "--port", str(self.port)],
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/game", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        self.watched = psutil.Process(self.process.pid)
        self.peak_engines = 0
        self.peak_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def engines(self) -> int:
        return sum(1 for child in self.watched.children(recursive=True) if "stockfish" in child.name())

    def reset(self) -> None:
        self.peak_engines, self.peak_mb = 0, 0.0

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                children = self.watched.children(recursive=True)
                rss = self.watched.memory_info().rss + sum(c.memory_info().rss for c in children)
                self.peak_engines = max(self.peak_engines, sum("stockfish" in c.name() for c in children))
                self.peak_mb = max(self.peak_mb, rss / 1e6)
            except psutil.Error:
                pass
            time.sleep(0.1)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.process.terminate()
        self.process.wait(timeout=30)


def real_games(count: int) -> str:
    with LICHESS.open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(str(game))
    return "\n\n".join(games[:count]) + "\n"


def random_game(plies: int, rng: random.Random) -> str:
    while True:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        else:
            return chess.Board().variation_san(board.move_stack) + " *\n\n"


async def load(server: Server, seconds: float, posters: int, readers: int, pause: float) -> None:
    games = real_games(3)
    pages: list[float] = []
    answers: Counter[str] = Counter()
    end = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=posters + readers + 10)
    async with httpx.AsyncClient(base_url=server.url, timeout=300, limits=limits) as client:

        async def read(number: int) -> None:
            while time.monotonic() < end:
                started = time.monotonic()
                answer = await client.get(PAGES[number % len(PAGES)])
                pages.append(time.monotonic() - started)
                assert answer.status_code == 200
                number += 1
                await asyncio.sleep(pause)

        async def post() -> None:
            while time.monotonic() < end:
                answer = await client.post("/strength", data={"pgn": games, "lang": "en"})
                if answer.status_code == 503:
                    kind = (
                        "503 with Retry-After"
                        if "retry-after" in answer.headers
                        else "503 WITHOUT Retry-After"
                    )
                    answers[kind] += 1
                    await asyncio.sleep(1)  # a client told to wait waits a little (not the full minute)
                else:
                    answers[str(answer.status_code)] += 1

        server.reset()
        await asyncio.gather(*(read(i) for i in range(readers)), *(post() for _ in range(posters)))
    print(
        f"\n## load: {posters} clients posting 3 games, {readers} reading pages "
        f"(each {pause:g} s between pages), {seconds:g} s\n"
    )
    print("| pages read | p50 | p99 | worst | analyses answered | engines at once (most) | server peak |")
    print("|---|---|---|---|---|---|---|")
    said = ", ".join(f"{count} × {kind}" for kind, count in sorted(answers.items()))
    print(
        f"| {len(pages)} | {statistics.median(pages) * 1000:.0f} ms "
        f"| {percentile(pages, 0.99) * 1000:.0f} ms | {max(pages) * 1000:.0f} ms | {said} "
        f"| {server.peak_engines} | {server.peak_mb:.0f} MB |"
    )


def read_meanwhile(url: str, busy: threading.Thread) -> list[float]:
    times = []
    with httpx.Client(base_url=url, timeout=60) as client:
        while busy.is_alive():
            started = time.monotonic()
            client.get("/game")
            times.append(time.monotonic() - started)
            time.sleep(0.1)
    return times


def in_background(task: object) -> tuple[threading.Thread, list[object]]:
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(task()), daemon=True)  # type: ignore[operator]
    thread.start()
    return thread, out


def longest(server: Server, positions: int) -> None:
    rng = random.Random(29)
    pgn, count = "", 0
    while True:
        game = random_game(100, rng)
        if count + 101 > positions:
            break
        pgn += game
        count += 101
    server.reset()
    started = time.monotonic()
    thread, out = in_background(
        lambda: httpx.post(server.url + "/strength", data={"pgn": pgn, "lang": "en"}, timeout=600)
    )
    times = read_meanwhile(server.url, thread)
    thread.join()
    took = time.monotonic() - started
    answer = out[0]
    assert isinstance(answer, httpx.Response)
    print(f"\n## longest: {count // 101} random games of 100 plies (about {count} positions)\n")
    print("| analysis answered | in | `GET /game` median | worst | pages read | engines (most) |")
    print("|---|---|---|---|---|---|")
    print(
        f"| {answer.status_code} | {took:.0f} s | {statistics.median(times) * 1000:.0f} ms "
        f"| {max(times) * 1000:.0f} ms | {len(times)} | {server.peak_engines} |"
    )


def huge(server: Server) -> None:
    rng = random.Random(1)
    pgn = "".join(random_game(1000, rng) for _ in range(40))
    started = time.monotonic()
    answer = httpx.post(server.url + "/strength", data={"pgn": pgn, "lang": "en"}, timeout=600)
    forty = time.monotonic() - started
    moves = ("Nf3", "Nf6", "Ng1", "Ng8")
    long = " ".join((f"{p // 2 + 1}. " if p % 2 == 0 else "") + moves[p % 4] for p in range(400_000)) + " *"
    server.reset()
    started = time.monotonic()
    thread, out = in_background(
        lambda: httpx.post(
            server.url + "/strength/jobs", files={"file": ("long.pgn", long.encode())}, timeout=600
        )
    )
    times = read_meanwhile(server.url, thread)
    thread.join()
    took = time.monotonic() - started
    long_answer = out[0]
    assert isinstance(long_answer, httpx.Response)
    print("\n## huge: 40 games of 1,000 plies (POST /strength); one game of 400,000 plies (/strength/jobs)\n")
    print("| request | answer | in | `GET /game` worst meanwhile | server peak |")
    print("|---|---|---|---|---|")
    print(f"| 40 × 1,000 plies | {answer.status_code} | {forty:.1f} s | — | — |")
    print(
        f"| 400,000 plies | {long_answer.status_code} | {took:.1f} s | "
        f"{max(times, default=0) * 1000:.0f} ms | {server.peak_mb:.0f} MB |"
    )


def gone(server: Server) -> None:
    pgn = real_games(3)
    body = httpx.Request("POST", server.url + "/strength", data={"pgn": pgn, "lang": "en"})
    payload = b"".join(body.stream)  # type: ignore[union-attr]
    head = "".join(f"{k}: {v}\r\n" for k, v in body.headers.items())
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(f"POST /strength HTTP/1.1\r\n{head}\r\n".encode() + payload)
        deadline = time.monotonic() + 30
        while server.engines() == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
    left = time.monotonic()
    while server.engines() and time.monotonic() - left < 60:
        time.sleep(0.05)
    print("\n## gone: a client that leaves its analysis\n")
    print(f"Engines idle {time.monotonic() - left:.1f} s after the client closed the connection.")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--posters", type=int, default=8)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--pause", type=float, default=1.0, help="a reader's seconds between pages")
    parser.add_argument("--positions", type=int, default=4000, help="the longest analysis's positions")
    parser.add_argument(
        "--scenarios",
        nargs="+",
        default=["load", "longest", "huge", "gone"],
        choices=["load", "longest", "huge", "gone"],
    )
    args = parser.parse_args()
    server = Server()
    try:
        print(f"{os.cpu_count()} cores; server pid {server.process.pid}, {server.url}")
        if "load" in args.scenarios:
            asyncio.run(load(server, args.seconds, args.posters, args.readers, args.pause))
        if "longest" in args.scenarios:
            longest(server, args.positions)
        if "huge" in args.scenarios:
            huge(server)
        if "gone" in args.scenarios:
            gone(server)
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
