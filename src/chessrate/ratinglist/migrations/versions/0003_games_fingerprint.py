"""Each event's games fingerprint stored and indexed, so a re-saved file is found by one lookup.

Events imported before this revision get theirs computed from their stored games.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from alembic import op

from chessrate.ratinglist.fingerprint import GameKey, fingerprint

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("games_fingerprint", sa.String(64), nullable=True))
    op.create_index("ix_events_games_fingerprint", "events", ["games_fingerprint"])
    _fill_in()


def downgrade() -> None:
    op.drop_index("ix_events_games_fingerprint", table_name="events")
    # Plain SQL: SQLite 3.35+ and PostgreSQL both drop a column in place (a batch copy of the
    # table would trip the foreign keys that point at it).
    op.execute("ALTER TABLE events DROP COLUMN games_fingerprint")


def _fill_in() -> None:
    """The fingerprint of every stored event that has games, as the importer computes it."""
    connection = op.get_bind()
    events = sa.table(
        "events",
        sa.column("id", sa.Integer),
        sa.column("start_date", sa.Date),
        sa.column("end_date", sa.Date),
        sa.column("games_fingerprint", sa.String),
    )
    games = sa.table(
        "games",
        sa.column("event_id", sa.Integer),
        sa.column("round", sa.Integer),
        sa.column("white_id", sa.Integer),
        sa.column("black_id", sa.Integer),
        sa.column("white_score", sa.String),  # Decimal as text (schema.DecimalText)
        sa.column("black_score", sa.String),
    )
    keys: dict[int, list[GameKey]] = defaultdict(list)
    for row in connection.execute(
        sa.select(
            games.c.event_id,
            games.c.round,
            games.c.white_id,
            games.c.black_id,
            games.c.white_score,
            games.c.black_score,
        )
    ):
        keys[row.event_id].append(
            (row.round, row.white_id, row.black_id, _decimal(row.white_score), _decimal(row.black_score))
        )
    days: dict[int, Any] = {
        row.id: (row.start_date, row.end_date)
        for row in connection.execute(sa.select(events.c.id, events.c.start_date, events.c.end_date))
    }
    for event_id, event_keys in keys.items():
        start, end = days[event_id]
        connection.execute(
            sa.update(events)
            .where(events.c.id == event_id)
            .values(games_fingerprint=fingerprint(start, end, event_keys))
        )


def _decimal(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)
