"""The JSON API: every calculation of the web calculator, documented at ``/docs``.

Each endpoint turns its body into the same ``*Inputs`` the form and the command line build, calls
the same function of :mod:`chessrate.requests`, and answers its document
(:mod:`chessrate.requests.documents`, the command line's ``--json`` too), declared as the response
model. A bad value is answered 422 with its ``loc`` (``["body", "games", 2, "opponent"]``), a
message in the negotiated language and the library's reason in ``ctx.reason``.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import math
import re
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from fastapi import APIRouter, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, StrictFloat, StrictInt, StrictStr

from chessrate.requests import documents, elo, glicko
from chessrate.requests.language import Translator
from chessrate.requests.options import OptionInputs, Outcome
from chessrate.requests.problems import Problems
from chessrate.web.charts import expected_curves
from chessrate.web.site import site_of


class ProblemIn(BaseModel):
    """One bad or missing field."""

    type: str = Field(description="`value_error`, `missing`, or pydantic's type of error.")
    loc: list[str | int] = Field(description='Where: `["body", "games", 2, "opponent"]`.')
    msg: str = Field(description="The message, in the negotiated language.")
    input: Any = Field(None, description="The value sent (absent or null when missing).")
    ctx: dict[str, Any] | None = Field(None, description="`reason`: the library's reason, in English.")


class ProblemsDocument(BaseModel):
    """422: every problem of the request."""

    detail: list[ProblemIn]


class RefusalDocument(BaseModel):
    """400, 413 or 414: the body cannot be read, or the request is larger than accepted."""

    detail: str


#: The answers every endpoint may give besides its document.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": RefusalDocument, "description": "The body is not JSON (or not a form) at all."},
    413: {"model": RefusalDocument, "description": "The body is larger than the limit."},
    414: {"model": RefusalDocument, "description": "The URL is longer than the limit."},
    422: {"model": ProblemsDocument, "description": "A value is missing or wrong: each one in `detail`."},
}

router = APIRouter(prefix="/api", tags=["calculations"], responses=ERROR_RESPONSES)
#: FastAPI's Swagger UI page for the API, at ``/docs``.
docs_router = APIRouter(include_in_schema=False)

T = TypeVar("T")
D = TypeVar("D")

#: A number as JSON or as text: ``1500``, ``"0,5"``, ``"½"``.
Number = StrictInt | StrictFloat | StrictStr
#: A game's result: ``1``, ``0.5``, ``0``, ``"½"``, ``"win"``, ``"tablas"``, ``"derrota"``...
Result = StrictInt | StrictFloat | StrictStr


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


def _text(value: Number | dt.date | None) -> str:
    if isinstance(value, int) and abs(value) >= 10**18:
        # Python will not write an int of thousands of digits; its size is what is wrong with it.
        return f"{'-' if value < 0 else ''}1e{int(abs(value).bit_length() * 0.30103)}"
    return "" if value is None else value.isoformat() if isinstance(value, dt.date) else str(value)


def _texts(body: BaseModel, *names: str) -> dict[str, str]:
    """The fields ``names`` of ``body`` as the form would send them (absent: blank)."""
    return {name: _text(getattr(body, name)) for name in names}


def _options(body: RuleOptions) -> OptionInputs:
    return OptionInputs(
        rules=body.rules,
        rules_toml=body.rules_toml or "",
        expected=body.expected,
        cap=body.cap,
        **_texts(body, "as_of", "k", "birth_year", "rated_games", "highest_rating"),
    )


def _rows(games: list[GameIn]) -> tuple[elo.GameRow, ...]:
    return tuple(elo.GameRow(opponent=_text(game.opponent), result=_text(game.result)) for game in games)


def _problems(request: Request) -> Problems:
    """An empty :class:`Problems` in the request's language."""
    site = site_of(request)
    return Problems(site.translator(site.language(request)))


def unprocessable(problems: Problems) -> JSONResponse:
    """422 with each problem: its ``loc``, the message in the user's language, the library's reason."""
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


def json_safe(value: Any) -> Any:
    """``value`` as JSON allows it: infinities and NaN (``1e400`` read as a float) become text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(item) for item in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


async def validation_problems(request: Request, error: Exception) -> JSONResponse:
    """422 for a body the models refuse, in :class:`ProblemsDocument`'s shape, always valid JSON."""
    errors = error.errors() if isinstance(error, RequestValidationError) else []
    detail = [
        {
            "type": str(item.get("type", "value_error")),
            "loc": [part if isinstance(part, int) else str(part) for part in item.get("loc", ())],
            "msg": str(item.get("msg", "")),
            "input": json_safe(item.get("input")),
            **({"ctx": json_safe(item["ctx"])} if "ctx" in item else {}),
        }
        for item in errors
    ]
    return JSONResponse(status_code=422, content={"detail": detail})


def _answer(outcome: Outcome[T], document: Callable[[T, Translator], D]) -> D | JSONResponse:
    """The result's document, or 422 with the problems that prevented it."""
    if outcome.result is None:
        return unprocessable(outcome.problems)
    return document(outcome.result, outcome.problems.t)


def _elo_answer(outcome: Outcome[T], document: Callable[[T, Any, Translator], D]) -> D | JSONResponse:
    """The same for an Elo calculation, whose document also explains the resolved options."""
    if outcome.result is None or outcome.options is None:
        return unprocessable(outcome.problems)
    return document(outcome.result, outcome.options, outcome.problems.t)


