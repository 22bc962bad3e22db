"""The ``glicko`` and ``glicko2`` commands: JSON keys, published values, and bad input.

Values: Glickman's worked examples (glicko.pdf, glicko2.pdf) and lila's rules ([GLICKO], [GLICKO2],
[LILA] in docs/sources.md).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from chessrate.cli import main

PAPER_GAMES = ["1400:30:1", "1550:100:0", "1700:300:0"]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    code, out, err = run([*args, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


def test_glicko_paper_example(capsys: pytest.CaptureFixture[str]) -> None:
    """glicko.pdf: 1500/200 vs 1400/30 win, 1550/100 loss, 1700/300 loss -> 1464, 151.4."""
    data = run_json(["glicko", "--rating", "1500", "--deviation", "200", *PAPER_GAMES], capsys)
    assert data["rating"] == pytest.approx(1464.1064627569112, abs=1e-6)
    assert data["deviation"] == pytest.approx(151.39890244796933, abs=1e-6)
    assert [round(g["expected_score"], 3) for g in data["games"]] == [0.639, 0.432, 0.303]


def test_glicko_c_from_growth_and_idle_periods(capsys: pytest.CaptureFixture[str]) -> None:
    """glicko.pdf Step 1 with c from "RD 50 -> 350 in 100 periods", then the paper's games."""
    args = ["glicko", "--rating", "1500", "--deviation", "200", "--c", "50:350:100", "--periods-idle", "1"]
    data = run_json([*args, *PAPER_GAMES], capsys)
    assert data["rating"] == pytest.approx(1463.4972127832038, abs=1e-6)
    assert data["deviation"] == pytest.approx(152.67840366769457, abs=1e-6)
    assert data["c"] == pytest.approx(34.64101615137755, abs=1e-12)


def test_glicko_idle_with_words_and_halves(capsys: pytest.CaptureFixture[str]) -> None:
    """Results as words and ½; an idle player with c 34.6 over 100 periods reaches the 350 cap."""
    data = run_json(
        ["glicko", "--rating", "1500", "--deviation", "50", "--c", "50:350:100", "--periods-idle", "100"],
        capsys,
    )
    assert data == {
        "rating": 1500.0,
        "deviation": pytest.approx(350.0),
        "start_deviation": pytest.approx(350.0),
        "c": pytest.approx(34.641016),
        "games": [],
    }
    words = run_json(
        ["glicko", "--rating", "1500", "--deviation", "200", "1400:30:win", "1550:100:loss", "1700:300:½"],
        capsys,
    )
    assert [g["score"] for g in words["games"]] == [1.0, 0.0, 0.5]


