"""chessrate: chess ratings as federations, clubs and online platforms compute them."""

__version__ = "0.1.0"
