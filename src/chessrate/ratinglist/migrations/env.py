"""Alembic environment of the rating-list store: migrations run on the connection they are given.

:func:`chessrate.ratinglist.store.init_store` passes its open connection in
``config.attributes["connection"]``; there is no ``alembic.ini``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from chessrate.ratinglist.schema import metadata


def run_migrations_online() -> None:
    connection: Connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,  # SQLite alters tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("the rating-list migrations run online only, on a connection")
run_migrations_online()
