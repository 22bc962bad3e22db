"""Serving the web calculator with uvicorn: the address checked first, long URLs answered 414.

:func:`serve` binds the socket itself, so that a bad port or host, or one already in use, is one
line of error before uvicorn starts. :class:`LongUrlProtocol` is uvicorn's h11 protocol with one
change: a request line longer than :data:`~chessrate.web.limits.MAX_URL` is read and dropped, where
h11 would stop at its buffer limit (16 KB) with a 400 and close the connection under the client's
feet (a reset), and the app answers ``414 URI Too Long`` in the request's language.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from chessrate.errors import InvalidInputError, address_reason
from chessrate.service.language import ENGLISH
from chessrate.service.problems import input_reason
from chessrate.web.limits import MAX_URL, TOO_LONG_PATH

#: A request line: the method, the URL and the protocol, with room for the first two.
MAX_REQUEST_LINE = MAX_URL + 64
#: The most of a long request line read and dropped, and for how long, before closing.
DRAIN_BYTES = 64_000_000
DRAIN_SECONDS = 10.0


class LongUrlProtocol(H11Protocol):
    """uvicorn's h11 protocol: a request line over :data:`MAX_REQUEST_LINE` is read and dropped, and
    replaced by a short one asking for :data:`~chessrate.web.limits.TOO_LONG_PATH`, which the app
    answers 414 with the request's own headers (its language, a page or JSON)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._held = b""  # the request line read so far, before it is handed to h11
        self._dropped: int | None = None  # while dropping a long line: the bytes dropped
        self._method = b"GET"

    def data_received(self, data: bytes) -> None:
        if self._dropped is not None:  # dropping a long request line up to its end
            end = data.find(b"\n")
            if end < 0:
                self._dropped += len(data)
                if self._dropped > DRAIN_BYTES:
                    self.transport.close()
                return
            self._dropped = None
            super().data_received(
                self._method + b" " + TOO_LONG_PATH.encode() + b" HTTP/1.1\r\n" + data[end + 1 :]
            )
            return
        if self.conn.their_state is not h11.IDLE:
            super().data_received(data)
            return
        line = self._held + data
        end = line.find(b"\n")
        if (end < 0 and len(line) > MAX_REQUEST_LINE) or end > MAX_REQUEST_LINE:
            method = line.split(b" ", 1)[0]
            self._method = method if method.isalpha() and len(method) <= 16 else b"GET"
            self._held, self._dropped = b"", 0
            asyncio.get_running_loop().call_later(DRAIN_SECONDS, self._stop_dropping)
            self.data_received(line)  # dropped up to the line's end, if it is here
            return
        if end < 0:  # the line goes on: hold it until it ends
            self._held = line
            return
        self._held = b""
        super().data_received(line)

    def _stop_dropping(self) -> None:
        if self._dropped is not None:  # the line never ended: close, as h11 would
            self.transport.close()

    def eof_received(self) -> None:
        if self._dropped is not None:
            self.transport.close()
            return
        super().eof_received()


def _host_refused(value: str, code: str, **params: object) -> InvalidInputError:
    """``--host`` refused, its English said from the code's one template (docs/codes.md)."""
    english = input_reason(code, params, "", ENGLISH)
    return InvalidInputError("--host", value, english, code=code, params=params)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or one line saying why it cannot be."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        raise _host_refused(host, "host-unknown") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise _host_refused(f"{host}:{port}", "host-unusable", reason=address_reason(error).code) from None
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
