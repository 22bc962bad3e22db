"""The PGN reads by columns (``read_pgn_event``, and ``read_pgn``) give what the exact reader
gives, for any text.

Games laid out alike are read as columns by one pattern (``pgn_scan._Layout``); everything else goes to
the game-by-game read. ``read_pgn_event`` must give ``EventRead.of(read_pgn_by_game(...))``: the
event, the players, the games and every problem with its line; ``read_pgn`` the whole
``ReadResult`` of ``read_pgn_by_game`` (every :class:`Game` with its kind, ratings and day, the
place, rounds and encoding), and in strict mode the same error.

The generated files mix clean games (where the columns decide alone, which the first tests check)
with every oddity the scanner knows: quotes in values, comments with brackets or blank lines, ``;``
and ``%`` lines, tags over several lines or missing, byte-order marks, CRLF and CR, Latin-1, games
without movetext, variations, and the text read in blocks of any size.
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessrate.errors import FileFormatError
from chessrate.formats import EventRead, ReadResult, pgn_scan, read_event, read_pgn, read_tournament
from chessrate.formats.pgn import read_pgn_event
from chessrate.testing import synthetic

from .pgn_oracle import read_pgn_by_game

DATA = Path(__file__).parents[1] / "data" / "pgn"
COLUMNS = ("round", "white", "black", "white_score", "black_score", "rated", "code", "line")


def comparable(event: EventRead) -> tuple[object, ...]:
    """Everything an import stores or shows of the event."""
    players = tuple(dataclasses.replace(player, cells=()) for player in event.players)
    games = tuple(tuple(getattr(event.games, column)) for column in COLUMNS)
    return (event.source_format, event.name, event.start_date, event.end_date, players, games, event.problems)


def exact(source: bytes | str | Path) -> tuple[object, ...]:
    return comparable(EventRead.of(read_pgn_by_game(source)))


def strictly(reader: Callable[..., ReadResult], source: bytes | str | Path) -> object:
    """What ``reader(source, strict=True)`` gives: its result, or its error's line, code and message."""
    try:
        return reader(source, strict=True)
    except FileFormatError as error:
        return error.line, error.code, str(error)


def read_agrees(source: bytes | str | Path) -> None:
    """``read_pgn`` gives the exact reader's whole result, leniently and strictly."""
    assert read_pgn(source) == read_pgn_by_game(source)
    assert strictly(read_pgn, source) == strictly(read_pgn_by_game, source)


def month_pgn(games: int, seed: int) -> str:
    """A synthetic month's games in one file, each written as benchmarks/list_scale.py writes
    them (ratings, FIDE ids, a comment in the movetext)."""
    month = synthetic.swiss_month(games=games, size=20, rounds=7, seed=seed)
    results = {0: "0-1", 1: "1/2-1/2", 2: "1-0"}
    parts = []
    for w, b, h, r in zip(month.white.tolist(), month.black.tolist(), month.white_half_points.tolist(),
                          month.round.tolist(), strict=True):  # fmt: skip
        day = str(month.start[0] + np.timedelta64(r - 1, "D")).replace("-", ".")
        parts.append(
            f'[Event "Synthetic"]\n[Site "?"]\n[Date "{day}"]\n[Round "{r}"]\n[White "Player {w:06d}"]\n'
            f'[Black "Player {b:06d}"]\n[Result "{results[h]}"]\n'
            f'[WhiteElo "{int(month.players.rating[w])}"]\n[BlackElo "{int(month.players.rating[b])}"]\n'
            f'[WhiteFideId "{int(month.fide_id[w])}"]\n'
            f'[BlackFideId "{int(month.fide_id[b])}"]\n\n1. e4 e5 {{a comment}} 2. Nf3 {results[h]}\n\n'
        )
    return "".join(parts)


def test_a_month_is_read_as_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    data = month_pgn(2000, seed=3).encode()
    expected, expected_read = exact(data), read_pgn_by_game(data)
    monkeypatch.setattr(pgn_scan, "scan_headers", pytest.fail)  # the layout pattern reads them alone
    event = read_pgn_event(data)
    assert comparable(event) == expected
    assert len(event.games) == data.count(b"[Event ") > 100
    assert read_pgn(data) == expected_read
    assert read_tournament(data) == expected_read


