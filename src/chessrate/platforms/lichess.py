"""A Lichess user's games through its public API: ``GET /api/games/user/{username}``, NDJSON streamed.

Lichess API reference, "Export games of a user" (https://lichess.org/api#tag/Games): query ``max``,
``since`` (milliseconds since the epoch), ``perfType`` (comma-separated), ``clocks``, ``evals``,
``opening``, ``pgnInJson``; ``Accept: application/x-ndjson`` gives one JSON game a line. On a 429,
"wait a full minute before resuming API usage" (Lichess API tips).
"""

from __future__ import annotations

import json
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
    read_lines,
)

HOST = "Lichess"
FIELD = "lichess"
DEFAULT_URL = "https://lichess.org"
#: The least wait after a 429, seconds (Lichess API tips: a full minute).
WAIT_429 = 60.0
#: Usernames as Lichess takes them for existing accounts: 2 to 30 letters, digits, ``_`` or ``-``,
#: the first and last a letter or digit (lila, modules/user/src/main/User.scala,
#: ``historicalUsernameRegex``; UserForm's ``historicalUsernameConstraints``: 2 to 30). New accounts
#: must also start with a letter (``newUsernameRegex``), which older ones need not.
USERNAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,28}[a-z0-9]", re.IGNORECASE)
#: lila's ``isGhost``: "ghost" stands for every deleted account (same file); never an account.
GHOST = "ghost"
#: A game's id as the export gives it (eight letters and digits), the last part of its address.
GAME_ID = re.compile(r"[A-Za-z0-9]{8}")
#: Lichess's speeds (``perfType`` values for standard chess).
SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def check_username(user: str) -> str:
    if not USERNAME.fullmatch(user) or user.lower() == GHOST:
        raise InvalidInputError(FIELD, user, "not a Lichess username", code="lichess-username")
    return user


def games_url(query: FetchQuery) -> str:
    """The request, path and query as Lichess documents them."""
    params: dict[str, str] = {"max": str(query.max_games)}
    if query.since is not None:
        start = datetime.combine(query.since, clock(0), tzinfo=UTC)
        params["since"] = str(int(start.timestamp() * 1000))
    if query.speeds:
        params["perfType"] = ",".join(query.speeds)
    params.update(clocks="true", evals="true", opening="true", pgnInJson="true")
    path = "/api/games/user/" + urllib.parse.quote(query.user, safe="")
    return base_url("CHESSRATE_LICHESS_URL", DEFAULT_URL) + path + "?" + urllib.parse.urlencode(params)


def fetch(
    query: FetchQuery, say: Say, sleep: Callable[[float], None] = time.sleep, stop: FetchStop = PATIENT
) -> FetchedGames:
    """The user's games, newest first; a stream cut half-way keeps the whole games read."""
    check_username(query.user)
    response = open_url(
        games_url(query), accept="application/x-ndjson", field=FIELD, host=HOST, wait_429=WAIT_429,
        say=say, sleep=sleep, stop=stop,
    )  # fmt: skip
    if response.status in (404, 410):
        raise FetchError(FIELD, "fetch-unknown-user", host=HOST, user=query.user)
    if not response.headers.get("Content-Type", "").startswith("application/x-ndjson"):
        raise FetchError(FIELD, "fetch-other", host=HOST, what="ndjson")
    games: list[str] = []
    links: list[str] = []
    site = base_url("CHESSRATE_LICHESS_URL", DEFAULT_URL)
    note: Notice | None = None
    with response:
        try:
            for line, whole in read_lines(response, field=FIELD, host=HOST, stop=stop):
                if not line.strip():
                    continue
                try:
                    game = json.loads(line) if whole else None
                except ValueError:
                    game = None
                if not isinstance(game, dict) or not isinstance(game.get("pgn"), str):
                    if whole:
                        raise FetchError(FIELD, "fetch-other", host=HOST, what="ndjson")
                    note = Notice("fetch-cut", {"host": HOST, "game": len(games) + 1, "kept": len(games)})
                    break
                games.append(game["pgn"].strip())
                game_id = str(game.get("id", ""))
                links.append(f"{site}/{game_id}" if GAME_ID.fullmatch(game_id) else "")
                if len(games) >= query.max_games:
                    break
        except FetchError as error:  # silent half-way: the games read are kept
            if not games or error.code != "fetch-timeout":
                raise
            note = Notice(
                "fetch-cut-silent", {"host": HOST, "game": len(games) + 1, "kept": len(games), **error.params}
            )
    if not games:
        if note is not None:
            raise FetchError(FIELD, "fetch-cut-empty", host=HOST)
        raise FetchError(
            FIELD, "fetch-no-games", host=HOST, user=query.user, speeds=",".join(query.speeds),
            since=query.since.isoformat() if query.since else "",
        )  # fmt: skip
    return FetchedGames("\n\n".join(games) + "\n", links, note)
