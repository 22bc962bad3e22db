"""The HTTP both platforms share: one request at a time, chessrate named in the User-Agent, a
timeout that is a setting, a 429 waited out as the platform asks, and a stop that a face can pull.

The standard library's client (urllib) is enough for two GET endpoints and adds no dependency.
Nothing here writes a sentence: a refusal is a :class:`FetchError` with a code and its values, and
a progress line a :class:`Notice`; the request layer says both from the catalogs
(``chessrate.service.fetch_refusals``, docs/codes.md).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import ssl
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from http.client import HTTPException, HTTPResponse, IncompleteRead
from importlib import metadata

from chessrate.errors import (
    NETWORK_CUT,
    NETWORK_FAILED,
    NETWORK_NAME_UNKNOWN,
    NETWORK_NO_ROUTE,
    NETWORK_NOT_SECURE,
    NETWORK_REFUSED,
    CodedError,
    Reason,
)

#: Seconds a platform may stay silent (connecting or between two reads) before we give up;
#: ``CHESSRATE_FETCH_TIMEOUT`` overrides it. Under the 60 s issue 31 allows for one line.
DEFAULT_TIMEOUT = 20.0
#: How many times a 429 is waited out before the rate limit is reported.
MAX_RETRIES = 2


@dataclass(frozen=True)
class Notice:
    """A line for the user while fetching (a 429's wait, a stream cut): a code and its values."""

    code: str
    params: dict[str, object] = field(default_factory=dict)


#: Says what the fetch is doing (a 429's wait), for standard error.
Say = Callable[[Notice], None]


class FetchError(CodedError):
    """A platform could not give the games: ``field`` is the option (``lichess``, ``chesscom``),
    ``code`` the fault (docs/codes.md, "Fetching by username") and ``params`` its values."""

    def __init__(self, field: str, code: str, message: str = "", **params: object) -> None:
        self.field = field
        super().__init__(message or f"{code} {params}", code=code, params=params)


class FetchStop:
    """Ends a fetch early: :meth:`cancel` (the web's client left) or a deadline of ``seconds`` for
    the whole fetch. ``wait_429``: whether a 429 is waited out (the command line) or reported at
    once (the web, whose client will not wait a minute)."""

    def __init__(self, seconds: float | None = None, *, wait_429: bool = True) -> None:
        self.seconds = seconds
        self.wait_429 = wait_429
        self._deadline = None if seconds is None else time.monotonic() + seconds
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def remaining(self) -> float | None:
        return None if self._deadline is None else self._deadline - time.monotonic()

    def check(self, field: str, host: str) -> None:
        """Raise when the fetch must end: cancelled, or out of time."""
        if self.cancelled:
            raise FetchError(field, "fetch-cancelled", host=host)
        remaining = self.remaining()
        if remaining is not None and remaining <= 0:
            raise FetchError(field, "fetch-timeout", host=host, seconds=self.seconds)


#: A fetch nobody stops, with no deadline but each read's timeout (the command line's).
PATIENT = FetchStop()


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
    #: The stream was cut (code ``fetch-cut``) and how much was kept; None when all came.
    note: Notice | None = None

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


def read_timeout(stop: FetchStop) -> float:
    """Each read's timeout: the setting, or less when the whole fetch's deadline is nearer."""
    remaining = stop.remaining()
    return timeout() if remaining is None else max(0.1, min(timeout(), remaining))


def base_url(variable: str, default: str) -> str:
    return (os.environ.get(variable) or default).rstrip("/")


def _retry_after(response_headers: object, least: float) -> float:
    value = getattr(response_headers, "get", lambda _name: None)("Retry-After")
    try:
        return max(least, float(value)) if value else least
    except ValueError:
        return least


def network_reason(error: object) -> Reason:
    """Why a platform cannot be reached, as ``error`` (a URLError's reason: an OSError, else its
    words) says, as a code and its English (never the system's words)."""
    if isinstance(error, socket.gaierror):
        return NETWORK_NAME_UNKNOWN
    if isinstance(error, ssl.SSLError):
        return NETWORK_NOT_SECURE
    if isinstance(error, ConnectionRefusedError):
        return NETWORK_REFUSED
    if isinstance(error, ConnectionError | IncompleteRead):  # EPIPE is BrokenPipeError, a ConnectionError
        return NETWORK_CUT
    if getattr(error, "errno", None) in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN):
        return NETWORK_NO_ROUTE
    return NETWORK_FAILED


def _silent(field: str, host: str, stop: FetchStop) -> FetchError:
    """The platform said nothing in time: the whole fetch's deadline, or one read's timeout."""
    remaining = stop.remaining()
    if remaining is not None and remaining <= 0.1 and stop.seconds is not None:
        return FetchError(field, "fetch-timeout", host=host, seconds=stop.seconds)
    return FetchError(field, "fetch-timeout", host=host, seconds=read_timeout(stop))


def open_url(
    url: str,
    *,
    accept: str,
    field: str,
    host: str,
    wait_429: float,
    say: Say,
    sleep: Callable[[float], None] = time.sleep,
    stop: FetchStop = PATIENT,
) -> HTTPResponse:
    """GET ``url`` (built by us, never given by a user); a 404 is returned for the caller to name."""
    request = urllib.request.Request(url, headers={"User-Agent": user_agent(), "Accept": accept})
    retries = MAX_RETRIES if stop.wait_429 else 0
    for attempt in range(retries + 1):
        stop.check(field, host)
        try:
            response: HTTPResponse = urllib.request.urlopen(request, timeout=read_timeout(stop))
            return response
        except urllib.error.HTTPError as error:
            if error.code == 429 and attempt < retries:
                seconds = _retry_after(error.headers, wait_429)
                say(Notice("fetch-waiting", {"host": host, "seconds": round(seconds)}))
                sleep(seconds)
                continue
            if error.code == 429:
                raise FetchError(field, "fetch-rate-limited", host=host) from None
            if error.code in (404, 410):
                return error  # type: ignore[return-value]  # an HTTPError is also the response
            raise FetchError(field, "fetch-http-status", host=host, status=error.code) from None
        except TimeoutError:
            raise _silent(field, host, stop) from None
        except (urllib.error.URLError, HTTPException, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError | socket.timeout):
                raise _silent(field, host, stop) from None
            raise FetchError(
                field, "fetch-unreachable", host=host, reason=network_reason(reason).code
            ) from None
    raise AssertionError("unreachable")  # pragma: no cover


def read_lines(
    response: HTTPResponse, *, field: str, host: str, stop: FetchStop = PATIENT
) -> Iterator[tuple[bytes, bool]]:
    """The body's lines as they stream in, each with whether it ended whole (a newline); a cut
    stream ends the iteration early with its last partial line marked not whole."""
    while True:
        stop.check(field, host)
        try:
            line = response.readline()
        except TimeoutError:
            raise _silent(field, host, stop) from None
        except (HTTPException, OSError) as error:
            partial = getattr(error, "partial", b"")
            if partial:
                yield partial, False
            return
        if not line:
            return
        yield line, line.endswith(b"\n")


def read_json(response: HTTPResponse, *, field: str, host: str, stop: FetchStop = PATIENT) -> object:
    try:
        return json.loads(response.read())
    except TimeoutError:
        raise _silent(field, host, stop) from None
    except (HTTPException, OSError, ValueError):
        raise FetchError(field, "fetch-other", host=host, what="json") from None