@pytest.mark.parametrize("path", sorted(DATA.glob("*.pgn")), ids=lambda p: p.name)
def test_the_real_files_are_read_as_columns(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected, from_path, from_bytes = exact(path), read_pgn_by_game(path), read_pgn_by_game(path.read_bytes())
    monkeypatch.setattr(pgn_scan, "scan_headers", pytest.fail)  # the layout pattern reads them alone
    assert comparable(read_pgn_event(path)) == expected
    assert comparable(read_pgn_event(path.read_bytes())) == expected
    assert comparable(read_event(path, format="pgn")) == expected
    assert read_pgn(path) == read_tournament(path) == read_pgn(path, strict=True) == from_path
    assert read_pgn(path.read_bytes()) == read_tournament(path.read_bytes()) == from_bytes
    assert from_path.tournament.games  # and no error: strict reading took the columns too


def test_the_lichess_file_learns_its_tags_and_values_with_quotes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Games whose tags the first game has not got add them to the layout; a value holding quotes
    # runs to the "]" that ends its line, as python-chess reads it.
    text = (DATA / "lichess-export.pgn").read_text("utf-8")
    text = text.replace('[Event "rated bullet game"]', '[Event "rated \\"bullet\\" game"]', 1)
    expected, expected_read = exact(text), read_pgn_by_game(text)
    monkeypatch.setattr(pgn_scan, "scan_headers", pytest.fail)  # the layout pattern reads them alone
    event = read_pgn_event(text)
    assert comparable(event) == expected
    assert event.name == 'rated \\"bullet\\" game'
    assert read_pgn(text) == expected_read


# --- Generated files ------------------------------------------------------------------------------

#: Players as their tags give them: name, Elo, FideId, Title.
PLAYERS = [("Ana", "1500", "12", "GM"), ("Bo Li", "1700", "21", ""), ("Zoë", "", "", ""),
           ('O\'Neil, \\"Pat\\"', "1600", "", "g"), ("Ça\u00a0va", "2000", "44", "IM"),
           ("Dan", "1500", "", "")]  # fmt: skip
#: Each tag's usual values, and the odd ones a game has now and then (warnings and errors).
USUAL = {"Event": ["Open"], "Site": ["Here"], "Date": ["2025.10.02", "2025.10.05"], "Round": ["1", "2", "3"],
         "Result": ["1-0", "0-1", "1/2-1/2"], "Variant": ["Standard"], "ECO": ["B44"]}  # fmt: skip
ODD = {"Event": ["Other", "?", "", " Open "], "Site": ["?", 'a"]b', " There ", " ? "],
       "Date": ["2025.??.??", "", "02/10/2025"], "Round": ["?", "-", "x", "", " 4 ", "3.1"],
       "Result": ["*", "", " 1-0"], "Variant": ["Chess960", "", "chess"], "ECO": ['C"]'],
       "": ["ana", "Bo  Li", "DAN"], "Elo": ["1501", "", "?", "0"], "FideId": ["x1", "0", ""],
       "Title": ["XY", "?", "wg"]}  # fmt: skip
#: Values that make an error.
WRONG = {"Result": ["2-0"], "": ["?", ""], "Elo": ["abc", "9999"], "FideId": ["12", "44"]}
ORDER = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteTitle", "BlackTitle",
         "WhiteElo", "BlackElo", "ECO", "WhiteFideId", "BlackFideId", "Variant"]  # fmt: skip
#: Movetext the columns read, and movetext that sends a file to the game-by-game read.
MOVES = ["1. e4 e5", "2. Nf3 {a [comment] }", "{ over\ntwo lines }", "( 2... Nc6 (2... d6) )", "$1",
         "1-0", "*", "; to the end { [x]\n", "{\n%not an escape}", "{ a; b }"]  # fmt: skip
