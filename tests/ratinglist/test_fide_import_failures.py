"""Issue 29: a FIDE file whose reading fails imports nothing and records nothing (the right file for
that month is then taken), and ``list import-fide --replace`` replaces a month's list, all or nothing."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from chessrate.errors import InvalidInputError
from chessrate.ratinglist.fide_import import import_fide_list
from chessrate.ratinglist.schema import fide_lists, fide_ratings, players
from chessrate.ratinglist.store import init_store

LISTS = Path(__file__).parents[1] / "data" / "fide-list"
XML = (LISTS / "players_list_xml_foa.xml").read_text(encoding="utf-8")
SEPTEMBER = dt.date(2026, 9, 1)


def dump(engine: Any) -> tuple[list[Any], ...]:
    with engine.connect() as connection:
        return tuple(
            sorted(tuple(row) for row in connection.execute(select(table)))
            for table in (players, fide_lists, fide_ratings)
        )


def broken(kind: str) -> bytes:
    """The XML list broken as the issue's files were."""
    if kind == "broken XML":
        return XML.replace("</player>", "</plaer>", 3).encode("utf-8")
    if kind == "external entity":
        head = '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        return (head + XML.replace("<name>Puig", "<name>&x;Puig")).encode("utf-8")
    if kind == "long line":
        return (
            XML.replace("</player>\n", "</player>", 1)
            .replace("<name>Puig", "<name>" + "P" * 5000 + "Puig")
            .encode()
        )
    if kind == "unknown encoding":
        return ('<?xml version="1.0" encoding="x-klingon"?>\n' + XML).encode("utf-8")
    if kind == "damaged zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("players_list_xml.xml", XML * 20)
        data = bytearray(buffer.getvalue())
        data[80:120] = bytes(b ^ 0x55 for b in data[80:120])  # the compressed stream corrupt
        return bytes(data)
    raise AssertionError(kind)


REASONS = {
    "broken XML": "the XML is broken: mismatched tag; reading stopped",
    "external entity": "line 2: the XML declares a DTD or an entity: refused; nothing was imported",
    "long line": "a line or text longer than 1024 characters; reading stopped",
    "unknown encoding": "the XML's unknown encoding: x-klingon; reading stopped",
    "damaged zip": "the zip cannot be read",
}


@pytest.mark.parametrize("kind", list(REASONS))
def test_a_list_that_fails_to_read_imports_nothing_and_records_nothing(
    cli: Any, tmp_path: Path, kind: str
) -> None:
    db = str(tmp_path / "national.db")
    assert cli("list", "init", "--db", db).code == 0
    name = "players_list.zip" if kind == "damaged zip" else "players_list_xml.xml"
    bad = tmp_path / name
    bad.write_bytes(broken(kind))
    before = dump(init_store(db))
    run = cli("list", "import-fide", str(bad), "--db", db, "--month", "2026-09")
    assert run.code == 2
    assert run.err.count("\n") == 1
    assert run.err.startswith("chessrate: error: invalid players_list ")
    assert REASONS[kind] in run.err
    assert run.err.endswith("nothing was imported\n") or kind == "damaged zip"
    assert dump(init_store(db)) == before
    # The right file for that month is then imported.
    good = tmp_path / "players_list_xml_good.xml"
    good.write_text(XML, encoding="utf-8")
    done = cli("list", "import-fide", str(good), "--db", db, "--month", "2026-09", "--json")
    assert done.code == 0, done.err
    assert done.json()["imported"]["players"] == 3  # the file's other lines are broken on purpose


def test_replace_swaps_a_months_list_and_says_what_changed(cli: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "national.db")
    assert cli("list", "init", "--db", db).code == 0
    first = tmp_path / "first.xml"
    first.write_text(XML, encoding="utf-8")
    assert cli("list", "import-fide", str(first), "--db", db, "--month", "2026-09").code == 0
    # The corrected file: one player's rating changed, one player gone.
    lines = XML.splitlines(keepends=True)
    corrected = [line.replace("<rating>2315</rating>", "<rating>2320</rating>") for line in lines]
    dropped = next(i for i, line in enumerate(corrected) if "<fideid>9100002</fideid>" in line)
    del corrected[dropped]
    second = tmp_path / "second.xml"
    second.write_text("".join(corrected), encoding="utf-8")
    refused = cli("list", "import-fide", str(second), "--db", db, "--month", "2026-09")
    assert refused.code == 2
    assert "was already imported from another file (first.xml)" in refused.err
    replaced = cli(
        "list", "import-fide", str(second), "--db", db, "--month", "2026-09", "--replace", "--json"
    )
    assert replaced.code == 0, replaced.err
    row = replaced.json()["imported"]
    assert (row["players"], row["replaced"]) == (
        2,
        {"file": "first.xml", "added": 0, "removed": 1, "changed": 1},
    )
    table = cli("list", "import-fide", str(first), "--db", db, "--month", "2026-09", "--replace")
    assert table.code == 0
    assert (
        "replaced the list of 2026-09 from second.xml: 1 players added, 0 removed, "
        "1 with another rating, games, K or flag" in table.out
    )
    history = json.loads(cli("list", "player", "9100001", "--db", db, "--json").out)
    assert [(line["month"], line["rating"]) for line in history["fide_ratings"]] == [("2026-09", 2315)]


def test_a_replacement_that_fails_to_read_keeps_the_old_list(db: str, tmp_path: Path) -> None:
    engine = init_store(db)
    good = tmp_path / "players_list_xml.xml"
    good.write_text(XML, encoding="utf-8")
    import_fide_list(engine, good, month=SEPTEMBER)
    before = dump(engine)
    bad = tmp_path / "broken.xml"
    bad.write_bytes(broken("broken XML"))
    with pytest.raises(InvalidInputError) as refused:
        import_fide_list(engine, bad, month=SEPTEMBER, replace=True)
    assert refused.value.code == "fide-list-failed"
    assert dump(engine) == before
