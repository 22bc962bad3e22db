"""The tournament-file page, its CSV download and POST /api/report, with the real files of tests/data.

Published values are the hand calculations of tests/test_report.py (table 8.1.2 game by game):
Candidates 2022, Nepomniachtchi 2766, 9.5/14, expected 6.86, K 10, +26.4 -> 2792; the FIDE example
TRF under the rules of 2025-01-01, Vasquez expected 6.08, -0.8, three games capped.
"""

from __future__ import annotations

import csv
import html
import io
import re
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessrate.service.language import Translator
from chessrate.service.tournament_file import MAX_FILE
from chessrate.web.i18n import load_catalogs
from chessrate.web.report_page import csv_filename, csv_headers
from chessrate.web.uploads import Submitted, read_form

DATA = Path(__file__).parent.parent / "data"
CANDIDATES = (DATA / "pgn/candidates-2022.pgn").read_bytes()
FIDE_EXAMPLE = (DATA / "trf/fide-example.trf").read_bytes()
SWISS = (DATA / "trf/swiss-9-rounds.trf").read_bytes()
#: swiss-9-rounds.trf with its first " 1 " result turned into " 7 ": one bad line (tests/test_report.py).
BROKEN_SWISS = SWISS.replace(b" 1 ", b" 7 ", 1)


def upload(name: str, data: bytes) -> dict[str, Any]:
    return {"file": (name, data, "application/octet-stream")}


def player(players: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(p for p in players if p["name"].startswith(name))


def csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def errors_of(page: str) -> dict[str, str]:
    match = re.search(r"data-errors='([^']*)'", page)
    assert match, "no errors data"
    import json

    return dict(json.loads(html.unescape(match.group(1))))


# --- published values -----------------------------------------------------------------------------


def test_api_candidates_2022_by_hand(client: TestClient) -> None:
    # tests/test_report.py: 9.5/14, expected 3.43 x 2 = 6.86, K 10, 10 x (9.5 - 6.86) = +26.4 -> 2792.
    response = client.post("/api/report", files=upload("candidates-2022.pgn", CANDIDATES))
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["as_of"] == "2022-06-17"  # the tournament's start date, the rules of that day
    assert data["as_of_from_file"] is True
    nepo = player(data["players"], "Nepomniachtchi")
    assert (nepo["rating"], nepo["games"], nepo["score"], nepo["expected"]) == (2766, 14, 9.5, 6.86)
    assert (nepo["k"], nepo["change"], nepo["rounded_change"], nepo["new_rating"]) == (10, 26.4, 26, 2792)
    assert nepo["fide_id"] == 4168119
    assert len(nepo["games_rated"]) == 14
    assert data["problems"] == []


def test_api_fide_example_vasquez_with_the_rules_of_2025(client: TestClient) -> None:
    # tests/test_report.py: cap on every game (2024 rules): .92 x 3, .81, .77, .86, .88 = 6.08; -0.8.
    response = client.post(
        "/api/report", files=upload("fide-example.trf", FIDE_EXAMPLE), data={"as_of": "2025-01-01"}
    )
    assert response.status_code == 200, response.text
    vasquez = player(response.json()["players"], "Vasquez")
    assert (vasquez["expected"], vasquez["change"], vasquez["capped_games"]) == (6.08, -0.8, 3)
    capped = [game for game in vasquez["games_rated"] if game["capped"]]
    assert {game["raw_difference"] for game in capped} == {663, 479, 409}
    assert {game["difference"] for game in capped} == {400}


def test_api_one_k_for_every_player(client: TestClient) -> None:
    # tests/test_report.py: K 20 for Nepomniachtchi gives 20 x (9.5 - 6.86) = +52.8.
    data = client.post(
        "/api/report", files=upload("c.pgn", CANDIDATES), data={"rules": "elo", "k": "20"}
    ).json()
    assert data["rule_set"]["name"] == "elo"
    # plain Elo: the logistic formula, not table 8.1.2, so only K is checked against the table's figure
    assert all(p["k"] == 20 for p in data["players"])
    table = client.post(
        "/api/report", files=upload("c.pgn", CANDIDATES), data={"k": "20", "expected": "table"}
    ).json()
    assert player(table["players"], "Nepomniachtchi")["change"] == 52.8


def test_api_k_file(client: TestClient) -> None:
    files = {
        **upload("c.pgn", CANDIDATES),
        "k_file": ("k.csv", b"player,k\n4168119,20\n999,15\n", "text/csv"),
    }
    data = client.post("/api/report", files=files).json()
    assert player(data["players"], "Nepomniachtchi")["change"] == 52.8
    assert player(data["players"], "Duda")["k"] == 10
    assert data["unknown_k_players"] == ["999"]


# --- the page ----------------------------------------------------------------------------------


def test_page_without_javascript_in_spanish(client: TestClient) -> None:
    page = client.post("/report", files=upload("candidates-2022.pgn", CANDIDATES), data={"lang": "es"}).text
    row = re.search(r'<tr id="row-4">(.*?)</tr>', page, re.S)
    assert row
    cells = [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row.group(1), re.S)
    ]
    assert cells[1] == "GM Nepomniachtchi, Ian"
    assert cells[3:] == ["2766", "10", "14", "9,5", "6,86", "", "+26,4", "+26", "2792", "2906"]
    assert "Archivo de torneo" in page
    assert "17 de junio de 2022" in page
    assert 'id="player-4"' in page  # the game-by-game details
    assert "Firouzja, Alireza" in page.split('id="player-4"')[1].split("</details>")[0]


