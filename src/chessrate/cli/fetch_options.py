"""``--lichess USER`` / ``--chesscom USER`` for ``strength`` and ``analyse`` (issue 31): the user's
games fetched through the request layer (chessrate.service.fetch), handed on as the PGN file the
commands already take. Progress and notes go to standard error, so ``--json`` stays clean; every
line is said from the catalogs (chessrate.service.fetch_refusals).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from chessrate.cli.language import N_, words
from chessrate.errors import InvalidInputError
from chessrate.platforms import Notice
from chessrate.service.fetch import HOSTS, FetchInputs, fetch_file
from chessrate.service.fetch_refusals import notice_text
from chessrate.service.tournament_file import FileInput

LichessOpt = Annotated[
    str | None,
    typer.Option("--lichess", metavar="USER", help=N_("Fetch this Lichess user's games.")),
]
ChesscomOpt = Annotated[
    str | None, typer.Option("--chesscom", metavar="USER", help=N_("Fetch this Chess.com player's games."))
]
MaxOpt = Annotated[
    # The default is service.fetch.DEFAULT_MAX (tests/test_cli_lang.py holds the two together).
    str, typer.Option("--max", metavar="N", help=N_("Most games fetched, newest first (default 20)."))
]
SpeedOpt = Annotated[
    str,
    typer.Option("--speed", metavar="LIST", help=N_("Only these speeds, e.g. blitz,rapid (default: all).")),
]
SinceOpt = Annotated[str, typer.Option("--since", metavar="DATE", help=N_("Only games since YYYY-MM-DD."))]
BothOpt = Annotated[bool, typer.Option("--both", help=N_("Estimate the opponents too, not only the user."))]


def say(notice: Notice) -> None:
    sys.stderr.write(notice_text(notice, words()) + "\n")
    sys.stderr.flush()


def fetched_games(
    file: Path | None, lichess: str | None, chesscom: str | None, max_games: str, speed: str, since: str
) -> Path | FileInput:
    """The PGN FILE, or the user's games when ``--lichess`` or ``--chesscom`` is given."""
    asked = [
        (name, user) for name, user in (("lichess", lichess), ("chesscom", chesscom)) if user is not None
    ]
    if len(asked) > 1:
        raise InvalidInputError(
            "chesscom", chesscom, "give --lichess or --chesscom, not both", code="fetch-two-platforms"
        )
    if not asked:
        if file is None:
            raise InvalidInputError(
                "file", "", "give a PGN file, --lichess USER or --chesscom USER", code="games-source-needed"
            )
        return file
    if file is not None:
        option = f"--{asked[0][0]}"
        raise InvalidInputError(
            "file",
            str(file),
            f"give a PGN file or {option}, not both",
            code="games-source-both",
            params={"option": option},
        )
    platform, user = asked[0]
    fetched = fetch_file(
        FetchInputs(platform=platform, user=user, max_games=max_games, speeds=speed, since=since), say
    )
    games = fetched.games
    say(Notice("fetched", {"count": games.count, "user": user, "host": HOSTS[platform]}))
    if games.note is not None:
        say(games.note)
    return fetched.file
