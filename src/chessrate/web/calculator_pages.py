"""The calculator's pages: one URL per mode (``/game``, ``/average``... ``/glicko``) and ``/help``.

The form posts to its own URL: with JavaScript, htmx posts it on every keystroke and swaps in the
result fragment (the ``live`` block of the same template); without, the browser submits it and
gets the whole page. Each mode reads its form (:mod:`chessrate.web.forms`) and calls the request
layer (:mod:`chessrate.service`), which the command line and the API call too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from chessrate.service import elo, glicko, stakes, systems
from chessrate.service.options import Outcome
from chessrate.service.problems import Problems
from chessrate.web import forms, system_forms
from chessrate.web.charts import chart_marks
from chessrate.web.site import Form, error_messages, html_response, lang_links, site_of
from chessrate.web.uploads import MAX_RULES_FILE, refuse_rules_file, rules_file_text

#: A state longer than this is not put in the URL (a long pasted rules file).
MAX_URL_VALUE = 1500

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class Mode:
    """One calculator: its URL, template, form reader and calculation."""

    key: str
    path: str
    read: Callable[[forms.Form], Any]
    compute: Callable[..., Outcome[Any]]
    #: The page shows a chart of the result, FIDE's tables 8.1.1 and 8.1.2, the points at stake.
    chart: bool = False
    tables: bool = False
    stakes: bool = False


MODES: tuple[Mode, ...] = (
    Mode("game", "/game", forms.game, elo.one_game, chart=True, tables=True, stakes=True),
    Mode("average", "/average", forms.average, elo.against_average, chart=True, tables=True, stakes=True),
    Mode("tournament", "/tournament", forms.tournament, elo.tournament, chart=True, tables=True, stakes=True),
    Mode("period", "/period", forms.period, elo.period, chart=True, tables=True, stakes=True),
    Mode("k_factor", "/k-factor", forms.k_factor, elo.k_factor),
    Mode("performance", "/performance", forms.performance, elo.performance, tables=True),
    Mode("glicko", "/glicko", forms.glicko, glicko.glicko, stakes=True),
    Mode("dwz", "/dwz", system_forms.dwz, systems.dwz_evaluation, stakes=True),
    Mode("uscf", "/uscf", system_forms.uscf, systems.uscf_event, stakes=True),
    Mode("ecf", "/ecf", system_forms.ecf, systems.ecf_rating),
    Mode("chesscom", "/chesscom", system_forms.chesscom, systems.chesscom_glicko),
    Mode("pools", "/pools", system_forms.pools, systems.convert),
)


@router.get("/")
async def home(request: Request) -> Response:
    target = "/game" + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(target, status_code=307)


@router.get("/help", response_class=HTMLResponse)
async def help_page(request: Request) -> Response:
    site = site_of(request)
    language = site.language(request)
    html = site.render(language, "help.html", page="help", lang_links=lang_links("/help", {}))
    return html_response(html, language, request)


def _page(mode: Mode) -> Callable[[Request], Any]:
    async def page(request: Request) -> Response:
        site = site_of(request)
        form, too_large = await _form(request)
        language = site.language(request, form)
        action = form.get("action", "")
        inputs = mode.read(form)
        problems = Problems(site.translator(language))
        if too_large is not None:
            refuse_rules_file(problems, too_large)
        outcome = mode.compute(inputs, problems, today=site.today())
        state = _state(forms.state(form, inputs))
        htmx = request.headers.get("hx-request") == "true"
        context = {
            "page": mode.key,
            "mode": mode,
            "form": form,
            "inputs": inputs,
            "outcome": outcome,
            "errors": error_messages(problems),
            "today": site.today(),
            "submitted": bool(form) and any(key not in {"lang"} for key in form),
            "focus": forms.focus_after(action, inputs),
            "marks": json.dumps(chart_marks(outcome.result)) if mode.chart else "[]",
            "stakes": stakes.stakes_for(inputs, outcome.result, today=site.today())
            if outcome.result
            else None,
            "lang_links": lang_links(mode.path, state),
            # The language too, so that a copied link opens in the language it was copied in.
            "state_url": mode.path + "?" + urlencode({**state, "lang": language}),
            # An htmx answer (a keystroke, or a button that adds or removes a row) carries the
            # language links out of band and the URL of what it shows, so both always match the page.
            "live": htmx,
            "body_only": htmx and not action,
        }
        template = f"{mode.key}.html"
        if not htmx:
            return html_response(site.render(language, template, **context), language, request)
        block = "calculator" if action else "live"
        response = html_response(site.render(language, template, block, **context), language, request)
        response.headers["HX-Replace-Url"] = context["state_url"]
        return response

    return page


for _mode in MODES:
    router.add_api_route(
        _mode.path, _page(_mode), methods=["GET", "POST"], response_class=HTMLResponse, name=_mode.key
    )


async def _form(request: Request) -> tuple[Form, str | None]:
    """The submitted values (query on GET, form body on POST), an uploaded rules file as text; and the
    name of a rules file refused for its size (None when none was)."""
    values: dict[str, str] = dict(request.query_params.items())
    too_large: str | None = None
    if request.method == "POST":
        body = await request.form()
        for key, value in body.multi_items():
            if isinstance(value, UploadFile):
                if key == "rules_file" and value.filename:
                    content = await value.read(MAX_RULES_FILE + 1)
                    if len(content) > MAX_RULES_FILE:
                        too_large = value.filename
                    elif not values.get("rules_toml", "").strip():
                        values["rules_toml"] = rules_file_text(content)
                continue
            if key == "rules_toml" and not value.strip() and values.get("rules_toml"):
                continue
            values[key] = value
    return values, too_large


def _state(form: forms.Form) -> dict[str, str]:
    """The values worth keeping in the URL: what was typed, not buttons or the language."""
    return {
        key: value
        for key, value in form.items()
        if key not in {"action", "lang", "rules_file"} and value != "" and len(value) <= MAX_URL_VALUE
    }
