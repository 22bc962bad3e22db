"""Reading the HTML form (or a shared URL's query) into the request layer's inputs.

Lists of games are rows named ``games-0-opponent``, ``games-0-result``...; a period's tournaments
are ``events-0-start_rating`` and ``events-0-games-0-opponent``... Rows are added and removed by an
``action`` button (``add:games``, ``remove:games:2``, ``add:events:1:games``), handled here on the
server so that it works the same with JavaScript on or off.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TypeVar

from chessrate.parse import is_digits
from chessrate.service.elo import (
    MAX_EVENTS,
    MAX_ROWS,
    AverageInputs,
    EventInputs,
    GameInputs,
    GameRow,
    KFactorInputs,
    PerformanceInputs,
    PeriodInputs,
    TournamentInputs,
)
from chessrate.service.glicko import GlickoInputs
from chessrate.service.options import OptionInputs

Form = Mapping[str, str]
R = TypeVar("R")

#: Rows shown in an empty list.
DEFAULT_ROWS = {"tournament": 3, "performance": 3, "event": 2, "glicko": 3}
DEFAULT_EVENTS = 2

_GAME_KEY = re.compile(r"games-(\d+)-(opponent|result|deviation)")
_EVENT_KEY = re.compile(r"events-(\d+)-(start_rating|games-(\d+)-(opponent|result))")


def text(form: Form, name: str, default: str = "") -> str:
    return str(form.get(name, default))


def texts(form: Form, *names: str) -> dict[str, str]:
    """The fields ``names`` as typed (absent: blank), to pass on as keywords of the same names."""
    return {name: text(form, name) for name in names}


def game_list(form: Form, list_name: str) -> tuple[GameRow, ...]:
    """A mode's list of games, after the ``add:games`` or ``remove:games:N`` button."""
    rows = game_rows(form, minimum=DEFAULT_ROWS[list_name])
    return apply_rows(text(form, "action"), "games", rows, blank=GameRow())


def options(form: Form) -> OptionInputs:
    preset = text(form, "k_preset", "rules").strip().lower()
    k = text(form, "k") if preset == "custom" else ("" if preset == "rules" else preset)
    return OptionInputs(
        rules=text(form, "rules", "fide"),
        as_of=text(form, "as_of"),
        rules_toml=text(form, "rules_toml"),
        expected=text(form, "expected", "rules"),
        cap=text(form, "cap", "auto"),
        k=k,
        **texts(form, "birth_year", "rated_games", "highest_rating"),
    )


def game_rows(form: Form, prefix: str = "", *, minimum: int) -> tuple[GameRow, ...]:
    found: dict[int, dict[str, str]] = {}
    beyond = False  # a row past the most a request may have: refused (too-many-rows), never dropped
    for key, value in form.items():
        if not key.startswith(prefix):
            continue
        match = _GAME_KEY.fullmatch(key[len(prefix) :])
        if match is None:
            continue
        if len(match.group(1)) > len(str(MAX_ROWS)) or int(match.group(1)) >= MAX_ROWS:
            beyond = True
        else:
            found.setdefault(int(match.group(1)), {})[match.group(2)] = str(value)
    # A fresh form shows ``minimum`` rows; a submitted or shared one its own (a removed row stays removed).
    count = MAX_ROWS + 1 if beyond else max(found) + 1 if found else minimum
    return tuple(GameRow(**found.get(index, {})) for index in range(count))


def events(form: Form) -> tuple[EventInputs, ...]:
    indices = {int(match.group(1)) for key in form if (match := _EVENT_KEY.fullmatch(key))}
    indices = {index for index in indices if index < MAX_EVENTS}
    count = max(indices) + 1 if indices else DEFAULT_EVENTS
    return tuple(
        EventInputs(
            start_rating=text(form, f"events-{index}-start_rating"),
            games=game_rows(form, f"events-{index}-", minimum=DEFAULT_ROWS["event"]),
        )
        for index in range(count)
    )


def game(form: Form) -> GameInputs:
    return GameInputs(**texts(form, "rating", "opponent", "result"), options=options(form))


def average(form: Form) -> AverageInputs:
    return AverageInputs(**texts(form, "rating", "games", "points", "average"), options=options(form))


def tournament(form: Form) -> TournamentInputs:
    return TournamentInputs(
        **texts(form, "rating", "points"),
        games=game_list(form, "tournament"),
        total=text(form, "scoring") == "total",
        options=options(form),
    )


