"""PGN reader: on the real files of tests/data/pgn (counts made from the files, tests/data/SOURCES.md),
and fixtures."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessrate.errors import FileFormatError
from chessrate.formats import Kind, pgn_scan, read_pgn
from chessrate.formats.pgn_scan import scan_headers

PGN = Path(__file__).parents[1] / "data" / "pgn"

# (file, games, players, highest round, {result: count}) counted from the files (tests/data/SOURCES.md).
FILES = [
    ("candidates-2022.pgn", 56, 8, 14, {"1-0": 14, "0-1": 9, "1/2-1/2": 33}),
    ("stlouis-rapid-2022.pgn", 45, 10, 9, {"1-0": 8, "0-1": 10, "1/2-1/2": 27}),
    ("nepomniachtchi-liren-game1.pgn", 1, 2, 1, {"1/2-1/2": 1}),
    ("kasparov-deep-blue-1997.pgn", 6, 2, 0, {"1-0": 3, "1/2-1/2": 3}),
    ("lichess-export.pgn", 17, 12, 0, {"1-0": 9, "0-1": 7, "1/2-1/2": 1}),
]


@pytest.mark.parametrize(("name", "games", "players", "rounds", "results"), FILES)
def test_counts_data_readme(
    name: str, games: int, players: int, rounds: int, results: dict[str, int]
) -> None:
    result = read_pgn(PGN / name)
    assert result.errors == ()
    t = result.tournament
    assert (len(t.games), len(t.players), t.rounds) == (games, players, rounds)
    assert Counter(g.code for g in t.games) == results
    assert all(g.kind is Kind.PLAYED and g.counts_for_rating for g in t.games)


def game_start_lines(name: str) -> list[int]:
    """Lines where a game's tags start, counted from the text (a tag line after a non-tag line)."""
    starts, previous = [], ""
    for number, line in enumerate((PGN / name).read_text("utf-8").split("\n"), start=1):
        if line.startswith("[") and not previous.startswith("["):
            starts.append(number)
        previous = line
    return starts


@pytest.mark.parametrize("name", [f[0] for f in FILES])
def test_each_game_knows_its_first_line(name: str) -> None:
    assert [g.line for g in read_pgn(PGN / name).tournament.games] == game_start_lines(name)


def test_candidates_players_by_fide_id() -> None:
    t = read_pgn(PGN / "candidates-2022.pgn").tournament
    assert t.name == "FIDE Candidates 2022"
    assert t.place == "Madrid ESP"
    assert t.start_date == dt.date(2022, 6, 17)
    assert all(p.fide_id is not None and p.title == "GM" for p in t.players)
    # Double round robin of 8: each player has 14 rated games, all against rated opponents.
    for p in t.players:
        games = t.rated_games(p.number)
        assert len(games) == 14
        assert all(g.opponent_rated for g in games)
    assert sum(g.score for p in t.players for g in t.rated_games(p.number)) == 56


def test_world_championship_game_by_hand() -> None:
    # [White "Nepomniachtchi, Ian"] [Black "Liren, Ding"] [Result "1/2-1/2"], Elo 2795/2788,
    # FIDE IDs 4168119/8603677 (data README).
    t = read_pgn(PGN / "nepomniachtchi-liren-game1.pgn").tournament
    white, black = t.players
    assert (white.name, white.rating, white.fide_id) == ("Nepomniachtchi, Ian", 2795, 4168119)
    assert (black.name, black.rating, black.fide_id) == ("Liren, Ding", 2788, 8603677)
    (game,) = t.rated_games(2)
    assert (game.opponent, game.opponent_rating, game.own_rating, game.score, game.colour) == (
        1, 2795, 2788, Decimal("0.5"), "b",
    )  # fmt: skip
    assert game.round == 1


def test_unknown_ratings_are_reported_not_guessed() -> None:
    # Kasparov - Deep Blue 1997: WhiteElo/BlackElo "?", Round "?", Date "1997.??.??".
    result = read_pgn(PGN / "kasparov-deep-blue-1997.pgn")
    assert [p.code for p in result.warnings] == ["no-rating"] * 12
    starts = game_start_lines("kasparov-deep-blue-1997.pgn")
    assert sorted({p.line for p in result.warnings}) == starts
    t = result.tournament
    assert all(p.rating is None for p in t.players)
    assert all(g.round is None and g.date is None for g in t.games)
    assert not any(g.opponent_rated for g in t.rated_games(1))


