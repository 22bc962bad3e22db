"""The JSON API: every calculation of the web calculator, documented at ``/docs``.

Each endpoint turns its body into the same ``*Inputs`` the form builds and calls the same
calculation, so the validation is the library's: a bad value is answered 422 with its ``loc``
(``["body", "games", 2, "opponent"]``), a message in the negotiated language and the library's
reason in ``ctx.reason``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from chessrate.calculate import AverageResult, EventWorking, GameWorking, PeriodResult, TournamentResult
from chessrate.fide.k_factor import KFactor
from chessrate.fide.tables import DP_TABLE_UPPER_HALF, PD_TABLE
from chessrate.ruleset import RuleSet
from chessrate.web import calculations as calc
from chessrate.web import words
from chessrate.web.charts import expected_curves
from chessrate.web.i18n import Translator
from chessrate.web.problems import Problems

router = APIRouter(prefix="/api", tags=["calculations"])

T = TypeVar("T")

#: A number as JSON or as text: ``1500``, ``"0,5"``, ``"½"``.
Number = int | float | str
#: A game's result: ``1``, ``0.5``, ``0``, ``"½"``, ``"win"``, ``"tablas"``, ``"derrota"``...
Result = int | float | str


class RuleOptions(BaseModel):
    """The rule options beside every Elo calculation."""

    rules: Literal["fide", "elo", "ciabe", "custom"] = Field(
        "fide", description="FIDE on the date `as_of`, plain Elo, the Ciabe club, or `rules_toml`."
    )
    as_of: dt.date | None = Field(None, description="The day whose FIDE rules apply (default: today).")
    rules_toml: str | None = Field(None, description="A club's rule set as TOML, with `rules: custom`.")
    expected: Literal["rules", "table", "formula"] = Field(
        "rules", description="Expected score as the rule set says, by FIDE table 8.1.2, or by formula."
    )
    cap: Literal["auto", "on", "off"] = Field(
        "auto", description="The 400-point rule: as the rules say (date, rating), always, or never."
    )
    k: Number | None = Field(None, description="K; absent: from the rule set (and the profile).")
    birth_year: Number | None = None
    rated_games: Number | None = None
    highest_rating: Number | None = None


class GameIn(BaseModel):
    opponent: Number
    result: Result | None = None


class GameRequest(RuleOptions):
    rating: Number = Field(examples=[1500])
    opponent: Number = Field(examples=[1600])
    result: Result = Field(examples=["½"])


class AverageRequest(RuleOptions):
    rating: Number = Field(examples=[1500])
    games: Number = Field(examples=[5])
    points: Number = Field(examples=["3,5"])
    average: Number = Field(examples=[1550])


class TournamentRequest(RuleOptions):
    rating: Number = Field(examples=[1800])
    games: list[GameIn] = Field(examples=[[{"opponent": 1500}, {"opponent": 1600}, {"opponent": 1700}]])
    points: Number | None = Field(None, description="Total points, when the games have no result.")


class EventIn(BaseModel):
    start_rating: Number | None = Field(None, description="Rating at the tournament's start.")
    games: list[GameIn]


class PeriodRequest(RuleOptions):
    rating: Number
    events: list[EventIn]
    rounding: Literal["rules", "period", "tournament"] = "rules"


class KFactorRequest(BaseModel):
    rating: Number = Field(examples=[2100])
    birth_year: Number | None = None
    rated_games: Number | None = None
    highest_rating: Number | None = None
    games_this_period: Number | None = None
    as_of: dt.date | None = None


class PerformanceRequest(BaseModel):
    games: list[GameIn]
    as_of: dt.date | None = None


def _text(value: Number | dt.date | None) -> str:
    return "" if value is None else value.isoformat() if isinstance(value, dt.date) else str(value)


def _texts(body: BaseModel, *names: str) -> dict[str, str]:
    """The fields ``names`` of ``body`` as the form would send them (absent: blank)."""
    return {name: _text(getattr(body, name)) for name in names}


def _options(body: RuleOptions) -> calc.OptionInputs:
    return calc.OptionInputs(
        rules=body.rules,
        rules_toml=body.rules_toml or "",
        expected=body.expected,
        cap=body.cap,
        **_texts(body, "as_of", "k", "birth_year", "rated_games", "highest_rating"),
    )


def _rows(games: list[GameIn]) -> tuple[calc.GameRow, ...]:
    return tuple(calc.GameRow(opponent=_text(game.opponent), result=_text(game.result)) for game in games)


def _translator(request: Request) -> Translator:
    site = request.app.state.site
    return site.translator(site.language(request))  # type: ignore[no-any-return]


def _today(request: Request) -> dt.date:
    return request.app.state.site.settings.today()  # type: ignore[no-any-return]


def _unprocessable(problems: Problems) -> JSONResponse:
    detail: list[dict[str, Any]] = [
        {
            "type": "value_error",
            "loc": ["body", *path],
            "msg": problem.message,
            "input": problem.value,
            "ctx": {"reason": problem.reason},
        }
        for path, problem in problems.errors.items()
    ]
    detail += [
        {
            "type": "missing",
            "loc": ["body", *path],
            "msg": problems.t.gettext("This field is required."),
            "input": None,
        }
        for path in problems.missing
    ]
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail}))


def _respond(outcome: calc.Outcome[T], render: Callable[[T], dict[str, Any]]) -> Any:
    """The result rendered as JSON, or 422 with the problems that prevented it."""
    if outcome.result is None:
        return _unprocessable(outcome.problems)
    return jsonable_encoder(render(outcome.result))


def _chosen(outcome: calc.Outcome[Any]) -> calc.Options:
    """The resolved rule options of an Elo calculation that has a result (it always has them)."""
    assert outcome.options is not None
    return outcome.options


def _k(k: KFactor, t: Translator) -> dict[str, Any]:
    return {"k": k.k, "reason": k.reason, "explanation": words.k_reason(k, t), "article": k.article}


def _rules(rules: RuleSet, t: Translator) -> dict[str, Any]:
    return {
        "name": rules.name,
        "title": words.rule_set_title(rules, t),
        "source": rules.source,
        "expected": rules.expected.value,
        "cap": None if rules.cap is None else rules.cap.limit,
        "cap_applies_below": None if rules.cap is None else rules.cap.applies_below,
        "rounding": rules.rounding.value,
    }


def _game(game: GameWorking, k: int, t: Translator) -> dict[str, Any]:
    return {
        "opponent": game.opponent,
        "raw_difference": game.raw_difference,
        "difference": game.difference,
        "capped": game.capped,
        "expected": game.expected,
        "score": game.score,
        "change": game.change,
        "explanation": words.game_story(game, k, t) or None,
    }


def _event(event: EventWorking, k: int, t: Translator) -> dict[str, Any]:
    return {
        "name": event.name,
        "start_rating": event.start_rating,
        "games": [_game(game, k, t) for game in event.games],
        "score": event.score,
        "expected": event.expected,
        "change": event.change,
        "rounded_change": event.rounded_change,
    }


def _elo_change(
    result: PeriodResult | AverageResult, options: calc.Options, t: Translator, **details: Any
) -> dict[str, Any]:
    """What every Elo answer has: rules, K and the change; ``details`` go between games and expected."""
    return {
        "rules": _rules(result.rules, t),
        "cap_note": words.cap_note(options, result.rating, t),
        "k": _k(result.k, t),
        "rating": result.rating,
        "games": result.games,
        **details,
        "expected": result.expected,
        "change": result.change,
        "rounded_change": result.rounded_change,
        "new_rating": result.new_rating,
    }


def _period(result: PeriodResult, options: calc.Options, t: Translator) -> dict[str, Any]:
    return _elo_change(result, options, t, score=result.score)


def _tournament(result: TournamentResult, options: calc.Options, t: Translator) -> dict[str, Any]:
    period = result.period
    return {
        **_period(period, options, t),
        "games": [_game(game, period.k.k, t) for game in result.event.games],
        "game_count": period.games,
        "average_opponent": result.average_opponent,
        "performance": {
            "fide": result.performance.rating,
            "dp": result.performance.dp,
            "fractional_score": result.performance.fractional_score,
            "formula": result.logistic_performance,
        },
    }


@router.post("/game", summary="One game")
def api_game(body: GameRequest, request: Request) -> Any:
    """The rating change of one game, with its working."""
    t = _translator(request)
    inputs = calc.GameInputs(**_texts(body, "rating", "opponent", "result"), options=_options(body))
    outcome = calc.one_game(inputs, Problems(t), today=_today(request))
    return _respond(outcome, lambda r: _tournament(r, _chosen(outcome), t))


@router.post("/average", summary="Several games against an average opponent")
def api_average(body: AverageRequest, request: Request) -> Any:
    """G games against an opponent of average rating with P points: R + K (P − G E)."""
    t = _translator(request)
    inputs = calc.AverageInputs(
        **_texts(body, "rating", "games", "points", "average"), options=_options(body)
    )
    outcome = calc.against_average(inputs, Problems(t), today=_today(request))

    def render(r: AverageResult) -> dict[str, Any]:
        return _elo_change(
            r,
            _chosen(outcome),
            t,
            points=r.points,
            average_opponent=r.average_opponent,
            difference=r.difference,
            capped=r.capped,
            expected_per_game=r.expected_per_game,
        )

    return _respond(outcome, render)


@router.post("/tournament", summary="A tournament")
def api_tournament(body: TournamentRequest, request: Request) -> Any:
    """Each opponent with a result, or the opponents and the total `points` (not both)."""
    t = _translator(request)
    problems = Problems(t)
    total = body.points is not None
    if total and any(game.result is not None for game in body.games):
        problems.add(("points",), body.points, "give per-game results or total points, not both")
        return _unprocessable(problems)
    inputs = calc.TournamentInputs(
        **_texts(body, "rating", "points"), games=_rows(body.games), total=total, options=_options(body)
    )
    outcome = calc.tournament(inputs, problems, today=_today(request))
    return _respond(outcome, lambda r: _tournament(r, _chosen(outcome), t))


@router.post("/period", summary="A FIDE rating period of several tournaments")
def api_period(body: PeriodRequest, request: Request) -> Any:
    """Each tournament rated from its start rating (default: `rating`), K once for the period."""
    t = _translator(request)
    inputs = calc.PeriodInputs(
        rating=_text(body.rating),
        events=tuple(
            calc.EventInputs(start_rating=_text(event.start_rating), games=_rows(event.games))
            for event in body.events
        ),
        rounding=body.rounding,
        options=_options(body),
    )
    outcome = calc.period(inputs, Problems(t), today=_today(request))

    def render(r: PeriodResult) -> dict[str, Any]:
        return {**_period(r, _chosen(outcome), t), "events": [_event(event, r.k.k, t) for event in r.events]}

    return _respond(outcome, render)


@router.post("/k-factor", summary="FIDE K-factor")
def api_k_factor(body: KFactorRequest, request: Request) -> Any:
    """K by FIDE B.02 8.3.3 on the date, with the rule that decided it and the 700 rule."""
    t = _translator(request)
    inputs = calc.KFactorInputs(
        **_texts(body, "rating", "birth_year", "rated_games", "highest_rating", "games_this_period", "as_of")
    )
    outcome = calc.k_factor(inputs, Problems(t), today=_today(request))

    def render(r: calc.KFactorResult) -> dict[str, Any]:
        return {
            "rules": r.rules.name,
            "as_of": r.day,
            "k": r.k.k,
            "explanation": words.k_reason(r.k, t),
            "reason": r.k.reason,
            "article": r.k.article,
            "k_before_700_rule": r.base.k,
            "cut_by_700_rule": r.cut_by_700_rule,
            "games_this_period": r.games_this_period,
        }

    return _respond(outcome, render)


@router.post("/performance", summary="Performance and initial rating")
def api_performance(body: PerformanceRequest, request: Request) -> Any:
    """FIDE performance Ra + dp (table 8.1.1), the logistic one, and the initial rating (B.02 8.2)."""
    t = _translator(request)
    inputs = calc.PerformanceInputs(games=_rows(body.games), as_of=_text(body.as_of))
    outcome = calc.performance(inputs, Problems(t), today=_today(request))

    def render(r: calc.PerformanceResult) -> dict[str, Any]:
        return {
            "rules": r.rules.name,
            "games": r.games,
            "points": r.points,
            "average_opponent": r.fide.average_opponent,
            "fractional_score": r.fide.fractional_score,
            "dp": r.fide.dp,
            "performance": r.fide.rating,
            "performance_formula": r.logistic,
            "initial_rating": {
                "rating": r.initial.rating,
                "reason": r.initial.reason,
                "article": r.initial.article,
                "average_opponent": r.initial.average_opponent,
                "fractional_score": r.initial.fractional_score,
                "dp": r.initial.dp,
                "unrounded": r.initial.unrounded,
            },
        }

    return _respond(outcome, render)


@router.get("/tables", summary="FIDE tables 8.1.1 and 8.1.2")
def api_tables() -> Any:
    """Table 8.1.2 (difference D → scoring probability PD) and 8.1.1 (fractional score p → dp)."""
    pd = [
        {"from": low, "to": high, "higher": Decimal(h), "lower": Decimal(lo)} for low, high, h, lo in PD_TABLE
    ]
    dp = [{"p": Decimal(p), "dp": value} for p, value in DP_TABLE_UPPER_HALF]
    dp += [{"p": 1 - Decimal(p), "dp": -value} for p, value in reversed(DP_TABLE_UPPER_HALF[:-1])]
    return jsonable_encoder({"table_8_1_2": pd, "table_8_1_1": dp})


@router.get("/expected-curve", summary="Expected score by rating difference")
def api_expected_curve() -> JSONResponse:
    """The logistic formula and FIDE's table 8.1.2 for each whole difference from −800 to 800."""
    return JSONResponse(expected_curves(), headers={"Cache-Control": "public, max-age=86400"})


