"""An import's rows are checked as a whole, not row by row: ``games`` and ``event_players`` lose
their foreign keys (to ``events`` and ``players``).

An import writes a month's games (10^5 and more) and entrants in a few ``COPY`` statements or
``executemany`` calls. Each foreign key was checked once per row: on PostgreSQL a ``SELECT ...
FOR KEY SHARE`` of the parent row (three a game, two an entrant), which also locks every parent
row; at 2x10^5 games the checks were most of a PostgreSQL import. The import now checks every
event and player its rows name once, before it commits (``importer._Keys``: one set query per
table, on both backends; SQLite already did so, with its own check off while the import wrote);
one missing refuses the whole import. No code deletes an event or a player, and ``chessrate list
check`` looks for rows without their event or player (``store.rows_without_owner``: one
anti-join per key); docs/ratinglist.md, "Schema and migrations".

On SQLite the two tables are rebuilt (Alembic's batch mode: their named CHECK and unique
constraints, primary keys and indexes are carried over), which ``store.init_store`` runs with
SQLite's foreign keys off, as SQLite's own procedure for such a change asks
(sqlite.org/lang_altertable.html#otheralter): ``game_workings`` names ``games``. PostgreSQL drops
the constraints in place.

Revision ID: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chessrate.ratinglist.migrations.steps import Key, delete_orphans, orphaned

revision: str = "0005"
down_revision: str | None = "0004"

#: Each table's keys dropped: name, column, table it names.
KEYS = {
    "games": (
        ("fk_games_event_id_events", "event_id", "events"),
        ("fk_games_white_id_players", "white_id", "players"),
        ("fk_games_black_id_players", "black_id", "players"),
    ),
    "event_players": (
        ("fk_event_players_event_id_events", "event_id", "events"),
        ("fk_event_players_player_id_players", "player_id", "players"),
    ),
}


def upgrade() -> None:
    for table, keys in KEYS.items():
        with op.batch_alter_table(table) as batch:
            for name, _, _ in keys:
                batch.drop_constraint(name, type_="foreignkey")


def _keys(table: str) -> list[Key]:
    """The keys of ``table`` the orphan check follows: column, parent table, parent column."""
    return [(column, parent, "id") for _, column, parent in KEYS[table]]


def downgrade() -> None:
    # The games and entrants naming an event or a player the store does not have (kept while no
    # key checked them) are deleted first: the keys could not be restored over them.
    # A deleted game's workings go before it: their key to ``games`` is back (0007's downgrade).
    orphan_games = f"SELECT id FROM games WHERE {orphaned('games', _keys('games'))}"
    op.execute(sa.text(f"DELETE FROM game_workings WHERE game_id IN ({orphan_games})"))
    for table in KEYS:
        delete_orphans(table, _keys(table))
    for table, keys in KEYS.items():
        with op.batch_alter_table(table) as batch:
            for name, column, parent in keys:
                batch.create_foreign_key(name, parent, [column], ["id"])
