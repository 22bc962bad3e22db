"""The readers' problems of REVIEW-s5 said in Spanish and Catalan, as the web's report shows them.

Each hostile input is read by its reader; every problem it gives is rendered by
:func:`chessrate.service.explanations.file_problem` (the report page's and the rating list's words),
which falls back to the reader's English message only for a code it does not know.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from chessrate.errors import InvalidInputError
from chessrate.formats import read_csv_games, read_pgn, read_trf
from chessrate.formats.fide_list import open_fide_list
from chessrate.formats.model import Problem
from chessrate.service.explanations import file_problem
from chessrate.service.language import Translator
from chessrate.service.problems import input_reason
from chessrate.web.i18n import load_catalogs

DATA = Path(__file__).parents[1] / "data"
TRF = (DATA / "trf" / "swiss-9-rounds.trf").read_bytes()
CSV_HEADER = b"white,black,white_rating,black_rating,result,date\n"
LIST = (DATA / "fide-list" / "standard_sep26frl.txt").read_bytes()
LIST_HEADER = LIST.split(b"\r\n")[0]


def trf_player_line() -> int:
    return next(i for i, line in enumerate(TRF.split(b"\n")) if line.startswith(b"001"))


def trf_with(column: int, text: bytes) -> bytes:
    lines = TRF.split(b"\n")
    at = trf_player_line()
    lines[at] = lines[at][: column - 1] + text + lines[at][column - 1 + len(text) :]
    return b"\n".join(lines)


def list_problems(data: bytes, name: str) -> tuple[Problem, ...]:
    with open_fide_list(data, name=name) as fide:
        list(fide)
    return fide.problems


def list_with_nul(data: bytes) -> bytes:
    """The list with a NUL in the first player's name."""
    lines = data.split(b"\r\n")
    lines[1] = lines[1][:20] + b"\x00" + lines[1][21:]
    return b"\r\n".join(lines)


def zipped(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("standard_sep26frl.txt", data)
    return buffer.getvalue()


CASES = {
    "invalid-rating": lambda: read_trf(trf_with(49, b"9999")).problems,
    "control-character": lambda: read_trf(trf_with(20, b"\x00")).problems,
    "control-character-in-tag": lambda: (
        read_pgn(b'[White "A\x00"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n').problems
    ),
    "too-many-rounds": lambda: (
        read_trf(TRF.replace(b"\n001    2", b" " * 1200 + b"  0000 - Z\n001    2", 1)).problems
    ),
    "unread-scoring": lambda: read_trf(b"XXS WW=1E-1000000\n" + TRF).problems,
    "ambiguous-date": lambda: read_trf(TRF.replace(b"042 2024-08-01", b"042 02/03/2024")).problems,
    "csv-quote-open": lambda: read_csv_games(CSV_HEADER + b'"Ana,Bob,1500,1600,1-0,2025-01-03\n').problems,
    "csv-repeated-column": lambda: read_csv_games(b"white," + CSV_HEADER + b"A,B,C,1,2,1-0,\n").problems,
    "bad-player-line": lambda: list_problems(
        list_with_nul(LIST.replace(b" 2322 ", b" 9999 ", 1)), "standard_sep26frl.txt"
    ),
    "line-too-long": lambda: list_problems(
        zipped(LIST_HEADER + b"\n" + b"9" * 5000), "standard_sep26frl.zip"
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
@pytest.mark.parametrize("language", ["es", "ca"])
def test_each_new_problem_is_said_in_the_visitors_language(code: str, language: str) -> None:
    problems = [problem for problem in CASES[code]() if problem.code == code]
    assert problems, f"no {code} problem"
    t = Translator(language, load_catalogs()[language])
    english = Translator("en", load_catalogs()["en"])
    for problem in problems:
        said = file_problem(problem.code, problem.params, problem.message, t)
        in_english = file_problem(problem.code, problem.params, problem.message, english)
        assert said != in_english, said
        assert "%(" not in said
        assert problem.line is not None


@pytest.mark.parametrize("language", ["es", "ca"])
def test_a_header_line_too_long_is_refused_in_the_visitors_language(language: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        open_fide_list(LIST_HEADER + b" " * 2000 + b"x\n", name="standard_sep26frl.txt")
    error = caught.value
    t = Translator(language, load_catalogs()[language])
    said = input_reason(error.code, dict(error.params), error.reason, t)
    assert said != error.reason
    assert "1024" in said


def test_a_control_character_in_a_list_cell_skips_the_player() -> None:
    problems = list_problems(list_with_nul(LIST), "standard_sep26frl.txt")
    assert [(p.line, p.code, dict(p.params)) for p in problems if p.line == 2] == [
        (2, "bad-player-line", {"cell": "Name", "value": "U+0000", "why": "control-character"})
    ]