class GlickoGameIn(BaseModel):
    opponent: Number
    deviation: Number = Field(description="The opponent's rating deviation (RD) before the game.")
    result: Result


class GlickoRequest(BaseModel):
    system: Literal["lichess", "glicko2"] = Field(
        "lichess", description="Lichess (each game its own period) or Glicko-2 as Glickman published it."
    )
    rating: Number | None = Field(None, description="Absent: a new player (1500).")
    deviation: Number | None = Field(None, description="Absent: a new player's RD (Lichess 500, paper 350).")
    volatility: Number | None = Field(None, description="Absent: a new player's (Lichess 0.09, paper 0.06).")
    days_idle: Number | None = Field(None, description="Lichess: days since the previous game.")
    tau: Number | None = Field(None, description="Glicko-2: the system constant (default 0.5).")
    games: list[GlickoGameIn] = Field(examples=[[{"opponent": 1500, "deviation": 500, "result": 1}]])


@router.post("/glicko", summary="Glicko-2 and Lichess")
def api_glicko(body: GlickoRequest, request: Request) -> Any:
    """A Lichess session game by game, or one Glicko-2 rating period, with each game's expected score."""
    t = _translator(request)
    inputs = calc.GlickoInputs(
        system=body.system,
        **_texts(body, "rating", "deviation", "volatility", "days_idle", "tau"),
        games=tuple(
            calc.GameRow(opponent=_text(g.opponent), deviation=_text(g.deviation), result=_text(g.result))
            for g in body.games
        ),
    )
    outcome = calc.glicko(inputs, Problems(t), today=_today(request))

    def render(r: calc.GlickoResult) -> dict[str, Any]:
        return {
            "system": r.system,
            "rating": r.after.rating,
            "deviation": r.after.deviation,
            "volatility": r.after.volatility,
            "provisional": r.provisional,
            "tau": r.tau,
            "start_deviation": r.start_deviation,
            "estimated_variance": r.variance,
            "estimated_improvement": r.improvement,
            "games": [
                {
                    "opponent": g.opponent,
                    "opponent_deviation": g.opponent_deviation,
                    "score": g.score,
                    "expected": g.expected,
                    "rating_after": g.after,
                    "rating_diff": g.diff,
                }
                for g in r.games
            ],
        }

    return _respond(outcome, render)
