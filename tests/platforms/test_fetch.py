"""Games by username (issue 31) against a loopback server speaking the platforms' documented API."""

from __future__ import annotations

import errno
import json
import socket
import ssl
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from chessrate.platforms import FetchError, FetchQuery, Notice, chesscom, lichess
from chessrate.service.fetch_refusals import fetch_text, notice_text

from .platform_server import Platform, send, stream, user_games

NDJSON = "application/x-ndjson"
USER = "Fetch_Tester-1"


def lichess_lines(count: int) -> list[bytes]:
    """Lichess's NDJSON export with ``pgnInJson``: one game a line (fields as the API shows them)."""
    return [
        json.dumps({"id": f"game{n:04d}", "rated": True, "variant": "standard", "speed": "blitz",
                    "perf": "blitz", "status": "mate", "pgn": pgn}).encode() + b"\n"
        for n, pgn in enumerate(user_games(USER, count))
    ]  # fmt: skip


@pytest.fixture
def on_lichess(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> Platform:
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", platform.url)
    return platform


@pytest.fixture
def on_chesscom(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> Platform:
    monkeypatch.setenv("CHESSRATE_CHESSCOM_URL", platform.url)
    return platform


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("evals") / "evals.sqlite")


def test_lichess_strength_of_20_games(on_lichess: Platform, cli: Any, cache: str, tmp_path: Path) -> None:
    lines = lichess_lines(20)
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, lines)
    run = cli("strength", "--lichess", USER, "--max", "20", "--speed", "blitz,rapid", "--since", "2026-01-01",
              "--json", "--cache", cache)  # fmt: skip
    assert run.code == 0, run.err
    (seen,) = on_lichess.requests
    assert seen.path == f"/api/games/user/{USER}"
    assert seen.query == {
        "max": ["20"], "since": ["1767225600000"], "perfType": ["blitz,rapid"], "clocks": ["true"],
        "evals": ["true"], "opening": ["true"], "pgnInJson": ["true"],
    }  # fmt: skip  # 2026-01-01T00:00Z is 1767225600 s after the epoch
    assert seen.headers["Accept"] == NDJSON
    assert seen.headers["User-Agent"].startswith("chessrate/")
    estimate = run.json()
    assert estimate["player"] == USER
    assert estimate["games"] == 20
    # An end beyond the model's reach is open (None), with its reason (docs/strength.md).
    assert estimate["low"] is None or estimate["low"] < estimate["estimate"]
    assert estimate["high"] is None or estimate["estimate"] < estimate["high"]
    assert (estimate["low"], estimate["high"]) != (None, None)
    assert run.err == f"20 games of {USER} fetched from Lichess\n"
    # The same document as for the same games in a file.
    path = tmp_path / "games.pgn"
    path.write_text("\n\n".join(g.strip() for g in user_games(USER, 20)) + "\n", encoding="utf-8")
    assert cli("strength", str(path), "--player", USER, "--json", "--cache", cache).json() == estimate


def test_lichess_both_players(on_lichess: Platform, cli: Any, cache: str) -> None:
    lines = lichess_lines(4)
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, lines)
    run = cli("strength", "--lichess", USER, "--max", "4", "--both", "--json", "--cache", cache)
    assert run.code == 0, run.err
    players = {p["player"]: p["games"] for p in run.json()["players"]}
    assert players[USER] == 4
    assert len(players) > 1


