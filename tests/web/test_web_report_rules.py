"""The API's tournament report names its rules in the request's language, as every other document
does; in English it is the rule set's own title (the command line's ``--format json``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

DATA = Path(__file__).resolve().parents[1] / "data"
# The Candidates 2022 started on 17 June 2022 (its PGN); FIDE's rules of 1 January 2022 applied.
CANDIDATES = DATA / "pgn/candidates-2022.pgn"
# FIDE's example tournament started on 2005-07-28, before the oldest rules kept (1 July 2014).
FIDE_EXAMPLE = DATA / "trf/fide-example.trf"


@pytest.mark.parametrize(
    ("language", "file", "rules"),
    [
        ("es", CANDIDATES, "FIDE 2022-01-01 (en vigor el 2022-06-17)"),
        ("ca", CANDIDATES, "FIDE 2022-01-01 (en vigor el dia 2022-06-17)"),
        ("en", CANDIDATES, "FIDE 2022-01-01 (in force on 2022-06-17)"),
        ("es", FIDE_EXAMPLE, "FIDE 2008-07-01 (la más antigua que se conserva, para el 2005-07-28)"),
        ("ca", FIDE_EXAMPLE, "FIDE 2008-07-01 (la més antiga que es conserva, per al dia 2005-07-28)"),
        ("en", FIDE_EXAMPLE, "FIDE 2008-07-01 (the oldest kept, for 2005-07-28)"),
    ],
)
def test_the_reports_rules_are_in_the_requests_language(
    client: TestClient, language: str, file: Path, rules: str
) -> None:
    answer = client.post(
        "/api/report", files={"file": (file.name, file.read_bytes())}, headers={"Accept-Language": language}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["rules"] == rules


@pytest.mark.parametrize(
    ("language", "rules"),
    [("es", "Elo simple (fórmula logística, sin regla de 400)"), ("ca", "Club Ciabe (K per categoria)")],
)
def test_plain_elo_and_a_club_are_named_in_the_requests_language(
    client: TestClient, language: str, rules: str
) -> None:
    chosen = "elo" if language == "es" else "ciabe"
    data = {"rules": chosen, **({"k": "20"} if chosen == "elo" else {})}
    answer = client.post(
        "/api/report",
        files={"file": (CANDIDATES.name, CANDIDATES.read_bytes())},
        data=data,
        headers={"Accept-Language": language},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["rules"] == rules
