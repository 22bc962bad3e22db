"""Games fetched by username for the strength page (issue 31), off the event loop and bounded.

Only the request layer's :func:`~chessrate.service.fetch.fetch_file` is called, so only Lichess's
and Chess.com's hosts are contacted, with a username checked by its platform's rules first; no
address the client sends is ever fetched. Around it, for an anonymous web:

- **per client**: at most ``fetch_per_minute`` fetches started in any 60 s by one address
  (:class:`ClientLimits`); one more is answered 429 with ``Retry-After``;
- **per platform**: one fetch at a time (both platforms ask for serial requests), on a thread;
- **a deadline**: ``fetch_seconds`` for the whole fetch, and a 429 is reported, never waited out;
- **cancelled** when the client leaves: the fetch stops at its next read.

docs/security.md lists the caps.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

import anyio
from fastapi import Request

from chessrate.platforms import FetchError, FetchStop, Notice
from chessrate.service.fetch import PLATFORMS, FetchedFile, FetchInputs, fetch_file
from chessrate.service.fetch_refusals import fetch_text
from chessrate.service.problems import Problems

log = logging.getLogger("chessrate.web")

#: The window of the per-client limit, seconds.
WINDOW = 60.0
#: Most client addresses remembered at once; beyond it the oldest are forgotten (bounded memory).
MAX_CLIENTS = 10_000
#: How often a fetch looks whether its client is still there, seconds.
DISCONNECT_POLL = 0.5


class ClientLimits:
    """Fetches started per client address in the last :data:`WINDOW` seconds."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._lock = threading.Lock()
        self._started: dict[str, deque[float]] = {}

    def start(self, client: str, now: float | None = None) -> float:
        """0 when ``client`` may start a fetch now (it is counted), else the seconds to wait."""
        now = time.monotonic() if now is None else now
        with self._lock:
            started = self._started.pop(client, deque())
            while started and now - started[0] >= WINDOW:
                started.popleft()
            self._started[client] = started  # the newest last, for forgetting the oldest
            if len(started) >= self.per_minute:
                return WINDOW - (now - started[0])
            started.append(now)
            while len(self._started) > MAX_CLIENTS:
                del self._started[next(iter(self._started))]
            return 0.0


@dataclass
class Fetched:
    """A fetch's end: the games, or a refusal kept in the problems (with its HTTP status)."""

    games: FetchedFile | None = None
    status: int = 200
    retry_after: int | None = None
    #: The client left before the end (nobody to answer).
    gone: bool = False


def client_key(request: Request) -> str:
    """The client's address (uvicorn sets it from X-Forwarded-For behind a trusted proxy)."""
    return request.client.host if request.client else "unknown"


def _limits(request: Request) -> ClientLimits:
    state = request.app.state
    if not hasattr(state, "fetch_limits"):
        state.fetch_limits = ClientLimits(state.site.settings.fetch_per_minute)
    limits: ClientLimits = state.fetch_limits
    return limits


def _platform_limiter(request: Request, platform: str) -> anyio.CapacityLimiter:
    """One fetch at a time per platform (made on first use, inside the event loop)."""
    state = request.app.state
    if not hasattr(state, "fetch_limiters"):
        state.fetch_limiters = {name: anyio.CapacityLimiter(1) for name in PLATFORMS}
    limiter: anyio.CapacityLimiter = state.fetch_limiters[platform]
    return limiter


def sentence(text: str) -> str:
    """A reason as a field's message: capital first, full stop last."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


async def fetch_games(request: Request, inputs: FetchInputs, problems: Problems, seconds: float) -> Fetched:
    """The user's games, fetched on a thread; a refusal kept under ``user`` in ``problems``."""
    t = problems.t
    wait = _limits(request).start(client_key(request))
    if wait > 0:
        limits = _limits(request)
        problems.add(
            ("user",),
            inputs.user,
            "fetch-client-limit",
            message=t.gettext(
                "At most %(count)s fetches a minute from one address: try again in a minute.",
                count=limits.per_minute,
            ),
        )
        return Fetched(status=429, retry_after=max(1, round(wait)))
    stop = FetchStop(seconds, wait_429=False)

    def run() -> FetchedFile:
        return fetch_file(inputs, _ignore, stop=stop)

    limiter = _platform_limiter(request, inputs.platform)
    task = asyncio.ensure_future(anyio.to_thread.run_sync(run, limiter=limiter))
    while True:
        done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
        if done:
            break
        if await request.is_disconnected():
            stop.cancel()
            return Fetched(gone=True)
    try:
        return Fetched(games=task.result())
    except FetchError as error:  # the platform's refusal: a field error, in the page's language
        message = sentence(fetch_text(error.code, error.params, t))
    except Exception:  # whatever else: the request's problem, never a 500
        log.exception("fetching %s's games failed", inputs.platform)
        message = t.gettext("The games could not be fetched: try again later.")
    problems.add(("user",), inputs.user, "fetch-failed", message=message)
    return Fetched(status=422)


def _ignore(_notice: Notice) -> None:
    """The web waits out no 429 (``wait_429=False``): nothing to say while fetching."""
