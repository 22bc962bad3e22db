"""read_tournament: format sniffing, paths and bytes, strict mode."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from chessrate.errors import FileFormatError, InvalidInputError
from chessrate.formats import read_event, read_pgn, read_tournament, read_trf, sniff_format
from chessrate.service.language import translator
from chessrate.service.problems import input_reason

DATA = Path(__file__).parents[1] / "data"
REAL = sorted((DATA / "trf").glob("*.trf")) + sorted((DATA / "pgn").glob("*.pgn"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_sniffs_real_files_from_their_bytes(path: Path) -> None:
    data = path.read_bytes()
    expected = "pgn" if path.suffix == ".pgn" else "trf"
    assert sniff_format(data.decode("ascii")) == expected
    reader = read_pgn if expected == "pgn" else read_trf
    assert read_tournament(data) == reader(data)
    assert read_tournament(str(path)) == reader(path)


def test_csv_is_sniffed() -> None:
    data = b"white;black;white_rating;black_rating;result;date\nA;B;;;1-0;\n"
    assert read_tournament(data).tournament.source_format == "CSV"


def test_format_can_be_forced() -> None:
    data = (DATA / "trf" / "swiss-9-rounds.trf").read_bytes()
    result = read_tournament(data, format="pgn")
    assert result.tournament.source_format == "PGN"
    assert not result.ok


def test_unknown_format() -> None:
    result = read_tournament(b"hello world\n")
    assert [(p.code, p.line) for p in result.errors] == [("unknown-format", None)]
    with pytest.raises(FileFormatError, match="not a TRF, PGN or CSV file"):
        read_tournament(b"hello world\n", strict=True)


def test_bad_format_name_and_missing_file() -> None:
    with pytest.raises(InvalidInputError, match="format"):
        read_tournament(b"", format="xls")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="path"):
        read_tournament(DATA / "no-such-file.trf")


#: A tournament file that cannot be read, by each way of reading one by path.
READS_BY_PATH = {
    "read_tournament, TRF": lambda path: read_tournament(path.with_suffix(".trf")),
    "read_tournament, PGN": lambda path: read_tournament(path.with_suffix(".pgn")),
    "read_event, TRF": lambda path: read_event(path.with_suffix(".trf"), format="trf"),
    "read_event, PGN": lambda path: read_event(path.with_suffix(".pgn"), format="pgn"),
}


@pytest.mark.parametrize("read", READS_BY_PATH.values(), ids=READS_BY_PATH.keys())
@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_a_file_that_cannot_be_read_is_refused_by_a_code_said_in_the_language(
    read: Callable[[Path], object], kind: str, tmp_path: Path
) -> None:
    """The system's reason is a code (chessrate.errors.file_reason), never its English strerror."""
    path = tmp_path / "event"
    if kind == "folder":
        for suffix in (".trf", ".pgn"):
            path.with_suffix(suffix).mkdir()
    with pytest.raises(InvalidInputError) as refused:
        read(path)
    error = refused.value
    code, english, spanish, catalan = {
        "missing": (
            "file-not-found",
            "no such file or folder",
            "no existe ese archivo ni carpeta",
            "no existeix aquest fitxer ni carpeta",
        ),
        "folder": (
            "file-is-folder",
            "a folder, not a file",
            "una carpeta, no un archivo",
            "una carpeta, no un fitxer",
        ),
    }[kind]
    assert (error.field, error.code, error.reason) == ("path", code, english)
    assert input_reason(error.code, error.params, error.reason, translator("es")) == spanish
    assert input_reason(error.code, error.params, error.reason, translator("ca")) == catalan