def test_lichess_export() -> None:
    result = read_pgn(PGN / "lichess-export.pgn")
    codes = Counter(p.code for p in result.warnings)
    assert codes["no-rating"] == 5  # the 5 casual games against "lichess AI level 7", Elo "?"
    ai = [p for p in result.tournament.players if p.name == "lichess AI level 7"]
    assert len(ai) == 1
    assert ai[0].rating is None
    assert {p.title for p in result.tournament.players} >= {"GM", "IM", "BOT"}


def game(tags: dict[str, str], moves: str = "1. e4 e5 *") -> str:
    return "".join(f'[{k} "{v}"]\n' for k, v in tags.items()) + "\n" + moves + "\n\n"


TAGS = {"Event": "Club", "Round": "1", "White": "Pujol, Marc", "Black": "Soler, Anna",
        "Result": "1-0", "WhiteElo": "1850", "BlackElo": "1720", "Date": "2025.03.14"}  # fmt: skip


def test_game_without_result_is_kept_and_not_rated() -> None:
    result = read_pgn(game(TAGS) + game({**TAGS, "Result": "*"}) + game({"White": "A", "Black": "B"}))
    assert [(p.code, p.line) for p in result.warnings] == [
        ("no-result", 12), ("no-rating", 23), ("no-rating", 23), ("no-result", 23),
    ]  # fmt: skip
    kinds = [(g.kind, g.counts_for_rating, g.white_score) for g in result.tournament.games]
    assert kinds == [
        (Kind.PLAYED, True, 1),
        (Kind.UNFINISHED, False, None),
        (Kind.UNFINISHED, False, None),
    ]


@pytest.mark.parametrize(
    ("tag", "value", "code"),
    [("Result", "2-0", "invalid-result"), ("WhiteElo", "18x0", "invalid-rating"),
     ("WhiteElo", "9000", "invalid-rating"), ("White", "?", "no-player-name")],
)  # fmt: skip
def test_bad_tags_are_errors_with_the_game_line(tag: str, value: str, code: str) -> None:
    text = game(TAGS) + game({**TAGS, tag: value})
    result = read_pgn(text)
    assert [(p.code, p.line) for p in result.errors] == [(code, 12)]
    with pytest.raises(FileFormatError) as caught:
        read_pgn(text, strict=True)
    assert caught.value.line == 12


def test_name_takes_the_fide_id_seen_elsewhere() -> None:
    first = {**TAGS, "WhiteFideId": "2212072"}
    t = read_pgn(game(first) + game({**TAGS, "Round": "2"})).tournament
    assert len(t.players) == 2
    assert t.player(1).fide_id == 2212072
    assert len(t.rated_games(1)) == 2


def test_same_name_with_two_ids_is_two_players() -> None:
    t = read_pgn(game({**TAGS, "WhiteFideId": "1"}) + game({**TAGS, "WhiteFideId": "2"})).tournament
    assert len(t.players) == 3


def test_variant_games_are_not_rated() -> None:
    result = read_pgn(game({**TAGS, "Variant": "Crazyhouse"}))
    assert [p.code for p in result.warnings] == ["variant"]
    assert not result.tournament.games[0].counts_for_rating


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        pytest.param(b"\xef\xbb\xbf" + game(TAGS).encode(), "utf-8", id="bom"),
        pytest.param(game(TAGS).replace("\n", "\r").encode(), "utf-8", id="cr-only"),
        pytest.param(game(TAGS).replace("\n", "\r\n").encode("cp1252"), "utf-8", id="crlf"),
        pytest.param(game({**TAGS, "White": "Muñoz, Ana"}).encode("latin-1"), "windows-1252", id="latin1"),
    ],
)
def test_encodings_and_line_ends(data: bytes, encoding: str) -> None:
    result = read_pgn(data)
    assert result.problems == ()
    t = result.tournament
    assert t.encoding == encoding
    assert t.games[0].line == 1
    assert t.games[0].date == dt.date(2025, 3, 14)
    assert t.player(1).name in ("Pujol, Marc", "Muñoz, Ana")


