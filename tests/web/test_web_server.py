"""A real uvicorn on 127.0.0.1, as ``chessrate serve`` runs it: long URLs get 414, not a reset."""

from __future__ import annotations

import errno
import os
import socket
import threading
import time
from collections.abc import Iterator

import httpx2 as httpx
import pytest
import uvicorn

from chessrate.web import WebSettings, create_app
from chessrate.web.limits import MAX_URL
from chessrate.web.server import LongUrlProtocol, listening_socket


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    sock = listening_socket("127.0.0.1", 0)
    number = sock.getsockname()[1]
    config = uvicorn.Config(create_app(WebSettings()), http=LongUrlProtocol, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield number
    server.should_exit = True
    thread.join(timeout=5)


def raw_get(port: int, target: bytes) -> bytes:
    """Send the whole request, then read the answer (a reset would raise here)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and b"}" in answer:
                break
        return answer


@pytest.mark.parametrize("length", [MAX_URL + 10, 20_000, 1_000_000, 3_000_000])
def test_a_long_url_is_answered_414(port: int, length: int) -> None:
    answer = raw_get(port, b"/game?rating=" + b"1" * length)
    assert answer.startswith(b"HTTP/1.1 414 "), answer[:100]
    assert b"The address is longer than 8192 characters" in answer


def test_ordinary_requests_still_work(port: int) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        assert client.get("/game?rating=1500").status_code == 200
        assert client.get("/api/tables").status_code == 200  # the same connection, kept alive
        assert client.get("/game?rating=" + "1" * (MAX_URL - 100)).status_code == 200


def test_serve_refuses_a_port_in_use(port: int) -> None:
    from chessrate.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="in use"):
        listening_socket("127.0.0.1", port)


def test_a_long_report_does_not_hold_other_requests(port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The report is computed in the thread pool: while one is (here: held on purpose), the event
    # loop answers other requests.
    from chessrate.web import report_page

    computing, release = threading.Event(), threading.Event()
    compute = vars(report_page)["tournament_file"]  # the name the page calls, replaced below

    def held(*args: object, **kwargs: object) -> object:
        computing.set()
        release.wait(timeout=30)
        return compute(*args, **kwargs)

    monkeypatch.setattr(report_page, "tournament_file", held)
    base = f"http://127.0.0.1:{port}"
    pgn = b'[White "A"]\n[Black "B"]\n[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n'
    upload = threading.Thread(
        target=lambda: httpx.post(base + "/api/report", files={"file": ("a.pgn", pgn)}, timeout=60)
    )
    upload.start()
    try:
        assert computing.wait(timeout=30)
        started = time.monotonic()
        assert httpx.get(base + "/api/expected-curve", timeout=10).status_code == 200
        assert time.monotonic() - started < 5
    finally:
        release.set()
        upload.join(timeout=30)


def test_at_most_two_reports_are_made_at_once_and_the_third_waits_its_turn(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A report of the largest file the upload cap lets through holds about a gigabyte while it is
    # made: strangers' uploads queue for REPORTS places (docs/security.md), none is refused.
    from chessrate.web import report_page

    assert report_page.REPORTS == 2
    inside, most, lock = 0, 0, threading.Lock()
    two_in, release = threading.Event(), threading.Event()
    compute = vars(report_page)["tournament_file"]

    def held(*args: object, **kwargs: object) -> object:
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
            if inside == 2:
                two_in.set()
        release.wait(timeout=30)
        with lock:
            inside -= 1
        return compute(*args, **kwargs)

    monkeypatch.setattr(report_page, "tournament_file", held)
    base = f"http://127.0.0.1:{port}"
    pgn = b'[White "A"]\n[Black "B"]\n[Result "1-0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n\n1-0\n'
    codes: list[int] = []

    def upload() -> None:
        answer = httpx.post(base + "/api/report", files={"file": ("a.pgn", pgn)}, timeout=60)
        codes.append(answer.status_code)

    uploads = [threading.Thread(target=upload) for _ in range(3)]
    for thread in uploads:
        thread.start()
    try:
        assert two_in.wait(timeout=30)
        time.sleep(0.5)  # time for the third to come in, were it let in
        assert most == 2
    finally:
        release.set()
        for thread in uploads:
            thread.join(timeout=30)
    assert codes == [200, 200, 200]
    assert most == 2


@pytest.mark.parametrize("length", [MAX_URL + 10, 1_000_000])
def test_a_long_url_from_a_browser_is_a_page_in_its_language(port: int, length: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(
            b"GET /game?rating=" + b"1" * length + b" HTTP/1.1\r\nHost: localhost\r\n"
            b"Accept: text/html\r\nAccept-Language: es-ES,es;q=0.9\r\n\r\n"
        )
        answer = b""
        while chunk := connection.recv(65536):  # the 414 closes the connection
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 414 "), head[:100]
    assert b"content-language: es" in head.lower()
    text = body.decode()
    assert '<html lang="es">' in text
    assert "La dirección tiene más de 8192 caracteres" in text


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "not an address of this machine or a name it knows"),
        ("es", "no es una dirección de este ordenador ni un nombre que conozca"),
        ("ca", "no és una adreça d’aquest ordinador ni un nom que conegui"),
    ],
)
def test_an_unknown_host_is_refused_by_its_code_in_three_languages(language: str, said: str) -> None:
    from chessrate.errors import InvalidInputError
    from chessrate.service.language import translator
    from chessrate.service.problems import input_reason

    with pytest.raises(InvalidInputError) as refused:
        listening_socket("999.1.1.1", 8000)
    error = refused.value
    assert (error.field, error.value, error.code) == ("--host", "999.1.1.1", "host-unknown")
    assert input_reason(error.code, error.params, "", translator(language)) == said
    if language == "en":
        assert error.reason == said


def assert_refused_to_listen(
    host: str, port: int, code: str, english: str, spanish: str, catalan: str
) -> None:
    """Listening on ``host``:``port`` is refused with the system's reason as ``code`` (chessrate.errors
    .address_reason), never its English strerror, and said in each language."""
    from chessrate.errors import InvalidInputError
    from chessrate.service.language import translator
    from chessrate.service.problems import input_reason

    with pytest.raises(InvalidInputError) as refused:
        listening_socket(host, port)
    error = refused.value
    assert (error.code, error.params) == ("host-unusable", {"reason": code})
    assert error.reason == f"cannot listen there ({english})"
    assert input_reason(error.code, error.params, "", translator("es")) == spanish
    assert input_reason(error.code, error.params, "", translator("ca")) == catalan


def test_a_port_in_use_is_refused_with_the_systems_reason_in_three_languages(port: int) -> None:
    assert_refused_to_listen(
        "127.0.0.1",
        port,
        "address-in-use",
        "the port is already in use",
        "no se puede escuchar ahí (el puerto ya está en uso)",
        "no s’hi pot escoltar (el port ja està en ús)",
    )


def test_an_address_not_of_this_machine_is_refused_by_its_code_in_three_languages() -> None:
    assert_refused_to_listen(
        "192.0.2.1",  # TEST-NET-1 (RFC 5737): no machine's own address
        0,
        "address-not-available",
        "not an address of this machine",
        "no se puede escuchar ahí (no es una dirección de este ordenador)",
        "no s’hi pot escoltar (no és una adreça d’aquest ordinador)",
    )


@pytest.mark.parametrize(
    ("number", "code", "english", "spanish", "catalan"),
    [
        (
            errno.EACCES,
            "address-permission-denied",
            "permission denied",
            "permiso denegado",
            "permís denegat",
        ),
        (
            errno.ENOBUFS,
            "address-refused",
            "the system does not allow it",
            "el sistema no lo permite",
            "el sistema no ho permet",
        ),
    ],
)
def test_the_system_s_reasons_not_to_listen_are_codes_said_in_the_language(
    number: int, code: str, english: str, spanish: str, catalan: str
) -> None:
    """A port below 1024 without the rights, and any other reason, which a test cannot make as root."""
    from chessrate.errors import address_reason
    from chessrate.service.language import ENGLISH, translator
    from chessrate.service.problems import input_reason

    reason = address_reason(OSError(number, os.strerror(number)))
    assert reason.code == code
    for t, said in ((ENGLISH, english), (translator("es"), spanish), (translator("ca"), catalan)):
        assert input_reason("host-unusable", {"reason": code}, "", t).endswith(f"({said})")
