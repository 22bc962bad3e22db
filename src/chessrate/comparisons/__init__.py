"""Ratings across systems: the published pool conversions and the points at stake."""
