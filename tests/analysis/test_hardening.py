"""Issue 29 on the command line: games the engine must never see, engine faults, long games, the
scheduler's address, caches that are not ours, and files that are not regular files."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chessrate.analysis.cache import APPLICATION_ID

# The position after 1. e4 e5, where the fake engine of game 2 dies (move 2, White to move).
AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"
THREE_GAMES = "1. d4 d5 2. c4 c6 *\n\n1. e4 e5 2. Nf3 Nc6 *\n\n1. c4 c5 2. Nc3 Nc6 *\n"
TRF = Path(__file__).parents[1] / "data" / "trf" / "fide-example.trf"


def pgn(tmp_path: Path, text: str, name: str = "games.pgn") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def one_line(run: Any, text: str) -> None:
    assert run.code == 2, run.err
    assert run.err == f"chessrate: error: {text}\n"


@pytest.mark.parametrize("command", ["analyse", "strength"])
def test_a_null_move_is_refused_before_the_engine(cli: Any, tmp_path: Path, command: str) -> None:
    # Stockfish died (signal 11) on this: a null move while in check.
    path = pgn(tmp_path, "1. e4 f5 2. Qh5+ -- *\n")
    one_line(
        cli(command, str(path)),
        f"invalid file '{path}': not a PGN we can analyse: game 1: move 2 is a null move",
    )


def test_a_position_that_cannot_arise_is_refused(cli: Any, tmp_path: Path) -> None:
    # The side not to move is in check.
    path = pgn(tmp_path, '[FEN "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Kd2 *\n')
    one_line(
        cli("strength", str(path)),
        f"invalid file '{path}': not a PGN we can analyse: game 1: its start position cannot arise in a game",
    )


def test_an_engine_that_dies_fails_its_game_only(
    cli: Any, tmp_path: Path, fake_engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_ENGINE_DIES_ON", AFTER_E4_E5)
    run = cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--json")
    assert run.code == 0, run.err
    assert run.err == "warning: game 2, move 2: the engine could not analyse this position\n"
    games = run.json()["games"]
    assert [game["moves"][0]["san"] for game in games] == ["d4", "c4"]  # games 1 and 3
    assert run.json()["engine"] == "FakeFish"


def test_when_every_game_fails_it_is_exit_2(
    cli: Any, tmp_path: Path, fake_engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_ENGINE_DIES_ON", AFTER_E4_E5)
    path = pgn(tmp_path, "1. e4 e5 2. Nf3 *\n\n1. e4 e5 2. Bc4 *\n")
    one_line(
        cli("strength", str(path)),
        f"invalid file '{path}': the engine could not analyse any game (game 1, move 2 first)",
    )


def knight_shuffle(plies: int) -> str:
    moves = ("Nf3", "Nf6", "Ng1", "Ng8")
    return (
        " ".join((f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + moves[ply % 4] for ply in range(plies))
        + " *\n"
    )


def test_a_game_longer_than_any_legal_game_is_refused_at_once(tmp_path: Path) -> None:
    # 400,000 plies (about 3 MB): refused in a second or two, holding little (issue: 152 s, 4.2 GB
    # for 3.45 million plies). Run as its own process to measure its time and memory.
    path = pgn(tmp_path, knight_shuffle(400_000))
    started = time.monotonic()
    # Its own peak (os.wait4), not RUSAGE_CHILDREN's: that is the largest of every process this
    # pytest worker has waited for, other tests' included.
    process = subprocess.Popen(
        [sys.executable, "-m", "chessrate", "strength", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    peak_mb = usage.ru_maxrss / 1024
    assert os.waitstatus_to_exitcode(status) == 2
    assert stderr == (
        f"chessrate: error: invalid file '{path}': not a PGN we can analyse: "
        "game 1: more than 17697 plies, longer than any legal game\n"
    )
    assert seconds <= 30
    assert peak_mb < 500


def test_the_longest_legal_game_is_read(tmp_path: Path, cli: Any) -> None:
    from chessrate.analysis.games import MAX_LEGAL_PLIES, read_games_cut

    read = read_games_cut(knight_shuffle(MAX_LEGAL_PLIES), cut=300)
    assert read.plies == [MAX_LEGAL_PLIES]
    assert len(list(read.games[0].mainline_moves())) == 300


@pytest.mark.parametrize(
    "address",
    ["tcp://", "tcp://::::", "inproc://nothing", "tls://127.0.0.1:1", "ucx://127.0.0.1:1", "tcp://h:70000"],
)
def test_a_scheduler_address_that_is_not_tcp_host_port_is_one_line(
    cli: Any, tmp_path: Path, address: str
) -> None:
    one_line(
        cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--scheduler", address),
        f"invalid --scheduler '{address}': write a Dask scheduler address as tcp://HOST:PORT, "
        "such as tcp://127.0.0.1:8786",
    )


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A loopback port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def test_a_scheduler_that_never_speaks_times_out_in_one_line(
    cli: Any, tmp_path: Path, silent_server: int, fake_engine: str
) -> None:
    address = f"tcp://127.0.0.1:{silent_server}"
    started = time.monotonic()
    run = cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--scheduler", address, "--scheduler-timeout", "2")
    assert time.monotonic() - started < 15
    one_line(run, f"invalid --scheduler '{address}': no Dask scheduler answered within 2 s")


def test_a_scheduler_timeout_out_of_range_is_one_line(cli: Any, tmp_path: Path) -> None:
    one_line(
        cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--scheduler-timeout", "0"),
        "invalid --scheduler-timeout '0': must be at least 1",
    )


def test_a_rating_list_store_is_never_written_as_a_cache(cli: Any, tmp_path: Path) -> None:
    store = tmp_path / "list.db"
    assert cli("list", "init", "--db", str(store)).code == 0
    before = store.read_bytes()
    one_line(
        cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--cache", str(store)),
        f"invalid --cache '{store}': a rating-list store, not an evaluation cache: nothing was written",
    )
    assert store.read_bytes() == before


def test_a_foreign_evaluation_table_is_refused(cli: Any, tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE evaluation (id INTEGER, value TEXT)")
    one_line(
        cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--cache", str(other)),
        f"invalid --cache '{other}': not an evaluation cache (it holds evaluation): nothing was written",
    )


def test_a_cache_that_cannot_be_written_is_refused_before_any_search(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache.sqlite"
    sqlite3.connect(cache).close()
    cache.chmod(0o444)
    # The tests may run as root, who writes any file: the system's answer for this file is set.
    real_access = os.access
    monkeypatch.setattr(
        "chessrate.analysis.cache.os.access",
        lambda path, mode: real_access(path, mode) and (Path(path) != cache or not mode & os.W_OK),
    )
    one_line(
        cli("analyse", str(pgn(tmp_path, THREE_GAMES)), "--cache", str(cache)),
        f"invalid --cache '{cache}': cannot be written",
    )


def test_our_cache_is_marked_and_used_again(cli: Any, tmp_path: Path, fake_engine: str) -> None:
    cache = tmp_path / "cache.sqlite"
    path = pgn(tmp_path, THREE_GAMES)
    assert cli("analyse", str(path), "--cache", str(cache), "--json").code == 0
    with sqlite3.connect(cache) as db:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    again = cli("analyse", str(path), "--cache", str(cache), "--json")
    assert again.code == 0
    assert again.json()["searched"] == 0


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["strength", "{}"], "file"),
        (["analyse", "{}"], "file"),
        (["report", "{}"], "file"),
        (["report", str(TRF), "--players-list", "{}"], "--players-list"),
        (["report", str(TRF), "--k-file", "{}"], "--k-file"),
        (["list", "import", "{}", "--db", "{db}"], "file"),
        (["list", "import-fide", "{}", "--db", "{db}"], "players_list"),
    ],
)
def test_a_device_or_a_pipe_is_refused_before_it_is_read(
    cli: Any, tmp_path: Path, fifo: Path, special: str, args: list[str], field: str
) -> None:
    # Reading /dev/zero never ends (the issue: over 20 GB before the 20 MB check); a FIFO blocks.
    target = str(fifo) if special == "fifo" else special
    db = str(tmp_path / "list.db")
    run = cli(*(a.replace("{}", target).replace("{db}", db) for a in args))
    one_line(run, f"invalid {field} '{target}': not a regular file (a device, a pipe or a folder)")


def test_a_file_over_the_cap_is_refused_by_its_size(cli: Any, tmp_path: Path) -> None:
    big = tmp_path / "big.pgn"
    with big.open("wb") as handle:
        handle.truncate(20_000_001)  # sparse: nothing to read
    one_line(cli("strength", str(big)), f"invalid file '{big}': larger than 20000000 bytes")


@pytest.mark.parametrize(
    ("language", "said"),
    [("es", "no existe ese archivo ni carpeta"), ("ca", "no existeix aquest fitxer ni carpeta")],
)
def test_a_games_file_that_cannot_be_read_is_refused_by_a_code(
    tmp_path: Path, language: str, said: str
) -> None:
    """read_games_file's reason is a code (chessrate.errors.file_reason), not the system's English."""
    from chessrate.analysis import read_games_file
    from chessrate.errors import FileFormatError
    from chessrate.service.language import translator
    from chessrate.service.problems import input_reason

    path = tmp_path / "gone.pgn"
    with pytest.raises(FileFormatError) as refused:
        read_games_file(path)
    error = refused.value
    assert error.code == "file-not-found"
    assert str(error) == f"cannot read {path}: no such file or folder"
    assert input_reason(error.code, dict(error.params), error.reason, translator(language)) == said


@pytest.mark.parametrize(
    ("scheduler", "field", "spanish", "catalan"),
    [
        (
            "",
            "engine",
            "no se ha podido ejecutar el motor: no es un programa que este sistema pueda ejecutar",
            "no s’ha pogut executar el motor: no és un programa que aquest sistema pugui executar",
        ),
        (
            "tcp://127.0.0.1:8786",
            "scheduler",
            "ha fallado la conexión con el planificador de Dask",
            "ha fallat la connexió amb el planificador de Dask",
        ),
    ],
)
def test_an_engine_or_scheduler_the_system_fails_is_said_in_the_language(
    monkeypatch: pytest.MonkeyPatch, scheduler: str, field: str, spanish: str, catalan: str
) -> None:
    """An OSError of the analysis (an engine that is no program, a scheduler's connection lost) is
    said by a code, never with the system's English words (strerror)."""
    import errno

    from chessrate.service import strength
    from chessrate.service.language import translator
    from chessrate.service.problems import Problems
    from chessrate.service.strength import AnalyseInputs, analyse_file
    from chessrate.service.tournament_file import FileInput

    def failing(*_args: object, **_kwargs: object) -> object:
        raise OSError(errno.ENOEXEC, os.strerror(errno.ENOEXEC), "/usr/games/stockfish")

    monkeypatch.setattr(strength, "analyse_games", failing)
    monkeypatch.setattr(strength, "check_scheduler", lambda _address: None)
    data = THREE_GAMES.encode()
    for language, said in (("es", spanish), ("ca", catalan)):
        inputs = AnalyseInputs(file=FileInput(name="g.pgn", data=data, size=len(data)), scheduler=scheduler)
        problems = Problems(translator(language))
        assert analyse_file(inputs, problems).result is None
        problem = problems.errors[(field,)]
        assert problem.said == said
        assert os.strerror(errno.ENOEXEC) not in problem.message
