"""FIDE's rating list into the store: the players it names, and their FIDE rating and K of the month.

``chessrate list import-fide LIST``: a national list that applies FIDE's procedures starts from FIDE's
list (``docs/ratinglist.md``). Each import keeps the list it came from (type, month, file); players are
created, or refreshed from the newest month imported; a period run gives a player with no history in
the store the K of the FIDE list in force (:func:`official_k`). All or nothing, in one transaction.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, bindparam, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from chessrate.errors import InvalidInputError
from chessrate.formats.fide_list import FideListPlayer, ListType, check_list_carried, open_fide_list
from chessrate.formats.model import Problem, Severity
from chessrate.formats.text import check_file_name
from chessrate.ratinglist.importer import name_key
from chessrate.ratinglist.loading import official_k as official_k  # where a run reads it
from chessrate.ratinglist.refusals import unreadable_file
from chessrate.ratinglist.schema import fide_lists, fide_ratings, players
from chessrate.ratinglist.store import StoreError, write_transaction

#: Rows written per statement.
BATCH = 5000


@dataclass(frozen=True, kw_only=True)
class ImportedFideList:
    """What one import did."""

    list_type: ListType
    month: dt.date
    file_name: str
    #: Players of the list imported (after the federation filter).
    players: int
    new_players: int
    #: Stored players whose details (name, federation, title...) this newer list changed.
    refreshed_players: int
    #: The same file was imported before: nothing changed.
    already_imported: bool
    warnings: tuple[str, ...]
    #: With ``replace``: the file whose list of the month this one replaced ("" when none did).
    replaced_file: str = ""
    #: With ``replace``: players in the new list only, in the old one only, and in both with
    #: another rating, games, K or flag.
    added: int = 0
    removed: int = 0
    changed: int = 0


def import_fide_list(
    engine: Engine,
    path: str | os.PathLike[str],
    *,
    list_type: ListType = "standard",
    month: dt.date | None = None,
    federation: str | None = None,
    replace: bool = False,
) -> ImportedFideList:
    """Import FIDE's list at ``path`` (TXT or XML, zipped or not): ``list_type`` from a combined file.

    ``month`` is needed when neither the file nor its name says it; ``federation`` keeps only the
    players of one federation (``ESP``). Raises :class:`~chessrate.errors.InvalidInputError` for a
    file that is not a list, lacks ``list_type`` or whose reading failed (nothing is recorded),
    :class:`StoreError` for a different file of a month already imported, unless ``replace``: then
    the month's list is replaced by this one, all or nothing, and the changes counted.
    """
    check_file_name("players_list", path)  # (stored with the list)
    digest = _sha256(Path(path))
    with open_fide_list(path, list_type=list_type) as fide:
        check_list_carried(fide, list_type)
        day = fide.month or month
        if day is None:
            raise InvalidInputError(
                "month",
                None,
                f"neither {fide.name} nor its name says the list's month: give it (YYYY-MM)",
                code="list-month-unknown",
                params={"name": fide.name},
            )
        if fide.month and month and fide.month != month:
            raise InvalidInputError(
                "month",
                month.isoformat()[:7],
                f"{fide.name} is the list of {fide.month.isoformat()[:7]}",
                code="list-month-differs",
                params={"name": fide.name, "month": fide.month.isoformat()[:7]},
            )
        wanted = federation.strip().upper() if federation else None
        with write_transaction(engine) as connection:  # one writer at a time (docs/security.md)
            known = connection.execute(
                select(fide_lists.c.id, fide_lists.c.file_sha256, fide_lists.c.file_name).where(
                    fide_lists.c.list_type == list_type, fide_lists.c.month == day
                )
            ).first()
            replaced = None
            if known is not None and known.file_sha256 != digest and replace:
                replaced = known
                # Set aside (a month no list has) until the new one is in, then compared and deleted.
                connection.execute(update(fide_lists).where(fide_lists.c.id == known.id).values(month=_ASIDE))
                known = None
            if known is not None:
                if known.file_sha256 == digest:
                    return ImportedFideList(
                        list_type=list_type, month=day, file_name=fide.name, players=0, new_players=0,
                        refreshed_players=0, already_imported=True, warnings=(),
                    )  # fmt: skip
                raise StoreError(
                    f"{fide.name}: FIDE's {list_type} list of {day.isoformat()[:7]} was already imported "
                    f"from another file ({known.file_name}); nothing imported",
                    code="fide-list-imported",
                    params={
                        "file": fide.name,
                        "list": list_type,
                        "month": day.isoformat()[:7],
                        "earlier_file": known.file_name,
                    },
                )
            newest = connection.execute(
                select(func.max(fide_lists.c.month)).where(fide_lists.c.list_type == list_type)
            ).scalar()
            list_id = connection.execute(
                insert(fide_lists)
                .values(
                    list_type=list_type, month=day, file_name=Path(fide.name).name[:300], file_sha256=digest,
                    players=0, imported_at=dt.datetime.now(dt.UTC).replace(tzinfo=None),
                )
                .returning(fide_lists.c.id)
            ).scalar_one()  # fmt: skip
            chosen = (player for player in fide if wanted is None or player.federation == wanted)
            counts = _store_players(
                connection,
                chosen,
                list_id=int(list_id),
                list_type=list_type,
                refresh=newest is None or day >= newest,
            )
            _refuse_failed_read(fide.name, fide.problems, counts[0])
            connection.execute(update(fide_lists).where(fide_lists.c.id == list_id).values(players=counts[0]))
            changes = (0, 0, 0)
            if replaced is not None:
                changes = _changes(connection, int(replaced.id), int(list_id))
                connection.execute(fide_ratings.delete().where(fide_ratings.c.fide_list_id == replaced.id))
                connection.execute(fide_lists.delete().where(fide_lists.c.id == replaced.id))
    warnings = tuple(str(problem) for problem in fide.problems)
    if fide.dropped_problems:
        warnings += (f"and {fide.dropped_problems} more problems",)
    return ImportedFideList(
        list_type=list_type, month=day, file_name=fide.name, players=counts[0], new_players=counts[1],
        refreshed_players=counts[2], already_imported=False, warnings=warnings,
        replaced_file=replaced.file_name if replaced is not None else "",
        added=changes[0], removed=changes[1], changed=changes[2],
    )  # fmt: skip


#: The month a replaced list is set aside at while its replacement is imported.
_ASIDE = dt.date(1, 1, 1)


def _changes(connection: Connection, old: int, new: int) -> tuple[int, int, int]:
    """Players in list ``new`` only, in ``old`` only, and in both with other figures."""
    before, after = fide_ratings.alias("before"), fide_ratings.alias("after")

    def count_only(one: int, other: int) -> int:
        inner = select(fide_ratings.c.player_id).where(fide_ratings.c.fide_list_id == other)
        query = select(func.count()).where(
            fide_ratings.c.fide_list_id == one, fide_ratings.c.player_id.not_in(inner)
        )
        return int(connection.execute(query).scalar_one())

    differ = [before.c[name].is_distinct_from(after.c[name]) for name in ("rating", "games", "k", "flag")]
    changed = connection.execute(
        select(func.count())
        .select_from(before.join(after, before.c.player_id == after.c.player_id))
        .where(before.c.fide_list_id == old, after.c.fide_list_id == new, or_(*differ))
    ).scalar_one()
    return count_only(new, old), count_only(old, new), int(changed)


def _refuse_failed_read(name: str, problems: Iterable[Problem], count: int) -> None:
    """A list whose reading stopped on an error (broken XML, an entity, a line too long, a damaged
    zip), or that gave no player, is refused: the transaction is rolled back, nothing is recorded."""
    failed = next((problem for problem in problems if problem.severity is Severity.ERROR), None)
    if failed is not None:
        raise InvalidInputError(
            "players_list",
            name,
            f"{failed.located()}; nothing was imported",
            code="fide-list-failed",
            params={"file": name, "reason": failed.message},
        )
    if count == 0:
        raise InvalidInputError(
            "players_list",
            name,
            "no player could be read from it; nothing was imported",
            code="fide-list-empty",
            params={"file": name},
        )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    except OSError as error:
        raise unreadable_file("players_list", path, error) from None
    return digest.hexdigest()


def _details(player: FideListPlayer) -> dict[str, object]:
    """The store's player columns from FIDE's line."""
    return {
        "name": player.name[:200],
        "name_key": name_key(player.name)[:200],
        "federation": (player.federation or "")[:8] or None,
        "sex": player.sex,
        "title": (player.title or player.women_title or "")[:8] or None,
        "birth_year": player.birth_year,
    }


def _batches(items: Iterable[FideListPlayer]) -> Iterator[list[FideListPlayer]]:
    batch: list[FideListPlayer] = []
    for item in items:
        batch.append(item)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _store_players(
    connection: Connection,
    listed: Iterable[FideListPlayer],
    *,
    list_id: int,
    list_type: ListType,
    refresh: bool,
) -> tuple[int, int, int]:
    """Create or refresh the players and write their line of the list: (players, new, refreshed)."""
    total = new = refreshed = 0
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    for batch in _batches(listed):
        ids = [player.fide_id for player in batch]
        stored = {
            row.fide_id: row for row in connection.execute(select(players).where(players.c.fide_id.in_(ids)))
        }
        to_add = [
            {**_details(player), "fide_id": player.fide_id, "created_at": now}
            for player in batch
            if player.fide_id not in stored
        ]
        if to_add:
            connection.execute(insert(players), to_add)
            new += len(to_add)
        if refresh:
            changes = []
            for player in batch:
                row = stored.get(player.fide_id)
                details = _details(player)
                if row is not None and any(row._mapping[key] != value for key, value in details.items()):
                    changes.append({"row_id": row.id, **details})
            if changes:
                statement = (
                    update(players)
                    .where(players.c.id == bindparam("row_id"))
                    .values({key: bindparam(key) for key in changes[0] if key != "row_id"})
                )
                connection.execute(statement, changes)
                refreshed += len(changes)
        found = connection.execute(select(players.c.fide_id, players.c.id).where(players.c.fide_id.in_(ids)))
        id_of = {row.fide_id: row.id for row in found}
        lines = []
        for player in batch:
            entry = player.rating(list_type)
            lines.append(
                {
                    "fide_list_id": list_id,
                    "player_id": id_of[player.fide_id],
                    "rating": entry.rating if entry else None,
                    "games": entry.games if entry else None,
                    "k": entry.k if entry else None,
                    "flag": player.flag,
                }
            )
        connection.execute(insert(fide_ratings), lines)
        total += len(batch)
    return total, new, refreshed


def fide_ratings_of(connection: Connection, player_id: int) -> list[dict[str, Any]]:
    """A player's lines of every FIDE list imported, newest month first."""
    rows = connection.execute(
        select(
            fide_lists.c.list_type,
            fide_lists.c.month,
            fide_lists.c.file_name,
            fide_ratings.c.rating,
            fide_ratings.c.games,
            fide_ratings.c.k,
            fide_ratings.c.flag,
        )
        .join(fide_lists, fide_lists.c.id == fide_ratings.c.fide_list_id)
        .where(fide_ratings.c.player_id == player_id)
        .order_by(fide_lists.c.month.desc(), fide_lists.c.list_type)
    )
    return [dict(row._mapping) for row in rows]
