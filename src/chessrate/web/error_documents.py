"""What the API answers when it gives no document: 400, 413, 414 and 422, documented in OpenAPI.

Every router of the API declares :data:`ERROR_RESPONSES`; :func:`validation_problems` answers a
body the models refuse, always as valid JSON (a ``1e400`` read as an infinite float is echoed as
text).
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field


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