ODD_MOVES = ["{ with a\n\nblank line }", "\n% escape {\n", "\n% {\n\n}", "{ open", "}",
             '\n[Event "in movetext"]\n', "\n", " %x", "\n \t\n", "\n\x0c\n", "{ \n\u2003\n}"]  # fmt: skip
GAPS, ODD_GAPS = ["\n", "\n", "", "  \n"], ["\n\n", "\n% x\n", "\n; y\n", "\n\n\n"]
ENDS, ODD_ENDS = ["\n\n", "\n\n", "\n \n\n", "\n\n\n"], ["\n", "", "\n\ufeff\n", '\n\ufeff[Event "B"]\n']


class Odd:
    """Whether the next thing drawn is odd: about once in ``every`` draws (never for 0); a value is
    wrong (an error) about once in ``wrong`` draws."""

    def __init__(self, draw: st.DrawFn, every: int, wrong: int) -> None:
        self.draw, self.every, self.wrong = draw, every, wrong
        # Hypothesis's own draws favour their bounds (0 above all); random.Random's are uniform.
        self.random = random.Random(draw(st.integers(0, 2**32)))

    def __call__(self, every: int | None = None) -> bool:
        every = self.every if every is None else every
        return every > 0 and self.random.random() * every < 1

    def pick(self, usual: list[str], odd: list[str], wrong: list[str] = []) -> str:  # noqa: B006
        if wrong and self(self.wrong):
            return self.random.choice(wrong)
        return self.random.choice(odd if self() else usual)


@st.composite
def game_text(draw: st.DrawFn, odd: Odd, *, lines_odd: bool) -> str:
    white, black = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True))
    sides = {"White": white, "Black": black}
    names = [name for name in ORDER if name in ("White", "Black") or draw(st.booleans())]
    if lines_odd and odd():
        names = [name for name in names if not odd()]  # White or Black missing now and then
        names = draw(st.permutations(names)) if odd() else names
    lines = []
    for name in names:
        colour, field = (name[:5], name[5:]) if name.startswith(("White", "Black")) else ("", name)
        if colour:
            usual = sides[colour][("", "Elo", "FideId", "Title").index(field)]
            value = odd.pick([usual], ODD[field], WRONG.get(field, []))
        else:
            value = odd.pick(USUAL[field], ODD[field], WRONG.get(field, []))
        form = draw(st.integers(1, 6)) if lines_odd and odd() else 0
        line = [f'[{name} "{value}"]\n', f'[{name}  "{value}"]\n', f'[{name} "{value}"] \n',
                f"[{name} {value}]\n", f'[{name} "{value}"]\n[{name} "again"]\n', f'\n[{name} "{value}"]\n',
                f'[{name} "{value}"]\r'][form]  # fmt: skip
        lines.append(line)
    if not lines_odd:  # laid out alike: movetext the columns read
        # (a first line starting with ";" would be a comment among the tags: not laid out alike)
        moves = [draw(st.sampled_from(MOVES[:-3])), *draw(st.lists(st.sampled_from(MOVES), max_size=4))]
        return "".join(lines) + draw(st.sampled_from(GAPS)) + " ".join(moves) + draw(st.sampled_from(ENDS))
    moves = [odd.pick(MOVES, ODD_MOVES) for _ in range(draw(st.integers(0, 5)))]
    movetext = draw(st.sampled_from([" ", "\n"])).join(moves)
    return "".join(lines) + odd.pick(GAPS, ODD_GAPS) + movetext + odd.pick(ENDS, ODD_ENDS)


@st.composite
def games_text(draw: st.DrawFn, *, clean: bool) -> str:
    """A PGN text: with ``clean``, games laid out alike (values odd now and then); else files from
    nearly clean to anything."""
    every = 8 if clean else draw(st.sampled_from([0, 300, 60, 15, 3]))
    odd = Odd(draw, every, wrong=300 if clean else 5 * every)
    games = [draw(game_text(odd, lines_odd=not clean)) for _ in range(draw(st.integers(1, 8)))]
    head = (
        ""
        if clean
        else odd.pick([""], ["\ufeff", "\n\n", "\ufeff\ufeff\n", "% escape\n", "  \n", "\n\ufeff"])
    )
    return head + "".join(games)


