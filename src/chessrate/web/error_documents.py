"""What the API answers when it gives no document: 400, 404, 405, 413, 414 and 422, documented in OpenAPI.

Every router of the API declares :data:`ERROR_RESPONSES`; :func:`validation_problems` answers a
body the models refuse, always as valid JSON (a ``1e400`` read as an infinite float is echoed as
text).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from chessrate.errors import InvalidInputError
from chessrate.service.language import Translator
from chessrate.service.problems import input_reason
from chessrate.web.refusals import refusal, wants_page
from chessrate.web.site import missing_message


class ProblemIn(BaseModel):
    """One bad or missing field."""

    type: str = Field(
        description="`value_error`, `missing`, `number_type` (neither a number nor its text), or pydantic's "
        "type of error."
    )
    loc: list[str | int] = Field(description='Where: `["body", "games", 2, "opponent"]`.')
    msg: str = Field(description="The message, in the negotiated language.")
    input: Any = Field(None, description="The value sent (absent or null when missing).")
    ctx: dict[str, Any] | None = Field(
        None, description="`reason`: the library's (or pydantic's) reason, in English."
    )


class ProblemsDocument(BaseModel):
    """422: every problem of the request."""

    detail: list[ProblemIn]


class RefusalDocument(BaseModel):
    """400, 404, 405, 413 or 414: the body cannot be read, no such endpoint or method, or the request is
    larger than accepted."""

    detail: str = Field(description="Why, in the negotiated language.")


#: The answers every endpoint may give besides its document.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {
        "model": RefusalDocument,
        "description": "The body cannot be read at all: a number JSON cannot hold (over 4,300 digits), "
        "a broken form, a Content-Length that is not a number.",
    },
    413: {"model": RefusalDocument, "description": "The body is larger than the limit."},
    414: {"model": RefusalDocument, "description": "The URL is longer than the limit."},
    422: {
        "model": ProblemsDocument,
        "description": "A value is missing or wrong, or the body is not JSON (`json_invalid`): each "
        "problem in `detail`.",
    },
}


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


#: The members of a number field (``int | float | str``: ``1500``, ``"0,5"``), which pydantic names at
#: the end of ``loc`` when none of them takes the value.
_NUMBER_MEMBERS = ("int", "float", "str")


def _merged_number_members(errors: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One problem for a number field that no member of its union takes, not one per member."""
    merged: list[dict[str, Any]] = []
    for item in errors:
        loc = tuple(item.get("loc", ()))
        if loc and loc[-1] in _NUMBER_MEMBERS:
            base = loc[:-1]
            if merged and tuple(merged[-1]["loc"]) == base and merged[-1]["type"] == "number_type":
                continue
            item = {
                "type": "number_type",
                "loc": base,
                "msg": "Input should be a number",
                "input": item.get("input"),
            }
        merged.append(item)
    return merged


def _message(item: dict[str, Any], t: Translator) -> str:
    """The problem in ``t``'s language; pydantic's English for a kind of error not listed here."""
    kind = str(item.get("type", ""))
    context = item.get("ctx") or {}
    error = context.get("error")
    if isinstance(error, InvalidInputError):
        return input_reason(error.code, error.params, error.reason, t)
    if kind == "literal_error" and "expected" in context:
        # pydantic's "'rules', 'table' or 'formula'": the values alone, which are the same in every language.
        choices = ", ".join(re.findall(r"'([^']*)'", str(context["expected"])))
        return t.gettext("write one of: %(choices)s", choices=choices)
    said = _PYDANTIC_MESSAGES.get(kind)
    return said(t) if said else str(item.get("msg", ""))


#: pydantic's kinds of error (``type``), in the user's language.
_PYDANTIC_MESSAGES: dict[str, Callable[[Translator], str]] = {
    "missing": lambda t: missing_message(t),
    "number_type": lambda t: t.gettext("write a number, such as 1500 or 0.5"),
    "int_type": lambda t: t.gettext("not a whole number"),
    "int_parsing": lambda t: t.gettext("not a whole number"),
    "int_from_float": lambda t: t.gettext("not a whole number"),
    "float_type": lambda t: t.gettext("not a number"),
    "float_parsing": lambda t: t.gettext("not a number"),
    "string_type": lambda t: t.gettext("write it as text"),
    "bool_type": lambda t: t.gettext("write true or false"),
    "bool_parsing": lambda t: t.gettext("write true or false"),
    "date_type": lambda t: t.gettext("a date is written YYYY-MM-DD"),
    "date_parsing": lambda t: t.gettext("a date is written YYYY-MM-DD"),
    "date_from_datetime_parsing": lambda t: t.gettext("a date is written YYYY-MM-DD"),
    "date_from_datetime_inexact": lambda t: t.gettext("a date is written YYYY-MM-DD"),
    "list_type": lambda t: t.gettext("write a list"),
    "dict_type": lambda t: t.gettext("write an object"),
    "model_type": lambda t: t.gettext("write an object"),
    "model_attributes_type": lambda t: t.gettext("write an object"),
    "too_long": lambda t: t.gettext("the list is too long"),
    "json_invalid": lambda t: t.gettext("the body is not valid JSON"),
    "extra_forbidden": lambda t: t.gettext("this calculation does not take this field: leave it out"),
}


async def validation_problems(request: Request, error: Exception) -> Response:
    """422 for a body the models refuse, in :class:`ProblemsDocument`'s shape, always valid JSON: each
    message in the negotiated language, pydantic's own English kept as ``ctx.reason``. A browser's page
    whose address does not fit its route gets the refusal page instead."""
    if wants_page(request):
        return refusal(request, 422)
    site = request.app.state.site
    t: Translator = site.translator(site.language(request))
    errors = error.errors() if isinstance(error, RequestValidationError) else []
    detail = []
    for item in _merged_number_members(errors):
        context = {key: json_safe(value) for key, value in (item.get("ctx") or {}).items()}
        context.setdefault("reason", str(item.get("msg", "")))
        detail.append(
            {
                "type": str(item.get("type", "value_error")),
                "loc": [part if isinstance(part, int) else str(part) for part in item.get("loc", ())],
                "msg": _message(item, t),
                "input": json_safe(item.get("input")),
                "ctx": context,
            }
        )
    return JSONResponse(status_code=422, content={"detail": detail})
