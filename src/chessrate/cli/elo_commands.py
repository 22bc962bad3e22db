"""Elo and FIDE commands: game, tournament, games, period, k-factor, performance, initial, table."""

from __future__ import annotations
