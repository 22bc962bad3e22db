"""Reading the forms of DWZ, US Chess, ECF, Chess.com-style Glicko and pools compared into inputs.

The same rows and ``add:games`` / ``remove:games:N`` buttons as :mod:`chessrate.web.forms`.
"""

from __future__ import annotations

from chessrate.service.elo import GameRow
from chessrate.service.systems import ChesscomInputs, ConvertInputs, DwzInputs, EcfInputs, UscfInputs
from chessrate.web.forms import Form, apply_rows, game_rows, text, texts

#: Rows shown in an empty list.
DEFAULT_ROWS = 3


def _games(form: Form) -> tuple[GameRow, ...]:
    rows = game_rows(form, minimum=DEFAULT_ROWS)
    return apply_rows(text(form, "action"), "games", rows, blank=GameRow())


def dwz(form: Form) -> DwzInputs:
    return DwzInputs(**texts(form, "rating", "age", "index"), games=_games(form))


def uscf(form: Form) -> UscfInputs:
    return UscfInputs(
        **texts(form, "rating", "games_played", "event_end", "half_k", "repeated_opponent", "bonus_b"),
        effective=text(form, "effective", "2004"),
        games=_games(form),
    )


def ecf(form: Form) -> EcfInputs:
    return EcfInputs(**texts(form, "rating", "junior"), games=_games(form))


def chesscom(form: Form) -> ChesscomInputs:
    return ChesscomInputs(**texts(form, "level", "rating", "deviation"), games=_games(form))


def pools(form: Form) -> ConvertInputs:
    also = tuple(
        f"{text(form, f'also-{index}-pool')}={text(form, f'also-{index}-rating')}"
        for index in range(1)
        if text(form, f"also-{index}-rating").strip()
    )
    return ConvertInputs(
        rating=text(form, "rating"),
        from_pool=text(form, "from_pool", "lichess-blitz"),
        to_pool=text(form, "to_pool", "fide"),
        also=also,
    )
