"""The command line in Spanish and Catalan (issue 30): every command, its errors and its help.

Every command of the application (``chessrate.cli.app.COMMANDS`` and the subcommands of ``list``:
a new command fails :func:`test_every_command_has_an_example` until it is given one) is run in
English, then with ``--lang es`` and ``--lang ca`` and with ``LANG=es_ES.UTF-8`` and
``LANG=ca_ES.UTF-8`` alone. Its output must pass the web pages' check (``tests/no_english.py``):
no message asked of a catalog that the catalog lacks, and no text shown identically in English;
and it must hold none of the English catalog's sentences.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

from chessrate.cli import main
from chessrate.cli import output as cli_output
from chessrate.service import language as service_language
from chessrate.service.language import PoCatalog, language_of_environment, read_catalog

from .no_english import Recording, shared_english

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "src" / "chessrate" / "data" / "demo"
FIDE_LIST = ROOT / "tests" / "data" / "fide-list" / "standard_sep26frl.txt"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: One short game of Lichess's, for the engine commands (run with the test engine, tests/conftest.py).
SHORT_PGN = """[Event "Casual game"]
[Site "https://lichess.org/abcdefgh"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[TimeControl "600+0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""

#: Each command's arguments, with ``{db}`` (the demo list), ``{new_db}`` (a new store each run),
#: ``{trf}``, ``{broken}`` (a TRF with problems), ``{pgn}`` and ``{fide_list}``.
EXAMPLES: dict[str, list[list[str]]] = {
    "game": [["1500", "1700", "draw", "--k", "20"], ["2700", "2200", "1", "--as-of", "2025-09-30"]],
    "tournament": [
        ["1500", "1400:1", "1600:½", "1550:0"],
        ["1800", "1500", "1600", "1700", "1800", "--points", "2,5", "--rules", "ciabe"],
        ["2700", "2000:1", "2200:1", "--rules", "fide-blitz", "--k", "10"],
    ],
    "games": [["1500", "--games", "4", "--points", "2", "--average", "1700", "--rules", "elo", "--k", "20"]],
    "period": [["2040", "@2052 1900:1 2100:0.5", "2000:1 2150:0"]],
    "k-factor": [["1900", "--birth-year", "2010", "--rated-games", "50", "--games-this-period", "20"]],
    "performance": [["1500:1", "1600:1", "1700:0.5"]],
    "initial": [
        ["1902:1", "1877:1", "1884:1", "2012:0", "1832:0"],
        ["1500:1", "1600:0", "--rules", "fide-rapid", "--standard-rating", "1700"],
    ],
    "table": [["pd"], ["dp"]],
    "glicko": [
        ["--rating", "1500", "--deviation", "200", "1400:30:1", "1550:100:0", "1700:300:0"],
        ["--preset", "chesscom", "--level", "beginner", "900:350:1"],
    ],
    "glicko2": [
        ["--rating", "1500", "--deviation", "200", "--volatility", "0.06", "1400:30:1", "1550:100:0"],
        ["--preset", "lichess", "--days-idle", "3", "1720:80:win", "1650:60:draw"],
    ],
    "dwz": [["1000", "1200:1", "--age", "15", "--index", "1"]],
    "uscf": [["1500", "1400:1", "1550:0", "1650:½", "--games-played", "6"], ["1500", "1400:1", "1500:1"]],
    "ecf": [["1800", "1800:1", "--junior"]],
    "convert": [["1800", "--from", "lichess-blitz", "--to", "fide"]],
    "stakes": [["1800", "1700"], ["1800", "1700", "--system", "glicko2"]],
    "report": [
        ["{trf}"],
        ["{trf}", "--format", "csv"],
        [str(ROOT / "tests" / "data" / "trf" / "fide-example.trf")],
        ["{broken}"],
    ],
    "analyse": [["{pgn}"]],
    "strength": [["{pgn}"]],
    "serve": [["--port", "0"]],  # refused before it serves: the one line of its error
    "list init": [["--db", "{new_db}", "--rules", "ciabe"]],
    "list import": [["--db", "{new_db}", "{trf}", "--start", "2026-03-07"]],
    "list import-fide": [["--db", "{new_db}", "{fide_list}"]],
    "list run": [["--db", "{db}", "2026-03"]],
    "list show": [["--db", "{db}"]],
    "list player": [["--db", "{db}", "1"]],
    "list events": [["--db", "{db}"]],
    "list export": [["--db", "{db}", "2026-03"]],
    "list check": [["--db", "{db}"]],
    "list demo": [["--db", "{new_db}"]],
}

#: A bad value for each kind of field: an argument, an option, a game's field, a Click error.
ERRORS: list[tuple[list[str], str]] = [
    (["game", "1500", "x", "1"], "opponent"),
    (["game", "1500", "1700", "3"], "result"),
    (["game", "1500", "1700", "1", "--as-of", "yesterday"], "--as-of"),
    (["game", "1500", "1700", "1", "--rules", "elo"], "--k"),
    (["tournament", "1500", "1400:1", "1600:x"], "game"),
    (["glicko2", "--rating", "1500", "--deviation", "200", "1400:30"], "game"),
    (["dwz", "abc", "1200:1", "--age", "15", "--index", "1"], "rating"),
    (["uscf", "1500", "1400:3", "--games-played", "6"], "result"),
    (["table", "xx"], "table"),
    (["game", "1500", "1700", "1", "--kk", "2"], "--kk"),
    (["game", "1500"], "OPPONENT"),
    (["convert", "1800", "--from", "nope", "--to", "fide"], "--from"),
    (["report", "/no/such/file.trf"], "file"),
]


def every_command() -> list[str]:
    """Every command the application has, a group's as ``list show``."""
    from chessrate.cli.app import COMMANDS
    from chessrate.cli.list_commands import list_app

    names = [name for name in COMMANDS if name != "list"]
    return names + [f"list {c.name or c.callback.__name__}" for c in list_app.registered_commands]  # type: ignore[union-attr]


class Run:
    def __init__(self, code: int, out: str, err: str, missing: set[str]) -> None:
        self.code, self.out, self.err, self.missing = code, out, err, missing


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``chessrate ARGS`` in this process with ``env`` as its locale, 120 columns; the catalogs
    wrapped to record every message asked of them that they lack."""

    def run(args: list[str], env: dict[str, str] | None = None, width: int = 120) -> Run:
        missing: set[str] = set()
        for name in LOCALE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("COLUMNS", str(width))
        # English is said by its message ids (docs/codes.md): the English catalog lacks them by design,
        # and a refusal's English is said from it even where the face then says its code in another
        # language (chessrate.ratinglist.refusals); what is shown is checked by english_leaks.
        monkeypatch.setattr(
            service_language,
            "read_catalog",
            lambda language: (
                read_catalog(language) if language == "en" else Recording(read_catalog(language), missing)
            ),
        )
        cli_output.console.cache_clear()
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as done:
                code = int(done.code or 0)
        cli_output.console.cache_clear()
        return Run(code, out.getvalue(), err.getvalue(), missing)

    return run


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from chessrate.ratinglist.demo import build_demo

    folder = tmp_path_factory.mktemp("lang")
    db = str(folder / "demo.db")
    build_demo(db)
    pgn = folder / "short.pgn"
    pgn.write_text(SHORT_PGN, encoding="utf-8")
    broken = folder / "broken.trf"  # a player numbered 7 where the pairings say 1 (the web's test)
    broken.write_bytes((DEMO / "swiss-9-rounds.trf").read_bytes().replace(b" 1 ", b" 7 ", 1))
    return {"folder": folder, "db": db, "pgn": str(pgn), "broken": str(broken), "count": iter(range(10**6))}


def filled(args: list[str], places: dict[str, Any]) -> list[str]:
    values = {
        "db": places["db"],
        "trf": str(DEMO / "swiss-9-rounds.trf"),
        "pgn": places["pgn"],
        "broken": places["broken"],
        "fide_list": str(FIDE_LIST),
    }
    out = []
    for arg in args:
        if arg == "{new_db}":
            out.append(str(places["folder"] / f"new-{next(places['count'])}.db"))
        else:
            out.append(arg.format(**values) if arg.startswith("{") else arg)
    return out


def texts(output: str) -> set[str]:
    """An output's texts: each line, each table cell, each part after ": " and each sentence, stripped."""
    found: set[str] = set()
    for line in output.splitlines():
        for cell in re.split(r"[│┃]| {2,}", line):
            cell = cell.strip(" ─━┏┓┗┛┡┩└┘┌┐╇┳┻┼╋┃│")
            if cell:
                found.add(cell)
                found.update(part.strip() for part in cell.split(": ")[1:] if part.strip())
                found.update(part.strip() for part in re.split(r"(?<=[.;])\s", cell) if part.strip())
    return found


def english_leaks(english: str, other: str) -> list[str]:
    """The web's check of a page (``shared_english``) on the command line's texts; names of players,
    files and events (capitals, no two lowercase words), options and usage lines left out, as the
    web's list pages leave names out."""
    return [
        text
        for text in shared_english(texts(english), texts(other))
        if len(LOWER_WORDS.findall(text)) >= 2 and not OPTIONS_AND_USAGE.match(text)
    ]


#: An option with its metavar (``--expected table|formula``), a usage line, a list of names (the
#: pools ``chesscom-blitz, fide, ecf``): the same in every language.
OPTIONS_AND_USAGE = re.compile(
    r"^(-[-\w]+(, -[-\w]+)?( [\w|.:\[\]-]+)?|chessrate [\w -]*\[OPTIONS\].*|[\w-]+(, [\w-]+)+\.?)$"
)
LOWER_WORDS = re.compile(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])")


def english_sentences() -> dict[str, list[str]]:
    """For es and ca, every piece of an English catalog sentence that the language says otherwise
    (the text between its ``%(values)s``, two words or more): none may be in its output."""
    english = read_catalog("en")
    pieces: dict[str, list[str]] = {}
    for language in ("es", "ca"):
        catalog = read_catalog(language)
        assert isinstance(catalog, PoCatalog)
        found = set()
        for key, said in catalog._catalog.items():
            if not isinstance(key, str) or "\x04" in key:
                continue
            words = english.gettext(key)
            if said == words:
                continue
            for piece in re.split(r"%\(\w+\)s|%%|\n", words):
                piece = piece.strip(" .,:;()")
                if len(LOWER_WORDS.findall(piece)) >= 2 and len(piece) >= 12 and piece not in said:
                    found.add(piece)
        pieces[language] = sorted(found)
    return pieces


ENGLISH_SENTENCES = english_sentences()


def catalog_sentences_in(output: str, language: str) -> list[str]:
    flat = " ".join(re.sub(r"[│┃]", " ", output).split())
    return [piece for piece in ENGLISH_SENTENCES[language] if piece in flat]


LANGUAGE_CHOICES = [
    pytest.param("es", ["--lang", "es"], {}, id="--lang es"),
    pytest.param("ca", ["--lang", "ca"], {}, id="--lang ca"),
    pytest.param("es", [], {"LANG": "es_ES.UTF-8"}, id="LANG=es_ES.UTF-8"),
    pytest.param("ca", [], {"LANG": "ca_ES.UTF-8"}, id="LANG=ca_ES.UTF-8"),
]


#: Each example's English run, made once for the four choices of language.
ENGLISH_RUNS: dict[tuple[str, int], Run] = {}


def test_every_command_has_an_example() -> None:
    assert sorted(every_command()) == sorted(EXAMPLES)


@pytest.mark.parametrize(("language", "option", "env"), LANGUAGE_CHOICES)
@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_every_command_speaks_the_language(
    run_cli: Any,
    places: dict[str, Any],
    fake_engine: str,
    command: str,
    language: str,
    option: list[str],
    env: dict[str, str],
) -> None:
    for number, example in enumerate(EXAMPLES[command]):
        args = [*command.split(), *example]
        if (command, number) not in ENGLISH_RUNS:  # once for the four choices of language
            ENGLISH_RUNS[command, number] = run_cli(filled(args, places))
        english = ENGLISH_RUNS[command, number]
        said = run_cli([*option, *filled(args, places)], env)
        where = f"{language} {' '.join(args)}"
        assert said.code == english.code, where + said.err
        assert said.missing == set(), where
        assert english_leaks(english.out + english.err, said.out + said.err) == [], where
        assert catalog_sentences_in(said.out + said.err, language) == [], where
        if said.code:  # a refusal: one line
            assert len(said.err.strip().splitlines()) == 1, where + said.err


@pytest.mark.parametrize(("language", "option", "env"), LANGUAGE_CHOICES)
@pytest.mark.parametrize(("args", "field"), ERRORS, ids=[" ".join(args) for args, _ in ERRORS])
def test_errors_are_one_line_naming_the_field_in_the_language(
    run_cli: Any, args: list[str], field: str, language: str, option: list[str], env: dict[str, str]
) -> None:
    english = run_cli(args)
    said = run_cli([*option, *args], env)
    assert english.code == said.code == 2
    line = said.err.strip()
    assert len(line.splitlines()) == 1, line
    assert line.startswith("chessrate: error: ")
    assert field in english.err
    named = field if field.startswith("-") or field.isupper() else read_catalog(language).gettext(field)
    assert named != field or field.startswith("-") or field.isupper()
    assert named in line
    assert said.missing == set(), line
    assert english_leaks(english.err, said.err) == [], line
    assert catalog_sentences_in(line, language) == [], line


def help_commands() -> list[list[str]]:
    return [[], ["list"], *(name.split() for name in every_command())]


@pytest.mark.parametrize("language", ["es", "ca"])
@pytest.mark.parametrize("command", help_commands(), ids=lambda words: " ".join(words) or "chessrate")
def test_every_help_speaks_the_language(run_cli: Any, command: list[str], language: str) -> None:
    english = run_cli([*command, "--help"])
    said = run_cli(["--lang", language, *command, "--help"])
    assert english.code == said.code == 0
    assert said.missing == set()
    assert english_leaks(english.out, said.out) == []
    assert catalog_sentences_in(said.out, language) == []
    assert said.out.startswith({"es": "Uso: chessrate", "ca": "Ús: chessrate"}[language])


def test_help_lists_the_pools_it_accepts() -> None:
    from chessrate.cli.system_commands import POOLS

    assert POOLS == "lichess-blitz, lichess-classical, chesscom-blitz, fide, ecf-grade, ecf"


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "ca_ES.UTF-8"}, "ca"),
        ({"LANG": "ca_ES@valencia"}, "ca"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "ca_ES.UTF-8"}, "es"),
        ({"LC_ALL": "ca_ES.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "ca"),
        ({"LANGUAGE": "fr:ca:es", "LANG": "es_ES.UTF-8"}, "ca"),
        ({"LANGUAGE": "es", "LANG": "ca_ES.UTF-8"}, "es"),
        ({"LANGUAGE": "fr", "LANG": "ca_ES.UTF-8"}, "ca"),
        # GNU gettext ignores LANGUAGE in the C locale.
        ({"LANGUAGE": "es", "LANG": "C"}, "en"),
        ({"LANGUAGE": "es", "LC_ALL": "POSIX", "LANG": "ca_ES.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "es_ES"}, "es"),
    ],
)
def test_the_environment_is_read_as_gettext_reads_it(env: dict[str, str], language: str) -> None:
    assert language_of_environment(env) == language


@pytest.mark.parametrize(
    ("args", "env", "first"),
    [
        (["--lang", "es", "table", "dp"], {"LANG": "ca_ES.UTF-8"}, "Tabla FIDE 8.1.1"),
        (["--lang=ca", "table", "dp"], {"LANG": "es_ES.UTF-8"}, "Taula FIDE 8.1.1"),
        (["--lang", "en", "table", "dp"], {"LANG": "es_ES.UTF-8"}, "FIDE table 8.1.1"),
        (["table", "dp"], {"LANGUAGE": "ca", "LANG": "es_ES.UTF-8"}, "Taula FIDE 8.1.1"),
    ],
)
def test_lang_wins_over_the_environment(
    run_cli: Any, args: list[str], env: dict[str, str], first: str
) -> None:
    assert run_cli(args, env).out.startswith(first)


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["table", "dp", "--lang", "es"], "Tabla FIDE 8.1.1"),
        (["table", "dp", "--lang=ca"], "Taula FIDE 8.1.1"),
        (["table", "--lang", "ca", "dp"], "Taula FIDE 8.1.1"),
    ],
)
def test_lang_after_the_command_is_read_as_before_it(run_cli: Any, args: list[str], first: str) -> None:
    said = run_cli(args, {"LANG": "en_GB.UTF-8"})
    assert (said.code, said.out.startswith(first)) == (0, True)


