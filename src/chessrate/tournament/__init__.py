"""A whole tournament file rated: every player's change from a TRF, PGN or CSV report."""
