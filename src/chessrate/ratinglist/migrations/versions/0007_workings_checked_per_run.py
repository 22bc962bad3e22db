"""A run's workings are checked as a whole, not row by row: ``game_workings`` loses its five
foreign keys (to ``list_versions``, ``players``, ``games`` and ``events``).

A run writes the working of each game pooled for a first rating (55,840 rows in a 3x10^5-game
month, about 180,000 in a 10^6-game one) in one statement. Each foreign key was checked once per
row: on PostgreSQL a ``SELECT ... FOR KEY SHARE`` of the parent row, four a row (5.2 s of a
3x10^5-game run, nine tenths of its writing); on SQLite a lookup each. A run now checks the keys
of the workings it writes as a whole, in its transaction (``runner.check_workings``: one set
operation a key against the players, games and events it read), deletes a list's workings before
the list (the only place a list is deleted; the key's ``ON DELETE CASCADE`` did it before), and
``chessrate list check`` looks for workings without their list, player, opponent, game or event
(``store.rows_without_owner``); docs/ratinglist.md, "Schema and migrations".

On SQLite the table is rebuilt (Alembic's batch mode: its primary key and index are carried
over), with SQLite's foreign keys off as ``store.init_store`` runs the migrations; PostgreSQL
drops the constraints in place.

Revision ID: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

from chessrate.ratinglist.migrations.steps import delete_orphans

revision: str = "0007"
down_revision: str | None = "0006"

#: The keys dropped: name, column, table it names, what a delete there does.
KEYS = (
    ("fk_game_workings_version_id_list_versions", "version_id", "list_versions", "CASCADE"),
    ("fk_game_workings_player_id_players", "player_id", "players", None),
    ("fk_game_workings_game_id_games", "game_id", "games", None),
    ("fk_game_workings_event_id_events", "event_id", "events", None),
    ("fk_game_workings_opponent_id_players", "opponent_id", "players", None),
)


def upgrade() -> None:
    with op.batch_alter_table("game_workings") as batch:
        for name, _, _, _ in KEYS:
            batch.drop_constraint(name, type_="foreignkey")


def downgrade() -> None:
    # The workings naming a row the store does not have (kept while no key checked them) are
    # deleted first: the keys could not be restored over them.
    delete_orphans("game_workings", [(column, parent, "id") for _, column, parent, _ in KEYS])
    with op.batch_alter_table("game_workings") as batch:
        for name, column, parent, ondelete in KEYS:
            batch.create_foreign_key(name, parent, [column], ["id"], ondelete=ondelete)
