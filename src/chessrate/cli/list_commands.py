"""``chessrate list ...``: a club's or federation's own rating list in a database.

``init``, ``import FILE...``, ``import-fide LIST``, ``run PERIOD``, ``show [PERIOD]``, ``player ID``,
``events``, ``export PERIOD``, ``check`` and ``demo``; ``--db`` takes a SQLAlchemy URL or a file path
(SQLite).
"""

from __future__ import annotations

import csv
import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from chessrate.cli.app import app
from chessrate.cli.files import checked_file
from chessrate.cli.language import N_, words
from chessrate.cli.language import say as _
from chessrate.cli.list_player import note_codes, note_words
from chessrate.cli.output import (
    JsonOption,
    fixed,
    fmt,
    print_json,
    print_json_streamed,
    print_summary,
    print_table,
)
from chessrate.errors import InvalidInputError
from chessrate.parse import parse_count, parse_date
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.store import (
    DEFAULT_DB,
    WRITER_WAIT,
    StoreError,
    check_store,
    init_store,
    open_store,
)

if TYPE_CHECKING:
    from chessrate.ratinglist.queries import ListView
    from chessrate.ratinglist.runner import RunReport

# Each command imports what it needs when it runs: `list run` does not pay for the readers, the
# importer or the queries at start-up.

list_app = typer.Typer(
    help=N_("A rating list of your own: players, events, monthly periods, published lists, histories."),
    no_args_is_help=True,
)
app.add_typer(list_app, name="list")

#: What ``list init`` says of the store's rules and schema.
STORE_STATES = (N_("unchanged (fide for a new store)"), N_("up to date"))
#: The words of the list's tables and summaries that are keys of its JSON (``start_date``: the
#: column ``start date``), said from the catalogs.
LIST_WORDS = (
    N_("id"), N_("file"), N_("month"), N_("start date"), N_("end date"), N_("players"),
    N_("new players"), N_("rated games"), N_("refreshed players"), N_("list type"), N_("replaced by"),
    N_("db"), N_("rules"), N_("schema"), N_("unchanged (fide for a new store)"), N_("up to date"),
    N_("events"), N_("periods"), N_("latest list"), N_("draft"), N_("published"), N_("standard"),
    N_("rapid"), N_("blitz"), N_("start_date"), N_("end_date"), N_("replaced_by"),
)  # fmt: skip

DbOption = Annotated[
    str, typer.Option("--db", help=N_("A SQLAlchemy URL, or a file path for SQLite."), show_default=True)
]
RulesOption = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help=N_("fide, fide-rapid, fide-blitz (on each period's date), ciabe, elo, FILE.toml or glicko2."),
    ),
]


def club_file_path(rules: str) -> str:
    """A club's rules file as the store keeps it: its full path, so that a run from anywhere (the web
    admin page, another folder) reads the same file; a rule set's name as it is."""
    if not rules.strip().lower().endswith(".toml"):
        return rules
    return str(Path(rules.strip()).expanduser().resolve())


@list_app.command(
    "init", help=N_("Create the store (or upgrade its schema); --rules sets the store's default rule set.")
)
def init_command(db: DbOption = DEFAULT_DB, rules: RulesOption = None, as_json: bool = JsonOption) -> None:
    if rules is not None:
        from chessrate.ratinglist.runner import rule_set_for

        # Refused now, not at the first run: an unknown name or an unreadable club file.
        rule_set_for(rules, Period.parse(dt.date.today().strftime("%Y-%m")))
        rules = club_file_path(rules)
    init_store(db, rules=rules)
    result = {"db": db, "rules": rules or "unchanged (fide for a new store)", "schema": "up to date"}
    if as_json:
        print_json(result)
    else:
        said = {key: _(value) if value in STORE_STATES else value for key, value in result.items()}
        print_summary(_("Rating list store"), [(_(key), value) for key, value in said.items()])


