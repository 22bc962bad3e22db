"""Glicko and Glicko-2 as Glickman published them, and the Lichess and Chess.com presets."""