def test_path_and_bytes_agree(tmp_path: Path) -> None:
    data = (PGN / "stlouis-rapid-2022.pgn").read_bytes()
    assert read_pgn(data) == read_pgn(PGN / "stlouis-rapid-2022.pgn")
    latin = game({**TAGS, "White": "Muñoz, Ana"}).encode("latin-1")
    (tmp_path / "latin.pgn").write_bytes(latin)
    assert read_pgn(tmp_path / "latin.pgn") == read_pgn(latin)


def test_no_games() -> None:
    result = read_pgn(b"")
    assert [(p.code, p.line) for p in result.errors] == [("no-games", None)]


class _LineCounter:
    """python-chess's reader with the line each game's headers start on (the reference)."""

    def __init__(self, handle: io.StringIO) -> None:
        self._readline = handle.readline
        self.lines = 0
        self.first: int | None = None

    def readline(self, size: int = -1) -> str:
        line = self._readline()
        if line:
            self.lines += 1
            if self.first is None and line[0] not in "%;" and not line.isspace():
                self.first = self.lines
        return line


def python_chess_headers(text: str) -> list[tuple[int, dict[str, str]]]:
    counter = _LineCounter(io.StringIO(text, newline=None))
    found = []
    while True:
        counter.first = None
        headers = chess.pgn.read_headers(counter)  # type: ignore[arg-type]
        if headers is None:
            return found
        found.append((counter.first if counter.first is not None else counter.lines, dict(headers.items())))


def scanned(text: str) -> list[tuple[int, dict[str, str]]]:
    return list(scan_headers(io.StringIO(text, newline=None)))


@pytest.mark.parametrize("path", sorted(PGN.glob("*.pgn")), ids=lambda p: p.name)
def test_the_tag_scanner_finds_python_chess_games_in_the_real_files(path: Path) -> None:
    text = path.read_bytes().decode("utf-8-sig", errors="replace")
    assert scanned(text) == python_chess_headers(text)


PGN_PIECES = [
    '[Event "A"]\n', '[White "X"]\n', '[Black "Y \\"q\\""]\n', '[Result "1-0"]\n', "[bad tag]\n",
    "\n", "\n\n", "1. e4 e5 2. Nf3 1-0\n", "{ a comment\n\n[Event \"inside\"]\n}\n", "; rest [x]\n",
    "% escape\n", "1. e4 { open\n", "} 1-0\n", "\ufeff[Event \"B\"]\n", "   \n", "*\n", "[Site \"s\"]",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PGN_PIECES), max_size=30))
def test_the_tag_scanner_finds_python_chess_games(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert scanned(text) == python_chess_headers(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PGN_PIECES), max_size=30), st.integers(1, 40))
def test_the_tag_scanner_reads_blocks_of_any_size(pieces: list[str], block: int) -> None:
    # The scanner reads its handle a block at a time (then to the line's end): a game, a comment
    # or a run of blank lines cut by a block's end is read as if whole.
    text = "".join(pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pgn_scan, "_BLOCK", block)
        assert scanned(text) == python_chess_headers(text)


def test_the_scanners_blank_is_str_isspace() -> None:
    # The block scanner finds blank lines with the pattern's \s; python-chess tests str.isspace().
    blank = re.compile(r"[^\S\n]")
    assert all(bool(blank.fullmatch(c)) == c.isspace() for c in map(chr, range(0x110000)) if c != "\n")


@pytest.mark.parametrize("path", sorted(PGN.glob("*.pgn")), ids=lambda p: p.name)
def test_the_read_games_are_python_chess_games(path: Path) -> None:
    # The one read (found by the layout's pattern on these files) against python-chess alone:
    # each game's line, sides, result and day as read_headers gives its tags.
    read = read_pgn(path)
    assert not [problem for problem in read.problems if problem.severity == "error"]
    text = path.read_bytes().decode("utf-8-sig", errors="replace")
    expected = [
        (line, " ".join(tags["White"].split()), " ".join(tags["Black"].split()), tags["Result"], tags["Date"])
        for line, tags in python_chess_headers(text)
    ]
    names = {player.number: player.name for player in read.tournament.players}
    found = [
        (game.line, names[game.white], names[game.black], game.code, game.date)
        for game in read.tournament.games
    ]
    assert [row[:4] for row in found] == [row[:4] for row in expected]
    assert [row[4] for row in found] == [
        dt.date(*map(int, day.split("."))) if "?" not in day else None for *_, day in expected
    ]
