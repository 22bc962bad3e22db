"""Named rule sets (``fide``, ``fide-rapid``, ``fide-blitz``, ``elo``, ``ciabe``) and club rule sets
read from TOML files.

A club writes its own rules as a small TOML file (see ``data/ciabe.toml``, which is also how the
``ciabe`` preset is defined); :func:`rule_set_from_toml` checks every key and names the one at fault.
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from chessrate.errors import RuleSetError, file_reason
from chessrate.systems.elo.ruleset import (
    FIDE_LISTS,
    DifferenceCap,
    Expected,
    KBand,
    KByRatingBand,
    Rounding,
    RuleSet,
    fide_rule_set,
)
from chessrate.systems.fide.regulations import rules_in_force

#: The plain Elo of online calculators [ELO-CALC-ES]: logistic formula, no cap, K given by the user.
PLAIN_ELO = RuleSet(
    name="elo",
    title="Plain Elo (logistic formula, no cap)",
    source="E = 1 / (1 + 10^((Rb - Ra) / 400)), R' = R + K (S - E) [ELO-CALC-ES]",
    expected=Expected.FORMULA,
    cap=None,
    k_policy=None,
    max_k_times_games=None,
    rounding=Rounding.PERIOD,
)

PRESET_NAMES = (*FIDE_LISTS, "elo", "ciabe")


def resolve_rule_set(spec: str | None, *, as_of: dt.date) -> RuleSet:
    """A rule set by name (``fide``, ``fide-rapid``, ``fide-blitz``, ``elo``, ``ciabe``) or from a
    club's TOML file; FIDE's is the version in force on ``as_of`` for its list."""
    name = (spec or "fide").strip()
    if name.lower() in FIDE_LISTS:
        key = name.lower()
        return fide_rule_set(rules_in_force(as_of, FIDE_LISTS[key]), day=as_of, name=key)
    if name.lower() in {"elo", "plain"}:
        return PLAIN_ELO
    if name.lower() == "ciabe":
        return ciabe_rule_set()
    if name.lower().endswith(".toml"):
        path = Path(name)
        from chessrate.formats.text import decode  # only for a club file: the readers are not loaded

        try:
            text = decode(path.read_bytes())[0]  # UTF-8, else Windows-1252, as the readers
        except OSError as error:
            raise unreadable_rules_file(name, error) from None
        return rule_set_from_toml(text, origin=name)
    known = ", ".join(PRESET_NAMES)
    raise RuleSetError(
        f"unknown rule set {name!r}: use one of {known}, or a club's .toml file",
        code="rules-unknown-name",
        params={"rules": name, "known": known},
    )


def unreadable_rules_file(name: str, error: OSError) -> RuleSetError:
    """The refusal of a club's rules file that ``error`` keeps from being read; ``reason`` is a code
    (chessrate.errors.file_reason), so that the whole refusal is said in the user's language."""
    reason = file_reason(error)
    return RuleSetError(
        f"cannot read rule set file {name!r}: {reason.english}",
        code="rules-file-unreadable",
        params={"file": repr(name), "reason": reason.code},
    )


def ciabe_rule_set() -> RuleSet:
    """The Ciabe club's rules [CIABE], from the TOML file shipped with chessrate."""
    text = resources.files("chessrate").joinpath("data/ciabe.toml").read_text(encoding="utf-8")
    return rule_set_from_toml(text, origin="ciabe.toml")


_KEYS = {
    "name", "title", "source", "titles", "sources", "expected", "difference_cap", "rounding",
    "k_by_rating", "max_k_times_games",
}  # fmt: skip


