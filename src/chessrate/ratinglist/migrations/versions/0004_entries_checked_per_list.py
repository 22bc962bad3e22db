"""A list's entries are checked as a whole, not row by row: ``list_entries`` loses its two foreign keys;
each player's lines summed up are kept (``list_summaries``).

A period run writes one entry per player (10^5 and more) in one statement. Each foreign key was
checked once per row: on PostgreSQL a ``SELECT ... FOR KEY SHARE`` of the player's row (which
writes a lock into every player's row) and of the list's row; on SQLite one lookup each. A run now
checks the list it writes as a whole, in its transaction (``runner.check_entries``: one set
operation against every player it read), deletes a list's entries before the list (the only
place a list is deleted), and ``chessrate list check`` checks every list with one anti-join per
key (``store.rows_without_owner``); docs/ratinglist.md, "Schema and migrations".

``list_summaries`` holds each player's lines on the published lists summed up, as a run's
history needs them, so that a run reads one row a player rather than every earlier list; which
lists it sums is in ``meta`` (key ``summary``). It starts empty: the next run fills it.

Revision ID: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from chessrate.ratinglist.migrations.steps import delete_orphans

revision: str = "0004"
down_revision: str | None = "0003"

VERSION_KEY = "fk_list_entries_version_id_list_versions"
PLAYER_KEY = "fk_list_entries_player_id_players"


def upgrade() -> None:
    op.create_table(
        "list_summaries",
        sa.Column("player_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("first_period", sa.String(7), nullable=False),
        sa.Column("entered", sa.Boolean(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("highest", sa.Integer(), nullable=True),
        sa.Column("active_period", sa.String(7), nullable=True),
        sa.PrimaryKeyConstraint("player_id", name="pk_list_summaries"),
    )
    # SQLite rebuilds the table (Alembic's batch mode: its named CHECK constraints, primary key and
    # index are carried over); PostgreSQL drops the constraints in place. No key points at this table.
    with op.batch_alter_table("list_entries") as batch:
        batch.drop_constraint(VERSION_KEY, type_="foreignkey")
        batch.drop_constraint(PLAYER_KEY, type_="foreignkey")


def downgrade() -> None:
    op.drop_table("list_summaries")
    op.execute("DELETE FROM meta WHERE key = 'summary'")
    # The lines naming a list or a player the store does not have (kept while no key checked
    # them) are deleted first: the keys could not be restored over them.
    delete_orphans("list_entries", [("version_id", "list_versions", "id"), ("player_id", "players", "id")])
    with op.batch_alter_table("list_entries") as batch:
        batch.create_foreign_key(VERSION_KEY, "list_versions", ["version_id"], ["id"], ondelete="CASCADE")
        batch.create_foreign_key(PLAYER_KEY, "players", ["player_id"], ["id"])