def test_htmx_gets_the_result_block(client: TestClient) -> None:
    response = client.post("/report", files=upload("c.pgn", CANDIDATES), headers={"HX-Request": "true"})
    assert response.text.lstrip().startswith('<section id="result"')
    assert "<form" in response.text  # the download form
    assert 'id="form"' not in response.text


@pytest.mark.parametrize("lang", ["es", "ca", "en"])
def test_empty_page_in_every_language(client: TestClient, lang: str) -> None:
    page = client.get(f"/report?lang={lang}").text
    tab = {"es": "Archivo de torneo", "ca": "Fitxer de torneig", "en": "Tournament file"}[lang]
    assert f'<a href="/report?lang={lang}" aria-current="page">{tab}</a>' in page
    assert 'name="file" type="file"' in page


def test_file_problems_listed_with_their_lines(client: TestClient) -> None:
    page = client.post("/report", files=upload("broken.trf", BROKEN_SWISS)).text
    problems = re.search(r'<ul id="file-problems">(.*?)</ul>', page, re.S)
    assert problems
    assert re.search(r"line \d+</span> · error", problems.group(1))
    assert 'id="report-table"' in page  # the rest is rated


def test_strict_refuses_a_file_with_errors_beside_the_field(client: TestClient) -> None:
    page = client.post("/report", files=upload("broken.trf", BROKEN_SWISS), data={"strict": "on"}).text
    message = errors_of(page)["file"]
    assert message.startswith("Refused, as asked, because the file has an error: line ")
    assert re.search(r'<span class="error" id="error-file">Refused', page)
    assert 'aria-invalid="true"' in page.split('id="f-file"')[1].split(">")[0]
    assert 'id="report-table"' not in page


# --- the CSV download -------------------------------------------------------------------------------


def test_csv_download_of_an_uploaded_file(client: TestClient) -> None:
    response = client.post("/report.csv", files=upload("candidates-2022.pgn", CANDIDATES))
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="candidates-2022-ratings.csv"'
    text = response.content.decode("utf-8-sig")
    rows = csv_rows(text)
    assert len(rows) == 8
    nepo = next(row for row in rows if row["name"].startswith("Nepomniachtchi"))
    numbers = [Decimal(nepo[key]) for key in ("rating", "k", "expected", "change", "new_rating")]
    assert numbers == [2766, 10, Decimal("6.86"), Decimal("26.4"), 2792]
    assert nepo["k_reason"].startswith("K 10: rated 2400 or more")


