"""A Chess.com player's games through its Published-Data API (https://www.chess.com/news/view/published-data-api):
``GET /pub/player/{username}/games/archives`` lists the monthly archives, oldest first; each month,
``GET /pub/player/{username}/games/{YYYY}/{MM}``, holds that month's games with their ``pgn``, ``url``,
``time_class``, ``rules`` and ``end_time``. Usernames go lower case in the path (same page).
Serial requests are never limited; a 429 answers parallel ones (same page): one request at a time.
"""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from datetime import time as clock

from chessrate.errors import InvalidInputError
from chessrate.platforms.http import (
    PATIENT,
    FetchedGames,
    FetchError,
    FetchQuery,
    FetchStop,
    Notice,
    Say,
    base_url,
    open_url,
    read_json,
)

HOST = "Chess.com"
FIELD = "chesscom"
DEFAULT_URL = "https://api.chess.com"
#: The least wait after a 429 when no Retry-After is sent, seconds (Chess.com names none: as Lichess).
WAIT_429 = 60.0
#: Usernames as Chess.com's help centre gives them ("How can I change my username?",
#: support.chess.com/en/articles/8557649): 3 to 20 characters, no spaces, dots or other special
#: characters; one word, or words joined by a dash or an underscore.
USERNAME = re.compile(r"[a-z0-9_-]{3,20}", re.IGNORECASE)
#: An archive's month, as the archives list names it (``.../games/2026/11``).
MONTH = re.compile(r"/games/(\d{4})/(\d{2})$")
#: A game's address as the archives give it (``url``): shown as a link only when it is Chess.com's.
GAME_URL = re.compile(r"https://www\.chess\.com/game/[a-z]+/\d+")
#: Chess.com's ``time_class`` values.
SPEEDS = ("bullet", "blitz", "rapid", "daily")


def check_username(user: str) -> str:
    if not USERNAME.fullmatch(user):
        raise InvalidInputError(FIELD, user, "not a Chess.com username", code="chesscom-username")
    return user


def player_path(user: str) -> str:
    return "/pub/player/" + urllib.parse.quote(user.lower(), safe="")


def fetch(
    query: FetchQuery, say: Say, sleep: Callable[[float], None] = time.sleep, stop: FetchStop = PATIENT
) -> FetchedGames:
    """The player's games, newest first, month by month until ``max_games``."""
    check_username(query.user)
    base = base_url("CHESSRATE_CHESSCOM_URL", DEFAULT_URL) + player_path(query.user)
    archives = _get(base + "/games/archives", query, say, sleep, stop)
    urls = archives.get("archives") if isinstance(archives, dict) else None
    if not isinstance(urls, list) or not all(isinstance(u, str) for u in urls):
        raise FetchError(FIELD, "fetch-other", host=HOST, what="archives")
    months = [m.groups() for u in urls if (m := MONTH.search(u))]
    since = datetime.combine(query.since, clock(0), tzinfo=UTC).timestamp() if query.since else None
    games: list[str] = []
    links: list[str] = []
    note: Notice | None = None
    for year, month in reversed(months):
        if query.since is not None and (int(year), int(month)) < (query.since.year, query.since.month):
            break
        try:
            answer = _get(f"{base}/games/{year}/{month}", query, say, sleep, stop)
        except FetchError as error:
            if not games or error.code in ("fetch-cancelled", "fetch-unknown-user"):
                raise
            note = Notice(
                "fetch-cut-month",
                {"host": HOST, "kept": len(games), "month": f"{year}-{month}", "why": error.code},
            )
            break
        month_games = answer.get("games") if isinstance(answer, dict) else None
        if not isinstance(month_games, list):
            raise FetchError(FIELD, "fetch-other", host=HOST, what="month")
        for game in reversed(month_games):
            if not _wanted(game, query, since):
                continue
            games.append(game["pgn"].strip())
            url = str(game.get("url", ""))
            links.append(url if GAME_URL.fullmatch(url) else "")
            if len(games) >= query.max_games:
                return FetchedGames("\n\n".join(games) + "\n", links, note)
    if not games:
        raise FetchError(
            FIELD, "fetch-no-games", host=HOST, user=query.user, speeds=",".join(query.speeds),
            since=query.since.isoformat() if query.since else "",
        )  # fmt: skip
    return FetchedGames("\n\n".join(games) + "\n", links, note)


def _wanted(game: object, query: FetchQuery, since: float | None) -> bool:
    if (
        not isinstance(game, dict)
        or not isinstance(game.get("pgn"), str)
        or game.get("rules", "chess") != "chess"
    ):
        return False
    if query.speeds and game.get("time_class") not in query.speeds:
        return False
    end = game.get("end_time")
    return since is None or (isinstance(end, int | float) and end >= since)


def _get(url: str, query: FetchQuery, say: Say, sleep: Callable[[float], None], stop: FetchStop) -> object:
    response = open_url(
        url, accept="application/json", field=FIELD, host=HOST, wait_429=WAIT_429, say=say, sleep=sleep,
        stop=stop,
    )  # fmt: skip
    if response.status in (404, 410):
        raise FetchError(FIELD, "fetch-unknown-user", host=HOST, user=query.user)
    with response:
        return read_json(response, field=FIELD, host=HOST, stop=stop)
