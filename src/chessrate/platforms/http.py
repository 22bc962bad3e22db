"""The HTTP both platforms share: one request at a time, chessrate named in the User-Agent, a
timeout that is a setting, and a 429 waited out as the platform asks.

The standard library's client (urllib) is enough for two GET endpoints and adds no dependency.
"""

from __future__ import annotations

import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from http.client import HTTPException, HTTPResponse
from importlib import metadata

from chessrate.errors import RatingError

#: Seconds a platform may stay silent (connecting or between two reads) before we give up;
#: ``CHESSRATE_FETCH_TIMEOUT`` overrides it. Under the 60 s issue 31 allows for one line.
DEFAULT_TIMEOUT = 20.0
#: How many times a 429 is waited out before the rate limit is reported.
MAX_RETRIES = 2

#: Says what the fetch is doing (a 429's wait): one line, for standard error.
Say = Callable[[str], None]


class FetchError(RatingError):
    """A platform could not give the games: ``field`` is the option (``lichess``, ``chesscom``)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True, kw_only=True)
class FetchQuery:
    """Which of a user's games: newest first, at most ``max_games``, of these speeds, since a day."""

    user: str
    max_games: int = 20
    #: Lichess's and Chess.com's speed names (``blitz``, ``rapid``...); empty: every speed.
    speeds: tuple[str, ...] = ()
    since: date | None = None


@dataclass(frozen=True)
class FetchedGames:
    """The games as PGN text (one after another), each game's link, and what went short."""

    pgn: str
    links: list[str] = field(default_factory=list)
    #: A line saying the stream was cut and how much was kept; "" when all came.
    note: str = ""

    @property
    def count(self) -> int:
        return len(self.links)


def user_agent() -> str:
    try:
        version = metadata.version("chessrate")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"chessrate/{version} (+https://github.com/chessrate; games by username, issue 31)"


def timeout() -> float:
    text = os.environ.get("CHESSRATE_FETCH_TIMEOUT", "")
    try:
        value = float(text) if text else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def base_url(variable: str, default: str) -> str:
    return (os.environ.get(variable) or default).rstrip("/")


def _retry_after(response_headers: object, least: float) -> float:
    value = getattr(response_headers, "get", lambda _name: None)("Retry-After")
    try:
        return max(least, float(value)) if value else least
    except ValueError:
        return least


def open_url(
    url: str,
    *,
    accept: str,
    field: str,
    host: str,
    wait_429: float,
    say: Say,
    sleep: Callable[[float], None] = time.sleep,
) -> HTTPResponse:
    """GET ``url`` (built by us, never given by a user); a 404 is returned for the caller to name."""
    request = urllib.request.Request(url, headers={"User-Agent": user_agent(), "Accept": accept})
    for attempt in range(MAX_RETRIES + 1):
        try:
            response: HTTPResponse = urllib.request.urlopen(request, timeout=timeout())
            return response
        except urllib.error.HTTPError as error:
            if error.code == 429 and attempt < MAX_RETRIES:
                seconds = _retry_after(error.headers, wait_429)
                say(f"{host} is rate limiting (429): waiting {seconds:.0f} s as it asks, then trying again")
                sleep(seconds)
                continue
            if error.code == 429:
                raise FetchError(field, f"{host} is rate limiting (429); try again later") from None
            if error.code in (404, 410):
                return error  # type: ignore[return-value]  # an HTTPError is also the response
            raise FetchError(field, f"{host} answered HTTP {error.code}, not the games") from None
        except TimeoutError:
            raise FetchError(field, f"{host} did not answer within {timeout():g} s") from None
        except (urllib.error.URLError, HTTPException, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError | socket.timeout):
                raise FetchError(field, f"{host} did not answer within {timeout():g} s") from None
            raise FetchError(field, f"{host} could not be reached: {reason}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def read_lines(response: HTTPResponse, *, field: str, host: str) -> Iterator[tuple[bytes, bool]]:
    """The body's lines as they stream in, each with whether it ended whole (a newline); a cut
    stream ends the iteration early with its last partial line marked not whole."""
    while True:
        try:
            line = response.readline()
        except TimeoutError:
            raise FetchError(field, f"{host} stopped answering for {timeout():g} s") from None
        except (HTTPException, OSError) as error:
            partial = getattr(error, "partial", b"")
            if partial:
                yield partial, False
            return
        if not line:
            return
        yield line, line.endswith(b"\n")


def read_json(response: HTTPResponse, *, field: str, host: str) -> object:
    try:
        return json.loads(response.read())
    except TimeoutError:
        raise FetchError(field, f"{host} stopped answering for {timeout():g} s") from None
    except (HTTPException, OSError, ValueError):
        raise FetchError(field, f"{host} answered something other than the documented JSON") from None
