"""Take the screenshots of docs/screenshots/: each calculator with its example, in Debian's chromium.

    PYTHONPATH=src python scripts/screenshots.py

Starts the app on a free localhost port, opens each mode's example (the page's "Try an example"
link), or chooses a real tournament file on the tournament-file page, and saves a PNG. Needs
`apt-get install chromium` and the vendored assets.
"""

from __future__ import annotations

import datetime as dt
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from chessrate.ratinglist.demo import build_demo  # noqa: E402
from chessrate.web import WebSettings, create_app  # noqa: E402

ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
CIABE_OPPONENTS = "&".join(f"games-{i}-opponent={r}" for i, r in enumerate(range(1500, 2001, 100)))
#: File name -> (path with the example's query, viewport width).
SHOTS = {
    "game.png": ("/game?rating=1500&opponent=1600&result=0.5&lang=en", 1200),
    "average.png": ("/average?rating=1500&games=5&points=3.5&average=1550&k_preset=20&lang=en", 1200),
    "tournament.png": (
        "/tournament?rating=1500&k_preset=20&games-0-opponent=1400&games-0-result=1&games-1-opponent=1600"
        "&games-1-result=%C2%BD&games-2-opponent=1550&games-2-result=0&lang=en",
        1200,
    ),
    "tournament-ciabe-es.png": (
        f"/tournament?rating=1800&scoring=total&points=4,5&rules=ciabe&{CIABE_OPPONENTS}&lang=es",
        1200,
    ),
    "period-ca.png": (
        "/period?rating=1500&k_preset=20&events-0-games-0-opponent=1400&events-0-games-0-result=1"
        "&events-0-games-1-opponent=1600&events-0-games-1-result=%C2%BD&events-1-start_rating=1500"
        "&events-1-games-0-opponent=1550&events-1-games-0-result=0&lang=ca",
        1200,
    ),
    "k-factor.png": (
        "/k-factor?rating=1850&birth_year=2010&rated_games=60&games_this_period=20&lang=en",
        1200,
    ),
    "performance.png": (
        "/performance?games-0-opponent=1902&games-0-result=1&games-1-opponent=1877&games-1-result=1"
        "&games-2-opponent=1884&games-2-result=1&games-3-opponent=2012&games-3-result=0"
        "&games-4-opponent=1832&games-4-result=0&lang=en",
        1200,
    ),
    "glicko.png": ("/glicko?games-0-opponent=1500&games-0-deviation=500&games-0-result=1&lang=en", 1200),
    "error-es.png": ("/game?rating=15OO&opponent=1600&result=0.5&lang=es", 1200),
    "phone-game-ca.png": ("/game?rating=1500&opponent=1400&result=1&lang=ca", 390),
    # The phone's first screen: the tabs folded into one line, the new rating held at the bottom.
    "phone-tournament-es-screen.png": (
        "/tournament?rating=1500&k_preset=20&games-0-opponent=1400&games-0-result=1&games-1-opponent=1600"
        "&games-1-result=%C2%BD&games-2-opponent=1550&games-2-result=0&lang=es",
        390,
    ),
    "list-es.png": ("/list?lang=es", 1200),
    "list-player-ca.png": ("/list/player/13400304?lang=ca", 1200),
    "phone-list-player-es.png": ("/list/player/13400304?lang=es", 390),
}
#: Printed (print media emulated): what an arbiter gets on paper.
PRINTS = {
    "print-game-es.png": "/game?rating=1500&opponent=1000&result=1&k_preset=20&lang=es",
}
#: File name -> (page, the file chosen in its file field, the element to wait for, then click).
UPLOADS = {
    "report.png": ("/report?lang=en", ROOT / "tests/data/pgn/candidates-2022.pgn", "#row-4", "#row-4 a"),
}


def main() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The rating list: the demo list (built from the real tournament files the package ships).
    folder = tempfile.TemporaryDirectory()
    db = str(Path(folder.name) / "demo.db")
    build_demo(db)
    app = create_app(WebSettings(today=lambda: dt.date(2025, 12, 1), list_db=db))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    target = ROOT / "docs" / "screenshots"
    target.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for name, (path, width) in SHOTS.items():
            height = 844 if width < 500 else 900
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"http://127.0.0.1:{port}{path}")
            if page.locator("#chart").count():
                page.wait_for_selector("#chart[data-ready]")
            if page.locator("#history-chart").count():
                page.wait_for_selector("#history-chart[data-ready]")
            full = name.startswith("phone") and not name.endswith("-screen.png")
            page.screenshot(path=str(target / name), full_page=full, animations="disabled")
            page.close()
            print(target.relative_to(ROOT) / name)
        for name, path in PRINTS.items():
            page = browser.new_page(viewport={"width": 900, "height": 1200})
            page.goto(f"http://127.0.0.1:{port}{path}")
            page.emulate_media(media="print")
            page.screenshot(path=str(target / name), full_page=True, animations="disabled")
            page.close()
            print(target.relative_to(ROOT) / name)
        for name, (path, upload, ready, click) in UPLOADS.items():
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(f"http://127.0.0.1:{port}{path}")
            page.locator("input[type=file][name=file]").set_input_files(upload)
            page.wait_for_selector(ready)
            page.locator(click).click()
            page.screenshot(path=str(target / name), full_page=True, animations="disabled")
            page.close()
            print(target.relative_to(ROOT) / name)
        browser.close()
    server.should_exit = True
    folder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