def agree(text: str, *, line_ends: str, encoding: str, block: int, as_path: bool) -> None:
    text = text.replace("\n", line_ends)
    data = text.encode(encoding, errors="replace")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pgn_scan, "_BLOCK", block)
        if as_path:
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "games.pgn"
                path.write_bytes(data)
                assert comparable(read_pgn_event(path)) == exact(path)
                read_agrees(path)
        else:
            assert comparable(read_pgn_event(data)) == exact(data)
            assert comparable(read_pgn_event(text)) == exact(text)
            read_agrees(data)
            read_agrees(text)


BLOCKS = st.sampled_from([1, 2, 7, 40, 300, 1 << 20])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_text(clean=False), st.sampled_from(["\n", "\r\n", "\r"]), st.sampled_from(["utf-8", "latin-1"]),
       BLOCKS, st.booleans())  # fmt: skip
def test_any_text_agrees(text: str, line_ends: str, encoding: str, block: int, as_path: bool) -> None:
    agree(text, line_ends=line_ends, encoding=encoding, block=block, as_path=as_path)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_text(clean=True), BLOCKS)
def test_clean_games_agree(text: str, block: int) -> None:
    agree(text, line_ends="\n", encoding="utf-8", block=block, as_path=False)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_text(clean=True), st.sampled_from(["", "\ufeff", "\ufeff\ufeff\n\n"]),
       st.sampled_from(["\n", "\r\n", "\r"]), BLOCKS)  # fmt: skip
def test_clean_games_without_errors_are_read_as_columns(
    text: str, head: str, line_ends: str, block: int
) -> None:
    # Tags in the layout's order, plain, movetext without blank lines in comments: the columns
    # decide alone unless the file has an error (then the game-by-game read words it).
    data = (head + text).replace("\n", line_ends).encode()
    whole = read_pgn_by_game(data)
    read = EventRead.of(whole)
    if read.errors:
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pgn_scan, "_BLOCK", block)
        patch.setattr(pgn_scan, "scan_headers", pytest.fail)  # the layout pattern reads them alone
        assert comparable(read_pgn_event(data)) == comparable(read)
        assert read_pgn(data) == read_pgn(data, strict=True) == whole


@pytest.mark.parametrize("blank", ["", " \t", "\x0c", "\u2003"])
def test_a_line_of_blanks_ends_the_game(blank: str) -> None:
    # str.isspace: the movetext after it is a game of its own, without tags (an error).
    text = f'[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5\n{blank}\n2. Nf3 1-0\n\n'
    read = EventRead.of(read_pgn_by_game(text))
    assert [problem.code for problem in read.errors] == ["no-player-name"] * 2  # White and Black
    assert comparable(read_pgn_event(text)) == comparable(read)
    read_agrees(text)


def test_an_escape_line_opens_no_comment() -> None:
    # python-chess skips a "%" line outside a comment whole: its "{" opens nothing, and the blank
    # line after it ends the game.
    text = (
        '[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4\n% escape {\n\n[White "C"]\n[Black "D"]\n\n} 1-0\n'
    )
    assert len(read_pgn_event(text).games) == 2
    assert comparable(read_pgn_event(text)) == exact(text)
    read_agrees(text)


@pytest.mark.parametrize("movetext", ["1. e4 {\n", "1. e4 { x\n\n", "1. e4 ; x {\n\n", "1. e4\n%\n"])
def test_games_that_fail_late_are_searched_once(movetext: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every game's comment stays open (or an escape line follows it): the pattern fails only at
    # the text's end, for each of the 20,000 games it tries. It stops at the first (a search of
    # each would take minutes), and the exact reader reads the file: a comment that never closes
    # makes it one game, which it reads once and not once a block of 4 KiB.
    text = '[White "a"]\n[Black "b"]\n\n' + movetext
    text *= 20_000
    monkeypatch.setattr(pgn_scan, "_BLOCK", 4096)
    assert comparable(read_pgn_event(text)) == exact(text)
    assert read_pgn(text) == read_pgn_by_game(text)


REAL_PGN = {p.name: p.read_bytes() for p in sorted(DATA.glob("*.pgn"))}
SPLICES = [b"{", b"}", b";", b"%", b"\n", b"\n\n", b"\r", b"[", b"]", b'"', b"\xef\xbb\xbf", b"\xe9", b"\x00",
           b'[Annotator "x"]\n', b'[White "?"]\n', b"\n% x {\n", b"\t\n", b"\xc2\xa0\n"]  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(REAL_PGN)), st.integers(0, 2**32), st.integers(1, 6), BLOCKS)
