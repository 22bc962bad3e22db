"""Every rating system in its own place: Elo and FIDE's regulations, Glicko (with the
Lichess and Chess.com presets), DWZ, US Chess, ECF.

Each system is one folder; the maths knows nothing of files, the web or a database. A new system
is one new folder plus its line in :mod:`chessrate.systems.registry` (docs/architecture.md)."""
