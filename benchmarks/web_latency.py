"""Latency of the web calculator's live update, and the weight of its pages. Not a test.

    PYTHONPATH=src python benchmarks/web_latency.py [--requests 400]

Starts the app with uvicorn on a free localhost port (as `chessrate serve` does) and posts the
tournament form with the header htmx sends (HX-Request), as the page does on each keystroke:
the three games of [ELO-GUIDE] and the six opponents of [CIABE] (docs/sources.md). Prints the
median and p99 time of a request, client included, and the bytes of HTML, JavaScript and CSS
each page loads (uncompressed).
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urljoin

import httpx2 as httpx  # the client the dev dependencies install (pyproject: httpx2)
import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from chessrate.web import WebSettings, create_app

FORMS = {
    "tournament, ELO-GUIDE (3 games, FIDE)": {
        "rating": "1500", "k_preset": "20",
        "games-0-opponent": "1400", "games-0-result": "1",
        "games-1-opponent": "1600", "games-1-result": "½",
        "games-2-opponent": "1550", "games-2-result": "0",
    },
    "tournament, CIABE (6 opponents, Ciabe)": {
        "rating": "1800", "scoring": "total", "points": "4,5", "rules": "ciabe",
        **{f"games-{i}-opponent": str(1500 + 100 * i) for i in range(6)},
    },
}  # fmt: skip
PAGES = ["/game", "/tournament", "/period", "/k-factor", "/performance", "/glicko", "/help"]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def page_weight(client: httpx.Client, base: str, path: str) -> tuple[int, int, int]:
    html = client.get(base + path).text
    scripts = re.findall(r'<script src="([^"]+)"', html)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
    js = sum(len(client.get(urljoin(base, src)).content) for src in scripts)
    css = sum(len(client.get(urljoin(base, href)).content) for href in styles)
    return len(html.encode()), js, css


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=400, help="live-update requests per form")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(WebSettings()), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(timeout=10) as client:
        for name, form in FORMS.items():
            for _ in range(20):  # warm up
                client.post(base + "/tournament", data=form, headers={"HX-Request": "true"})
            times = []
            for _ in range(args.requests):
                start = time.perf_counter()
                response = client.post(base + "/tournament", data=form, headers={"HX-Request": "true"})
                times.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200 or 'id="new-rating"' not in response.text:
                    raise SystemExit(f"unexpected answer {response.status_code}: {response.text[:200]}")
            print(
                f"live update, {name}: median {statistics.median(times):.1f} ms, "
                f"p99 {percentile(times, 0.99):.1f} ms ({args.requests} requests, "
                f"{len(response.content)} bytes)"
            )
        print()
        print("page weight, bytes (uncompressed): HTML + JS + CSS = total")
        for path in PAGES:
            html, js, css = page_weight(client, base, path)
            print(f"  {path:13} {html:7,} + {js:7,} + {css:6,} = {html + js + css:8,}")
        curve = len(client.get(base + "/api/expected-curve").content)
        print(f"  the chart's data, /api/expected-curve (fetched once, cached a day): {curve:,} bytes")
    server.should_exit = True
    thread.join(timeout=5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
