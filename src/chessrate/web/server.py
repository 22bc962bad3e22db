"""Serving the web calculator with uvicorn: the address checked first, long URLs answered 414.

:func:`serve` binds the socket itself, so that a bad port or host, or one already in use, is one
line of error before uvicorn starts. :class:`LongUrlProtocol` is uvicorn's h11 protocol with one
change: a request line longer than :data:`~chessrate.web.limits.MAX_URL` is answered
``414 URI Too Long`` and the rest of it read and dropped, where h11 would stop at its buffer
limit (16 KB) with a 400 and close the connection under the client's feet (a reset).
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from chessrate.errors import InvalidInputError
from chessrate.web.limits import MAX_URL

#: A request line: the method, the URL and the protocol, with room for the first two.
MAX_REQUEST_LINE = MAX_URL + 64
#: After a 414, the most of the request read and dropped, and for how long, before closing.
DRAIN_BYTES = 64_000_000
DRAIN_SECONDS = 10.0


class LongUrlProtocol(H11Protocol):
    """uvicorn's h11 protocol answering 414 to a request line over :data:`MAX_REQUEST_LINE`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._line = 0
        self._line_ended = False
        self._dropped: int | None = None

    def data_received(self, data: bytes) -> None:
        if self._dropped is not None:  # after a 414: read to the end of what the client sends
            self._dropped += len(data)
            if self._dropped > DRAIN_BYTES:
                self.transport.close()
            return
        if self.conn.their_state is h11.IDLE and not self._line_ended:
            end = data.find(b"\n")
            self._line += len(data) if end < 0 else end
            self._line_ended = end >= 0
            if self._line > MAX_REQUEST_LINE:
                self._refuse_long_url()
                return
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._line, self._line_ended = 0, False
        super().on_response_complete()

    def eof_received(self) -> None:
        if self._dropped is not None:
            self.transport.close()

    def _refuse_long_url(self) -> None:
        body = json.dumps({"detail": f"The URL is longer than {MAX_URL} bytes."}).encode()
        head = (
            "HTTP/1.1 414 URI Too Long\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self._dropped = 0
        asyncio.get_running_loop().call_later(DRAIN_SECONDS, self.transport.close)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or one line saying why it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        raise InvalidInputError("--host", host, "not an address of this machine or a name it knows") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise InvalidInputError("--host", f"{host}:{port}", error.strerror or "cannot listen there") from None
    sock.set_inheritable(True)
    return sock


def serve(app: Any, *, host: str, port: int, forwarded_allow_ips: str | None = None) -> None:
    """Run ``app`` on ``host:port`` until Ctrl+C.

    Behind a reverse proxy, ``forwarded_allow_ips`` names the proxies whose ``X-Forwarded-Proto``
    and ``X-Forwarded-For`` are believed (uvicorn's default: 127.0.0.1 only).
    """
    sock = listening_socket(host, port)
    config = uvicorn.Config(
        app,
        http=LongUrlProtocol,
        log_level="warning",
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    uvicorn.Server(config).run(sockets=[sock])