@list_app.command(
    "import", help=N_("Import events; the same file twice, or a file with errors, imports nothing.")
)
def import_command(
    files: Annotated[
        list[Path],
        typer.Argument(
            help=N_("TRF, PGN or CSV files, folders of them, or quoted globs."), show_default=False
        ),
    ],
    db: DbOption = DEFAULT_DB,
    start: Annotated[
        str | None, typer.Option("--start", help=N_("The event's first day (YYYY-MM-DD)."))
    ] = None,
    end: Annotated[str | None, typer.Option("--end", help=N_("The event's last day (YYYY-MM-DD)."))] = None,
    replaces: Annotated[
        str | None, typer.Option("--replaces", help=N_("Id of the event a corrected file replaces."))
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    from chessrate.cli.list_import import imported_rows, print_import_warnings, print_imported
    from chessrate.cli.progress import files_read
    from chessrate.service.list_writes import event_files, import_events

    first = parse_date(start, field="--start") if start else None
    last = parse_date(end, field="--end") if end else None
    replaced = parse_count(replaces, field="--replaces", minimum=1) if replaces else None
    files = event_files(files)  # a folder's files, a glob's
    for file in files:
        checked_file(file, "file")
    try:
        with files_read(len(files)) as on_file:
            imported = import_events(
                open_store(db),
                files,
                start=first,
                end=last,
                replaces=replaced,
                on_wait=_say_waiting,
                on_file=on_file,
            )
    except StoreError as error:
        if error.code != "import-same-games":
            raise
        # The command line's own way out: the web imports a corrected file as a new event.
        hint = words().gettext("a corrected file: --replaces %(event)s", event=error.params["event"])
        raise StoreError(f"{error} ({hint})", code=error.code, params=error.params) from None
    rows = imported_rows(imported)
    if as_json:
        print_json({"imported": rows})
        return
    print_imported(rows)
    print_import_warnings(imported)


@list_app.command(
    "import-fide",
    help=N_("Create or refresh players from FIDE's list, with FIDE's rating and K of that month."),
)
def import_fide_command(
    players_list: Annotated[
        Path, typer.Argument(help=N_("FIDE's rating list: TXT or XML, or its zip."), show_default=False)
    ],
    db: DbOption = DEFAULT_DB,
    list_type: Annotated[
        str, typer.Option("--list-type", help=N_("Which list of a combined file: standard, rapid or blitz."))
    ] = "standard",
    month: Annotated[
        str | None,
        typer.Option("--month", help=N_("The list's month (YYYY-MM) when the file does not say it.")),
    ] = None,
    federation: Annotated[
        str | None, typer.Option("--federation", help=N_("Keep only this federation's players (ESP)."))
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help=N_("Replace the month's list imported from another file."))
    ] = False,
    as_json: bool = JsonOption,
) -> None:
    from chessrate.formats.fide_list import LIST_TYPES
    from chessrate.service.list_writes import import_fide

    checked_file(players_list, "players_list")
    kind = list_type.strip().lower()
    if kind not in LIST_TYPES:
        raise InvalidInputError("--list-type", list_type, _("use standard, rapid or blitz"))
    done = import_fide(
        open_store(db),
        players_list,
        list_type=kind,
        month=Period.parse(month).first_day if month else None,
        federation=federation,
        replace=replace,
    )
    row = {
        "list_type": done.list_type,
        "month": done.month.isoformat()[:7],
        "file": done.file_name,
        "players": done.players,
        "new_players": done.new_players,
        "refreshed_players": done.refreshed_players,
        "already_imported": done.already_imported,
        "warnings": list(done.warnings),
    }
    if replace:
        row["replaced"] = {
            "file": done.replaced_file or None,
            "added": done.added,
            "removed": done.removed,
            "changed": done.changed,
        }
    if as_json:
        print_json({"imported": row})
        return
    if done.already_imported:
        said = _(
            "%(file)s: FIDE's %(list)s list of %(month)s is already imported",
            file=done.file_name,
            list=_(done.list_type),
            month=row["month"],
        )
        sys.stdout.write(said + "\n")
        return
    columns = ["list_type", "month", "file", "players", "new_players", "refreshed_players"]
    print_table(_("FIDE list imported"), columns, [[str(row[c]) for c in columns]])
    if done.replaced_file:
        said = _(
            "replaced the list of %(month)s from %(file)s: %(added)s players added, %(removed)s removed, "
            "%(changed)s with another rating, games, K or flag",
            month=row["month"],
            file=done.replaced_file,
            added=done.added,
            removed=done.removed,
            changed=done.changed,
        )
        sys.stdout.write(said + "\n")
    for warning in done.warnings:
        sys.stderr.write(_("warning: %(note)s", note=done.file_name + ": " + warning) + "\n")


@list_app.command("run", help=N_("Rate a period (and recompute the periods after it), in one transaction."))
def run_command(
    period: Annotated[str, typer.Argument(help=N_("The rating period, YYYY-MM."), show_default=False)],
    db: DbOption = DEFAULT_DB,
    rules: RulesOption = None,
    republish: Annotated[
        bool, typer.Option("--republish", help=N_("Publish a re-run in place of the published lists."))
    ] = False,
    as_json: bool = JsonOption,
) -> None:
    from chessrate.service.list_writes import run_list

    chosen = Period.parse(period)
    if rules is not None and not rules.strip():
        raise InvalidInputError("--rules", rules, _("empty: leave the option out for the store's rule set"))
    rules = club_file_path(rules) if rules is not None else None
    report = run_list(open_store(db), chosen, rules=rules, republish=republish, on_wait=_say_waiting)
    if as_json:
        print_json(_run_json(report))
        return
    rows = [
        [
            run.period, run.list_date.isoformat(), _(run.status), str(run.revision), str(run.events),
            str(run.rated_players), str(run.games), str(len(run.changes)) if run.replaced_published or
            run.status == "draft" else "—",
        ]
        for run in report.periods
    ]  # fmt: skip
    columns = [
        N_("period"),
        N_("list of"),
        N_("status"),
        N_("revision"),
        N_("events"),
        N_("rated"),
        N_("player-games"),
        N_("changed"),
    ]
    caption = _(
        "player-games: each rated game once for each player it rates (twice between two rated players)"
    )
    print_table(_("Period run — %(rules)s", rules=report.rules_title), columns, rows, caption=caption)
    for run in report.periods:
        for change in run.changes:
            said = _(
                "%(period)s: %(name)s: published %(published)s, now %(now)s",
                period=run.period,
                name=change.name,
                published=fmt(change.published),
                now=fmt(change.now),
            )
            sys.stdout.write(said + "\n")
    if any(run.status == "draft" for run in report.periods):
        said = _("The published lists are unchanged; run again with --republish to publish these.")
        sys.stdout.write(said + "\n")
    for note in report.notes:
        sys.stderr.write(_("note: %(note)s", note=note) + "\n")


def _say_waiting() -> None:
    said = _(
        "chessrate: another run or import is in progress on this store; waiting for it to end "
        "(at most %(minutes)s minutes)...",
        minutes=fixed(WRITER_WAIT / 60, 0),
    )
    sys.stderr.write(said + "\n")


@list_app.command(
    "check", help=N_("Check the store's file (SQLite's PRAGMA integrity_check); exit 2 if it is damaged.")
)
def check_command(db: DbOption = DEFAULT_DB) -> None:
    sound, lines = check_store(db)
    for line in lines[:20]:
        sys.stdout.write(f"{line}\n")
    if not sound:
        raise StoreError(_("the database file %(db)s is damaged: restore the last backup", db=db))


def _run_json(report: RunReport) -> dict[str, Any]:
    return {
        "rules": report.rules,
        "rules_title": report.rules_title,
        "notes": list(report.notes),
        "periods": [
            {
                "period": run.period,
                "list_date": run.list_date.isoformat(),
                "status": run.status,
                "revision": run.revision,
                "events": run.events,
                "players": run.players,
                "rated_players": run.rated_players,
                "games": run.games,
                "replaced_published": run.replaced_published,
                "changes": [
                    {"player_id": c.player_id, "name": c.name, "published": c.published, "now": c.now}
                    for c in run.changes
                ],
            }
            for run in report.periods
        ],
    }


def _list_head(view: ListView) -> dict[str, Any]:
    return {
        "period": view.period,
        "list_date": view.list_date.isoformat(),
        "status": view.status,
        "revision": view.revision,
        "rules": view.rules,
        "rules_title": view.rules_title,
    }


def _list_players(view: ListView) -> Iterator[dict[str, Any]]:
    for row in view.rows:
        yield {
            "rank": row.rank,
            "player_id": row.player_id,
            "name": row.name,
            "fide_id": row.fide_id,
            "title": row.title,
            "federation": row.federation,
            "birth_year": row.birth_year,
            "sex": row.sex,
            "status": row.status,
            "rating": row.rating,
            "previous": row.rating_before,
            "change": row.change,
            "adjustment": row.adjustment,
            "k": row.k,
            "games": row.games,
            "deviation": row.deviation,
            "note": note_words(row.note),
            "note_codes": note_codes(row.note),
        }


@list_app.command("show", help=N_("A period's list, best rating first, with each player's change."))
def show_command(
    period: Annotated[str | None, typer.Argument(help=N_("YYYY-MM; default: the latest list."))] = None,
    db: DbOption = DEFAULT_DB,
    draft: Annotated[
        bool, typer.Option("--draft", help=N_("Show the re-run waiting to be published."))
    ] = False,
    all_players: Annotated[
        bool, typer.Option("--all", help=N_("Also players without a rating (pending, dropped)."))
    ] = False,
    as_json: bool = JsonOption,
) -> None:
    from chessrate.ratinglist.queries import list_view, streamed_list

    if as_json:  # written as read: a list of any length in bounded memory
        with streamed_list(open_store(db), period, draft=draft) as streamed:
            print_json_streamed(_list_head(streamed), "players", _list_players(streamed))
        return
    view = list_view(open_store(db), period, draft=draft)
    rows = [
        [
            fmt(row.rank), row.name[:30], fmt(row.fide_id), fmt(row.federation), fmt(row.rating),
            fmt(row.change, signed=True), fmt(row.k), str(row.games), _(row.status),
        ]
        for row in view.rows
        if all_players or row.rating is not None
    ]  # fmt: skip
    title = _(
        "List of %(day)s (period %(period)s, %(status)s r%(revision)s, rules %(rules)s)",
        day=view.list_date.isoformat(),
        period=view.period,
        status=_(view.status),
        revision=view.revision,
        rules=view.rules,
    )
    columns = [
        N_("rank"),
        N_("name"),
        "FIDE id",
        N_("fed"),
        N_("rating"),
        N_("change"),
        "K",
        N_("games"),
        N_("status"),
    ]
    print_table(title, columns, rows, caption=view.rules_title)


@list_app.command("player", help=N_("A player's history: every list, with the games behind each change."))
def player_command(
    player: Annotated[str, typer.Argument(help=N_("FIDE id or store id."), show_default=False)],
    db: DbOption = DEFAULT_DB,
    as_json: bool = JsonOption,
) -> None:
    from chessrate.cli.list_player import player_document, print_player
    from chessrate.ratinglist.queries import player_view

    view = player_view(open_store(db), player)
    if as_json:
        print_json(player_document(view))
    else:
        print_player(view)


@list_app.command("events", help=N_("Every imported event, with its period and file."))
def events_command(db: DbOption = DEFAULT_DB, as_json: bool = JsonOption) -> None:
    from chessrate.ratinglist.queries import event_lines

    lines = event_lines(open_store(db))
    rows = [
        {
            "id": e.id,
            "name": e.name,
            "file": e.file_name,
            "format": e.source_format,
            "start_date": e.start_date.isoformat(),
            "end_date": e.end_date.isoformat(),
            "period": e.period,
            "players": e.players,
            "replaced_by": e.replaced_by,
            "sha256": e.sha256,
        }
        for e in lines
    ]
    if as_json:
        print_json({"events": rows})
        return
    columns = ["id", "name", "start_date", "end_date", "period", "players", "replaced_by"]
    print_table(_("Events"), columns, ([fmt(row[c]) for c in columns] for row in rows))


EXPORT_COLUMNS = [
    "rank", "player_id", "name", "fide_id", "title", "federation", "birth_year", "sex", "status",
    "rating", "previous", "change", "adjustment", "k", "games", "deviation", "note",
]  # fmt: skip


@list_app.command("export", help=N_("A period's list as CSV or JSON on standard output."))
def export_command(
    period: Annotated[str, typer.Argument(help=N_("YYYY-MM."), show_default=False)],
    db: DbOption = DEFAULT_DB,
    output_format: Annotated[str, typer.Option("--format", help=N_("csv or json."))] = "csv",
    draft: Annotated[
        bool, typer.Option("--draft", help=N_("Export the re-run waiting to be published."))
    ] = False,
) -> None:
    from chessrate.formats.spreadsheet import neutralise
    from chessrate.ratinglist.queries import streamed_list

    if output_format not in {"csv", "json"}:
        raise InvalidInputError("format", output_format, _("use csv or json"))
    # Written as read: a list of any length in bounded memory.
    with streamed_list(open_store(db), period, draft=draft) as view:
        if output_format == "json":
            print_json_streamed(_list_head(view), "players", _list_players(view))
            return
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(EXPORT_COLUMNS)
        for row in _list_players(view):
            writer.writerow(["" if row[key] is None else neutralise(row[key]) for key in EXPORT_COLUMNS])


@list_app.command(
    "demo", help=N_("Build a small demo list from the real tournament files shipped with chessrate.")
)
def demo_command(db: DbOption = DEFAULT_DB, as_json: bool = JsonOption) -> None:
    from chessrate.ratinglist.demo import build_demo

    summary = build_demo(db)
    if as_json:
        print_json(summary)
    else:
        print_summary(_("Demo rating list"), [(_(key), value) for key, value in summary.items()])