def test_an_unknown_lang_after_the_command_is_refused_as_before_it(run_cli: Any) -> None:
    said = run_cli(["table", "dp", "--lang", "fr"], {"LANG": "es_ES.UTF-8"})
    assert (said.code, said.err) == (2, "chessrate: error: --lang no válido 'fr': usa es, ca o en\n")


def test_an_unknown_lang_is_refused_in_the_environment_s_language(run_cli: Any) -> None:
    said = run_cli(["--lang", "fr", "table", "dp"], {"LANG": "es_ES.UTF-8"})
    assert said.code == 2
    assert said.err == "chessrate: error: --lang no válido 'fr': usa es, ca o en\n"


@pytest.mark.parametrize(
    ("language", "change", "expected"),
    [("en", "+15.20", "0.24"), ("es", "+15,20", "0,24"), ("ca", "+15,20", "0,24")],
)
def test_numbers_are_written_as_the_language_writes_them(
    run_cli: Any, language: str, change: str, expected: str
) -> None:
    # FIDE B.02 table 8.1.2: a difference of 200 gives the lower rated 0.24; K 20 × (1 − 0.24) = 15.2.
    out = run_cli(["--lang", language, "game", "1500", "1700", "1", "--k", "20"]).out
    assert f" {change} " in out
    assert f" {expected} " in out


