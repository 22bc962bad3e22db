"""FIDE's list into the store: players created or refreshed, each month kept, a file twice is one.

The lists are the test files of tests/data/fide-list (made-up players in FIDE's layouts): the combined
list imported as August 2026, then the standard list of September 2026.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.fide_import import fide_ratings_of, import_fide_list, official_k
from chessrate.ratinglist.schema import fide_lists, fide_ratings, players
from chessrate.ratinglist.store import StoreError, init_store

LISTS = Path(__file__).parents[1] / "data" / "fide-list"
AUGUST = dt.date(2026, 8, 1)


def dump(engine: Any) -> tuple[list[Any], ...]:
    with engine.connect() as connection:
        return tuple(
            sorted(tuple(row) for row in connection.execute(select(table)))
            for table in (players, fide_lists, fide_ratings)
        )


def player(engine: Any, fide_id: int) -> Any:
    with engine.connect() as connection:
        return connection.execute(select(players).where(players.c.fide_id == fide_id)).one()


def test_import_creates_players_with_their_fide_rating_and_k(db: str) -> None:
    engine = init_store(db)
    done = import_fide_list(engine, LISTS / "players_list_foa.txt", month=AUGUST)
    assert (done.list_type, done.month, done.players, done.new_players, done.already_imported) == (
        "standard",
        AUGUST,
        6,
        6,
        False,
    )
    assert done.warnings == (
        "line 7: warning: FIDE id '91000O6' is not a number: player skipped",
        "line 8: warning: SRtng '2l05' is not a number: player skipped",
    )
    perez = player(engine, 9100001)
    assert (perez.name, perez.federation, perez.sex, perez.title, perez.birth_year) == (
        "Pérez Ibáñez, José María",
        "ESP",
        "M",
        "FM",
        1979,
    )
    assert player(engine, 9100002).title == "WFM"  # the women's title where there is no other
    with engine.connect() as connection:
        lines = fide_ratings_of(connection, perez.id)
        assert official_k(connection, day=dt.date(2026, 8, 20))[player(engine, 9100002).id] == 40
        assert official_k(connection, day=dt.date(2026, 7, 31)) == {}
    assert lines == [
        {"list_type": "standard", "month": AUGUST, "file_name": "players_list_foa.txt", "rating": 2315,
         "games": 7, "k": 20, "flag": ""},
    ]  # fmt: skip


def test_the_same_file_again_changes_nothing_and_a_newer_one_refreshes_keeping_both(
    db: str, tmp_path: Path
) -> None:
    engine = init_store(db)
    import_fide_list(engine, LISTS / "players_list_foa.txt", month=AUGUST)
    before = dump(engine)
    again = import_fide_list(engine, LISTS / "players_list_foa.txt", month=AUGUST)
    assert again.already_imported
    assert dump(engine) == before
    september = import_fide_list(engine, LISTS / "standard_sep26frl.txt")
    assert (september.month, september.players, september.new_players) == (dt.date(2026, 9, 1), 4, 1)
    perez = player(engine, 9100001)
    with engine.connect() as connection:
        months = [
            (line["month"], line["rating"], line["k"]) for line in fide_ratings_of(connection, perez.id)
        ]
        assert official_k(connection, day=dt.date(2026, 9, 1))[player(engine, 9100002).id] == 40
    assert months == [(dt.date(2026, 9, 1), 2322, 20), (AUGUST, 2315, 20)]
    # A different file for a month already imported is refused, and nothing changes.
    other = tmp_path / "standard_sep26frl.txt"
    shutil.copy(LISTS / "players_list_foa.txt", other)
    before = dump(engine)
    with pytest.raises(StoreError, match="already imported from another file"):
        import_fide_list(engine, other, month=dt.date(2026, 9, 1))
    assert dump(engine) == before


def test_an_older_list_adds_its_month_without_refreshing_the_players(db: str, tmp_path: Path) -> None:
    engine = init_store(db)
    import_fide_list(engine, LISTS / "standard_sep26frl.txt")
    renamed = tmp_path / "players_list_foa.txt"
    renamed.write_bytes((LISTS / "players_list_foa.txt").read_bytes().replace(b"Puig, N", b"Puyg, N"))
    done = import_fide_list(engine, renamed, month=AUGUST)
    assert (done.players, done.refreshed_players) == (6, 0)
    assert player(engine, 9100002).name == "Puig, Núria"  # September's name stays


def test_federation_filter_and_refusals(db: str) -> None:
    engine = init_store(db)
    done = import_fide_list(engine, LISTS / "players_list_foa.txt", month=AUGUST, federation="esp")
    assert done.players == 2  # 9100001 and 9100008; the other ESP lines are broken
    with pytest.raises(InvalidInputError, match="invalid month None"):
        import_fide_list(engine, LISTS / "players_list_foa.txt")
    with pytest.raises(InvalidInputError, match="is the list of 2026-09"):
        import_fide_list(engine, LISTS / "standard_sep26frl.txt", month=AUGUST)
    with pytest.raises(InvalidInputError, match="FIDE's standard list, by its name"):
        import_fide_list(engine, LISTS / "standard_sep26frl.txt", list_type="rapid")


def test_the_refusals_are_coded_and_said_in_each_language(db: str, tmp_path: Path) -> None:
    from chessrate.ratinglist.demo import build_demo
    from chessrate.ratinglist.importer import import_files
    from chessrate.service.language import Translator
    from chessrate.service.problems import input_reason
    from chessrate.web.i18n import load_catalogs

    catalogs = load_catalogs()
    engine = init_store(db)
    import_fide_list(engine, LISTS / "standard_sep26frl.txt")
    import_files(engine, [LISTS.parent / "trf/swiss-9-rounds.trf"])  # the demo needs a store without events
    other = tmp_path / "standard_sep26frl.txt"
    shutil.copy(LISTS / "players_list_foa.txt", other)
    refusals: list[InvalidInputError | StoreError] = []
    for call in (
        lambda: import_fide_list(engine, LISTS / "players_list_foa.txt"),
        lambda: import_fide_list(engine, LISTS / "standard_sep26frl.txt", month=AUGUST),
        lambda: import_fide_list(engine, other, month=dt.date(2026, 9, 1)),
        lambda: import_fide_list(engine, tmp_path / "missing.txt"),
        lambda: build_demo(db),
    ):
        with pytest.raises((InvalidInputError, StoreError)) as refused:
            call()
        refusals.append(refused.value)
    assert [(error.code, error.params) for error in refusals] == [
        ("list-month-unknown", {"name": "players_list_foa.txt"}),
        ("list-month-differs", {"name": "standard_sep26frl.txt", "month": "2026-09"}),
        (
            "fide-list-imported",
            {
                "file": "standard_sep26frl.txt",
                "list": "standard",
                "month": "2026-09",
                "earlier_file": "standard_sep26frl.txt",
            },
        ),
        ("file-unreadable", {"file": "missing.txt", "reason": "file-not-found"}),
        ("demo-not-empty", {"store": db}),
    ]
    spanish = Translator("es", catalogs["es"])
    catalan = Translator("ca", catalogs["ca"])
    said = {
        (t.language, error.code): input_reason(error.code, error.params, "", t)
        for error in refusals
        for t in (spanish, catalan)
    }
    assert said[("es", "list-month-differs")] == "standard_sep26frl.txt es la lista de 2026-09"
    assert said[("ca", "fide-list-imported")].startswith(
        "standard_sep26frl.txt: la llista estàndard de la FIDE de 2026-09 ja s’havia importat d’un altre "
        "fitxer"
    )
    # The system's reason a code (chessrate.errors.file_reason), not its English strerror.
    assert said[("es", "file-unreadable")] == (
        "no se puede leer missing.txt (no existe ese archivo ni carpeta)"
    )
    assert said[("ca", "file-unreadable")] == (
        "no es pot llegir missing.txt (no existeix aquest fitxer ni carpeta)"
    )
    assert said[("es", "demo-not-empty")] == (
        f"la base de datos {db} ya tiene torneos: la demostración necesita una vacía"
    )
    assert all(text and "the " not in text for text in said.values()), said