def test_a_stream_cut_in_the_fourth_of_8_games_keeps_3(on_lichess: Platform, cli: Any, cache: str) -> None:
    lines = lichess_lines(8)
    chunks = [*lines[:3], lines[3][: len(lines[3]) // 2]]
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, chunks, cut=True)
    run = cli("strength", "--lichess", USER, "--max", "8", "--json", "--cache", cache)
    assert run.code == 0, run.err
    assert run.json()["games"] == 3
    assert run.err.splitlines() == [
        f"3 games of {USER} fetched from Lichess",
        "the answer of Lichess was cut in game 4: kept the 3 whole games before it",
    ]


def test_chesscom_strength_across_two_monthly_archives(on_chesscom: Platform, cli: Any, cache: str) -> None:
    user = "Fetch_Tester"
    pgns = user_games(user, 24)
    base = "/pub/player/fetch_tester/games"
    archive = f"https://api.chess.com{base}"  # as Chess.com writes them: never fetched as given

    def month(pgns: list[str], start: int) -> bytes:
        games = [
            {"url": f"https://www.chess.com/game/live/{start + n}", "pgn": pgn, "time_class": "blitz",
             "rules": "chess", "end_time": 1790000000 + start + n}
            for n, pgn in enumerate(pgns)
        ]  # fmt: skip
        return json.dumps({"games": games}).encode()

    routes = {
        f"{base}/archives": json.dumps({"archives": [f"{archive}/2026/10", f"{archive}/2026/11"]}).encode(),
        f"{base}/2026/11": month(pgns[:12], 100),
        f"{base}/2026/10": month(pgns[12:], 0),
    }
    for path, body in routes.items():
        on_chesscom.routes[path] = lambda h, body=body: send(h, 200, "application/json", body)
    run = cli("strength", "--chesscom", user, "--max", "20", "--speed", "blitz", "--json", "--cache", cache)
    assert run.code == 0, run.err
    assert [(s.path, s.query, s.headers["Accept"]) for s in on_chesscom.requests] == [
        (f"{base}/archives", {}, "application/json"),
        (f"{base}/2026/11", {}, "application/json"),
        (f"{base}/2026/10", {}, "application/json"),
    ]
    assert all(s.headers["User-Agent"].startswith("chessrate/") for s in on_chesscom.requests)
    assert run.json()["games"] == 20
    assert run.err == f"20 games of {user} fetched from Chess.com\n"


def test_links_to_each_game(on_lichess: Platform) -> None:
    lines = lichess_lines(2)
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, lines)
    games = lichess.fetch(FetchQuery(user=USER, max_games=2), print)
    assert games.links == [f"{on_lichess.url}/game0000", f"{on_lichess.url}/game0001"]


# Errors: one line each, exit 2 where nothing could be estimated.


def test_an_unknown_lichess_user(on_lichess: Platform, cli: Any) -> None:
    run = cli("strength", "--lichess", "nobody_here")
    assert (run.code, run.out) == (2, "")
    assert run.err == "chessrate: error: no Lichess account named “nobody_here” (unknown or closed)\n"


def test_an_unknown_chesscom_user(on_chesscom: Platform, cli: Any) -> None:
    run = cli("analyse", "--chesscom", "nobody_here")
    assert (run.code, run.out) == (2, "")
    assert run.err == "chessrate: error: no Chess.com account named “nobody_here” (unknown or closed)\n"
    assert [s.path for s in on_chesscom.requests] == ["/pub/player/nobody_here/games/archives"]


LICHESS_RULE = "not a Lichess username: 2 to 30 letters, digits, _ or -, the first and last a letter or digit"
CHESSCOM_RULE = "not a Chess.com username: 3 to 20 letters, digits, _ or -"


