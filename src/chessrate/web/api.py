"""The JSON API: every calculation of the web calculator, documented at ``/docs``.

Each endpoint turns its body into the same ``*Inputs`` the form and the command line build, calls
the same function of :mod:`chessrate.service`, and answers its document
(:mod:`chessrate.service.documents`, the command line's ``--json`` too), declared as the response
model. A bad value is answered 422 with its ``loc`` (``["body", "games", 2, "opponent"]``), a
message in the negotiated language and the library's reason in ``ctx.reason``.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
)

from chessrate.errors import InvalidInputError
from chessrate.service import documents, elo, glicko, stakes, system_documents, systems
from chessrate.service.language import Translator
from chessrate.service.options import OptionInputs, Outcome
from chessrate.service.problems import Problems
from chessrate.web.charts import expected_curves
from chessrate.web.error_documents import ERROR_RESPONSES
from chessrate.web.site import site_of, unprocessable

router = APIRouter(prefix="/api", tags=["calculations"], responses=ERROR_RESPONSES)
#: FastAPI's Swagger UI page for the API, at ``/docs``.
docs_router = APIRouter(include_in_schema=False)

T = TypeVar("T")
D = TypeVar("D")

#: A number as JSON or as text: ``1500``, ``"0,5"``, ``"½"``.
Number = StrictInt | StrictFloat | StrictStr


def _written_day(value: object) -> object:
    """A day must be written: pydantic would read a number as seconds since 1970."""
    if isinstance(value, int | float):
        raise InvalidInputError("day", value, "write the day as YYYY-MM-DD", code="date")
    return value


#: A day, written YYYY-MM-DD.
Day = Annotated[dt.date, BeforeValidator(_written_day)]
#: A game's result: ``1``, ``0.5``, ``0``, ``"½"``, ``"win"``, ``"tablas"``, ``"derrota"``...
Result = StrictInt | StrictFloat | StrictStr


class ApiRequest(BaseModel):
    """A request body: a field the endpoint does not take is refused (422 naming it), never ignored
    (a ``rules`` sent to an endpoint without rules would otherwise be answered under others)."""

    model_config = ConfigDict(extra="forbid")


class RuleOptions(ApiRequest):
    """The rule options beside every Elo calculation."""

    rules: Literal["fide", "fide-rapid", "fide-blitz", "elo", "ciabe", "custom"] = Field(
        "fide",
        description="FIDE (standard, rapid or blitz list) on the date `as_of`, plain Elo, the Ciabe club, "
        "or `rules_toml`.",
    )
    as_of: Day | None = Field(None, description="The day whose FIDE rules apply (default: today).")
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


class GameIn(ApiRequest):
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


class EventIn(ApiRequest):
    start_rating: Number | None = Field(None, description="Rating at the tournament's start.")
    games: list[GameIn]


class PeriodRequest(RuleOptions):
    rating: Number
    events: list[EventIn]
    rounding: Literal["rules", "period", "tournament"] = "rules"


class KFactorRequest(ApiRequest):
    rating: Number = Field(examples=[2100])
    birth_year: Number | None = None
    rated_games: Number | None = None
    highest_rating: Number | None = None
    games_this_period: Number | None = None
    as_of: Day | None = None
    rules: Literal["fide", "fide-rapid", "fide-blitz"] = Field(
        "fide", description="FIDE's standard, rapid or blitz list (its rules on `as_of`)."
    )


class PerformanceRequest(ApiRequest):
    games: list[GameIn]
    as_of: Day | None = None
    rules: Literal["fide", "fide-rapid", "fide-blitz"] = Field(
        "fide", description="FIDE's standard, rapid or blitz list (its rules on `as_of`)."
    )
    standard_rating: Number | None = Field(
        None,
        description="Rapid and blitz 7.2.1 (from 1 March 2024): an unrated player's standard rating, "
        "used to rate the games.",
    )


class GlickoGameIn(ApiRequest):
    opponent: Number
    deviation: Number = Field(description="The opponent's rating deviation (RD) before the game.")
    result: Result


class GlickoRequest(ApiRequest):
    system: Literal["lichess", "glicko2"] = Field(
        "lichess", description="Lichess (each game its own period) or Glicko-2 as Glickman published it."
    )
    rating: Number | None = Field(None, description="Absent: a new player (1500).")
    deviation: Number | None = Field(None, description="Absent: a new player's RD (Lichess 500, paper 350).")
    volatility: Number | None = Field(None, description="Absent: a new player's (Lichess 0.09, paper 0.06).")
    days_idle: Number | None = Field(None, description="Lichess: days since the previous game.")
    tau: Number | None = Field(None, description="Glicko-2: the system constant (default 0.5).")
    gain_factor: Number | None = Field(
        None,
        description="Lichess: the rating-gain factor, a server setting (e.g. 1.015 for bullet; default 1).",
    )
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


def _rows_with_deviation(games: list[GlickoGameIn]) -> tuple[elo.GameRow, ...]:
    """Games with the opponent's RD (Glicko-2, Lichess, Chess.com)."""
    return tuple(
        elo.GameRow(opponent=_text(g.opponent), deviation=_text(g.deviation), result=_text(g.result))
        for g in games
    )


