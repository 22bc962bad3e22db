"""Reproducible synthetic games for tests and benchmarks."""
