"""The rating-list engine: a club's or federation's own rating list over monthly periods.

Players, events imported from TRF, PGN or CSV files, games, monthly rating periods, published
lists and every player's history, kept in a database through SQLAlchemy (SQLite by default,
PostgreSQL by URL). See ``docs/ratinglist.md``.
"""
