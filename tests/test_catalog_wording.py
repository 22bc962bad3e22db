"""Every sentence, English included, comes from the catalogs: the core gives codes, never words.

Rewording an English message in the English catalog changes what the command line and the web say in
English, and Spanish and Catalan stay translated (issue 24). No regular expression reads a K reason
back from English: the core's reasons are codes, each with its own sentence in every catalog.
"""

from __future__ import annotations

import ast
import io
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from chessrate.service import language
from chessrate.service.explanations import k_reason
from chessrate.service.language import PoCatalog, Translator, read_catalog
from chessrate.systems.fide.k_factor import K_REASONS, given_k

SRC = Path(__file__).resolve().parents[1] / "src" / "chessrate"
MESSAGE = "K %(k)s, as you chose it."
REWORDED = "K %(k)s, typed in by you."


def reworded_english() -> PoCatalog:
    po = resources.files("chessrate").joinpath("web", "locale", "en", "LC_MESSAGES", "messages.po")
    text = po.read_text("utf-8")
    entry = f'msgid "{MESSAGE}"\nmsgstr ""\n'
    assert entry in text  # the English wording is the catalog's (its msgstr empty: the msgid's words)
    return PoCatalog(io.BytesIO(text.replace(entry, f'msgid "{MESSAGE}"\nmsgstr "{REWORDED}"\n').encode()))


@pytest.fixture
def reworded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The English catalog with one message reworded, for the command line and the web alike."""
    english = reworded_english()

    def catalog(code: str) -> Any:
        return english if code == "en" else read_catalog(code)

    monkeypatch.setattr(language, "read_catalog", catalog)
    monkeypatch.setattr("chessrate.web.i18n.read_catalog", catalog)


def test_an_english_message_reworded_in_its_catalog_is_said_so_and_spanish_and_catalan_follow(
    reworded: None, cli: Any
) -> None:
    from chessrate.web.i18n import load_catalogs

    catalogs = load_catalogs()
    said = {code: k_reason(given_k(20), Translator(code, catalogs[code])) for code in ("en", "es", "ca")}
    assert said == {
        "en": "K 20, typed in by you.",
        "es": "K 20, la que has elegido.",
        "ca": read_catalog("ca").gettext(MESSAGE) % {"k": 20},
    }
    assert said["ca"] not in {said["en"], MESSAGE % {"k": 20}}
    out = cli("game", "1500", "1700", "1", "--k", "20").out  # the command line: the same catalog
    assert "K 20, typed in by you." in out
    assert "as you chose it" not in out


def test_the_english_catalog_is_what_the_command_line_says() -> None:
    catalog = read_catalog("en")
    assert isinstance(catalog, PoCatalog)
    assert language.ENGLISH.gettext(MESSAGE, k=20) == "K 20, as you chose it."


@pytest.mark.parametrize("code", sorted(K_REASONS))
def test_each_k_reason_code_has_its_own_sentence_in_every_language(code: str) -> None:
    from chessrate.service.explanations import _K_REASONS

    assert code in _K_REASONS


def regular_expressions(path: Path) -> list[str]:
    """The patterns ``path`` gives to ``re``: every string literal passed to a function of ``re``."""
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
        ):
            found += [
                arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            ]
    return found


def test_no_regular_expression_reads_a_k_reason_or_a_note_back() -> None:
    # The sentences the core wrote up to schema 0005 began "K 20: ..." or "K 20 given"; none is read back.
    for path in SRC.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for pattern in regular_expressions(path):
            assert not pattern.startswith(("K ", r"K (?P", "; (?P<k>")), (path, pattern)
    # The request layer's words: none of its modules matches a regular expression at all.
    for name in ("explanations", "file_problems", "problems", "language"):
        assert not regular_expressions(SRC / "service" / f"{name}.py"), name


@pytest.mark.parametrize("code", ["es", "ca", "en"])
def test_a_catalog_read_without_babel_says_what_babel_compiles(code: str) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    po = resources.files("chessrate").joinpath("web", "locale", code, "LC_MESSAGES", "messages.po")
    with po.open("rb") as source:
        messages = read_po(source, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, messages)
    compiled.seek(0)
    babel, ours = Translations(compiled), read_catalog(code)
    checked = 0
    for message in messages:
        if not message.id:
            continue
        context = message.context
        if isinstance(message.id, tuple):
            singular, plural = message.id
            for count in (0, 1, 2, 5, 1_000_000):
                if context:
                    expected = babel.npgettext(context, singular, plural, count)
                    assert ours.npgettext(context, singular, plural, count) == expected
                else:
                    assert ours.ngettext(singular, plural, count) == babel.ngettext(singular, plural, count)
        elif context:
            assert ours.pgettext(context, message.id) == babel.pgettext(context, message.id)
        else:
            assert ours.gettext(message.id) == babel.gettext(message.id), message.id
        checked += 1
    assert checked > 800