@pytest.mark.parametrize(
    ("option", "user", "line"),
    [
        ("--lichess", "a", f"invalid lichess 'a': {LICHESS_RULE}"),
        ("--lichess", "x/../../admin", f"invalid lichess 'x/../../admin': {LICHESS_RULE}"),
        ("--lichess", "_abc", f"invalid lichess '_abc': {LICHESS_RULE}"),  # lila: first a letter or digit
        ("--lichess", "abc-", f"invalid lichess 'abc-': {LICHESS_RULE}"),  # ... and last
        ("--lichess", "a" * 31, f"invalid lichess '{'a' * 31}': {LICHESS_RULE}"),  # lila: at most 30
        ("--lichess", "Ghost", f"invalid lichess 'Ghost': {LICHESS_RULE}"),  # lila's deleted accounts
        ("--lichess", "ab.cd", f"invalid lichess 'ab.cd': {LICHESS_RULE}"),
        ("--chesscom", "ab", f"invalid chesscom 'ab': {CHESSCOM_RULE}"),  # Chess.com: at least 3
        ("--chesscom", "a" * 21, f"invalid chesscom '{'a' * 21}': {CHESSCOM_RULE}"),  # ... at most 20
        ("--chesscom", "first.last", f"invalid chesscom 'first.last': {CHESSCOM_RULE}"),  # no dots
        ("--chesscom", "http://evil.example", f"invalid chesscom 'http://evil.example': {CHESSCOM_RULE}"),
    ],
)
def test_usernames_are_checked_before_any_request(
    platform: Platform, monkeypatch: pytest.MonkeyPatch, cli: Any, option: str, user: str, line: str
) -> None:
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", platform.url)
    monkeypatch.setenv("CHESSRATE_CHESSCOM_URL", platform.url)
    run = cli("strength", option, user)
    assert (run.code, run.err) == (2, f"chessrate: error: {line}\n")
    assert platform.requests == []


def test_no_games_of_that_speed(on_lichess: Platform, on_chesscom: Platform, cli: Any) -> None:
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, [])
    run = cli("strength", "--lichess", USER, "--speed", "rapid")
    assert (run.code, run.err) == (2, f"chessrate: error: “{USER}” has no rapid games on Lichess\n")
    base = "/pub/player/someone/games"
    archives = json.dumps({"archives": [f"https://api.chess.com{base}/2026/11"]}).encode()
    month = json.dumps({"games": [{"url": "u", "pgn": user_games("someone", 1)[0], "time_class": "bullet",
                                   "rules": "chess", "end_time": 1790000000}]}).encode()  # fmt: skip
    on_chesscom.routes[f"{base}/archives"] = lambda h: send(h, 200, "application/json", archives)
    on_chesscom.routes[f"{base}/2026/11"] = lambda h: send(h, 200, "application/json", month)
    run = cli("strength", "--chesscom", "someone", "--speed", "blitz,rapid")
    assert (run.code, run.err) == (2, "chessrate: error: “someone” has no blitz,rapid games on Chess.com\n")


def test_a_bad_speed_is_named(cli: Any) -> None:
    run = cli("strength", "--lichess", USER, "--speed", "blitz,lightning")
    assert (run.code, run.err) == (
        2, "chessrate: error: invalid speed 'lightning': write one of: ultraBullet, bullet, blitz, rapid, "
        "classical, correspondence\n",
    )  # fmt: skip


