"""The web's list page a page at a time (``ratinglist.list_page``): every page of every order is
the slice of the whole list (``queries.list_view``, which reads every row) in that order, ranks
included; page numbers outside the pages are the nearest page, never an error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.demo import build_demo
from chessrate.ratinglist.list_page import SORTS, list_page, sort_key
from chessrate.ratinglist.queries import ListRow, list_view, published_periods
from chessrate.ratinglist.store import open_store
from chessrate.web import WebSettings, create_app


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("pages") / "demo.db")
    build_demo(db)
    return db


def whole(db: str, period: str, *, sort: str, query: str, unrated: bool) -> list[ListRow]:
    """The list as the page showed it before it had pages: every row, filtered and sorted."""
    rows = [row for row in list_view(open_store(db), period).rows if unrated or row.rating is not None]
    needle = query.strip().casefold()
    if needle:
        rows = [row for row in rows if needle in row.name.casefold() or needle == str(row.fide_id or "")]
    if sort != "rating":  # the list's own order is by rating already (ties: the database's name order)
        rows = sorted(rows, key=sort_key(sort))
    return rows


@pytest.mark.parametrize("sort", SORTS)
@pytest.mark.parametrize(("query", "unrated"), [("", False), ("", True), ("an", False), ("AN", True)])
def test_pages_are_the_slices_of_the_whole_list(demo_db: str, sort: str, query: str, unrated: bool) -> None:
    engine = open_store(demo_db)
    with engine.connect() as connection:
        periods = published_periods(connection)
    for period in periods[:3]:
        expected = whole(demo_db, period, sort=sort, query=query, unrated=unrated)
        first = list_page(engine, period, sort=sort, query=query, unrated=unrated, page=1, rows=7)
        assert first.count == len(expected)
        assert first.pages == max(1, -(-len(expected) // 7))
        shown: list[ListRow] = []
        for number in range(1, first.pages + 1):
            page = list_page(engine, period, sort=sort, query=query, unrated=unrated, page=number, rows=7)
            assert page.page == number
            assert len(page.view.rows) <= 7
            shown += page.view.rows
        assert shown == expected


def test_the_ranks_run_on_across_pages(demo_db: str) -> None:
    engine = open_store(demo_db)
    with engine.connect() as connection:
        period = published_periods(connection)[0]
    second = list_page(engine, period, page=2, rows=5)
    assert [row.rank for row in second.view.rows] == [6, 7, 8, 9, 10]


def test_the_web_page_shows_one_page_and_links_the_next(
    demo_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chessrate.ratinglist import list_page as module

    monkeypatch.setattr(module, "PAGE_ROWS", 4)
    client = TestClient(create_app(WebSettings(list_db=demo_db)))
    first = client.get("/list")
    assert first.status_code == 200
    assert len(re.findall(r'href="/list/player/\d+', first.text)) == 4
    assert 'rel="next"' in first.text
    assert 'rel="prev"' not in first.text
    assert re.search(r"Page 1 of \d+", first.text)
    for odd in ("0", "-3", "x", "99999999", "1" * 40, " 2"):
        answer = client.get("/list", params={"page": odd})
        assert answer.status_code == 200, odd
    last = client.get("/list", params={"page": "99999999"}).text
    pages = re.search(r"Page (\d+) of (\d+)", last)
    assert pages is not None
    assert pages.group(1) == pages.group(2)
    spanish = client.get("/list", params={"lang": "es"}).text
    assert "Página 1 de" in spanish
    assert "Siguiente" in spanish


def test_no_published_list_is_a_page_not_an_error(tmp_path: Path) -> None:
    from chessrate.ratinglist.store import init_store

    db = str(tmp_path / "empty.db")
    init_store(db).dispose()
    client = TestClient(create_app(WebSettings(list_db=db)))
    answer = client.get("/list", params={"page": "3", "sort": "name"})
    assert answer.status_code == 404
    assert "No list has been published yet." in answer.text
