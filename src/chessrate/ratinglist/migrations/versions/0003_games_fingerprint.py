"""Each event's games fingerprint stored and indexed, so a re-saved file is found by one lookup.

Events imported before this revision get theirs computed from their stored games.

Revision ID: 0003
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
    events = _table(
        "events", id=sa.Integer, start_date=sa.Date, end_date=sa.Date, games_fingerprint=sa.String
    )
    # The scores are Decimal as text (schema.DecimalText).
    games = _table(
        "games",
        event_id=sa.Integer,
        round=sa.Integer,
        white_id=sa.Integer,
        black_id=sa.Integer,
        white_score=sa.String,
        black_score=sa.String,
    )
    keys: dict[int, list[GameKey]] = defaultdict(list)
    for row in connection.execute(sa.select(*games.c)):
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


def _table(name: str, **columns: type[sa.types.TypeEngine[Any]]) -> sa.TableClause:
    """The columns of ``name`` this migration reads and writes, with their types."""
    return sa.table(name, *(sa.column(column, kind) for column, kind in columns.items()))


def _decimal(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)
