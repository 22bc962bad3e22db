"""The loopback server's fixtures (platform_server.py), for every test here."""

from .platform_server import platform, silent

__all__ = ["platform", "silent"]