def _problems(request: Request) -> Problems:
    """An empty :class:`Problems` in the request's language."""
    site = site_of(request)
    return Problems(site.translator(site.language(request)))


def _calculated(request: Request, calculation: Callable[..., Outcome[T]], inputs: object) -> Outcome[T]:
    """``calculation`` of ``inputs``, its problems in the request's language, on the site's day."""
    return calculation(inputs, _problems(request), today=site_of(request).today())


def _answer(outcome: Outcome[T], document: Callable[[T, Translator], D]) -> D | JSONResponse:
    """The result's document, or 422 with the problems that prevented it."""
    if outcome.result is None:
        return unprocessable(outcome.problems)
    return document(outcome.result, outcome.problems.t)


def _document(
    request: Request, calculation: Callable[..., Outcome[T]], inputs: object, document: Callable[[T], D]
) -> D | JSONResponse:
    """The document of ``calculation`` of ``inputs`` (a document said in no language), or 422."""
    return _answer(_calculated(request, calculation, inputs), lambda result, _t: document(result))


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
    return _elo_answer(_calculated(request, elo.against_average, inputs), documents.average_document)


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
    return _elo_answer(_calculated(request, elo.period, inputs), documents.period_document)


@router.post("/k-factor", summary="FIDE K-factor", response_model=documents.KFactorDocument)
def api_k_factor(body: KFactorRequest, request: Request) -> Any:
    """K by FIDE B.02 8.3.3 on the date, with the rule that decided it and the 700 rule."""
    inputs = elo.KFactorInputs(
        **_texts(body, "rating", "birth_year", "rated_games", "highest_rating", "games_this_period", "as_of"),
        rules=body.rules,
    )
    return _answer(_calculated(request, elo.k_factor, inputs), documents.k_factor_document)


@router.post(
    "/performance", summary="Performance and initial rating", response_model=documents.PerformanceDocument
)
def api_performance(body: PerformanceRequest, request: Request) -> Any:
    """FIDE performance Ra + dp (table 8.1.1), the logistic one, and the initial rating (B.02 8.2)."""
    inputs = elo.PerformanceInputs(
        games=_rows(body.games),
        as_of=_text(body.as_of),
        rules=body.rules,
        standard_rating=_text(body.standard_rating),
    )
    return _answer(_calculated(request, elo.performance, inputs), documents.performance_document)


