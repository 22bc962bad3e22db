"""The "Strength from the moves" tab through the app: the page in three languages, errors, a job run."""

from __future__ import annotations

import html
import time
from pathlib import Path

import chess.pgn
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

LICHESS = Path(__file__).parents[1] / "data" / "pgn" / "lichess-export.pgn"


def shortest_game() -> str:
    with LICHESS.open(encoding="utf-8") as handle:
        games = []
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return str(min(games, key=lambda g: len(list(g.mainline_moves()))))


@pytest.mark.parametrize(
    ("lang", "title"),
    [("es", "Nivel por las jugadas"), ("ca", "Nivell per les jugades"), ("en", "Strength from the moves")],
)
def test_the_tab_in_three_languages(client: TestClient, lang: str, title: str) -> None:
    page = client.get(f"/strength?lang={lang}")
    assert page.status_code == 200
    assert f"<h1>{title}</h1>" in page.text
    assert 'href="/strength?lang=' in client.get(f"/game?lang={lang}").text


def test_nothing_pasted_is_a_message_not_an_error_page(client: TestClient) -> None:
    page = client.post("/strength", data={"pgn": "  ", "lang": "en"})
    assert page.status_code == 422
    assert "Paste the games (PGN) or choose a PGN file." in page.text
    bad = client.post("/strength/jobs", data={"pgn": '[White "a"]\n\n1. e4 e4 *', "lang": "es"})
    assert bad.status_code == 200
    assert "partida 1: la jugada e4 no es legal en esa posición" in bad.text


@pytest.mark.parametrize(
    ("pgn", "lang", "said"),
    [
        ('[White "a"]\n\n1. e4 e5 2. P@e4 *', "ca", "partida 1: «P@e4» no és una jugada"),
        (
            '[FEN "zzz"]\n[SetUp "1"]\n\n1. e4 *',
            "es",
            "partida 1: su posición (FEN) o sus jugadas no se pueden leer",
        ),
        ('[Variant "Atomic"]\n\n1. e4 *', "es", "partida 1: la variante «Atomic» no es ajedrez estándar"),
        ('[White "a"]\n\n1. e4 e4 *', "en", "game 1: the move e4 is not legal there"),
    ],
)
def test_games_that_cannot_be_analysed_are_said_in_the_pages_language(
    client: TestClient, pgn: str, lang: str, said: str
) -> None:
    answer = client.post("/strength", data={"pgn": pgn, "lang": lang, "player": ""})
    assert answer.status_code == 422
    assert said in html.unescape(answer.text)


def test_a_job_shows_progress_then_the_estimate(client: TestClient) -> None:
    started = client.post("/strength/jobs", data={"pgn": shortest_game(), "lang": "en"})
    assert 'id="progress"' in started.text
    key = started.text.split('hx-get="/strength/jobs/')[1].split("?")[0]
    deadline = time.monotonic() + 60
    while True:
        answer = client.get(f"/strength/jobs/{key}?lang=en")
        if 'id="progress"' not in answer.text:
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert 'id="estimates"' in answer.text
    assert 'class="eval-chart"' in answer.text
    assert "Lichess rating of 2016–17" in answer.text
    assert "FIDE, roughly" in answer.text
    gone = client.get(f"/strength/jobs/{key}?lang=en")
    assert "no longer kept" in gone.text


def test_without_javascript_the_page_answers_with_the_result(client: TestClient) -> None:
    page = client.post("/strength", data={"pgn": shortest_game(), "lang": "ca"})
    assert page.status_code == 200
    assert 'id="estimates"' in page.text
    assert "Escala" in page.text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_any_text_posted_is_answered_never_a_500(client: TestClient, text: str) -> None:
    # The page without JavaScript runs the whole request (the job path shares its checks).
    page = client.post("/strength", data={"pgn": text, "lang": "en"})
    assert page.status_code in {200, 422}


@pytest.mark.parametrize("tags", [False, True], ids=["without tags", "with tags"])
@pytest.mark.parametrize("url", ["/strength", "/strength/jobs"])
def test_more_than_40_games_are_refused_before_any_analysis(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, url: str, tags: bool
) -> None:
    # The games read are counted, not "[Event " tags: a PGN without tags is 100 games too.
    from chessrate.service import strength

    def no_engine(*args: object, **kwargs: object) -> object:
        raise AssertionError("the games were sent to the engine")

    monkeypatch.setattr(strength, "analyse_games", no_engine)
    game = ('[Event "E"]\n[White "a"]\n[Black "b"]\n\n' if tags else "") + "1. e4 e5 2. Nf3 Nc6 *\n\n"
    page = client.post(url, data={"pgn": game * 100, "lang": "es"})
    assert "Aquí, como máximo 40 partidas a la vez" in html.unescape(page.text)
    assert page.status_code == (422 if url == "/strength" else 200)


def test_40_games_without_tags_are_read(client: TestClient) -> None:
    from chessrate.service.problems import Problems
    from chessrate.service.strength import AnalyseInputs, check_file
    from chessrate.service.tournament_file import FileInput

    data = ("1. e4 e5 2. Nf3 Nc6 *\n\n" * 40).encode()
    inputs = AnalyseInputs(file=FileInput(name="g.pgn", data=data, size=len(data)), max_games=40)
    site = client.app.state.site  # type: ignore[attr-defined]
    problems = Problems(site.translator("en"))
    assert check_file(inputs, problems)
    assert not problems
    inputs = AnalyseInputs(file=FileInput(name="g.pgn", data=data * 2, size=2 * len(data)), max_games=40)
    assert not check_file(inputs, problems)
    assert "80 games, more than 40" in problems.errors[("file",)].reason
