"""Tuning of the Python process for big jobs: the cycle collector and the C allocator."""
