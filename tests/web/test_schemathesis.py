"""The published OpenAPI and the API agree: schemathesis over every endpoint, in process (ASGI).

Bounded: a fixed number of generated requests per endpoint, derandomized so a run repeats. Every
answer must be documented (status, content type, body schema), no request may give a 5xx, and a
request that breaks the schema must be refused. Schemathesis's "valid data is accepted" check is
left out: the fields take text as people write it ("0,5", "½", "tablas"), which the request
layer reads and answers 422 for, a documented status (docs/security.md).
"""

from __future__ import annotations

import datetime as dt

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from chessrate.web import WebSettings, create_app

schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(WebSettings(today=lambda: dt.date(2025, 12, 1)))
)


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