def test_the_download_form_posts_the_same_file_back(client: TestClient) -> None:
    # The page keeps nothing: its download form carries the file's text and the options.
    page = client.post(
        "/report", files=upload("fide-example.trf", FIDE_EXAMPLE), data={"as_of": "2025-01-01", "lang": "ca"}
    ).text
    form = re.search(r'<form class="download"(.*?)</form>', page, re.S)
    assert form
    fields = {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(1))
    }
    content = re.search(r'<textarea name="content" hidden>\n(.*?)</textarea>', form.group(1), re.S)
    assert content
    fields["content"] = html.unescape(content.group(1)).replace("\n", "\r\n")  # as a browser sends it
    assert fields["as_of"] == "2025-01-01"
    response = client.post("/report.csv", data={**fields, "csv": "plain"})
    assert response.status_code == 200
    vasquez = next(
        row for row in csv_rows(response.content.decode("utf-8-sig")) if row["name"].startswith("Vasquez")
    )
    numbers = [Decimal(vasquez[key]) for key in ("expected", "change", "capped_games")]
    assert numbers == [Decimal("6.08"), Decimal("-0.8"), 3]
    assert response.headers["content-disposition"] == 'attachment; filename="fide-example-ratings.csv"'
    # The page's own button gives Catalan's spreadsheet CSV: ";", decimal commas, Catalan names and reasons.
    spreadsheet = client.post("/report.csv", data={**fields, "csv": "local"}).content.decode("utf-8-sig")
    names = csv_headers(Translator("ca", load_catalogs()["ca"]))
    rows = list(csv.DictReader(io.StringIO(spreadsheet), delimiter=";"))
    vasquez_ca = next(row for row in rows if row[names["name"]].startswith("Vasquez"))
    assert [vasquez_ca[names[key]] for key in ("expected", "change", "capped_games")] == ["6,08", "-0,8", "3"]
    assert vasquez_ca[names["k_reason"]].startswith("K 10: un Elo publicat ha arribat a 2400")


def test_csv_download_of_bad_input_is_the_page_with_the_message(client: TestClient) -> None:
    response = client.post("/report.csv", files=upload("notes.txt", b"hello\nworld\n"))
    assert response.status_code == 422
    assert errors_of(response.text)["file"].startswith("“notes.txt” is not a tournament file we know.")


def test_a_latin_1_csv_keeps_its_accents_through_the_download(client: TestClient) -> None:
    # A club's spreadsheet saved as Windows-1252: read as such, and re-posted as UTF-8 text.
    club = (
        "white;black;white_rating;black_rating;result;date\n"
        "García, Ana;Pujol, Martí;1850;1750;1-0;2025-03-14\n"
    ).encode("cp1252")
    page = client.post("/report", files=upload("club.csv", club)).text
    assert "García, Ana" in page
    assert "Pujol, Martí" in page
    content = re.search(r'<textarea name="content" hidden>\n(.*?)</textarea>', page, re.S)
    assert content
    download = client.post(
        "/report.csv", data={"content": html.unescape(content.group(1)), "filename": "club.csv"}
    )
    names = [row["name"] for row in csv_rows(download.content.decode("utf-8-sig"))]
    assert names == ["García, Ana", "Pujol, Martí"]


@pytest.mark.parametrize(
    ("uploaded", "expected"),
    [
        ("candidates-2022.pgn", "candidates-2022-ratings.csv"),
        ("C:\\torneos\\Open de Sitges 2024.trf", "Open-de-Sitges-2024-ratings.csv"),
        ('x"; y.csv', "x-y-ratings.csv"),
        ("ñ.pgn", "tournament-ratings.csv"),
    ],
)
def test_csv_filename(uploaded: str, expected: str) -> None:
    assert csv_filename(uploaded) == expected


# --- bad input --------------------------------------------------------------------------------------


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("board.png", PNG, "“board.png” is not a text file."),
        ("board.pgn", PNG, "“board.pgn” is not a text file."),
        ("notes.txt", b"hello\nworld\n", "“notes.txt” is not a tournament file we know."),
        ("empty.trf", b"  \n", "“empty.trf” is empty."),
        ("latin1.csv", "white;black\nMaría;José\n".encode("latin-1"), "“latin1.csv” has no players"),
    ],
)
def test_bad_files_named_beside_the_field(client: TestClient, name: str, data: bytes, message: str) -> None:
    response = client.post("/report", files=upload(name, data))
    assert response.status_code == 422  # the page with the message beside the field, as the API's 422
    assert errors_of(response.text)["file"].startswith(message)
    api = client.post("/api/report", files=upload(name, data))
    assert api.status_code == 422
    (detail,) = api.json()["detail"]
    assert detail["loc"] == ["body", "file"]
    assert detail["msg"].startswith(message)


