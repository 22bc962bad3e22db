"""A club's rules file named by a path: ``list init`` and ``list run`` keep its full path, so that the
web admin page runs a period with the same file whatever its own working folder; a store that keeps
a relative path (set up before) is refused on the web, in the visitor's language, and no file of the
server's folder is read in its place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.store import init_store, open_store, store_rules
from chessrate.web import WebSettings, create_app

from .ratinglist_support import DATA
from .test_web_list import sign_in

SWISS = DATA / "trf/swiss-9-rounds.trf"
PASSWORD = "s3cret-s3cret"


def club(k: int) -> str:
    return (
        f'name = "club"\ntitle = "Club K {k}"\nsource = "Club rules"\nexpected = "table"\n'
        f'difference_cap = false\nrounding = "tournament"\nk_by_rating = [{{ from = 0, k = {k} }}]\n'
    )


def admin_run(db: str, period: str, language: str = "en") -> Any:
    client = TestClient(create_app(WebSettings(list_db=db, list_admin_password=PASSWORD)))
    page = sign_in(client, PASSWORD)
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token is not None
    data = {"period": period, "token": token.group(1), "lang": language}
    return client.post("/list/admin/run", data=data, headers={"Accept-Language": language})


def test_init_keeps_the_club_file_s_full_path_and_the_web_runs_with_it(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, elsewhere = tmp_path / "club", tmp_path / "server"
    home.mkdir()
    elsewhere.mkdir()
    (home / "club.toml").write_text(club(30), encoding="utf-8")
    (elsewhere / "club.toml").write_text(club(10), encoding="utf-8")  # another file of the same name
    db = str(home / "club.db")
    monkeypatch.chdir(home)
    assert cli("list", "init", "--db", db, "--rules", "club.toml").code == 0
    assert cli("list", "import", str(SWISS), "--db", db).code == 0
    assert cli("list", "run", "2024-08", "--db", db, "--rules", "club.toml").code == 0
    with open_store(db).connect() as connection:
        assert store_rules(connection) == str(home / "club.toml")
    monkeypatch.chdir(elsewhere)
    ran = admin_run(db, "2024-08")
    assert ran.status_code == 200, ran.text
    assert "2024-08: draft" in ran.text
    # The K of the club's own file (30), not of the server folder's club.toml (10).
    listed = TestClient(create_app(WebSettings(list_db=db))).get("/list", params={"period": "2024-08"}).text
    assert "Club K 30" in listed
    assert "Club K 10" not in listed


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "the rule set is the club file club.toml, a path relative to the folder where the list was run",
        ),
        (
            "es",
            "el reglamento es el archivo del club club.toml, una ruta relativa a la carpeta donde se calculó",
        ),
        (
            "ca",
            "el reglament és el fitxer del club club.toml, un camí relatiu a la carpeta on es va calcular",
        ),
    ],
)
def test_a_relative_club_file_kept_by_an_older_store_is_refused_on_the_web(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, said: str
) -> None:
    (tmp_path / "club.toml").write_text(club(30), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "club.db")
    engine = init_store(db, rules="club.toml")  # as list init kept it before
    import_files(engine, [SWISS])
    run_period(engine, Period(2024, 8))
    ran = admin_run(db, "2024-09", language)
    assert ran.status_code == 422
    assert said in ran.text
    with open_store(db).connect() as connection:
        assert store_rules(connection) == "club.toml"
