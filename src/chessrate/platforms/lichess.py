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
from chessrate.platforms.http import FetchedGames, FetchError, FetchQuery, Say, base_url, open_url, read_lines

HOST = "Lichess"
FIELD = "lichess"
DEFAULT_URL = "https://lichess.org"
#: The least wait after a 429, seconds (Lichess API tips: a full minute).
WAIT_429 = 60.0
#: Usernames as Lichess accepts them for existing accounts: 2 to 30 letters, digits, ``_`` or
#: ``-``, starting and ending with a letter or digit (lila, modules/user, ``historicalUsernameRegex``).
USERNAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,28}[a-z0-9]", re.IGNORECASE)
OTHER = "Lichess answered something other than the documented NDJSON games"
#: Lichess's speeds (``perfType`` values for standard chess).
OTHER = "Lichess answered something other than the documented NDJSON games"
SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def check_username(user: str) -> str:
    if not USERNAME.fullmatch(user):
        raise InvalidInputError(
            FIELD, user, "not a Lichess username (2 to 30 letters, digits, _ or -, starting and ending "
            "with a letter or digit)"
        )  # fmt: skip
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


def fetch(query: FetchQuery, say: Say, sleep: Callable[[float], None] = time.sleep) -> FetchedGames:
    """The user's games, newest first; a stream cut half-way keeps the whole games read."""
    check_username(query.user)
    response = open_url(
        games_url(query), accept="application/x-ndjson", field=FIELD, host=HOST, wait_429=WAIT_429,
        say=say, sleep=sleep,
    )  # fmt: skip
    if response.status in (404, 410):
        raise FetchError(FIELD, f"no Lichess account named '{query.user}' (unknown or closed)")
    if not response.headers.get("Content-Type", "").startswith("application/x-ndjson"):
        raise FetchError(FIELD, OTHER)
    games: list[str] = []
    links: list[str] = []
    site = base_url("CHESSRATE_LICHESS_URL", DEFAULT_URL)
    note = ""
    with response:
        try:
            for line, whole in read_lines(response, field=FIELD, host=HOST):
                if not line.strip():
                    continue
                try:
                    game = json.loads(line) if whole else None
                except ValueError:
                    game = None
                if not isinstance(game, dict) or not isinstance(game.get("pgn"), str):
                    if whole:
                        raise FetchError(FIELD, OTHER)
                    note = f"the Lichess stream was cut in game {len(games) + 1}: {_kept(games)}"
                    break
                games.append(game["pgn"].strip())
                links.append(f"{site}/{game.get('id', '')}")
                if len(games) >= query.max_games:
                    break
        except FetchError as error:  # silent half-way: the games read are kept
            if not games or str(error) == OTHER:
                raise
            note = f"{error} in game {len(games) + 1}: {_kept(games)}"
    if not games:
        if note:
            raise FetchError(FIELD, "the Lichess stream was cut before one whole game came")
        raise FetchError(FIELD, _no_games(query))
    return FetchedGames("\n\n".join(games) + "\n", links, note)


def _kept(games: list[str]) -> str:
    return f"kept the {len(games)} whole games"


def _no_games(query: FetchQuery) -> str:
    speeds = f" {','.join(query.speeds)}" if query.speeds else ""
    since = f" since {query.since.isoformat()}" if query.since else ""
    return f"'{query.user}' has no{speeds} games on Lichess{since}"
