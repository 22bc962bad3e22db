"""What fetching games by username can say, each once: a code, its values and one template in the
catalogs (issue 31; docs/codes.md, "Fetching by username").

:mod:`chessrate.platforms` raises a :class:`~chessrate.platforms.FetchError` (or an
:class:`~chessrate.errors.InvalidInputError` for a username its platform would never take) with a
code and values, and reports a stream cut or a 429's wait as a
:class:`~chessrate.platforms.Notice`; every face says them from here in the user's language
(:func:`chessrate.service.problems.input_reason` reads :data:`FETCH_REFUSALS` too). Apart from
:mod:`chessrate.service.fetch` so that the problems module can read them without a cycle.
"""

from __future__ import annotations

from collections.abc import Callable

from chessrate.errors import NETWORK_REASONS
from chessrate.platforms import Notice
from chessrate.service.language import ENGLISH, Translator, said, said_plural, said_with_reason

Template = Callable[[Translator, dict[str, object]], str]


def _no_games(t: Translator, p: dict[str, object]) -> str:
    """No game of the speeds asked for (if any), since the day asked for (if any)."""
    if p.get("speeds") and p.get("since"):
        return t.gettext("“%(user)s” has no %(speeds)s games on %(host)s since %(since)s", **p)
    if p.get("speeds"):
        return t.gettext("“%(user)s” has no %(speeds)s games on %(host)s", **p)
    if p.get("since"):
        return t.gettext("“%(user)s” has no games on %(host)s since %(since)s", **p)
    return t.gettext("“%(user)s” has no games on %(host)s", **p)


#: Why a platform cannot be reached (the codes of chessrate.platforms.http.network_reason).
_NETWORK_REASONS: dict[str, Template] = {reason.code: said(reason.english) for reason in NETWORK_REASONS}


#: Refusals (``FetchError.code``, the usernames' ``InvalidInputError.code``) and notices, by code.
FETCH_REFUSALS: dict[str, Template] = {
    "lichess-username": said(
        "not a Lichess username: 2 to 30 letters, digits, _ or -, the first and last a letter or digit"
    ),
    "chesscom-username": said("not a Chess.com username: 3 to 20 letters, digits, _ or -"),
    "fetch-unknown-user": said("no %(host)s account named “%(user)s” (unknown or closed)"),
    "fetch-no-games": _no_games,
    "fetch-rate-limited": said("%(host)s is limiting our requests (429): try again in a few minutes"),
    "fetch-timeout": lambda t, p: t.gettext(
        "%(host)s did not answer within %(seconds)s s", host=p["host"], seconds=_seconds(t, p)
    ),
    "fetch-cancelled": said("the fetch from %(host)s was stopped"),
    "fetch-http-status": said("%(host)s answered HTTP %(status)s, not the games"),
    "fetch-unreachable": said_with_reason(
        said("%(host)s could not be reached (%(reason)s)"), _NETWORK_REASONS
    ),
    "fetch-other": said("%(host)s answered something other than the games its API documents"),
    "fetch-cut-empty": said("the answer of %(host)s was cut before one whole game came"),
    # Notices: a stream cut half-way (what was kept), a 429 waited out, the games fetched.
    "fetch-cut": said_plural(
        "the answer of %(host)s was cut in game %(game)s: kept the %(num)s whole game before it",
        "the answer of %(host)s was cut in game %(game)s: kept the %(num)s whole games before it",
        "kept",
    ),
    "fetch-cut-silent": lambda t, p: t.ngettext(
        "%(host)s stopped answering for %(seconds)s s in game %(game)s: kept the %(num)s whole game "
        "before it",
        "%(host)s stopped answering for %(seconds)s s in game %(game)s: kept the %(num)s whole games "
        "before it",
        int(str(p["kept"])),
        host=p["host"],
        game=p["game"],
        seconds=_seconds(t, p),
    ),
    "fetch-cut-month": said_plural(
        "the archive of %(month)s could not be read from %(host)s: kept the %(num)s game of the months "
        "after it",
        "the archive of %(month)s could not be read from %(host)s: kept the %(num)s games of the months "
        "after it",
        "kept",
    ),
    "fetch-waiting": said(
        "%(host)s is limiting our requests (429): waiting %(seconds)s s as it asks, then trying again"
    ),
    "fetched": said_plural(
        "%(num)s game of %(user)s fetched from %(host)s",
        "%(num)s games of %(user)s fetched from %(host)s",
        "count",
    ),
}


def _seconds(t: Translator, p: dict[str, object]) -> str:
    value = p["seconds"]
    return t.number(value, 1) if isinstance(value, int | float) else str(value)


def fetch_text(code: str, params: dict[str, object], t: Translator = ENGLISH) -> str:
    """The refusal or notice ``code`` with its values, in ``t``'s language (English by default)."""
    return FETCH_REFUSALS[code](t, params)


def notice_text(notice: Notice, t: Translator = ENGLISH) -> str:
    return fetch_text(notice.code, notice.params, t)