@pytest.mark.parametrize("language", ["es", "ca"])
def test_json_keeps_its_keys_and_numbers(run_cli: Any, language: str) -> None:
    import json

    english = json.loads(run_cli(["game", "1500", "1700", "1", "--k", "20", "--json"]).out)
    said = json.loads(run_cli(["--lang", language, "game", "1500", "1700", "1", "--k", "20", "--json"]).out)
    assert list(said) == list(english)
    numbers = {key for key, value in english.items() if isinstance(value, int | float)}
    assert {key: said[key] for key in numbers} == {key: english[key] for key in numbers}
    assert said["change"] == 15.2


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_report_csv_is_the_web_s_in_spanish_and_catalan(run_cli: Any, language: str) -> None:
    from chessrate.service.language import translator
    from chessrate.service.report_csv import csv_headers

    out = run_cli(["--lang", language, "report", str(DEMO / "swiss-9-rounds.trf"), "--format", "csv"]).out
    header, first = out.splitlines()[:2]
    assert header.split(";")[:2] == list(csv_headers(translator(language)).values())[:2]
    assert re.search(r";\d+,\d+;", first)  # a decimal comma between semicolons
    plain = run_cli(["report", str(DEMO / "swiss-9-rounds.trf"), "--format", "csv"]).out
    assert plain.splitlines()[0].startswith("start_number,name,")


