"""The repository stands on its own: it cites its sources by the tags of docs/sources.md, and never
points to material outside it (a ``shared/`` folder, the users' documents by number, research notes).

Every tracked text file is checked (the real tournament files in ``tests/data/`` too) except this
file, whose examples spell out the words it looks for.
"""

from __future__ import annotations

import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources.md"

#: Words that point outside the repository.
OUTSIDE = re.compile(
    r"shared/"  # the folder of research notes, data and user documents next to the repository
    r"|\[Z-[A-Z]+"  # the research notes' own tags ([Z-SPEC], [Z-FIX], ...)
    r"|research (?:§|`?[\w-]+\.md)"  # "research fide.md §2.5", "research §1.1"
    # the notes by section: "fide.md §2.5", "fide.md-6.4" (a test id), "glicko.md 1.2"
    r"|(?<!docs/)\b(?:fide|glicko|peers|systems|aesthetics|fide-list)\.md[-\s]*§?\d"
    r"|glicko_test_vectors",
    re.IGNORECASE,
)
#: Any mention of "seed" ...
SEED = re.compile(r"seed", re.IGNORECASE)
#: ... except the one programming term: ``seed`` as the name of a random generator's seed in code
#: (``default_rng(seed)``, ``@given(seed=...)``, ``generate(..., seed=1)``, ``for seed in ...``),
#: lowercase and followed by code punctuation, never by a number or a word.
RANDOM_SEED = re.compile(r"(?<![\w-])seed(?=\s*[=:),%\]]|\s+in\s)")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    files = []
    for name in filter(None, listed.split("\0")):
        path = ROOT / name
        # This file spells out the words it looks for, as examples the check must catch.
        if name == "tests/test_sources.py" or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:  # images and other binary files
            continue
        files.append(path)
    return files


def outside_references(text: str) -> list[str]:
    found = [m.group() for m in OUTSIDE.finditer(text)]
    allowed = {m.start() for m in RANDOM_SEED.finditer(text)}
    found += [text[m.start() : m.start() + 12] for m in SEED.finditer(text) if m.start() not in allowed]
    return found


def test_no_tracked_file_points_outside_the_repository() -> None:
    files = tracked_text_files()
    assert len(files) > 100  # git ls-files worked
    offending = {}
    for path in files:
        found = outside_references(path.read_text(encoding="utf-8", errors="replace"))
        if found:
            offending[str(path.relative_to(ROOT))] = found
    assert offending == {}


@pytest.mark.parametrize(
    "text",
    [
        # Spelt in two pieces so that this file itself points nowhere.
        "see " + "shared/" + "research/fide.md §2.5",
        "../" + "shared" + "/design.md",
        "K [Z-SPEC R-22]",
        "(research fide.md §3)",
        "(research §1.1)",
        "(fide.md §2.9)",
        "From TRF16 (peers.md §2.2)",
        'id="fide.md-6.4-C4355-1000"',
        "glicko.md 1.2's derived vector",
        "seed" + " 001's tournament",
        "SEED_002_GAMES",
        "test_seed_002_three_games",
        "Seed 000: the multi-game mode",
        "the seeds print them",
        "a fixed seed",
        "seed `002`",
    ],
)
def test_the_check_catches(text: str) -> None:
    assert outside_references(text)


@pytest.mark.parametrize(
    "text",
    [
        "rng = np.random.default_rng(seed)",
        "@given(seed=st.integers(0, 9))",
        "generate(games=9, seed=1)",
        "def f(seed: int) -> None:",
        "for seed in range(40):",
        "STARTS[seed % 4]",
        "proceed, exceed, succeed",
    ],
)
def test_the_check_allows_a_random_generators_seed(text: str) -> None:
    assert outside_references(text) == []


TAG = re.compile(r"\[([A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*)(?: §[^\]]*)?\]")
#: Optional arguments in usage lines (``show [PERIOD]``), not sources.
USAGE_PLACEHOLDERS = {"PERIOD", "FILE", "FILES", "OPTIONS", "ARGS", "PORT", "DB"}


def cited_tags(path: Path) -> set[str]:
    """Tags in brackets: anywhere in Markdown and TOML, in comments and strings of Python code."""
    if path.suffix not in {".md", ".toml", ".py"}:
        return set()
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return set(TAG.findall(text))
    prose = [
        token.string
        for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type in (tokenize.COMMENT, tokenize.STRING)
    ]
    return set(TAG.findall("\n".join(prose)))


def test_every_cited_source_is_in_docs_sources() -> None:
    defined = set(re.findall(r"^\| \[([A-Z][A-Z0-9-]+)\] \|", SOURCES.read_text(encoding="utf-8"), re.M))
    assert {"FIDE-RR-2024", "FIDE-CALC", "GLICKO2", "CIABE"} <= defined
    unresolved = {}
    for path in tracked_text_files():
        missing = cited_tags(path) - defined - USAGE_PLACEHOLDERS
        if missing:
            unresolved[str(path.relative_to(ROOT))] = sorted(missing)
    assert unresolved == {}
