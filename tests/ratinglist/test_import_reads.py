"""An import of several files reads them on a second process (``import_reads.file_reads``): what it
gives is what reading each file in the first process gives, in the same order, a file it cannot
read included; the process is gone when the import ends, whether it is refused or not, and if the
process stops early the first reads the rest."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from chessrate.ratinglist import import_reads
from chessrate.ratinglist.import_reads import FileRead, Unreadable, file_reads, read_file
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.store import StoreError, init_store

from .test_import_paths import month_files

BROKEN = "white,black,white_rating,black_rating,result,date\nA,B,,,2-0,2025-10-01\n"


def files(folder: Path) -> list[Path]:
    """The five files of ``month_files``, a broken CSV among them, then the five again."""
    paths = month_files(folder)
    broken = folder / "broken.csv"
    broken.write_text(BROKEN, encoding="utf-8")
    return [*paths[:2], broken, *paths[2:], *paths]


def by_hand(paths: list[Path]) -> list[object]:
    found: list[FileRead | Unreadable] = []
    for path in paths:
        try:
            found.append(read_file(path, start=None, end=None))
        except Unreadable as unreadable:
            found.append(unreadable)
    return said(found)


def said(reads: list[FileRead | Unreadable]) -> list[object]:
    """What each read says (``GameColumns`` compare by identity: their columns compared)."""
    return [
        ("unreadable", read.path, read.digest, str(read.error))
        if isinstance(read, Unreadable)
        else (replace(read, event=replace(read.event, games=None)), vars(read.event.games))
        for read in reads
    ]


def test_the_second_process_reads_what_the_first_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = files(tmp_path)
    assert len(paths) >= import_reads.READ_APART
    readers = tmp_path / "readers"

    def read_noting_the_process(path: Path, **dates: None) -> FileRead:
        with readers.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return read_file(path, **dates)

    monkeypatch.setattr(import_reads, "read_file", read_noting_the_process)
    with file_reads(paths, start=None, end=None) as reads:
        apart = list(reads)
    monkeypatch.undo()
    assert said(apart) == by_hand(paths)
    # Every file read on the other process; the broken one read again here, to say why.
    assert readers.read_text(encoding="utf-8").splitlines().count(str(os.getpid())) == 1
    assert sum(isinstance(read, Unreadable) for read in apart) == 1
    assert not multiprocessing.active_children()


def test_a_reading_process_that_stops_leaves_the_rest_to_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = files(tmp_path)
    monkeypatch.setattr(import_reads, "_FILES_A_MESSAGE", 2)
    with file_reads(paths, start=None, end=None) as reads:
        first = [next(reads), next(reads)]
        for child in multiprocessing.active_children():
            os.kill(child.pid or 0, signal.SIGKILL)
        rest = list(reads)
    assert said([*first, *rest]) == by_hand(paths)


def test_a_refused_import_leaves_no_reading_process(db: str, tmp_path: Path) -> None:
    paths = month_files(tmp_path)
    engine = init_store(db)
    try:
        import_files(engine, paths[:1])
        with pytest.raises(StoreError, match="was already imported"):
            import_files(engine, paths)  # its first file was imported: refused at once
    finally:
        engine.dispose()
    assert not multiprocessing.active_children()


KILLED_IMPORT = """
import multiprocessing, os, signal, sys
from pathlib import Path
from chessrate.ratinglist import import_reads
import_reads._MESSAGES_AHEAD = 1  # the queue full at once: the reading process waits on it
paths = [Path(arg) for arg in sys.argv[1:]]
with import_reads.file_reads(paths, start=None, end=None) as reads:
    next(reads)
    print(multiprocessing.active_children()[0].pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
"""


def gone(pid: int) -> bool:
    """No such process, or one that has ended (a zombie: its parent has not reaped it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status


def test_a_killed_import_leaves_no_reading_process(tmp_path: Path) -> None:
    paths = month_files(tmp_path) * 20  # far more than the queue holds
    env = {**os.environ, "PYTHONPATH": str(Path(import_reads.__file__).parents[2])}
    said = tmp_path / "said"
    with said.open("w", encoding="utf-8") as out:  # not a pipe: a reading process left would hold it
        done = subprocess.run(
            [sys.executable, "-c", KILLED_IMPORT, *map(str, paths)], stdout=out, stderr=out, env=env
        )
    assert done.returncode == -signal.SIGKILL, said.read_text(encoding="utf-8")
    reader = int(said.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 10
    while not gone(reader) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = not gone(reader)
    if left:
        os.kill(reader, signal.SIGKILL)  # the test leaves nothing running
    assert not left


@pytest.mark.parametrize(
    ("language", "one", "both"),
    [
        (
            "es",
            "no se puede leer gone.trf (no existe ese archivo ni carpeta)",
            "2 archivos tienen errores; no se ha importado nada:\n"
            "no se puede leer gone.trf (no existe ese archivo ni carpeta)\n"
            "no se puede leer gone.csv (no existe ese archivo ni carpeta)",
        ),
        (
            "ca",
            "no es pot llegir gone.trf (no existeix aquest fitxer ni carpeta)",
            "2 fitxers tenen errors; no s’ha importat res:\n"
            "no es pot llegir gone.trf (no existeix aquest fitxer ni carpeta)\n"
            "no es pot llegir gone.csv (no existeix aquest fitxer ni carpeta)",
        ),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_wholly_in_the_language(
    tmp_path: Path, language: str, one: str, both: str
) -> None:
    """The system's reason is a code (chessrate.errors.file_reason), not its English strerror."""
    from chessrate.errors import InvalidInputError
    from chessrate.service.language import translator
    from chessrate.service.problems import input_reason

    gone, also_gone = tmp_path / "gone.trf", tmp_path / "gone.csv"
    engine = init_store(str(tmp_path / "list.db"))
    try:
        with pytest.raises(InvalidInputError) as single:
            import_files(engine, [gone])
        with pytest.raises(import_reads.RefusedFiles) as several:
            import_files(engine, [gone, also_gone])
    finally:
        engine.dispose()
    error = single.value
    assert (error.code, error.params) == ("file-unreadable", {"file": "gone.trf", "reason": "file-not-found"})
    assert error.reason == "gone.trf cannot be read (no such file or folder)"
    t = translator(language)
    assert input_reason(error.code, error.params, "", t) == one
    assert input_reason(several.value.code, several.value.params, "", t) == both
    assert "No such file" not in both