def test_a_rate_limit_is_waited_out_as_lichess_asks(
    on_lichess: Platform, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = lichess_lines(1)
    answers = [lambda h: send(h, 429, "application/json", b'{"error":"Too many requests"}'),
               lambda h: stream(h, NDJSON, lines)]  # fmt: skip
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: answers.pop(0)(h)
    waits: list[float] = []
    said: list[Notice] = []
    games = lichess.fetch(FetchQuery(user=USER, max_games=1), said.append, waits.append)
    assert games.count == 1
    assert waits == [60.0]  # Lichess: a full minute
    assert said == [Notice("fetch-waiting", {"host": "Lichess", "seconds": 60})]
    assert (
        notice_text(said[0])
        == "Lichess is limiting our requests (429): waiting 60 s as it asks, then trying again"
    )
    assert len(on_lichess.requests) == 2


def test_a_rate_limit_that_lasts(on_chesscom: Platform) -> None:
    def limited(h: BaseHTTPRequestHandler) -> None:
        send(h, 429, "application/json", b"{}", Retry_After="90")

    on_chesscom.routes["/pub/player/someone/games/archives"] = limited
    waits: list[float] = []
    with pytest.raises(FetchError) as refused:
        chesscom.fetch(FetchQuery(user="someone"), lambda _line: None, waits.append)
    assert (refused.value.code, refused.value.params) == ("fetch-rate-limited", {"host": "Chess.com"})
    assert fetch_text("fetch-rate-limited", refused.value.params) == (
        "Chess.com is limiting our requests (429): try again in a few minutes"
    )
    assert waits == [90.0, 90.0]  # Retry-After, as asked
    assert len(on_chesscom.requests) == 3


def test_a_platform_that_never_answers(silent: str, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", silent)
    monkeypatch.setenv("CHESSRATE_FETCH_TIMEOUT", "1")
    start = time.monotonic()
    run = cli("strength", "--lichess", USER)
    assert time.monotonic() - start < 10
    assert (run.code, run.err) == (2, "chessrate: error: Lichess did not answer within 1 s\n")


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Lichess could not be reached (the connection was refused)"),
        ("es", "no se ha podido conectar con Lichess (se ha rechazado la conexión)"),
        ("ca", "no s’ha pogut connectar amb Lichess (s’ha rebutjat la connexió)"),
    ],
)
def test_a_platform_that_refuses_the_connection_is_said_in_the_language(
    monkeypatch: pytest.MonkeyPatch, cli: Any, language: str, line: str
) -> None:
    """The system's reason is a code (chessrate.platforms.http.network_reason), not its English."""
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there: the connection is refused
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", f"http://127.0.0.1:{port}")
    run = cli("--lang", language, "strength", "--lichess", USER)
    assert (run.code, run.err) == (2, f"chessrate: error: {line}\n")


@pytest.mark.parametrize(
    ("error", "code", "spanish"),
    [
        (socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "network-name-unknown",
         "no se puede resolver su nombre: ¿hay conexión a la red?"),
        (ssl.SSLCertVerificationError(1, "certificate verify failed"), "network-not-secure",
         "no se ha podido establecer una conexión segura"),
        (ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"), "network-cut",
         "la conexión se ha cortado"),
        (OSError(errno.EHOSTUNREACH, "No route to host"), "network-no-route",
         "no hay ninguna ruta hasta él: ¿hay conexión a la red?"),
        (OSError(errno.EIO, "Input/output error"), "network-failed", "ha fallado la red"),
        ("unknown url type: ftp", "network-failed", "ha fallado la red"),
    ],
)  # fmt: skip
def test_the_system_s_reasons_not_to_reach_a_platform_are_codes(
    error: object, code: str, spanish: str
) -> None:
    from chessrate.platforms.http import network_reason
    from chessrate.service.language import translator

    assert network_reason(error).code == code
    params = {"host": "Lichess", "reason": code}
    assert fetch_text("fetch-unreachable", params, translator("es")) == (
        f"no se ha podido conectar con Lichess ({spanish})"
    )


def test_a_platform_answering_something_else(on_lichess: Platform, on_chesscom: Platform, cli: Any) -> None:
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: send(h, 200, "text/html", b"<html>hello</html>")
    run = cli("strength", "--lichess", USER)
    assert (run.code, run.err) == (
        2, "chessrate: error: Lichess answered something other than the games its API documents\n"
    )  # fmt: skip
    on_chesscom.routes["/pub/player/someone/games/archives"] = lambda h: send(
        h, 200, "application/json", b"[1]"
    )
    run = cli("strength", "--chesscom", "someone")
    assert (run.code, run.err) == (
        2, "chessrate: error: Chess.com answered something other than the games its API documents\n"
    )  # fmt: skip
    on_chesscom.routes["/pub/player/someone/games/archives"] = lambda h: send(h, 503, "text/html", b"down")
    run = cli("strength", "--chesscom", "someone")
    assert (run.code, run.err) == (2, "chessrate: error: Chess.com answered HTTP 503, not the games\n")


