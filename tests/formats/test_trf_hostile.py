"""Hostile TRF files (docs/security.md, "Files from strangers"): a file of a few MB made of bad
lines or bad cells must not keep a problem per line in memory; the reader keeps the first
:data:`~chessrate.formats.trf.MAX_PROBLEMS` problems with a line and says how many more there were."""

from __future__ import annotations

import tracemalloc

from chessrate.formats.model import Severity
from chessrate.formats.trf import MAX_PROBLEMS, read_trf
from chessrate.service.explanations import file_problem
from chessrate.service.language import Translator
from chessrate.web.i18n import load_catalogs


def _player(number: int, cells: str) -> str:
    head = f"001 {number:4d} m    {'Player':<33s} 1500 FRA    12345678 2000/01/01      {number:4d}"
    assert len(head) == 89  # the round cells start at column 92 ([TRF16] §2.2)
    return head + cells


def test_a_file_of_control_characters_keeps_a_bounded_list_of_problems() -> None:
    lines = 300_000
    data = b"\x00x\n" * lines  # each line: a control character and not a TRF record
    tracemalloc.start()
    try:
        problems = read_trf(data).problems
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    with_line = [problem for problem in problems if problem.line is not None]
    for severity in Severity:
        assert len([problem for problem in with_line if problem.severity is severity]) == MAX_PROBLEMS
    (more,) = [problem for problem in problems if problem.code == "more-problems"]
    assert more.severity is Severity.ERROR  # the control characters left out are errors
    assert dict(more.params) == {"count": 2 * lines - 2 * MAX_PROBLEMS, "limit": MAX_PROBLEMS}
    assert "no-players" in {problem.code for problem in problems}  # whole-file problems all kept
    assert peak < 40 * len(data)  # a problem kept per line: some 300 bytes a byte of the file


def test_bad_cells_keep_a_bounded_list_of_problems() -> None:
    players = 400  # each cell: an invalid opponent, colour and result (3 problems)
    data = "\n".join(_player(number, "  abcd q y" * 99) for number in range(1, players + 1)).encode()
    problems = read_trf(data).problems
    assert len([problem for problem in problems if problem.line is not None]) <= MAX_PROBLEMS
    (more,) = [problem for problem in problems if problem.code == "more-problems"]
    assert more.severity is Severity.ERROR
    assert dict(more.params)["count"] == 3 * 99 * players - MAX_PROBLEMS


def test_many_warnings_alone_leave_the_file_readable() -> None:
    # players without a result yet (a warning each): the file is read, the summary a warning
    players = 1_200
    text = "\n".join(
        _player(number, f"  {number + 1 if number % 2 else number - 1:4d} {'w' if number % 2 else 'b'}  ")
        for number in range(1, players + 1)
    )
    result = read_trf(text.encode())
    assert len(result.tournament.players) == players
    (more,) = [problem for problem in result.problems if problem.code == "more-problems"]
    assert more.severity is Severity.WARNING
    assert dict(more.params)["count"] == players - MAX_PROBLEMS
    assert all(problem.severity is Severity.WARNING for problem in result.problems)


def test_the_problems_left_out_are_said_in_the_visitors_language() -> None:
    data = b"xy\n" * (MAX_PROBLEMS + 5)  # a warning a line: not a TRF record
    (more,) = [problem for problem in read_trf(data).problems if problem.code == "more-problems"]
    said = {
        language: file_problem(more.code, more.params, more.message, Translator(language, catalogs[language]))
        for language, catalogs in ((language, load_catalogs()) for language in ("en", "es", "ca"))
    }
    assert said == {
        "en": "5 more problems not listed (the first 1000 errors and the first 1000 warnings are)",
        "es": "5 problemas más sin listar (se listan los 1000 primeros errores y los 1000 primeros avisos)",
        "ca": "5 problemes més sense llistar (es llisten els 1000 primers errors i els 1000 primers avisos)",
    }


def test_an_error_after_a_thousand_warnings_is_still_listed() -> None:
    # 1200 lines that are no TRF record (a warning each), then a cell with an invalid opponent
    data = b"xy\n" * 1_200 + _player(1, "  abcd w 1").encode()
    problems = read_trf(data).problems
    assert [problem.code for problem in problems if problem.severity is Severity.ERROR] == [
        "invalid-opponent",
        "result-without-opponent",
    ]
    (more,) = [problem for problem in problems if problem.code == "more-problems"]
    assert more.severity is Severity.WARNING
    assert dict(more.params)["count"] == 1_200 - MAX_PROBLEMS


def _named(number: int, name: str) -> str:
    return f"001 {number:4d} m    {name:<33s} 1500 FRA    12345678 2000/01/01      {number:4d}"


def test_a_utf8_line_in_a_windows_1252_file_is_read_as_utf8() -> None:
    # One line saved in UTF-8, the next in Windows-1252: the file as a whole is not UTF-8.
    data = _named(1, "Müller").encode() + b"\n" + _named(2, "Martín").encode("cp1252") + b"\n"
    result = read_trf(data)
    assert [player.name for player in result.tournament.players] == ["Müller", "Martín"]
    assert [player.rating for player in result.tournament.players] == [1500, 1500]
    (mixed,) = result.problems
    assert (mixed.line, mixed.code, mixed.severity) == (1, "mixed-encoding", Severity.WARNING)
    catalogs = load_catalogs()
    said = {
        language: file_problem(mixed.code, mixed.params, mixed.message, Translator(language, table))
        for language, table in catalogs.items()
        if language in ("en", "es", "ca")
    }
    assert said == {
        "en": "this line is UTF-8 in a file that is not: read as UTF-8 (“Müller”)",
        "es": "esta línea está en UTF-8 en un archivo que no lo está: se lee como UTF-8 («Müller»)",
        "ca": "aquesta línia és en UTF-8 en un fitxer que no ho és: es llegeix com a UTF-8 («Müller»)",
    }
