"""The rating-list store's tables (SQLAlchemy Core), as the migrations build them.

The migrations in ``migrations/versions`` create and upgrade these tables; this module is the
description the code queries through. ``tests/ratinglist/test_store.py`` checks the two agree.

Exact numbers (expected scores, unrounded changes) are kept as decimal text: every backend keeps
them exactly (SQLite has no decimal type), and they are never summed in SQL.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.types import TypeDecorator

from chessrate.ratinglist.statuses import EntryStatus, ListStatus, check_in


class DecimalText(TypeDecorator[Decimal]):
    """A :class:`~decimal.Decimal` stored as its text, exact on every database."""

    impl = String(40)
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: Any | None, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(value)


#: The newest migration (``migrations/versions``): what an opened store must be at
#: (``tests/ratinglist/test_store.py`` checks it is Alembic's head).
SCHEMA_REVISION = "0007"

#: Constraint names follow one convention, so that migrations can name what they alter.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

#: Settings of the store: ``rules`` (the default rule set), ``lock`` (taken by every period run),
#: ``summary`` (the lists :data:`list_summaries` sums, by version id).
meta = Table(
    "meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False),
    #: The name folded for matching players without a FIDE id across files.
    Column("name_key", String(200), nullable=False, index=True),
    Column("fide_id", BigInteger, nullable=True, unique=True),
    Column("birth_date", Date, nullable=True),
    Column("birth_year", Integer, nullable=True),
    Column("sex", String(1), nullable=True),
    Column("federation", String(8), nullable=True),
    Column("title", String(8), nullable=True),
    Column("created_at", DateTime, nullable=False),
    CheckConstraint("fide_id IS NULL OR fide_id > 0", name="fide_id_positive"),
)

events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(300), nullable=False),
    Column("source_format", String(10), nullable=False),
    Column("file_name", String(300), nullable=False),
    #: sha256 of the file's bytes: the same file is never imported twice.
    Column("file_sha256", String(64), nullable=False, unique=True),
    Column("start_date", Date, nullable=False),
    Column("end_date", Date, nullable=False),
    #: The rating period (YYYY-MM) the event is rated in: the month it ends.
    Column("period", String(7), nullable=False, index=True),
    Column("imported_at", DateTime, nullable=False),
    #: Set when a corrected file replaced this event: it is no longer rated.
    Column("replaced_by", Integer, ForeignKey("events.id"), nullable=True),
    #: sha256 of the event's days and games (ratinglist.fingerprint); None: an event without games.
    Column("games_fingerprint", String(64), nullable=True, index=True),
    CheckConstraint("end_date >= start_date", name="dates_in_order"),
)

#: An event's entrants and (:data:`games`) its games name their event and players without
#: foreign keys: an import checks them as a whole before it commits, ``chessrate list check``
#: checks every row (migration 0005, docs/ratinglist.md).
event_players = Table(
    "event_players",
    metadata,
    Column("event_id", Integer, primary_key=True),
    Column("start_number", Integer, primary_key=True),
    Column("player_id", Integer, nullable=False, index=True),
    #: The rating the file gives (None: unrated in the file).
    Column("rating_in_file", Integer, nullable=True),
    UniqueConstraint("event_id", "player_id", name="uq_event_players_event_player"),
    CheckConstraint("rating_in_file IS NULL OR rating_in_file BETWEEN 0 AND 4000", name="rating_range"),
)

games = Table(
    "games",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("event_id", Integer, nullable=False, index=True),
    Column("round", Integer, nullable=True),
    Column("white_id", Integer, nullable=False),
    Column("black_id", Integer, nullable=False),
    Column("white_score", DecimalText, nullable=True),
    Column("black_score", DecimalText, nullable=True),
    #: Played to a result: the game counts for rating (forfeits, byes, unfinished games do not).
    Column("rated", Boolean, nullable=False),
    Column("code", String(10), nullable=False),
    Column("line", Integer, nullable=False),
    CheckConstraint("white_id <> black_id", name="two_players"),
)

#: One computed list of a period (statuses: :class:`ListStatus`).
list_versions = Table(
    "list_versions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("period", String(7), nullable=False),
    Column("revision", Integer, nullable=False),
    Column("status", String(12), nullable=False),
    Column("rules", String(300), nullable=False),
    Column("rules_title", String(300), nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("period", "revision", name="uq_list_versions_period_revision"),
    CheckConstraint(check_in("status", ListStatus), name="status_known"),
    CheckConstraint("revision >= 1", name="revision_positive"),
)
#: One published list a period: a unique index of the published lists' periods. Its ``WHERE`` on
#: PostgreSQL is added by :func:`add_postgresql_options` when a PostgreSQL engine is made: a
#: ``postgresql_`` option named here made SQLAlchemy import every PostgreSQL dialect module to
#: check it, 0.03-0.1 s of every SQLite command's start.
PUBLISHED_ONLY = text(f"status = '{ListStatus.PUBLISHED}'")
ONE_PUBLISHED = Index(
    "ux_list_versions_one_published", list_versions.c.period, unique=True, sqlite_where=PUBLISHED_ONLY
)


def add_postgresql_options() -> None:
    """The options of the tables' indexes on PostgreSQL (SQLAlchemy's writable ``dialect_kwargs``)."""
    ONE_PUBLISHED.dialect_kwargs["postgresql_where"] = PUBLISHED_ONLY


#: One player's line of a list: the rating after the period and how it was reached.
#:
#: Its list (``list_versions.id``) and player (``players.id``) are not foreign keys: checked once
#: per row, they were most of a run's writing. A run checks the entries it writes as a whole
#: (:func:`chessrate.ratinglist.runner.check_entries`) and deletes a list's entries before the
#: list; ``chessrate list check`` checks every list (migration 0004, docs/ratinglist.md).
list_entries = Table(
    "list_entries",
    metadata,
    Column("version_id", Integer, primary_key=True),
    Column("player_id", Integer, primary_key=True, index=True),
    #: One of :class:`EntryStatus`.
    Column("status", String(10), nullable=False),
    Column("rating_before", Integer, nullable=True),
    Column("rating", Integer, nullable=True),
    Column("k", Integer, nullable=True),
    #: Why K: the reason's code and values as JSON (chessrate.ratinglist.k_reasons, migration 0006).
    Column("k_reason", Text, nullable=True),
    Column("games", Integer, nullable=False),
    Column("score", DecimalText, nullable=True),
    Column("expected", DecimalText, nullable=True),
    Column("change", DecimalText, nullable=True),
    Column("rounded_change", Integer, nullable=True),
    #: The one-time adjustment of 1 March 2024 added on this list [FIDE-PROP].
    Column("adjustment", Integer, nullable=True),
    Column("glicko_rating", Float, nullable=True),
    Column("deviation", Float, nullable=True),
    Column("volatility", Float, nullable=True),
    Column("note", Text, nullable=True),
    CheckConstraint(check_in("status", EntryStatus), name="status_known"),
    CheckConstraint("games >= 0", name="games_not_negative"),
    CheckConstraint("rating IS NULL OR rating BETWEEN 0 AND 4000", name="rating_range"),
)

#: Each player's lines on the published lists summed up (:class:`chessrate.ratinglist.listed.Listed`),
#: as the history of a run needs them: one row a player instead of every earlier list. A cache of
#: the lists that ``meta`` key ``summary`` names (their version ids, oldest period first), kept by
#: the runs: a run reads it when those lists are the first of the lists before its period, sums the
#: lists after them, and stores the sum of the lists before its period; otherwise (a past period
#: republished) it sums every list again (docs/ratinglist.md, "History"; migration 0004).
list_summaries = Table(
    "list_summaries",
    metadata,
    Column("player_id", Integer, primary_key=True, autoincrement=False),
    #: The first list the player is on, and whether they entered it with a file's rating.
    Column("first_period", String(7), nullable=False),
    Column("entered", Boolean, nullable=False),
    #: Their games over all their lines.
    Column("games", Integer, nullable=False),
    #: Their highest published rating (None: never rated on a list).
    Column("highest", Integer, nullable=True),
    #: The last list on which they were not pending (None: pending on every one).
    Column("active_period", String(7), nullable=True),
)

#: Every game behind a list entry, with the figures it was rated with (a run stores those of the
#: games pooled for a first rating).
#:
#: Its list, players, game and event are not foreign keys: checked once per row, they were most
#: of a run's writing on PostgreSQL. A run checks the workings it writes as a whole
#: (:func:`chessrate.ratinglist.runner.check_workings`) and deletes a list's workings before the
#: list; ``chessrate list check`` checks every working (migration 0007, docs/ratinglist.md).
game_workings = Table(
    "game_workings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("version_id", Integer, nullable=False),
    Column("player_id", Integer, nullable=False),
    Column("game_id", Integer, nullable=False),
    Column("event_id", Integer, nullable=False),
    Column("opponent_id", Integer, nullable=False),
    #: The player's rating the event was rated from (None: unrated, the game feeds a first rating).
    Column("own_rating", DecimalText, nullable=True),
    Column("opponent_rating", DecimalText, nullable=False),
    Column("difference", DecimalText, nullable=True),
    Column("capped", Boolean, nullable=False),
    Column("expected", DecimalText, nullable=True),
    Column("score", DecimalText, nullable=False),
    Column("change", DecimalText, nullable=True),
    Index("ix_game_workings_version_player", "version_id", "player_id"),
)

#: One FIDE rating list imported (``chessrate list import-fide``): which list, which month, which file.
fide_lists = Table(
    "fide_lists",
    metadata,
    Column("id", Integer, primary_key=True),
    #: standard, rapid or blitz.
    Column("list_type", String(8), nullable=False),
    #: The first day of the list's month.
    Column("month", Date, nullable=False),
    Column("file_name", String(300), nullable=False),
    #: sha256 of the file's bytes: the same file imported again changes nothing.
    Column("file_sha256", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("imported_at", DateTime, nullable=False),
    UniqueConstraint("list_type", "month", name="uq_fide_lists_list_type_month"),
    CheckConstraint("list_type IN ('standard', 'rapid', 'blitz')", name="list_type_known"),
)

#: A player's line of an imported FIDE list: the FIDE rating, games and K of that month.
fide_ratings = Table(
    "fide_ratings",
    metadata,
    Column("fide_list_id", Integer, ForeignKey("fide_lists.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True, index=True),
    #: None: not rated in that list.
    Column("rating", Integer, nullable=True),
    Column("games", Integer, nullable=True),
    Column("k", Integer, nullable=True),
    #: FIDE's flag: i (inactive), w (woman), wi (both), or empty.
    Column("flag", String(2), nullable=False),
    CheckConstraint("rating IS NULL OR rating BETWEEN 0 AND 4000", name="rating_range"),
    CheckConstraint("k IS NULL OR k > 0", name="k_positive"),
)
