"""Steps the migrations share; frozen like them (no store internals), beside ``env.py``.

Alembic takes only the files in ``versions/`` for revisions, so this module is not one; the
revisions import it as ``chessrate.ratinglist.migrations.steps``.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from alembic import op

#: A foreign key as the orphan check needs it: column, the table it names, that table's column.
Key = tuple[str, str, str]


def orphaned(table: str, keys: Iterable[Key]) -> str:
    """The SQL condition of a row of ``table`` naming a row that a ``keys`` parent does not have.

    >>> orphaned("t", [("a_id", "a", "id"), ("b_id", "b", "id")])
    'NOT EXISTS (SELECT 1 FROM a WHERE a.id = t.a_id) OR NOT EXISTS (SELECT 1 FROM b WHERE b.id = t.b_id)'
    """
    return " OR ".join(
        f"NOT EXISTS (SELECT 1 FROM {parent} WHERE {parent}.{parent_column} = {table}.{column})"
        for column, parent, parent_column in keys
    )


def delete_orphans(table: str, keys: Iterable[Key]) -> None:
    """Delete the rows of ``table`` naming a row its ``keys``' parents do not have.

    A downgrade restoring foreign keys runs this first: the keys could not be restored over such
    rows (PostgreSQL refuses the ALTER TABLE; SQLite, its check off while migrating, would keep
    them dangling).
    """
    op.execute(sa.text(f"DELETE FROM {table} WHERE {orphaned(table, keys)}"))
