"""The rating lists: the store, its migrations, imports and runs, on SQLite and PostgreSQL."""