def test_mutated_real_files_agree(name: str, seed: int, edits: int, block: int) -> None:
    # A real file edited at random places: a byte replaced, a piece of PGN put in, a line dropped
    # or doubled. Mostly the file is still read as columns (a few edits in tens of kilobytes).
    rng = random.Random(seed)
    data = bytearray(REAL_PGN[name])
    for _ in range(edits):
        at = rng.randrange(len(data))
        kind = rng.randrange(4)
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = rng.choice(SPLICES)
        else:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at) + 1 or len(data)
            data[start:end] = data[start:end] * (kind - 2) * 2  # dropped (kind 2) or doubled (3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pgn_scan, "_BLOCK", block)
        assert comparable(read_pgn_event(bytes(data))) == exact(bytes(data))
        read_agrees(bytes(data))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=600))
def test_arbitrary_bytes_agree(data: bytes) -> None:
    assert comparable(read_pgn_event(data)) == exact(data)
    read_agrees(data)


@pytest.mark.parametrize("shape", ["a new tag each game", "one game of many tags"])
def test_many_tag_names_are_read_game_by_game(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A layout's pattern tries each of its names on every game: past _MOST_LAYOUT_NAMES the file
    # is read game by game, which is linear, rather than games times names.
    most = pgn_scan._MOST_LAYOUT_NAMES
    if shape == "a new tag each game":
        text = "".join(f'[Event "E"]\n[X{i} "a"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n\n'
                       for i in range(2 * most))  # fmt: skip
    else:
        tags = "".join(f'[X{i} "a"]\n' for i in range(2 * most))
        text = f'[Event "E"]\n{tags}[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n\n' * 3
    layouts: list[int] = []
    layout = pgn_scan._Layout
    monkeypatch.setattr(pgn_scan, "_Layout", lambda names: layouts.append(len(names)) or layout(names))
    pgn_scan._layout.cache_clear()
    assert comparable(read_pgn_event(text)) == exact(text)
    read_agrees(text)
    assert max(layouts, default=0) <= most


@pytest.mark.parametrize(
    ("tag", "value", "character"),
    [("White", "An\x00a", "U+0000"), ("BlackTitle", "G\x01M", "U+0001"), ("Event", "Open\x1b", "U+001B"),
     ("Site", "\x07", "U+0007")],
)  # fmt: skip
def test_a_control_character_in_a_tag_we_keep_is_an_error(tag: str, value: str, character: str) -> None:
    # A NUL cannot be stored by PostgreSQL; any C0 control character but TAB is refused, on the game's line.
    tags = {
        "Event": "Open",
        "Site": "Here",
        "White": "Ana",
        "Black": "Bob",
        "BlackTitle": "GM",
        "Result": "1-0",
    }
    tags[tag] = value
    game = "".join(f'[{name} "{text}"]\n' for name, text in tags.items()) + "\n1. e4 1-0\n\n"
    text = '[White "C"]\n[Black "D"]\n[Result "0-1"]\n\n0-1\n\n' + game  # the game on line 7
    read = read_pgn_event(text)
    assert [(p.line, p.code, dict(p.params)) for p in read.errors] == [
        (7, "control-character-in-tag", {"character": character, "tag": tag})
    ]
    assert comparable(read) == exact(text)
    read_agrees(text)
    with pytest.raises(FileFormatError, match="control character"):
        read_pgn(text, strict=True)