def test_a_superscript_digit_is_a_problem_of_the_file_not_a_crash(client: TestClient) -> None:
    # A superscript one where the FIDE id goes: str.isdigit() says yes, int() says no. The reader
    # now reports it with its line and rates the rest.
    data = SWISS.replace(b"NOR           0 1990", b"NOR          \xb90 1990", 1)
    response = client.post("/report", files=upload("superscript.trf", data))
    assert response.status_code == 200
    assert "file" not in errors_of(response.text)
    assert "invalid FIDE id “¹0”" in response.text
    api = client.post("/api/report", files=upload("superscript.trf", data))
    assert api.status_code == 200
    assert {"line": 5, "code": "invalid-fide-id"}.items() <= api.json()["problems"][0].items()


def test_api_file_problems_in_the_negotiated_language(client: TestClient) -> None:
    spanish = client.post(
        "/api/report", files=upload("broken.trf", BROKEN_SWISS), headers={"Accept-Language": "es"}
    )
    english = client.post("/api/report", files=upload("broken.trf", BROKEN_SWISS))
    assert spanish.status_code == english.status_code == 200
    first_es, first_en = spanish.json()["problems"][0], english.json()["problems"][0]
    assert first_es["code"] == first_en["code"] == "player-count"
    assert first_es["message"] == "el registro 062 anuncia 16 jugadores; el archivo tiene 15"
    assert (
        first_en["message"]
        == first_es["reason"]
        == first_en["reason"]
        == ("record 062 announces 16 players; the file has 15")
    )


#: The file's problems and the report's notes at once: the FIDE example (older than the rules kept:
#: a note) with one bad result, as BROKEN_SWISS.
BROKEN_OLD = FIDE_EXAMPLE.replace(b" 1 ", b" 7 ", 1)


@pytest.mark.parametrize(("language", "warning"), [("es", "aviso"), ("ca", "avís")])
def test_api_warnings_are_in_the_negotiated_language(client: TestClient, language: str, warning: str) -> None:
    english = client.post("/api/report", files=upload("old.trf", BROKEN_OLD)).json()
    said = client.post(
        "/api/report", files=upload("old.trf", BROKEN_OLD), headers={"Accept-Language": language}
    ).json()
    problems = [*said["notes"][:1], *said["problems"]]
    assert len(problems) >= 2
    assert len(said["warnings"]) == len(english["warnings"]) == len(problems)
    for line, problem in zip(said["warnings"], problems, strict=True):
        severity = warning if problem["severity"] == "warning" else "error"
        where = (
            ""
            if problem["line"] is None
            else f"{'línea' if language == 'es' else 'línia'} {problem['line']}: "
        )
        assert line == f"{severity}: {where}{problem['message']}", said["warnings"]
        assert problem["reason"] not in line  # the reader's English is nowhere in the line
    english_words = {word for line in english["warnings"] for word in re.findall(r"[a-z]{4,}", line)}
    spanish_or_catalan = {word for line in said["warnings"] for word in re.findall(r"[a-z]{4,}", line)}
    assert not english_words & spanish_or_catalan - {"error", "rules"}, english_words & spanish_or_catalan


def test_api_bad_input_names_the_field(client: TestClient) -> None:
    missing = client.post("/api/report", data={"rules": "fide"})
    assert missing.status_code == 422
    assert missing.json()["detail"][0]["loc"] == ["body", "file"]
    assert missing.json()["detail"][0]["type"] == "missing"
    for data, field in [
        ({"as_of": "2022-13-01"}, "as_of"),
        ({"rules": "elo"}, "k"),  # plain Elo has no K rule
        ({"k": "-3"}, "k"),
        ({"rules": "chess960"}, "rules"),
        ({"strict": "maybe"}, "strict"),
    ]:
        response = client.post("/api/report", files=upload("c.pgn", CANDIDATES), data=data)
        assert response.status_code == 422, data
        assert [d["loc"] for d in response.json()["detail"]] == [["body", field]], data
    bad_k = {**upload("c.pgn", CANDIDATES), "k_file": ("k.csv", b"id,k\n1,20\n", "text/csv")}
    detail = client.post("/api/report", files=bad_k).json()["detail"]
    assert detail[0]["loc"] == ["body", "k_file"]
    assert detail[0]["msg"] == "The K file could not be read: the first line must be the header “player,k”"
    not_a_form = client.post("/api/report", content=b"x", headers={"content-type": "multipart/form-data"})
    assert not_a_form.status_code == 422
    assert not_a_form.json()["detail"][0]["loc"] == ["body", "file"]


