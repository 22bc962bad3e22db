"""Pools compared: a conversion that cannot be made is said in the reader's language (its code)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("es", "la puntuación que has dado ya es de este grupo"),
        ("ca", "la puntuació que has donat ja és d’aquest grup"),
        ("en", "the rating given is already in this pool"),
    ],
)
def test_a_rating_converted_to_its_own_pool_is_refused_in_the_readers_language(
    client: TestClient, language: str, said: str
) -> None:
    form = {"rating": "1500", "from_pool": "fide", "to_pool": "fide"}
    page = client.post("/pools", data=form, headers={"Accept-Language": language}).text
    problems = re.search(r'<ul class="problems">(.*?)</ul>', page, re.S)
    assert problems is not None
    assert said in html.unescape(problems.group(1))
