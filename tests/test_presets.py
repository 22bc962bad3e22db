"""Rule sets by name and club rule sets from TOML."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from importlib import resources

import pytest

from chessrate.errors import RuleSetError
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
