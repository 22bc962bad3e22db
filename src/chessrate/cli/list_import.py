"""What ``chessrate list import`` prints: each event (or, past :data:`MAX_EVENTS_SHOWN`, each
period's totals), and the files' warnings, a few of a kind each, then their count.

A month's folder warns once for every game of an unrated player (``no-rating``): thousands of
lines of one kind. Each kind is said in full up to :data:`WARNINGS_SHOWN` times; past that, one
line gives its first warning, its count and where the next few are (``--json`` lists each)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chessrate.cli.language import say as _
from chessrate.cli.language import words
from chessrate.cli.output import print_table

if TYPE_CHECKING:
    from chessrate.formats.model import Problem
    from chessrate.ratinglist.importer import ImportedEvent

#: Events listed one a row after an import; more are added up by period (``--json`` lists them all).
MAX_EVENTS_SHOWN = 50
#: Warnings of one kind said each; more are said in one line with their count.
WARNINGS_SHOWN = 3


def imported_rows(imported: Sequence[ImportedEvent]) -> list[dict[str, Any]]:
    """The events as ``--json`` lists them."""
    return [
        {
            "id": event.id,
            "name": event.name,
            "file": event.file_name,
            "start_date": event.start_date.isoformat(),
            "end_date": event.end_date.isoformat(),
            "period": event.period,
            "players": event.players,
            "new_players": event.new_players,
            "games": event.games,
            "rated_games": event.rated_games,
            "replaces": event.replaces,
            "warnings": list(event.warnings),
        }
        for event in imported
    ]


def print_imported(rows: list[dict[str, Any]]) -> None:
    """A row an event, or past :data:`MAX_EVENTS_SHOWN` events a row a period."""
    if len(rows) > MAX_EVENTS_SHOWN:
        _print_imported_periods(rows)
        return
    keys = ["id", "name", "start_date", "end_date", "period", "players", "new_players", "rated_games"]
    columns = [key.replace("_", " ") for key in keys]
    print_table(_("Imported"), columns, ([row[key] for key in keys] for row in rows))


def _print_imported_periods(rows: list[dict[str, Any]]) -> None:
    keys = ("players", "new_players", "games", "rated_games")
    totals: dict[str, dict[str, int]] = {}
    for row in rows:
        period = totals.setdefault(row["period"], dict.fromkeys(("events", *keys), 0))
        period["events"] += 1
        for key in keys:
            period[key] += row[key]
    columns = ["period", "events", *(key.replace("_", " ") for key in keys)]
    table = [[period, *values.values()] for period, values in sorted(totals.items())]
    print_table(_("Imported %(events)s events (--json lists each)", events=len(rows)), columns, table)


def print_import_warnings(imported: Sequence[ImportedEvent]) -> None:
    """Each file's warnings on standard error, in the command line's language: every kind (the
    reader's code) said in full :data:`WARNINGS_SHOWN` times, then in one line with its count."""
    kinds: dict[str, list[tuple[str, Problem]]] = {}
    for event in imported:
        for problem in event.warning_problems:
            kinds.setdefault(problem.code, []).append((event.file_name, problem))
    for found in kinds.values():
        if len(found) <= WARNINGS_SHOWN:
            for file_name, problem in found:
                sys.stderr.write(_("warning: %(note)s", note=_located(file_name, problem)) + "\n")
            continue
        (file_name, first), following = found[0], found[1:WARNINGS_SHOWN]
        summary = words().ngettext(
            "warning: %(first)s; and %(num)s more of this kind: %(places)s…",
            "warning: %(first)s; and %(num)s more of this kind: %(places)s…",
            len(found) - 1,
            first=_located(file_name, first),
            places="; ".join(f"{name}: {_where(problem)}" for name, problem in following),
        )
        sys.stderr.write(summary + "\n")


def _located(file_name: str, problem: Problem) -> str:
    """``FILE: game at line 12: …`` (``FILE: line 12: …`` in another language)."""
    if words().language == "en":
        return f"{file_name}: {problem.located()}"
    from chessrate.service.explanations import file_problem

    said = file_problem(problem.code, problem.params, problem.message, words())
    return f"{file_name}: {_where(problem)}: {said}"


def _where(problem: Problem) -> str:
    """``game at line 12`` (``line 12`` in another language)."""
    if words().language == "en":
        return problem.where
    from chessrate.service.tournament_file import line_label

    return line_label(problem.line, words())