@router.post("/glicko", summary="Glicko-2 and Lichess", response_model=glicko.GlickoDocument)
def api_glicko(body: GlickoRequest, request: Request) -> Any:
    """A Lichess session game by game, or one Glicko-2 rating period, with each game's expected score."""
    inputs = glicko.GlickoInputs(
        system=body.system,
        **_texts(body, "rating", "deviation", "volatility", "days_idle", "tau", "gain_factor"),
        games=_rows_with_deviation(body.games),
    )
    return _document(request, glicko.glicko, inputs, glicko.glicko_document)


class SystemGameIn(ApiRequest):
    opponent: Number
    result: Result


class DwzRequest(ApiRequest):
    rating: Number = Field(examples=[1000])
    age: Number = Field(examples=[15], description="Age in years: J is 5 up to 20, 10 to 25, 15 after.")
    index: Number = Field(examples=[1], description="The Index: previous DWZ evaluations, 1 or more.")
    games: list[SystemGameIn] = Field(examples=[[{"opponent": 1200, "result": 1}]])


class UscfRequest(ApiRequest):
    rating: Number | None = Field(None, examples=[1500], description="Absent: an unrated player.")
    games_played: Number | None = Field(
        None, examples=[6], description="Rated games before this event: needed with a rating (unrated: 0)."
    )
    event_end: Day | None = Field(None, description="The day the event ended (sets B); default today.")
    half_k: StrictBool = False
    effective: Literal["2004", "newer"] = Field(
        "2004",
        description="N*: Glickman's 2004 text, or the newer formula (UNCONFIRMED: implementations only).",
    )
    repeated_opponent: StrictBool = Field(
        default=False, description="An opponent met more than twice: no bonus."
    )
    bonus_b: Number | None = Field(None, description="B of the bonus; absent: by the event's end date.")
    games: list[SystemGameIn] = Field(
        examples=[
            [
                {"opponent": 1400, "result": 1},
                {"opponent": 1550, "result": 0},
                {"opponent": 1650, "result": "½"},
            ]
        ]
    )


class EcfRequest(ApiRequest):
    rating: Number = Field(examples=[1800])
    junior: StrictBool = False
    grade: StrictBool = Field(default=False, description="The values are old ECF grades: 7.5 x grade + 700.")
    new_player: StrictBool = Field(
        default=False, description="A new player's P rating: answered 422, it cannot be computed exactly."
    )
    games: list[SystemGameIn] = Field(examples=[[{"opponent": 1800, "result": 1}]])


class ChesscomRequest(ApiRequest):
    level: Literal["new", "beginner", "intermediate", "advanced", "expert"] | None = Field(
        None, description="The level picked at sign-up (a new account); or give rating and deviation."
    )
    rating: Number | None = None
    deviation: Number | None = None
    games: list[GlickoGameIn] = Field(examples=[[{"opponent": 900, "deviation": 350, "result": 1}]])


class ConvertRequest(ApiRequest):
    ratings: dict[str, Number] = Field(
        examples=[{"lichess-blitz": 1800}], description="Ratings by pool: lichess-blitz, lichess-classical..."
    )
    to: str = Field(examples=["fide"])


class StakesRequest(RuleOptions):
    system: Literal["elo", "dwz", "uscf", "glicko2"] = Field(
        "elo", description="elo (with the rule options), dwz, uscf or glicko2."
    )
    rating: Number = Field(examples=[1500])
    opponent: Number = Field(examples=[1700])
    opponent_k: Number | None = None
    age: Number | None = None
    index: Number | None = None
    opponent_age: Number | None = None
    opponent_index: Number | None = None
    games_played: Number | None = None
    opponent_games_played: Number | None = None
    event_end: Day | None = None
    deviation: Number | None = None
    volatility: Number | None = None
    opponent_deviation: Number | None = None
    opponent_volatility: Number | None = None


def _system_rows(games: list[SystemGameIn]) -> tuple[elo.GameRow, ...]:
    return tuple(elo.GameRow(opponent=_text(g.opponent), result=_text(g.result)) for g in games)


def _flag(value: bool) -> str:  # noqa: FBT001 - a field's value, not an option
    return "on" if value else ""