def test_a_file_or_a_user_not_both(cli: Any, tmp_path: Path) -> None:
    run = cli("strength", str(tmp_path / "x.pgn"), "--lichess", USER)
    assert (run.code, run.err) == (
        2,
        f"chessrate: error: invalid file '{tmp_path / 'x.pgn'}': give a PGN file or --lichess, not both\n",
    )
    run = cli("strength")
    assert (run.code, run.err) == (
        2,
        "chessrate: error: invalid file '': give a PGN file, --lichess USER or --chesscom USER\n",
    )


def test_a_stream_that_stalls_half_way_keeps_the_games_read(
    on_lichess: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHESSRATE_FETCH_TIMEOUT", "1")
    lines = lichess_lines(3)

    def stall(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", NDJSON)
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        for line in lines[:2]:
            h.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
        h.wfile.flush()
        time.sleep(3)  # then nothing for longer than the timeout

    on_lichess.routes[f"/api/games/user/{USER}"] = stall
    games = lichess.fetch(FetchQuery(user=USER, max_games=3), print)
    assert games.count == 2
    assert games.note is not None
    assert (
        notice_text(games.note)
        == "Lichess stopped answering for 1 s in game 3: kept the 2 whole games before it"
    )


def test_a_chesscom_month_cut_keeps_the_months_before(on_chesscom: Platform) -> None:
    base = "/pub/player/someone/games"
    archive = f"https://api.chess.com{base}"
    archives = json.dumps({"archives": [f"{archive}/2026/10", f"{archive}/2026/11"]})
    game = {"url": "https://www.chess.com/game/live/1", "pgn": user_games("someone", 1)[0],
            "time_class": "blitz", "rules": "chess", "end_time": 1790000000}  # fmt: skip
    month = json.dumps({"games": [game]}).encode()
    on_chesscom.routes[f"{base}/archives"] = lambda h: send(h, 200, "application/json", archives.encode())
    on_chesscom.routes[f"{base}/2026/11"] = lambda h: send(h, 200, "application/json", month)
    on_chesscom.routes[f"{base}/2026/10"] = lambda h: stream(h, "application/json", [month[:40]], cut=True)
    games = chesscom.fetch(FetchQuery(user="someone", max_games=5), print)
    assert games.links == ["https://www.chess.com/game/live/1"]
    assert games.note is not None
    assert notice_text(games.note) == (
        "the archive of 2026-10 could not be read from Chess.com: kept the 1 game of the months after it"
    )


def test_analyse_by_username(on_lichess: Platform, cli: Any, cache: str) -> None:
    lines = lichess_lines(2)
    on_lichess.routes[f"/api/games/user/{USER}"] = lambda h: stream(h, NDJSON, lines)
    run = cli("analyse", "--lichess", USER, "--max", "2", "--json", "--cache", cache)
    assert run.code == 0, run.err
    assert len(run.json()["games"]) == 2
    assert on_lichess.requests[0].query["max"] == ["2"]


@pytest.mark.parametrize(
    ("platform_name", "user"),
    [
        ("lichess", "ab"),  # lila's shortest
        ("lichess", "a" * 30),  # and longest
        ("lichess", "1stAccount"),  # an older account may start with a digit (historicalUsernameRegex)
        ("lichess", "Some_User-9"),
        ("chesscom", "abc"),  # Chess.com's shortest
        ("chesscom", "a" * 20),  # and longest
        ("chesscom", "first_last-2"),
    ],
)
def test_usernames_the_platforms_take_are_asked_for(
    platform: Platform, monkeypatch: pytest.MonkeyPatch, cli: Any, platform_name: str, user: str
) -> None:
    monkeypatch.setenv("CHESSRATE_LICHESS_URL", platform.url)
    monkeypatch.setenv("CHESSRATE_CHESSCOM_URL", platform.url)
    run = cli("strength", f"--{platform_name}", user)
    assert run.code == 2  # the loopback server knows nobody: the platform's own answer, 404
    assert "unknown or closed" in run.err
    assert [s.path for s in platform.requests] == [
        f"/api/games/user/{user}"
        if platform_name == "lichess"
        else f"/pub/player/{user.lower()}/games/archives"
    ]