def test_glicko2_paper_example(capsys: pytest.CaptureFixture[str]) -> None:
    """glicko2.pdf, tau 0.5: 1464.06 / 151.52 / 0.05999 (exact 1464.0506705393013 ...)."""
    args = ["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "--tau", "0.5"]
    data = run_json([*args, *PAPER_GAMES], capsys)
    assert data["rating"] == pytest.approx(1464.0506705393013, abs=1e-6)
    assert data["deviation"] == pytest.approx(151.51652412385727, abs=1e-6)
    assert data["volatility"] == pytest.approx(0.059995984286488495, abs=1e-9)
    # The paper defines no provisional mark (docs/glicko.md): only Lichess's "?" sets it.
    assert data["provisional"] is False


def test_glicko2_idle_period(capsys: pytest.CaptureFixture[str]) -> None:
    """glicko2.pdf Step 6 only: RD 200 -> 200.27141669877065; the keys are the public interface."""
    data = run_json(["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06"], capsys)
    assert {"rating", "deviation", "volatility", "provisional"} <= set(data)
    assert data["rating"] == 1500
    assert data["deviation"] == pytest.approx(200.27141669877065, abs=1e-9)
    assert data["volatility"] == 0.06


def test_lichess_two_new_players(capsys: pytest.CaptureFixture[str]) -> None:
    """[LILA], [LICHESS-DB]: a new player beats a new player -> 1741.476, PGN "+241"."""
    data = run_json(["glicko2", "--preset", "lichess", "1500:500:1"], capsys)
    assert data["rating"] == pytest.approx(1741.4758661119163, abs=1e-6)
    assert data["deviation"] == pytest.approx(396.6898168302284, abs=1e-6)
    assert data["volatility"] == pytest.approx(0.08999830049062012, abs=1e-9)
    assert data["provisional"] is True
    assert [g["rating_diff"] for g in data["games"]] == [241]
    assert [g["rating_diff_text"] for g in data["games"]] == ["+241"]


def test_lichess_loser_side_and_series(capsys: pytest.CaptureFixture[str]) -> None:
    """[LILA], [LICHESS-DB]: the loser of the same game prints "-242"; lila "mixed" case as a loss."""
    loser = run_json(["glicko2", "--preset", "lichess", "1500:500:0"], capsys)
    assert [g["rating_diff"] for g in loser["games"]] == [-242]
    mixed = run_json(
        [
            "glicko2",
            "--preset",
            "lichess",
            "--rating",
            "1550",
            "--deviation",
            "110",
            "--volatility",
            "0.065",
            "1400:79:1",
        ],
        capsys,
    )
    assert mixed["rating"] == pytest.approx(1568.9038391085505, abs=1e-6)
    assert mixed["games"][0]["rating_diff"] == 18


def test_lichess_days_idle(capsys: pytest.CaptureFixture[str]) -> None:
    """lila liveDeviation: RD 60 / 0.06 after 365 idle days is 110.0008, provisional again."""
    data = run_json(
        [
            "glicko2",
            "--preset",
            "lichess",
            "--rating",
            "1500",
            "--deviation",
            "60",
            "--volatility",
            "0.06",
            "--days-idle",
            "365",
        ],
        capsys,
    )
    assert data["deviation"] == pytest.approx(110.00078549354839, abs=1e-9)
    assert data["provisional"] is True
    assert data["games"] == []


def test_tables_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["glicko2", "--preset", "lichess", "1500:500:1"], capsys)
    assert code == 0
    assert "+241" in out
    assert "1741?" in out
    code, out, _ = run(["glicko", "--rating", "1500", "--deviation", "200", *PAPER_GAMES], capsys)
    assert code == 0
    assert "1464.1" in out


# fmt: off
BAD_INPUT = [
    pytest.param(["glicko", "--rating", "1500", "--deviation", "200", "1400:30:x"], "game 1 result", id="bad-result"),  # noqa: E501
    pytest.param(["glicko", "--rating", "1500", "--deviation", "200", "1400:30"], "game 1", id="game-two-fields"),  # noqa: E501
    pytest.param(["glicko", "--rating", "1500", "--deviation", "0", "1400:30:1"], "deviation", id="deviation-zero"),  # noqa: E501
    pytest.param(["glicko", "--rating", "9000", "--deviation", "200"], "rating", id="rating-out-of-range"),
    pytest.param(["glicko", "--rating", "1500", "--deviation", "200", "--c", "a:b"], "c", id="c-malformed"),
    pytest.param(["glicko", "--rating", "1500", "--deviation", "200", "--periods-idle", "2"], "--c", id="periods-without-c"),  # noqa: E501
    pytest.param(["glicko", "--deviation", "200"], "--rating", id="glicko-missing-rating"),
    pytest.param(["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "1400:-30:1"], "game 1 opponent deviation", id="negative-opponent-rd"),  # noqa: E501
    pytest.param(["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "zero"], "volatility", id="volatility-not-a-number"),  # noqa: E501
    pytest.param(["glicko2", "--rating", "1500", "--deviation", "200"], "--volatility", id="missing-volatility"),  # noqa: E501
    pytest.param(["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "--tau", "0"], "tau", id="tau-zero"),  # noqa: E501
    pytest.param(["glicko2", "--preset", "lichess", "--tau", "0.5"], "tau", id="tau-with-preset"),
    pytest.param(["glicko2", "--preset", "chesscom"], "preset", id="unknown-preset"),
    pytest.param(["glicko2", "--rating", "1500", "--deviation", "200", "--volatility", "0.06", "--days-idle", "3"], "--days-idle", id="days-without-preset"),  # noqa: E501
    pytest.param(["glicko2", "--preset", "lichess", "--days-idle", "-3"], "--days-idle", id="negative-days"),
    pytest.param(["glicko2", "--preset", "lichess", "abc:50:1"], "game 1 opponent rating", id="bad-opponent"),
]
# fmt: on


@pytest.mark.parametrize(("args", "field"), BAD_INPUT)
def test_bad_input_exit_2_one_line_naming_the_field(
    args: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert field in err
