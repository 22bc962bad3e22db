"""An index that fits the import's lookup of a player without a FIDE id by name.

``name_key = ? AND fide_id IS NULL`` was planned through the FIDE-id index on SQLite, walking every
player without an id: an import's time grew with the players stored. A partial index on
``name_key`` over the players without a FIDE id answers it directly.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index(
        "ix_players_name_key_no_fide_id",
        "players",
        ["name_key"],
        sqlite_where=sa.text("fide_id IS NULL"),
        postgresql_where=sa.text("fide_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_players_name_key_no_fide_id", table_name="players")