def test_the_fetch_help_names_the_fetch_default() -> None:
    # The --max help is a fixed catalog sentence; it must say the service's default.
    from chessrate.cli import fetch_options
    from chessrate.service.fetch import DEFAULT_MAX

    assert f"(default {DEFAULT_MAX})." in fetch_options.MaxOpt.__metadata__[0].help


@pytest.mark.parametrize(
    ("language", "reason"),
    [("es", "no existe ese archivo ni carpeta"), ("ca", "no existeix aquest fitxer ni carpeta")],
)
def test_a_missing_rules_file_is_refused_wholly_in_the_language(
    run_cli: Any, tmp_path: Path, language: str, reason: str
) -> None:
    """The reason is the shared code (chessrate.errors.file_reason), not the system's English."""
    args = ["game", "1500", "1700", "1", "--rules", str(tmp_path / "club.toml")]
    english, said = run_cli(args), run_cli(["--lang", language, *args])
    assert english.code == said.code == 2
    assert english.err.strip().endswith(f"'{tmp_path / 'club.toml'}': no such file or folder")
    assert said.err.strip().endswith(f"'{tmp_path / 'club.toml'}': {reason}")
    assert said.missing == set()
    assert catalog_sentences_in(said.err, language) == []


@pytest.mark.parametrize(
    ("language", "first"),
    [
        ("es", "aviso: línea 3: el registro 062 anuncia 16 jugadores; el archivo tiene 15"),
        ("ca", "avís: línia 3: el registre 062 anuncia 16 jugadors; el fitxer en té 15"),
    ],
)
def test_the_report_prints_the_api_s_warning_lines(
    run_cli: Any, places: dict[str, Any], language: str, first: str
) -> None:
    from chessrate.formats import read_tournament
    from chessrate.service.language import translator
    from chessrate.service.tournament_file import warning_lines
    from chessrate.systems.elo.presets import resolve_rule_set
    from chessrate.tournament.report import report_tournament

    said = run_cli(["--lang", language, "report", places["broken"]])
    assert said.code == 0
    read = read_tournament(places["broken"])
    assert read.tournament.start_date is not None
    day = read.tournament.start_date
    report = report_tournament(read, rules=resolve_rule_set("fide", as_of=day), as_of=day)
    lines = warning_lines(report, translator(language))
    assert lines[0] == first  # the file's 16 players announced, 15 given: said from its code
    assert said.err.splitlines() == lines
