"""Games by username (issue 31): a Lichess or Chess.com user's games turned into the PGN file that
``strength`` and ``analyse`` already take, so that fetched games go the same way as an upload.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from chessrate.errors import InvalidInputError
from chessrate.parse import parse_count, parse_date
from chessrate.platforms import FetchedGames, FetchQuery, chesscom, lichess
from chessrate.platforms.http import Say
from chessrate.service.tournament_file import FileInput

#: ``--max``'s default (issue 31).
DEFAULT_MAX = 20
#: Most games one request may fetch (the command line; the web has its own, smaller cap).
MAX_GAMES = 500
PLATFORMS = {"lichess": lichess, "chesscom": chesscom}


@dataclass(frozen=True, kw_only=True)
class FetchInputs:
    """What the command line or the web sent, as text."""

    #: ``lichess`` or ``chesscom``: also the field a problem is said on.
    platform: str
    user: str
    max_games: str = ""
    #: Comma-separated speeds (``blitz,rapid``); "" for every speed.
    speeds: str = ""
    #: ``YYYY-MM-DD``; "" for no bound.
    since: str = ""
    #: The face's own cap on ``max_games`` (the web's game limit); None: :data:`MAX_GAMES`.
    cap: int | None = None


@dataclass(frozen=True)
class FetchedFile:
    file: FileInput
    games: FetchedGames


def fetch_query(inputs: FetchInputs) -> FetchQuery:
    """The inputs checked: the username by its platform's rules, before any request is made."""
    platform = PLATFORMS.get(inputs.platform)
    if platform is None:
        raise InvalidInputError("platform", inputs.platform, "not lichess or chesscom")
    user = platform.check_username(inputs.user.strip())
    cap = inputs.cap or MAX_GAMES
    text = inputs.max_games.strip()
    max_games = parse_count(text, field="max", minimum=1, maximum=cap) if text else min(DEFAULT_MAX, cap)
    known = {speed.lower(): speed for speed in platform.SPEEDS}
    speeds = []
    for word in filter(None, (w.strip() for w in inputs.speeds.split(","))):
        if word.lower() not in known:
            raise InvalidInputError("speed", word, f"not one of {', '.join(platform.SPEEDS)}")
        speeds.append(known[word.lower()])
    since = parse_date(inputs.since.strip(), field="since") if inputs.since.strip() else None
    return FetchQuery(user=user, max_games=max_games, speeds=tuple(speeds), since=since)


def fetch_file(inputs: FetchInputs, say: Say, sleep: Callable[[float], None] = time.sleep) -> FetchedFile:
    """The user's games as a PGN :class:`FileInput`, named ``lichess:USER`` or ``chesscom:USER``."""
    query = fetch_query(inputs)
    games = PLATFORMS[inputs.platform].fetch(query, say, sleep)
    data = games.pgn.encode("utf-8")
    return FetchedFile(FileInput(name=f"{inputs.platform}:{query.user}", data=data, size=len(data)), games)