def test_a_start_before_the_first_fide_rules_is_rated_under_the_oldest_kept(client: TestClient) -> None:
    # The FIDE example started on 2005-07-28; the first rules we keep are of 2008-07-01 (issues 17, 27):
    # the page does not ask for a day, it rates under those rules and says so.
    response = client.post("/api/report", files=upload("fide-example.trf", FIDE_EXAMPLE))
    assert response.status_code == 200
    body = response.json()
    assert (body["as_of"], body["as_of_from_file"]) == ("2005-07-28", True)
    assert body["rules"] == "FIDE 2008-07-01 (the oldest kept, for 2005-07-28)"
    assert body["warnings"][0].startswith("rules: the tournament is of 2005-07-28, before 2008-07-01")
    english = client.post("/report", files=upload("f.trf", FIDE_EXAMPLE), data={"lang": "en"}).text
    assert "before July 1, 2008, the oldest FIDE rules this calculator keeps" in english
    spanish = client.post("/report", files=upload("f.trf", FIDE_EXAMPLE), data={"lang": "es"}).text
    assert "antes del 1 de julio de 2008" in spanish
    assert errors_of(spanish) == {}


def test_a_file_over_the_limit_is_refused(client: TestClient) -> None:
    big = b'[Event "x"]\n' + b" " * MAX_FILE
    response = client.post("/report", files=upload("huge.pgn", big), data={"lang": "en"})
    assert response.status_code == 422
    assert (
        errors_of(response.text)["file"]
        == "“huge.pgn” is larger than 20 MB (20.0 MB): choose a smaller file."
    )
    api = client.post("/api/report", files=upload("huge.pgn", big))
    assert api.status_code == 422
    assert api.json()["detail"][0]["loc"] == ["body", "file"]


def test_no_request_body_is_written_to_disk(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Starlette's own parser would spool a file over 1 MB to a temporary file; ours keeps it in memory.
    def no_disk(*args: object, **kwargs: object) -> None:
        raise AssertionError("a temporary file was opened")

    for name in ("SpooledTemporaryFile", "TemporaryFile", "NamedTemporaryFile", "mkstemp"):
        monkeypatch.setattr(tempfile, name, no_disk)
    monkeypatch.setattr("starlette.formparsers.SpooledTemporaryFile", no_disk)
    padded = CANDIDATES + b"\n" * 2_000_000
    response = client.post("/api/report", files=upload("c.pgn", padded))
    assert response.status_code == 200
    assert player(response.json()["players"], "Nepomniachtchi")["new_rating"] == 2792


def echo_app(file_limit: int) -> TestClient:
    """A tiny app that answers what read_form kept."""
    app = FastAPI()

    @app.post("/echo")
    async def echo(request: Request) -> dict[str, Any]:
        got: Submitted = await read_form(request, file_limit=file_limit, big_fields=frozenset({"content"}))
        return {
            "fields": got.fields,
            "files": {k: [f.filename, f.data.decode(), f.size, f.too_large] for k, f in got.files.items()},
            "too_long": sorted(got.too_long),
            "cut": got.cut,
        }

    return TestClient(app)


def test_read_form_cuts_a_file_at_its_limit_and_reads_the_fields_after_it() -> None:
    client = echo_app(file_limit=10)
    parts = [
        ('name="file"; filename="a.trf"', "0123456789ABC"),
        ('name="empty"; filename=""', ""),  # a file input left empty, as browsers send it
        ('name="rules"', "fide"),
        ('name="content"', "x" * 11),
    ]
    body = "".join(
        f"--B\r\nContent-Disposition: form-data; {head}\r\n\r\n{value}\r\n" for head, value in parts
    )
    answer = client.post(
        "/echo?lang=ca",
        content=(body + "--B--\r\n").encode(),
        headers={"content-type": "multipart/form-data; boundary=B"},
    ).json()
    assert answer["files"] == {"file": ["a.trf", "0123456789", 13, True]}
    assert answer["fields"] == {"lang": "ca", "rules": "fide", "content": "x" * 10}
    assert answer["too_long"] == ["content"]
    fits = client.post("/echo", files={"file": ("b.pgn", b"0123456789", "text/plain")}).json()
    assert fits["files"] == {"file": ["b.pgn", "0123456789", 10, False]}


def test_read_form_stops_reading_past_the_hard_limit() -> None:
    from chessrate.web import uploads

    client = echo_app(file_limit=10)
    hard = 3 * 10 + uploads.MAX_PARTS * uploads.MAX_FIELD
    body = client.post("/echo", files={"file": ("c.pgn", b"z" * (hard + 1), "text/plain")}).json()
    assert body["cut"] is True
    assert body["files"]["file"][3] is True


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    prefix=st.sampled_from([b"", b"[Event ", b"012 ", b"001    1 ", b"white,black\n", b"\xef\xbb\xbf"]),
    data=st.binary(max_size=300),
    name=st.sampled_from(["t.trf", "t.pgn", "t.csv", "t.txt", ""]),
    strict=st.booleans(),
)
def test_no_file_breaks_the_page(app: FastAPI, prefix: bytes, data: bytes, name: str, strict: bool) -> None:
    client = TestClient(app)
    form = {"strict": "on"} if strict else {}
    response = client.post("/report", files=upload(name or "x", prefix + data), data=form)
    assert response.status_code in {200, 422}
    assert "Traceback" not in response.text
    api = client.post("/api/report", files=upload(name or "x", prefix + data), data=form)
    assert api.status_code in {200, 422}
    assert response.status_code == api.status_code  # the page refuses what the API refuses


