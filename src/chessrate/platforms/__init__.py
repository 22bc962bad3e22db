"""Games fetched by username from Lichess and Chess.com (issue 31), below the request layer.

Only the two platforms' public APIs are contacted, at base URLs that are settings
(``CHESSRATE_LICHESS_URL``, ``CHESSRATE_CHESSCOM_URL``); a username is checked by the platform's
own rules before any request, and no user-supplied URL is ever fetched.
"""

from __future__ import annotations

from chessrate.platforms.http import FetchedGames, FetchError, FetchQuery, FetchStop, Notice

__all__ = ["FetchError", "FetchQuery", "FetchStop", "FetchedGames", "Notice"]