def period(form: Form) -> PeriodInputs:
    action = text(form, "action")
    found = events(form)
    parts = action.split(":")
    if len(parts) >= 4 and parts[1] == "events" and parts[3] == "games" and is_digits(parts[2]):
        # add:events:1:games or remove:events:1:games:2
        index = int(parts[2])
        if index < len(found):
            inner = ":".join([parts[0], "games", *parts[4:]])
            rows = apply_rows(inner, "games", found[index].games, blank=GameRow())
            found = (*found[:index], replace(found[index], games=rows), *found[index + 1 :])
    else:
        found = apply_rows(action, "events", found, blank=EventInputs(games=(GameRow(), GameRow())))
    return PeriodInputs(
        rating=text(form, "rating"),
        events=found,
        rounding=text(form, "rounding", "rules"),
        options=options(form),
    )


def k_factor(form: Form) -> KFactorInputs:
    return KFactorInputs(
        **texts(form, "rating", "birth_year", "rated_games", "highest_rating", "games_this_period", "as_of"),
        rules=text(form, "rules", "fide"),
    )


def glicko(form: Form) -> GlickoInputs:
    return GlickoInputs(
        system=text(form, "system", "lichess"),
        **texts(form, "rating", "deviation", "volatility", "days_idle", "tau", "gain_factor"),
        games=game_list(form, "glicko"),
    )


def performance(form: Form) -> PerformanceInputs:
    return PerformanceInputs(
        games=game_list(form, "performance"),
        as_of=text(form, "as_of"),
        rules=text(form, "rules", "fide"),
        standard_rating=text(form, "standard_rating"),
    )


def state(form: Form, inputs: object) -> dict[str, str]:
    """The form's values after its ``action``: other fields as typed, rows as they now are.

    A removed row's values are gone and the rows after it renumbered, so a URL or a language link
    made from this shows what the page shows.
    """
    values = {
        key: str(value)
        for key, value in form.items()
        if not (_GAME_KEY.fullmatch(key) or _EVENT_KEY.fullmatch(key))
    }
    games = getattr(inputs, "games", ())
    if isinstance(games, tuple):
        values.update(_row_values("games-", games))
    for index, event in enumerate(getattr(inputs, "events", ())):
        if event.start_rating:
            values[f"events-{index}-start_rating"] = event.start_rating
        values.update(_row_values(f"events-{index}-games-", event.games))
    return values


def _row_values(prefix: str, rows: tuple[GameRow, ...]) -> dict[str, str]:
    return {
        f"{prefix}{index}-{name}": value
        for index, row in enumerate(rows)
        for name, value in (("opponent", row.opponent), ("result", row.result), ("deviation", row.deviation))
        if value
    }


def focus_after(action: str, inputs: object) -> str:
    """The field to focus after an add or remove button: the new row, or the one in the removed one's place.

    Empty when the action moved no row (the focus then stays where it was).
    """
    parts = action.split(":")
    if not parts or parts[0] not in {"add", "remove"}:
        return ""
    if parts[1:2] == ["events"] and len(parts) >= 4 and parts[3] == "games" and is_digits(parts[2]):
        events_ = getattr(inputs, "events", ())
        event = int(parts[2])
        if event >= len(events_):
            return ""
        return _row_focus(parts[0], parts[4:], f"events-{event}-games-", len(events_[event].games))
    if parts[1:2] == ["events"]:
        count = len(getattr(inputs, "events", ()))
        if parts[0] == "add" or not count:
            return "add-events" if not count else f"events-{count - 1}-start_rating"
        index = int(parts[2]) if len(parts) > 2 and is_digits(parts[2]) else 0
        return f"events-{min(index, count - 1)}-start_rating"
    games = getattr(inputs, "games", ())
    if parts[1:2] == ["games"] and isinstance(games, tuple):
        return _row_focus(parts[0], parts[2:], "games-", len(games))
    return ""


def _row_focus(verb: str, rest: list[str], prefix: str, count: int) -> str:
    if count == 0:
        return ""
    if verb == "add":
        return f"{prefix}{count - 1}-opponent"
    index = int(rest[0]) if rest and is_digits(rest[0]) else count - 1
    return f"{prefix}{min(index, count - 1)}-opponent"


def apply_rows(action: str, name: str, rows: tuple[R, ...], *, blank: R) -> tuple[R, ...]:
    """``rows`` after an ``add:NAME`` or ``remove:NAME:INDEX`` action (other actions: unchanged)."""
    parts = action.split(":")
    limit = MAX_EVENTS if name == "events" else MAX_ROWS
    if parts[:2] == ["add", name] and len(parts) == 2 and len(rows) < limit:
        return (*rows, blank)
    if parts[:2] == ["remove", name] and len(parts) == 3 and is_digits(parts[2]):
        index = int(parts[2])
        if 0 <= index < len(rows) and len(rows) > 1:
            return rows[:index] + rows[index + 1 :]
    return rows
