"""The first schema: players, events, games, list versions, list entries, game workings.

Revision ID: 0001
Create Date: 2026-10-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None

DECIMAL = sa.String(40)  # chessrate.ratinglist.schema.DecimalText stores decimals as text


def upgrade() -> None:
    op.create_table(
        "meta",
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_meta"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("fide_id", sa.BigInteger(), nullable=True),
        sa.Column("birth_date", sa.Date(), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("sex", sa.String(1), nullable=True),
        sa.Column("federation", sa.String(8), nullable=True),
        sa.Column("title", sa.String(8), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("fide_id IS NULL OR fide_id > 0", name="ck_players_fide_id_positive"),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("fide_id", name="uq_players_fide_id"),
    )
    op.create_index("ix_players_name_key", "players", ["name_key"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("source_format", sa.String(10), nullable=False),
        sa.Column("file_name", sa.String(300), nullable=False),
        sa.Column("file_sha256", sa.String(64), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("period", sa.String(7), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.Column("replaced_by", sa.Integer(), nullable=True),
        sa.CheckConstraint("end_date >= start_date", name="ck_events_dates_in_order"),
        sa.ForeignKeyConstraint(["replaced_by"], ["events.id"], name="fk_events_replaced_by_events"),
        sa.PrimaryKeyConstraint("id", name="pk_events"),
        sa.UniqueConstraint("file_sha256", name="uq_events_file_sha256"),
    )
    op.create_index("ix_events_period", "events", ["period"])
    op.create_table(
        "event_players",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("start_number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating_in_file", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "rating_in_file IS NULL OR rating_in_file BETWEEN 0 AND 4000",
            name="ck_event_players_rating_range",
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_event_players_event_id_events"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_event_players_player_id_players"),
        sa.PrimaryKeyConstraint("event_id", "start_number", name="pk_event_players"),
        sa.UniqueConstraint("event_id", "player_id", name="uq_event_players_event_player"),
    )
    op.create_index("ix_event_players_player_id", "event_players", ["player_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("white_score", DECIMAL, nullable=True),
        sa.Column("black_score", DECIMAL, nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("code", sa.String(10), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.CheckConstraint("white_id <> black_id", name="ck_games_two_players"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_games_event_id_events"),
        sa.ForeignKeyConstraint(["white_id"], ["players.id"], name="fk_games_white_id_players"),
        sa.ForeignKeyConstraint(["black_id"], ["players.id"], name="fk_games_black_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_index("ix_games_event_id", "games", ["event_id"])
    op.create_table(
        "list_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(7), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("rules", sa.String(300), nullable=False),
        sa.Column("rules_title", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "status IN ('published', 'superseded', 'draft')", name="ck_list_versions_status_known"
        ),
        sa.CheckConstraint("revision >= 1", name="ck_list_versions_revision_positive"),
        sa.PrimaryKeyConstraint("id", name="pk_list_versions"),
        sa.UniqueConstraint("period", "revision", name="uq_list_versions_period_revision"),
    )
    op.create_index(
        "ux_list_versions_one_published",
        "list_versions",
        ["period"],
        unique=True,
        sqlite_where=sa.text("status = 'published'"),
        postgresql_where=sa.text("status = 'published'"),
    )
    op.create_table(
        "list_entries",
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("rating_before", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("k", sa.Integer(), nullable=True),
        sa.Column("k_reason", sa.Text(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("score", DECIMAL, nullable=True),
        sa.Column("expected", DECIMAL, nullable=True),
        sa.Column("change", DECIMAL, nullable=True),
        sa.Column("rounded_change", sa.Integer(), nullable=True),
        sa.Column("adjustment", sa.Integer(), nullable=True),
        sa.Column("glicko_rating", sa.Float(), nullable=True),
        sa.Column("deviation", sa.Float(), nullable=True),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "status IN ('rated', 'entered', 'new', 'dropped', 'pending')", name="ck_list_entries_status_known"
        ),
        sa.CheckConstraint("games >= 0", name="ck_list_entries_games_not_negative"),
        sa.CheckConstraint(
            "rating IS NULL OR rating BETWEEN 0 AND 4000", name="ck_list_entries_rating_range"
        ),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["list_versions.id"],
            name="fk_list_entries_version_id_list_versions",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_list_entries_player_id_players"),
        sa.PrimaryKeyConstraint("version_id", "player_id", name="pk_list_entries"),
    )
    op.create_index("ix_list_entries_player_id", "list_entries", ["player_id"])
    op.create_table(
        "game_workings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("own_rating", DECIMAL, nullable=True),
        sa.Column("opponent_rating", DECIMAL, nullable=False),
        sa.Column("difference", DECIMAL, nullable=True),
        sa.Column("capped", sa.Boolean(), nullable=False),
        sa.Column("expected", DECIMAL, nullable=True),
        sa.Column("score", DECIMAL, nullable=False),
        sa.Column("change", DECIMAL, nullable=True),
        sa.ForeignKeyConstraint(
            ["version_id"],
            ["list_versions.id"],
            name="fk_game_workings_version_id_list_versions",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name="fk_game_workings_player_id_players"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_workings_game_id_games"),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="fk_game_workings_event_id_events"),
        sa.ForeignKeyConstraint(["opponent_id"], ["players.id"], name="fk_game_workings_opponent_id_players"),
        sa.PrimaryKeyConstraint("id", name="pk_game_workings"),
    )
    op.create_index("ix_game_workings_version_player", "game_workings", ["version_id", "player_id"])


def downgrade() -> None:
    for table in (
        "game_workings",
        "list_entries",
        "list_versions",
        "games",
        "event_players",
        "events",
        "players",
        "meta",
    ):
        op.drop_table(table)
