"""FIDE's rating list on the web (issue 17): the tournament-file tab's list field, and the player page.

The list is written for the test in FIDE's layout (tests/data/fide-list, docs/fide-list.md), with K
40, 20 and 10 in turn for the players of FIDE's 2005 example TRF.
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import re
from decimal import Decimal
from pathlib import Path

from fastapi.testclient import TestClient

from chessrate.formats import read_tournament
from chessrate.formats.fide_list_synthetic import SyntheticEntry, write_txt
from chessrate.ratinglist.fide_import import import_fide_list
from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.store import init_store
from chessrate.web.app import create_app
from chessrate.web.site import WebSettings

DATA = Path(__file__).parents[1] / "data"
EXAMPLE = DATA / "trf/fide-example.trf"
K_CYCLE = (40, 20, 10)


def example_list() -> tuple[bytes, dict[int, int]]:
    read = read_tournament(EXAMPLE)
    entries, ks = [], {}
    for index, player in enumerate(p for p in read.tournament.players if p.fide_id):
        assert player.fide_id is not None
        ks[player.fide_id] = K_CYCLE[index % 3]
        entries.append(
            SyntheticEntry(
                fide_id=player.fide_id,
                name=player.name,
                federation="GER",
                sex="M",
                lists={"standard": (player.rating, 0, ks[player.fide_id])},
                birth_year=1975,
            )
        )
    buffer = io.BytesIO()
    write_txt(buffer, entries, list_type="standard", month=dt.date(2005, 7, 1))
    return buffer.getvalue(), ks


def test_the_report_tab_takes_a_players_list_and_the_download_keeps_it(client: TestClient) -> None:
    data, ks = example_list()
    files = {
        "file": ("fide-example.trf", EXAMPLE.read_bytes(), "text/plain"),
        "players_list": ("standard_jul05frl.txt", data, "text/plain"),
    }
    api = client.post("/api/report", files=files).json()
    rated = [p for p in api["players"] if p["rating"] is not None and p["games"]]
    assert {(p["k"], p["k_source"]) for p in rated} == {
        (40, "fide-list"),
        (20, "fide-list"),
        (10, "fide-list"),
    }
    assert all(p["k"] == ks[p["fide_id"]] for p in rated)
    page = client.post("/report", files=files, data={"lang": "es"}).text
    assert "standard_jul05frl.txt (estándar)" in page
    assert "de la lista de Elo estándar de la FIDE (JUL05)" in html.unescape(page)
    # The download form sends the players found back as a small list: the CSV has the same K.
    form = re.search(r'<form class="download".*?</form>', page, re.S)
    assert form is not None
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group()))
    texts = dict(re.findall(r'<textarea name="([^"]+)" hidden>\n(.*?)</textarea>', form.group(), re.S))
    download = client.post(
        "/report.csv",
        # The page's "CSV with commas and decimal points" button (the Spanish default has ";" and commas).
        data={**fields, **{name: html.unescape(text) for name, text in texts.items()}, "csv": "plain"},
    )
    assert download.status_code == 200, download.text[:300]
    rows = list(csv.DictReader(io.StringIO(download.text.lstrip("\ufeff"))))
    by_id = {int(row["fide_id"]): row for row in rows if row["fide_id"] and row["k"]}
    assert by_id
    for fide_id, row in by_id.items():
        assert (int(row["k"]), row["k_source"]) == (ks[fide_id], "fide-list")
        assert Decimal(row["change"]) == int(row["k"]) * (Decimal(row["score"]) - Decimal(row["expected"]))


def test_a_bad_players_list_is_a_message_beside_its_field(client: TestClient) -> None:
    files = {
        "file": ("fide-example.trf", EXAMPLE.read_bytes(), "text/plain"),
        "players_list": ("list.txt", b"not a list at all\n", "text/plain"),
    }
    response = client.post("/api/report", files=files)
    assert response.status_code == 422
    (detail,) = response.json()["detail"]
    assert detail["loc"] == ["body", "players_list"]
    assert detail["msg"].startswith("“list.txt” is not a FIDE rating list we can use: not a FIDE rating list")
    wrong_type = client.post("/api/report", files=files, data={"list_type": "bullet"})
    assert next(d["loc"] for d in wrong_type.json()["detail"]) == ["body", "list_type"]


def test_the_lists_warnings_are_said_in_the_pages_language(client: TestClient) -> None:
    data, _ = example_list()
    header, first, second, *rest = data.decode("latin-1").splitlines()
    flag = header.index("Flag")
    damaged = [
        header,
        first.replace(" 2558 ", " 2560 ", 1),  # the file says 2558: the file's rating is used
        second[:flag].ljust(flag) + "zz",  # no such flag
        "12x45".ljust(header.index("Name")) + rest[0][header.index("Name") :],  # a FIDE id that is no number
        *rest[1:],
    ]
    files = {
        "file": ("fide-example.trf", EXAMPLE.read_bytes(), "text/plain"),
        "players_list": ("standard_jul05frl.txt", "\r\n".join(damaged).encode("latin-1"), "text/plain"),
    }
    said = {
        language: html.unescape(client.post("/report", files=files, data={"lang": language}).text)
        for language in ("es", "ca", "en")
    }
    assert (
        "jugador 1 (Vasquez,Rodrigo, ID FIDE 3400042): el Elo del archivo, 2558, difiere del de la lista "
        "estándar JUL05, 2560; se usa el del archivo" in said["es"]
    )
    assert "la marca «zz» no és i, w ni wi: s’ignora" in said["ca"]
    assert "ID FIDE «12x45» no es un número: jugador omitido" in said["es"]
    assert "line 4" in said["en"]
    assert "línea 4" in said["es"]
    for language in ("es", "ca"):
        assert "the file’s rating" not in said[language]
        assert "player skipped" not in said[language]
    assert "the file’s rating, 2558, differs from the standard JUL05 list’s, 2560" in said["en"]


def test_a_list_larger_than_a_tournament_file_is_read_not_refused_for_its_size(client: TestClient) -> None:
    # FIDE's zipped combined list is larger than the 20 MB a tournament file may be.
    files = {
        "file": ("fide-example.trf", EXAMPLE.read_bytes(), "text/plain"),
        "players_list": ("players_list.zip", b"x" * 25_000_000, "application/zip"),
    }
    response = client.post("/api/report", files=files)
    assert response.status_code == 422
    (detail,) = response.json()["detail"]
    assert detail["loc"] == ["body", "players_list"]
    assert "is not a FIDE rating list" in detail["msg"]
    assert "larger than" not in detail["msg"]
    too_large = {**files, "players_list": ("players_list.zip", b"x" * 64_000_001, "application/zip")}
    (detail,) = client.post("/api/report", files=too_large).json()["detail"]
    said = "“players_list.zip” is larger than 64 MB: choose a smaller file, or the zipped list."
    assert detail["msg"] == said


def test_the_player_page_shows_the_fide_rating_beside_the_lists_own(tmp_path: Path) -> None:
    db = str(tmp_path / "national.db")
    engine = init_store(db)
    import_files(engine, [DATA / "pgn/candidates-2022.pgn"])
    read = read_tournament(DATA / "pgn/candidates-2022.pgn")
    entries = [
        SyntheticEntry(
            fide_id=p.fide_id or 0,
            name=p.name,
            federation="FID",
            sex="M",
            lists={"standard": ((p.rating or 0) + 4, 2, 10)},
            birth_year=1990,
        )
        for p in read.tournament.players
    ]
    listed = tmp_path / "standard_jun22frl.txt"
    with listed.open("wb") as handle:
        write_txt(handle, entries, list_type="standard", month=dt.date(2022, 6, 1))
    import_fide_list(engine, listed)
    client = TestClient(create_app(WebSettings(list_db=db)))
    page = client.get("/list/player/4168119").text
    assert re.search(r"FIDE standard: <strong>2770</strong> \(list of 2022-06, K 10\)", page)
    assert 'id="fide-lines"' in page
