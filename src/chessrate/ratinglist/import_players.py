"""Who the players of an import's files are: matched to the stored players, or added.

Players are the same person when they have the same FIDE id; without a FIDE id, when they have the
same name (letter case and spacing aside, :func:`name_key`) and the stored player has no FIDE id
either. One lookup structure serves the whole import (:class:`PlayerDirectory`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, update

from chessrate.formats import Player
from chessrate.ratinglist.import_driver import Driver, NewIds, array_text
from chessrate.ratinglist.refusals import input_refusal
from chessrate.ratinglist.schema import players


def name_key(name: str) -> str:
    """A name folded for matching: letter case and runs of spaces do not matter."""
    return " ".join(name.split()).casefold()


#: The details of a player the store keeps, in this order in :attr:`KnownPlayer.details`.
DETAILS = ("birth_date", "birth_year", "sex", "federation", "title")


@dataclass(slots=True)
class KnownPlayer:
    """A stored player (or one this import adds): the id, once given, and the details known
    (:data:`DETAILS`; only whether each is known matters for a stored player). ``added``: by
    this import; ``written``: whether the player's row is in the store (a new one waits for
    :meth:`PlayerDirectory.new_players`, with its details as they are then)."""

    id: int | None
    details: list[object]
    written: bool = True
    added: bool = False


class PlayerDirectory:
    """Who the players of the files are: one lookup structure for the whole import.

    Players with a FIDE id are looked up by it; the others by name key among the stored players
    without a FIDE id (the first stored one, by id). A batch's unknown keys are fetched in one
    query per kind (:meth:`fetch`), each through the index that fits it: the unique FIDE-id
    index, and ``ix_players_name_key`` for the name keys, the FIDE-id test applied to the few rows
    it finds (with ``AND fide_id IS NULL`` in the query SQLite plans it through the FIDE-id index
    and walks every player without an id). What is found, or added, is kept for the next files.
    """

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._by_fide_id: dict[int, KnownPlayer | None] = {}
        self._by_name: dict[str, KnownPlayer | None] = {}
        self._ids = NewIds(driver, players)
        self._new: list[tuple[Player, str, KnownPlayer]] = []  # added, not written yet: player, key, known
        self._fill: list[tuple[KnownPlayer, dict[str, object]]] = []  # details to write of stored players

    def resolve(
        self, file_players: Sequence[Player], keys: Sequence[str], *, file_name: str
    ) -> tuple[list[KnownPlayer], int]:
        """Each file player's stored player (added where new, with no id until :meth:`give_ids`;
        details filled in), and how many are new. ``keys``: the players' :func:`player_key`; they must
        have been :meth:`fetch`-ed."""
        by_fide_id, by_name = self._by_fide_id, self._by_name
        chosen: list[KnownPlayer] = []
        added: list[tuple[Player, str, KnownPlayer]] = []
        fill: list[tuple[KnownPlayer, dict[str, object]]] = []
        for player, key in zip(file_players, keys, strict=True):
            fide_id = player.fide_id
            known = by_fide_id[fide_id] if fide_id else by_name[key]
            if known is None:
                known = KnownPlayer(None, _details(player), written=False, added=True)
                if fide_id:
                    by_fide_id[fide_id] = known
                else:
                    by_name[key] = known
                added.append((player, key, known))
            elif None in known.details:
                # Fill in what the store did not know yet; never overwrite what it knows.
                stored = known.details
                missing = {
                    DETAILS[i]: value
                    for i, value in enumerate(_details(player))
                    if value is not None and stored[i] is None
                }
                if missing:
                    known.details = [
                        missing.get(field, value) for field, value in zip(DETAILS, stored, strict=True)
                    ]
                    if known.written:  # (a new player's row is written with its details)
                        fill.append((known, missing))
            chosen.append(known)
        if len({id(known) for known in chosen}) < len(chosen):
            seen: set[int] = set()
            for player, known in zip(file_players, chosen, strict=True):
                if id(known) in seen:
                    raise input_refusal(
                        "import-same-player", field="player", value=player.name, file=file_name
                    )
                seen.add(id(known))
        self._new += added
        self._fill += fill
        return chosen, len(added)

    def fill(self) -> None:
        """The details filled in since the last call written, one statement's work per set of
        columns (not a statement a player): SQLite, one ``executemany`` of an ``UPDATE``;
        PostgreSQL, one ``UPDATE ... FROM unnest`` of the columns as arrays (:meth:`_fill_arrays`)."""
        by_columns: dict[tuple[str, ...], dict[int, dict[str, object]]] = {}
        for known, missing in self._fill:
            # A player filled in twice: both fills, in order, in one row (its set of columns grows).
            row = {f"new_{column}": value for column, value in missing.items()}
            by_columns.setdefault(tuple(sorted(missing)), {}).setdefault(int(known.id or 0), {}).update(row)
        self._fill = []
        for columns, rows in by_columns.items():
            if not self._driver.sqlite:
                self._fill_arrays(columns, rows)
                continue
            statement = (
                update(players)
                .where(players.c.id == bindparam("known_id"))
                .values({column: bindparam(f"new_{column}") for column in columns})
            )
            self._driver.connection.execute(
                statement, [{"known_id": key, **row} for key, row in rows.items()]
            )

    def _fill_arrays(self, columns: tuple[str, ...], rows: dict[int, dict[str, object]]) -> None:
        """PostgreSQL: one set of columns filled in by one ``UPDATE ... FROM unnest(...)`` of arrays
        (:func:`.import_driver.array_text`), not an ``executemany`` through SQLAlchemy (some 50 us
        a player of the import's own time: 11 000 players filled in at 10^6 games, 0.5 s)."""
        ids = list(rows)
        values = ([rows[i][f"new_{column}"] for i in ids] for column in columns)
        arrays = [array_text(ids), *map(array_text, values)]
        kinds = ", ".join(f"?::{_ARRAY_KINDS[column]}[]" for column in ("id", *columns))
        sets = ", ".join(f"{column} = filled.{column}" for column in columns)
        self._driver.run(
            f"UPDATE players SET {sets} FROM unnest({kinds}) AS filled(id, {', '.join(columns)}) "
            "WHERE players.id = filled.id",
            arrays,
        )

    def fetch(self, file_players: Sequence[Player], player_keys: Sequence[str]) -> None:
        """The stored players these players (of these :func:`player_key`) name that the directory has
        not looked up yet."""
        by_fide_id, by_name = self._by_fide_id, self._by_name
        ids = list({p.fide_id for p in file_players if p.fide_id and p.fide_id not in by_fide_id})
        # Each name tested against the dict: ``set - dict.keys()`` would copy every name known.
        keys = list(
            {
                key
                for p, key in zip(file_players, player_keys, strict=True)
                if not p.fide_id
                if key not in by_name
            }
        )
        driver = self._driver
        by_fide_id.update(dict.fromkeys(ids))
        for row in driver.rows_where(_PLAYERS_WHERE, "fide_id", ids, "bigint"):
            by_fide_id[row[1]] = _known(row)
        by_name.update(dict.fromkeys(keys))
        # The first stored one is written last, and kept.
        for row in driver.rows_where(_PLAYERS_WHERE, "name_key", keys, "text", order=" ORDER BY id DESC"):
            if row[1] is None:
                by_name[row[2]] = _known(row)

    def give_ids(self) -> None:
        """The new players given the ids the database would give them (:class:`NewIds`), their
        rows written later (:meth:`new_players`)."""
        waiting = [known for _, _, known in self._new if known.id is None]
        for known, new_id in zip(waiting, self._ids.take(len(waiting)), strict=True):
            known.id = new_id

    def new_players(self) -> list[tuple[Any, ...]]:
        """The rows (:data:`PLAYER_COLUMNS`) of the players added since the last call, each with
        its id and the details known now; the caller writes them."""
        now = self._driver.datetime(dt.datetime.now(dt.UTC).replace(tzinfo=None))
        date = self._driver.date
        rows = []
        for player, key, known in self._new:
            birth_date, *details = known.details
            rows.append(
                (
                    known.id,
                    player.name[:200],
                    key[:200] if key else name_key(player.name)[:200],
                    player.fide_id or None,
                    now,
                    None if birth_date is None else date(birth_date),
                    *details,
                )
            )
            known.written = True
        self._new = []
        return rows


#: The types of the arrays :meth:`PlayerDirectory._fill_arrays` sends (PostgreSQL).
_ARRAY_KINDS = {
    "id": "integer",
    "birth_date": "date",
    "birth_year": "integer",
    "sex": "text",
    "federation": "text",
    "title": "text",
}
PLAYER_COLUMNS = ("id", "name", "name_key", "fide_id", "created_at", *DETAILS)
_PLAYERS_WHERE = f"SELECT id, fide_id, name_key, {', '.join(DETAILS)} FROM players WHERE "


def player_key(player: Player) -> str:
    """What a player is matched by when the player has no FIDE id: the :func:`name_key` ("" with one)."""
    return "" if player.fide_id else name_key(player.name)


def _known(row: tuple[Any, ...]) -> KnownPlayer:
    """A player row of :meth:`PlayerDirectory._fetch`: id, FIDE id, name key, then :data:`DETAILS`."""
    return KnownPlayer(id=int(row[0]), details=list(row[3:]))


def _details(player: Player) -> list[object]:
    """The player's :data:`DETAILS` as the store keeps them."""
    birth_date = player.birth_date
    return [
        birth_date,
        player.birth_year or (birth_date.year if birth_date else None),
        (player.sex or "")[:1] or None,
        (player.federation or "")[:8] or None,
        (player.title or "")[:8] or None,
    ]
