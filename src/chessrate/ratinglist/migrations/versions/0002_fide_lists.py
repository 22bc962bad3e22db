"""FIDE rating lists imported: the list (type, month, file) and each player's rating, games and K.

Revision ID: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    op.create_table(
        "fide_lists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("list_type", sa.String(8), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("file_name", sa.String(300), nullable=False),
        sa.Column("file_sha256", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "list_type IN ('standard', 'rapid', 'blitz')", name="ck_fide_lists_list_type_known"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_fide_lists"),
        sa.UniqueConstraint("list_type", "month", name="uq_fide_lists_list_type_month"),
    )
    op.create_table(
        "fide_ratings",
        sa.Column("fide_list_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=True),
        sa.Column("k", sa.Integer(), nullable=True),
        sa.Column("flag", sa.String(2), nullable=False),
        sa.CheckConstraint(
            "rating IS NULL OR rating BETWEEN 0 AND 4000", name="ck_fide_ratings_rating_range"
        ),
        sa.CheckConstraint("k IS NULL OR k > 0", name="ck_fide_ratings_k_positive"),
        sa.ForeignKeyConstraint(
            ["fide_list_id"],
            ["fide_lists.id"],
            name="fk_fide_ratings_fide_list_id_fide_lists",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_fide_ratings_player_id_players"),
        sa.PrimaryKeyConstraint("fide_list_id", "player_id", name="pk_fide_ratings"),
    )
    op.create_index("ix_fide_ratings_player_id", "fide_ratings", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_fide_ratings_player_id", table_name="fide_ratings")
    op.drop_table("fide_ratings")
    op.drop_table("fide_lists")