#: Where tomllib places a syntax error: "Invalid statement (at line 3, column 1)".
_TOML_PLACE = re.compile(r"\(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def rule_set_from_toml(text: str, *, origin: str) -> RuleSet:
    """A club rule set from the text of a TOML file; errors name ``origin`` and the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        where = _TOML_PLACE.search(str(error))
        params: dict[str, object] = (
            {"line": int(where["line"]), "column": int(where["column"])} if where else {}
        )
        raise RuleSetError(
            f"malformed rule set file {origin!r}: {error}",
            code="toml-syntax" if where else "toml-syntax-end",
            params=params,
        ) from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise RuleSetError(
            f"rule set file {origin!r}: unknown key {unknown[0]!r}",
            code="rules-unknown-key",
            params={"key": unknown[0]},
        )

    def need(key: str, kind: type) -> Any:
        if key not in data:
            raise RuleSetError(
                f"rule set file {origin!r}: missing key {key!r}",
                code="rules-missing-key",
                params={"key": key},
            )
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
            raise RuleSetError(
                f"rule set file {origin!r}: {key} = {value!r} is not a {kind.__name__}",
                code="rules-type",
                params={"key": key, "value": repr(value), "kind": kind.__name__},
            )
        return value

    def choice(key: str, enum: type[Expected] | type[Rounding]) -> Any:
        value = need(key, str)
        try:
            return enum(value)
        except ValueError:
            options = " or ".join(repr(member.value) for member in enum)
            raise RuleSetError(
                f"rule set file {origin!r}: {key} = {value!r}; use {options}",
                code="rules-choice",
                params={"key": key, "value": repr(value), "choices": options},
            ) from None

    cap_value = data.get("difference_cap", False)
    if cap_value is False:
        cap = None
    elif isinstance(cap_value, int) and not isinstance(cap_value, bool) and cap_value > 0:
        cap = DifferenceCap(limit=cap_value)
    else:
        raise RuleSetError(
            f"rule set file {origin!r}: difference_cap = {cap_value!r}; use false or a number above 0",
            code="rules-difference-cap",
            params={"value": repr(cap_value)},
        )

    max_kn = data.get("max_k_times_games")
    if max_kn is not None and (not isinstance(max_kn, int) or isinstance(max_kn, bool) or max_kn < 1):
        raise RuleSetError(
            f"rule set file {origin!r}: max_k_times_games = {max_kn!r} is not a whole number above 0",
            code="rules-max-k-times-games",
            params={"value": repr(max_kn)},
        )

    def translations(key: str) -> tuple[tuple[str, str], ...]:
        # titles = { es = "...", ca = "..." }: the title (or source) in other languages.
        value = data.get(key, {})
        if not isinstance(value, dict) or not all(
            isinstance(code, str) and isinstance(text, str) for code, text in value.items()
        ):
            raise RuleSetError(
                f'rule set file {origin!r}: {key} = {value!r}; write {{ es = "...", ca = "..." }}',
                code="rules-translations",
                params={"key": key, "value": repr(value)},
            )
        return tuple(sorted(value.items()))

    return RuleSet(
        name=need("name", str),
        titles=translations("titles"),
        sources=translations("sources"),
        title=str(data.get("title", data.get("name"))),
        source=str(data.get("source", origin)),
        expected=choice("expected", Expected),
        cap=cap,
        k_policy=_k_bands(need("k_by_rating", list), origin=origin, source=str(data.get("source", origin))),
        max_k_times_games=max_kn,
        rounding=choice("rounding", Rounding),
    )


def _k_bands(items: list[Any], *, origin: str, source: str) -> KByRatingBand:
    bands: list[KBand] = []
    for position, item in enumerate(items, start=1):
        where = f"rule set file {origin!r}: k_by_rating entry {position}"
        if not isinstance(item, dict) or set(item) != {"from", "k"}:
            raise RuleSetError(
                f"{where} must be {{ from = RATING, k = K }}, got {item!r}",
                code="rules-band",
                params={"entry": position},
            )
        start, k = item["from"], item["k"]
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise RuleSetError(
                f"{where}: from = {start!r} is not a rating",
                code="rules-band-from",
                params={"entry": position, "value": repr(start)},
            )
        if not isinstance(k, int) or isinstance(k, bool) or k <= 0:
            raise RuleSetError(
                f"{where}: k = {k!r} is not a whole number above 0",
                code="rules-band-k",
                params={"entry": position, "value": repr(k)},
            )
        if bands and start <= bands[-1].from_rating:
            raise RuleSetError(
                f"{where}: from = {start} must be above the previous band's",
                code="rules-band-order",
                params={"entry": position, "value": start},
            )
        bands.append(KBand(from_rating=start, k=k))
    if not bands:
        raise RuleSetError(f"rule set file {origin!r}: k_by_rating has no bands", code="rules-no-bands")
    if bands[0].from_rating != 0:
        raise RuleSetError(
            f"rule set file {origin!r}: the first k_by_rating band must start from 0", code="rules-first-band"
        )
    return KByRatingBand(bands=tuple(bands), source=source)
