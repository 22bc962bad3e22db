"""read_tournament: format sniffing, paths and bytes, strict mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from chessrate.errors import FileFormatError, InvalidInputError
from chessrate.formats import read_pgn, read_tournament, read_trf, sniff_format

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
