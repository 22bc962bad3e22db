"""Rule sets by name and club rule sets from TOML."""

from __future__ import annotations

import datetime as dt
import errno
import os
from decimal import Decimal
from importlib import resources
from pathlib import Path

import pytest

from chessrate.errors import RuleSetError, file_reason
from chessrate.service.language import ENGLISH, translator
from chessrate.service.problems import input_reason
from chessrate.systems.elo.calculate import Game, rate_tournament
from chessrate.systems.elo.presets import resolve_rule_set, rule_set_from_toml
from chessrate.systems.elo.ruleset import Expected, Rounding

CIABE_TEXT = resources.files("chessrate").joinpath("data/ciabe.toml").read_text(encoding="utf-8")


def test_named_rule_sets() -> None:
    day = dt.date(2025, 1, 1)
    fide = resolve_rule_set(None, as_of=day)
    assert fide.name == "fide"
    assert fide.fide is not None
    assert fide.fide.name == "FIDE 2024-03-01"
    assert resolve_rule_set("elo", as_of=day).expected is Expected.FORMULA
    ciabe = resolve_rule_set("ciabe", as_of=day)
    assert (ciabe.expected, ciabe.rounding, ciabe.cap) == (Expected.TABLE, Rounding.TOURNAMENT, None)


def test_a_club_writes_its_own_toml(tmp_path: object) -> None:
    text = CIABE_TEXT.replace('name = "ciabe"', 'name = "my club"').replace(
        "{ from = 1825, k = 10 }", "{ from = 1825, k = 12 }"
    )
    club = rule_set_from_toml(text, origin="club.toml")
    result = rate_tournament(Decimal(1900), [Game(Decimal(1900), Decimal(1))], rules=club)
    assert (club.name, result.period.k.k, result.period.change) == ("my club", 12, Decimal(6))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('expected = "table"', 'expected = "magic"'), "expected = 'magic'"),
        (('rounding = "tournament"', "rounding = 7"), "rounding = 7 is not a str"),
        (("difference_cap = false", "difference_cap = -3"), "difference_cap = -3"),
        (("{ from = 1580, k = 20 }", "{ from = 1580, k = 0 }"), "k = 0"),
        (("{ from = 1580, k = 20 }", "{ from = 1700, k = 20 }"), "entry 3"),
        (("{ from = 0, k = 25 }", "{ from = 100, k = 25 }"), "must start from 0"),
        (('name = "ciabe"', 'nam = "ciabe"'), "unknown key 'nam'"),
        (("k_by_rating = [", "k_by_rating_x = 1\nignored = ["), "unknown key"),
    ],
    ids=[
        "expected",
        "rounding-type",
        "cap",
        "k-zero",
        "bands-order",
        "first-band",
        "unknown-key",
        "missing-bands",
    ],
)
def test_malformed_club_files_name_the_key(change: tuple[str, str], message: str) -> None:
    text = CIABE_TEXT.replace(*change)
    assert text != CIABE_TEXT
    with pytest.raises(RuleSetError, match=message.replace("(", r"\(").replace("[", r"\[")):
        rule_set_from_toml(text, origin="club.toml")


def test_unknown_rule_set_name() -> None:
    with pytest.raises(RuleSetError, match="unknown rule set 'uscf'"):
        resolve_rule_set("uscf", as_of=dt.date(2025, 1, 1))


#: A club file that cannot be read, each reason as the system gives it: the refusal, in es and ca,
#: says the reason from the catalogs, never the system's English (strerror).
UNREADABLE = [
    pytest.param(
        "folder",
        "file-is-folder",
        "a folder, not a file",
        "una carpeta, no un archivo",
        "una carpeta, no un fitxer",
        id="a folder",
    ),
    pytest.param(
        "missing",
        "file-not-found",
        "no such file or folder",
        "no existe ese archivo ni carpeta",
        "no existeix aquest fitxer ni carpeta",
        id="not found",
    ),
]


@pytest.mark.parametrize(("kind", "code", "english", "spanish", "catalan"), UNREADABLE)
def test_an_unreadable_club_file_is_refused_wholly_in_the_language(
    tmp_path: Path, kind: str, code: str, english: str, spanish: str, catalan: str
) -> None:
    path = tmp_path / "club.toml"
    if kind == "folder":
        path.mkdir()
    with pytest.raises(RuleSetError) as raised:
        resolve_rule_set(str(path), as_of=dt.date(2025, 1, 1))
    error = raised.value
    assert (error.code, error.params["reason"]) == ("rules-file-unreadable", code)
    assert str(error) == f"cannot read rule set file {str(path)!r}: {english}"
    for language, reason in (("es", spanish), ("ca", catalan)):
        said = input_reason(error.code, error.params, str(error), translator(language))
        assert said.endswith(f"{str(path)!r}: {reason}"), said
        assert os.strerror(errno.ENOENT) not in said
        assert os.strerror(errno.EISDIR) not in said


@pytest.mark.parametrize(
    ("number", "code", "spanish", "catalan"),
    [
        (errno.EACCES, "file-permission-denied", "permiso denegado", "permís denegat"),
        (errno.EIO, "file-cannot-be-read", "no se puede leer", "no es pot llegir"),
    ],
)
def test_the_system_s_reasons_are_codes_said_in_the_language(
    number: int, code: str, spanish: str, catalan: str
) -> None:
    """Permission denied and any other reason (an I/O error), which a test cannot make as root."""
    reason = file_reason(OSError(number, os.strerror(number)))
    assert reason.code == code
    assert input_reason(code, {}, "", translator("es")) == spanish
    assert input_reason(code, {}, "", translator("ca")) == catalan
    assert input_reason(code, {}, "", ENGLISH) == reason.english
