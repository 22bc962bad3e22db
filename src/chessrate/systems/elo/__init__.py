"""Elo: the logistic maths, rule sets (FIDE's, plain Elo, clubs' TOML) and the calculator."""