@router.post("/dwz", summary="German DWZ", response_model=system_documents.DwzDocument)
def api_dwz(body: DwzRequest, request: Request) -> Any:
    """One DWZ evaluation (DSB Wertungsordnung), with the development coefficient E's working."""
    inputs = systems.DwzInputs(**_texts(body, "rating", "age", "index"), games=_system_rows(body.games))
    return _document(request, systems.dwz_evaluation, inputs, system_documents.dwz_document)


@router.post("/uscf", summary="US Chess", response_model=system_documents.UscfDocument)
def api_uscf(body: UscfRequest, request: Request) -> Any:
    """US Chess: the standard formula (K, bonus with the dated B) or the special formula (≤ 8 games)."""
    inputs = systems.UscfInputs(
        **_texts(body, "rating", "games_played", "event_end", "bonus_b"),
        half_k=_flag(body.half_k),
        effective=body.effective,
        repeated_opponent=_flag(body.repeated_opponent),
        games=_system_rows(body.games),
    )
    return _document(request, systems.uscf_event, inputs, system_documents.uscf_document)


@router.post("/ecf", summary="ECF (K method)", response_model=system_documents.EcfDocument)
def api_ecf(body: EcfRequest, request: Request) -> Any:
    """ECF: R + k (W − We), k 20 or 40 for juniors, We from FIDE table 8.1.2."""
    inputs = systems.EcfInputs(
        rating=_text(body.rating),
        junior=_flag(body.junior),
        grade=_flag(body.grade),
        new_player=_flag(body.new_player),
        games=_system_rows(body.games),
    )
    return _document(request, systems.ecf_rating, inputs, system_documents.ecf_document)


@router.post(
    "/chesscom",
    summary="Chess.com-style Glicko (an estimate)",
    response_model=system_documents.ChesscomDocument,
)
def api_chesscom(body: ChesscomRequest, request: Request) -> Any:
    """Glicko-1 from a start rating chosen by level. Chess.com's constants are not published: an estimate."""
    inputs = systems.ChesscomInputs(
        level=body.level or "",
        **_texts(body, "rating", "deviation"),
        games=_rows_with_deviation(body.games),
    )
    return _answer(_calculated(request, systems.chesscom_glicko, inputs), system_documents.chesscom_document)


@router.post("/convert", summary="Pools compared", response_model=system_documents.ConvertDocument)
def api_convert(body: ConvertRequest, request: Request) -> Any:
    """Every published conversion to `to` that the given ratings allow, with its sample and R²."""
    given = list(body.ratings.items())
    first_pool, first_rating = given[0] if given else ("", "")
    inputs = systems.ConvertInputs(
        rating=_text(first_rating),
        from_pool=first_pool,
        to_pool=body.to,
        also=tuple(f"{pool}={_text(value)}" for pool, value in given[1:]),
    )
    return _document(request, systems.convert, inputs, system_documents.convert_document)


@router.post("/stakes", summary="The points at stake", response_model=documents.StakesDocument)
def api_stakes(body: StakesRequest, request: Request) -> Any:
    """What a win, a draw and a loss would do, to both players, before the game."""
    inputs = stakes.StakesInputs(
        system=body.system,
        options=_options(body),
        **_texts(
            body,
            "rating",
            "opponent",
            "opponent_k",
            "age",
            "index",
            "opponent_age",
            "opponent_index",
            "games_played",
            "opponent_games_played",
            "event_end",
            "deviation",
            "volatility",
            "opponent_deviation",
            "opponent_volatility",
        ),
    )
    return _document(request, stakes.points_at_stake, inputs, documents.stakes_document)


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
    # Swagger UI is in English; FastAPI's page names no language (WCAG 3.1.1).
    html = bytes(page.body).decode().replace("<html>", '<html lang="en">', 1)
    return HTMLResponse(html, headers={"Content-Security-Policy": docs_policy(html)})


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
