"""Games by username (issue 31): a Lichess or Chess.com user's games turned into the PGN file that
``strength`` and ``analyse`` already take, so that fetched games go the same way as an upload.

A refusal leaves here as a :class:`~chessrate.platforms.FetchError` whose message is its English
sentence from the catalog, with its code and values for a face to say in its own language
(:mod:`chessrate.service.fetch_refusals`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from chessrate.errors import InvalidInputError
from chessrate.parse import parse_count, parse_date
from chessrate.platforms import FetchedGames, FetchError, FetchQuery, FetchStop, chesscom, lichess
from chessrate.platforms.http import PATIENT, Say
from chessrate.service.fetch_refusals import fetch_text
from chessrate.service.language import ENGLISH
from chessrate.service.tournament_file import FileInput

#: ``--max``'s default (issue 31).
DEFAULT_MAX = 20
#: Most games one request may fetch (the command line; the web has its own, smaller cap).
MAX_GAMES = 500
PLATFORMS = {"lichess": lichess, "chesscom": chesscom}
#: Each platform's name as its users know it.
HOSTS = {"lichess": lichess.HOST, "chesscom": chesscom.HOST}


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
        raise InvalidInputError(
            "platform", inputs.platform, "write one of: lichess, chesscom", code="one-of",
            params={"choices": "lichess, chesscom"},
        )  # fmt: skip
    try:
        user = platform.check_username(inputs.user.strip())
    except InvalidInputError as error:  # the platform's rule, said from the catalog
        reason = fetch_text(error.code, error.params, ENGLISH)
        raise InvalidInputError(error.field, error.value, reason, code=error.code) from None
    cap = inputs.cap or MAX_GAMES
    text = inputs.max_games.strip()
    max_games = parse_count(text, field="max", minimum=1, maximum=cap) if text else min(DEFAULT_MAX, cap)
    known = {speed.lower(): speed for speed in platform.SPEEDS}
    speeds = []
    for word in filter(None, (w.strip() for w in inputs.speeds.split(","))):
        if word.lower() not in known:
            choices = ", ".join(platform.SPEEDS)
            raise InvalidInputError(
                "speed", word, f"write one of: {choices}", code="one-of", params={"choices": choices}
            )
        speeds.append(known[word.lower()])
    since = parse_date(inputs.since.strip(), field="since") if inputs.since.strip() else None
    return FetchQuery(user=user, max_games=max_games, speeds=tuple(speeds), since=since)


def fetch_file(
    inputs: FetchInputs,
    say: Say,
    sleep: Callable[[float], None] = time.sleep,
    stop: FetchStop = PATIENT,
) -> FetchedFile:
    """The user's games as a PGN :class:`FileInput`, named ``lichess:USER`` or ``chesscom:USER``.

    A refusal is raised with its English sentence (its code and values kept for other languages).
    """
    query = fetch_query(inputs)
    try:
        games = PLATFORMS[inputs.platform].fetch(query, say, sleep, stop)
    except FetchError as error:
        raise FetchError(
            error.field, error.code, fetch_text(error.code, error.params, ENGLISH), **error.params
        ) from None
    data = games.pgn.encode("utf-8")
    return FetchedFile(FileInput(name=f"{inputs.platform}:{query.user}", data=data, size=len(data)), games)
