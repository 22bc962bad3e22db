"""What the web tests share: the fixed day, Debian's chromium, the app served on a free port, the
requests seen."""

from __future__ import annotations

import datetime as dt
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from fastapi import FastAPI

#: A day under the FIDE rules of 1 October 2025 (cap only below 2650), fixed so tests do not age.
TODAY = dt.date(2025, 12, 1)
CHROMIUM = "/usr/bin/chromium"
DATA = Path(__file__).parent.parent / "data"
#: axe-core (npm, pinned in package.json), read from node_modules by the browser tests and injected into
#: each page by Playwright: the app never serves it.
AXE = Path(__file__).parents[2] / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Every URL a page asked for, across the browser tests: none may leave the machine.
REQUESTS: list[str] = []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """``app`` under uvicorn in a background thread; its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