@router.post("/game", summary="One game", response_model=documents.OneGameDocument)
def api_game(body: GameRequest, request: Request) -> Any:
    """The rating change of one game, with its working."""
    problems = _problems(request)
    inputs = elo.GameInputs(**_texts(body, "rating", "opponent", "result"), options=_options(body))
    outcome = elo.one_game(inputs, problems, today=site_of(request).today())
    return _elo_answer(outcome, documents.one_game_document)


@router.post(
    "/average", summary="Several games against an average opponent", response_model=documents.AverageDocument
)
def api_average(body: AverageRequest, request: Request) -> Any:
    """G games against an opponent of average rating with P points: R + K (P − G E)."""
    inputs = elo.AverageInputs(**_texts(body, "rating", "games", "points", "average"), options=_options(body))
    outcome = elo.against_average(inputs, _problems(request), today=site_of(request).today())
    return _elo_answer(outcome, documents.average_document)


@router.post("/tournament", summary="A tournament", response_model=documents.TournamentDocument)
def api_tournament(body: TournamentRequest, request: Request) -> Any:
    """Each opponent with a result, or the opponents and the total `points` (not both)."""
    problems = _problems(request)
    total = body.points is not None
    if total and any(game.result is not None for game in body.games):
        problems.add(("points",), body.points, "give per-game results or total points, not both")
        return unprocessable(problems)
    inputs = elo.TournamentInputs(
        **_texts(body, "rating", "points"), games=_rows(body.games), total=total, options=_options(body)
    )
    outcome = elo.tournament(inputs, problems, today=site_of(request).today())
    return _elo_answer(outcome, documents.tournament_document)


@router.post(
    "/period", summary="A FIDE rating period of several tournaments", response_model=documents.PeriodDocument
)
def api_period(body: PeriodRequest, request: Request) -> Any:
    """Each tournament rated from its start rating (default: `rating`), K once for the period."""
    inputs = elo.PeriodInputs(
        rating=_text(body.rating),
        events=tuple(
            elo.EventInputs(start_rating=_text(event.start_rating), games=_rows(event.games))
            for event in body.events
        ),
        rounding=body.rounding,
        options=_options(body),
    )
    outcome = elo.period(inputs, _problems(request), today=site_of(request).today())
    return _elo_answer(outcome, documents.period_document)


@router.post("/k-factor", summary="FIDE K-factor", response_model=documents.KFactorDocument)
def api_k_factor(body: KFactorRequest, request: Request) -> Any:
    """K by FIDE B.02 8.3.3 on the date, with the rule that decided it and the 700 rule."""
    inputs = elo.KFactorInputs(
        **_texts(body, "rating", "birth_year", "rated_games", "highest_rating", "games_this_period", "as_of")
    )
    outcome = elo.k_factor(inputs, _problems(request), today=site_of(request).today())
    return _answer(outcome, documents.k_factor_document)


@router.post(
    "/performance", summary="Performance and initial rating", response_model=documents.PerformanceDocument
)
def api_performance(body: PerformanceRequest, request: Request) -> Any:
    """FIDE performance Ra + dp (table 8.1.1), the logistic one, and the initial rating (B.02 8.2)."""
    inputs = elo.PerformanceInputs(games=_rows(body.games), as_of=_text(body.as_of))
    outcome = elo.performance(inputs, _problems(request), today=site_of(request).today())
    return _answer(outcome, documents.performance_document)


@router.post("/glicko", summary="Glicko-2 and Lichess", response_model=documents.GlickoDocument)
def api_glicko(body: GlickoRequest, request: Request) -> Any:
    """A Lichess session game by game, or one Glicko-2 rating period, with each game's expected score."""
    inputs = glicko.GlickoInputs(
        system=body.system,
        **_texts(body, "rating", "deviation", "volatility", "days_idle", "tau"),
        games=tuple(
            elo.GameRow(opponent=_text(g.opponent), deviation=_text(g.deviation), result=_text(g.result))
            for g in body.games
        ),
    )
    outcome = glicko.glicko(inputs, _problems(request), today=site_of(request).today())
    return _answer(outcome, lambda result, _t: documents.glicko_document(result))


@router.get("/tables", summary="FIDE tables 8.1.1 and 8.1.2", response_model=documents.TablesDocument)
def api_tables() -> Any:
    """Table 8.1.2 (difference D → scoring probability PD) and 8.1.1 (fractional score p → dp)."""
    return documents.tables_document()


@router.get("/expected-curve", summary="Expected score by rating difference")
def api_expected_curve() -> JSONResponse:
    """The logistic formula and FIDE's table 8.1.2 for each whole difference from −800 to 800."""
    return JSONResponse(expected_curves(), headers={"Cache-Control": "public, max-age=86400"})


@docs_router.get("/docs")
async def api_docs() -> Response:
    # FastAPI's Swagger UI page, with its script and style served from here, not a CDN.
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="chessrate API",
        swagger_js_url="/static/vendor/swagger-ui-bundle.js",
        swagger_css_url="/static/vendor/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
        swagger_ui_parameters={"validatorUrl": None},  # no badge from validator.swagger.io
    )
    page.headers["Content-Security-Policy"] = docs_policy(bytes(page.body).decode())
    return page


def docs_policy(html: str) -> str:
    """The page's policy: its one inline script allowed by its hash (CSP Level 2, "hash-source").

    Swagger UI sets styles from its script and shows data: images; nothing comes from elsewhere.
    """
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )
