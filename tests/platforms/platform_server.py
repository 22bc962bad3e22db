"""A real HTTP server on the loopback standing in for Lichess and Chess.com (no network in tests).

Each test gives the server its routes: a path and a function that writes the answer on the raw
handler, so that a test can send what the platforms document, a 429, a stream cut half-way or
nothing at all. Every request is recorded: path, query and headers.
"""

from __future__ import annotations

import functools
import io
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import chess.pgn
import pytest

PGN = Path(__file__).parents[1] / "data" / "pgn" / "lichess-export.pgn"

Answer = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Seen:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


@dataclass
class Platform:
    url: str
    routes: dict[str, Answer] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    platform: Platform

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        self.platform.requests.append(Seen(parts.path, parse_qs(parts.query), dict(self.headers.items())))
        answer = self.platform.routes.get(parts.path)
        if answer is None:
            send(self, 404, "application/json", b'{"error":"Not found"}')
        else:
            answer(self)

    def log_message(self, format: str, *args: object) -> None:
        pass


def send(
    handler: BaseHTTPRequestHandler, status: int, content_type: str, body: bytes, **headers: str
) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()
    handler.wfile.write(body)


def stream(
    handler: BaseHTTPRequestHandler, content_type: str, chunks: list[bytes], *, cut: bool = False
) -> None:
    """A chunked body, as Lichess streams; ``cut``: the connection closed before the last chunk."""
    handler.send_response(200)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    for chunk in chunks:
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        handler.wfile.flush()
    if cut:
        handler.close_connection = True
        handler.connection.shutdown(socket.SHUT_RDWR)
        return
    handler.wfile.write(b"0\r\n\r\n")


@contextmanager
def serve_platform() -> Iterator[Platform]:
    """A platform on a free loopback port, for as long as the block lasts."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    platform = Platform(f"http://127.0.0.1:{server.server_address[1]}")
    server.RequestHandlerClass = type("Handler", (_Handler,), {"platform": platform})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield platform
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def platform() -> Iterator[Platform]:
    with serve_platform() as platform:
        yield platform


@pytest.fixture
def silent() -> Iterator[str]:
    """A server that accepts the connection (the kernel's backlog) and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()


@functools.cache
def _short_games() -> list[chess.pgn.Game]:
    games = []
    with PGN.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return sorted(games, key=lambda g: len(list(g.mainline_moves())))[:2]


def user_games(user: str, count: int) -> list[str]:
    """``count`` real Lichess games (the export's two shortest, in turn) with ``user`` as one player,
    White and Black in turn: the same positions again, so that the evaluation cache makes them cheap."""
    games = []
    for number in range(count):
        game = chess.pgn.read_game(io.StringIO(str(_short_games()[number % 2])))
        assert game is not None
        game.headers["White" if number % 4 < 2 else "Black"] = user
        games.append(str(game))
    return games