def test_api_documented_as_multipart(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/api/report"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert body["required"] == ["file"]
    assert body["properties"]["file"]["format"] == "binary"


def test_a_rules_file_too_large_is_refused_by_the_page_and_the_api(client: TestClient) -> None:
    rules = b'name = "club"\nexpected = "formula"\nrounding = "tournament"\n'
    rules += b"k_by_rating = [{ from = 0, k = 32 }]\n"
    big = rules + b"#" * (20_001 - len(rules))
    files = {**upload("candidates-2022.pgn", CANDIDATES), "rules_file": ("big.toml", big)}
    api = client.post("/api/report", files=files, data={"rules": "custom"}, headers={"Accept-Language": "ca"})
    assert api.status_code == 422
    (problem,) = api.json()["detail"]
    assert problem["loc"] == ["body", "rules_file"]
    assert problem["msg"].startswith("El fitxer de regles «big.toml» ocupa més de 20 kB")
    page = client.post("/report", files=files, data={"rules": "custom", "lang": "es"}).text
    assert "El archivo de reglas «big.toml» ocupa más de 20 kB" in page
    files["rules_file"] = ("club.toml", big[:-1])
    assert client.post("/api/report", files=files, data={"rules": "custom"}).status_code == 200


# --- the report's notes, coded and said in the visitor's language ---------------------------------

RAPID = (
    b'[Event "Rapid"]\n[Date "2025.11.01"]\n[Round "1"]\n[White "Alpha"]\n[Black "Beta"]\n'
    b'[WhiteElo "2700"]\n[BlackElo "2000"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
    b'[Event "Rapid"]\n[Date "2025.11.01"]\n[Round "2"]\n[White "Alpha"]\n[Black "Gamma"]\n'
    b'[WhiteElo "2700"]\n[BlackElo "2200"]\n[Result "1-0"]\n\n1. d4 1-0\n'
)


def test_the_notes_are_coded_and_said_in_the_request_s_language(client: TestClient) -> None:
    # B02RBRegulations2024 8.3.1 (from 1 December 2024): 2700 v 2000 is 600 points or more apart with a
    # player above 2600, so not rated; and a K file naming a player the file does not have.
    files = {**upload("rapid.pgn", RAPID), "k_file": ("k.csv", b"player,k\n1,20\n999,15\n", "text/csv")}
    said = {
        "en": ("the game 1-2 (2700 against 2000) is not rated: 600 points or more apart with a player "
               "above 2600", "K file: no player has the FIDE id or start number 999"),
        "es": ("la partida 1-2 (2700 contra 2000) no se valora: se llevan 600 puntos o más y un jugador "
               "tiene más de 2600", "Archivo de K: ningún jugador tiene el ID FIDE o el número inicial 999"),
        "ca": ("la partida 1-2 (2700 contra 2000) no es valora: es porten 600 punts o més i un jugador en "
               "té més de 2600", "Fitxer de K: cap jugador no té l’ID FIDE o el número inicial 999"),
    }  # fmt: skip
    for language, (not_rated, unknown) in said.items():
        body = client.post(
            "/api/report", files=files, data={"list_type": "rapid"}, headers={"Accept-Language": language}
        ).json()
        notes = [(note["code"], note["line"], note["message"]) for note in body["notes"]]
        assert [(code, line) for code, line, _ in notes] == [
            ("game-not-rated", 1),
            ("k-file-unknown-player", None),
        ]
        assert notes[0][2].startswith(not_rated)
        assert notes[1][2] == unknown
        # The lines as the command line prints them, in the language (English: the core's own).
        assert (
            body["warnings"][-1]
            == {
                "en": "k file: no player has id or start number 999",
                "es": f"aviso: {unknown}",
                "ca": f"avís: {unknown}",
            }[language]
        )
        assert body["notes"][0]["reason"].startswith("line 1: the game 1-2 (2700 against 2000) is not rated")
        page = client.post("/report", files=files, data={"list_type": "rapid", "lang": language}).text
        problems = html.unescape(
            re.sub(r"<[^>]+>", "", page.split('id="file-problems"')[1].split("</ul>")[0])
        )
        assert not_rated in problems
        assert unknown in problems


def test_a_rapid_tournament_before_the_oldest_rapid_rules_names_their_day(client: TestClient) -> None:
    # The rapid and blitz chapter kept starts on 1 January 2022 (docs/fide.md), not 1 July 2014.
    old = RAPID.replace(b"2025.11.01", b"2019.05.01")
    for language, day in [
        ("en", "January 1, 2022"),
        ("es", "1 de enero de 2022"),
        ("ca", "1 de gener del 2022"),
    ]:
        page = client.post(
            "/report", files=upload("old.pgn", old), data={"list_type": "blitz", "lang": language, "k": "20"}
        ).text
        note = re.search(r'id="rules-note">(.*?)</p>', page, re.S)
        assert note, language
        assert day in html.unescape(note.group(1))
        assert "2014" not in note.group(1)


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "line 3: K “abc”: not a number"),
        ("es", "línea 3: K «abc»: no es un número"),
        ("ca", "línia 3: K «abc»: no és un nombre"),
    ],
)
def test_a_k_file_error_names_its_line_in_the_language(
    client: TestClient, language: str, reason: str
) -> None:
    files = {
        **upload("c.pgn", CANDIDATES),
        "k_file": ("k.csv", b"player,k\n4168119,20\n999,abc\n", "text/csv"),
    }
    detail = client.post("/api/report", files=files, headers={"Accept-Language": language}).json()["detail"]
    assert detail[0]["loc"] == ["body", "k_file"]
    assert detail[0]["msg"].endswith(reason)


@pytest.mark.parametrize(
    ("language", "label", "hint"),
    [
        ("en", "Standard, rapid or blitz: the list and the rules", "the chapter for rapid and blitz"),
        ("es", "Estándar, rápida o relámpago: la lista y el reglamento", "el capítulo de partidas rápidas"),
        ("ca", "Estàndard, ràpida o llampec: la llista i el reglament", "el capítol de partides ràpides"),
    ],
)
def test_the_list_type_says_it_chooses_the_rules(
    client: TestClient, language: str, label: str, hint: str
) -> None:
    page = html.unescape(client.get("/report", params={"lang": language}).text)
    fieldset = page.split('name="list_type"')[0].rsplit("<fieldset", 1)[1]
    assert label in fieldset
    assert hint in page.split('id="hint-list_type"')[1].split("</small>")[0]
