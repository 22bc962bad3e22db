"""The store's and the history's refusals are codes with their values, said from the catalogs: the
English each raises is its template in the English catalog, and the faces say the same code in
Spanish and Catalan (docs/codes.md, "Refusals")."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from chessrate.errors import CodedError, InvalidInputError
from chessrate.ratinglist.facts import Entry, History, HistoryOrderError, ListNotKeptError
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.refusals import STORE_REFUSALS, refusal_text
from chessrate.ratinglist.statuses import EntryStatus
from chessrate.ratinglist.store import StoreError, init_store, make_engine, open_store
from chessrate.service.language import translator
from chessrate.service.problems import input_reason

ENTRY = Entry(player_id=1, status=EntryStatus.ENTERED, rating_before=None, rating=2000, games=0)


def _history_with(*periods: Period) -> History:
    history = History(keep={})
    for period in periods:
        history.add(period, {1: ENTRY}, [])
    return history


def _empty_db(tmp_path: Path) -> object:
    return make_engine("   ")


def _bad_url(tmp_path: Path) -> object:
    return make_engine("nosuchdatabase://somewhere/x")


def _no_store(tmp_path: Path) -> object:
    return open_store(str(tmp_path / "missing.db"))


def _not_sqlite(tmp_path: Path) -> object:
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a database\n")
    return init_store(str(text_file))


def _added_out_of_order(tmp_path: Path) -> object:
    _history_with(Period(2024, 2)).add(Period(2024, 1), {1: ENTRY}, [])
    return None


def _later_lists(tmp_path: Path) -> object:
    return _history_with(Period(2024, 2)).listed_before(1, Period(2024, 2))


def _not_kept(tmp_path: Path) -> object:
    return _history_with(Period(2024, 1), Period(2024, 2)).full_list(Period(2024, 1))


#: Each refusal raised for real: its code, its kind, and what it says in English, Spanish and Catalan.
CASES: dict[str, tuple[Callable[[Path], object], type[Exception], dict[str, str]]] = {
    "db-empty": (
        _empty_db,
        InvalidInputError,
        {
            "en": "give a database URL or a file path",
            "es": "indica una URL de base de datos o la ruta de un archivo",
            "ca": "indica un URL de base de dades o el camí d’un fitxer",
        },
    ),
    "db-url": (
        _bad_url,
        InvalidInputError,
        {
            "en": "not a usable database URL (",
            "es": "no es una URL de base de datos utilizable (",
            "ca": "no és un URL de base de dades utilitzable (",
        },
    ),
    "no-store": (
        _no_store,
        StoreError,
        {
            "en": "there is no store at {tmp}/missing.db: create it with chessrate list init",
            "es": "no hay ninguna base de datos en {tmp}/missing.db: créala con chessrate list init",
            "ca": "no hi ha cap base de dades a {tmp}/missing.db: crea-la amb chessrate list init",
        },
    ),
    "not-sqlite": (
        _not_sqlite,
        StoreError,
        {
            "en": "{tmp}/notes.txt is not a chessrate store (not a SQLite database)",
            "es": "{tmp}/notes.txt no es una base de datos de chessrate (no es una base de datos SQLite)",
            "ca": "{tmp}/notes.txt no és una base de dades de chessrate (no és una base de dades SQLite)",
        },
    ),
    "history-order": (
        _added_out_of_order,
        HistoryOrderError,
        {
            "en": "the list of 2024-01 is added after the list of 2024-02",
            "es": "la lista de 2024-01 se añade después de la lista de 2024-02",
            "ca": "la llista de 2024-01 s’afegeix després de la llista de 2024-02",
        },
    ),
    "history-later-lists": (
        _later_lists,
        HistoryOrderError,
        {
            "en": "the history holds the lists up to 2024-02, not only those before 2024-02",
            "es": "el historial tiene las listas hasta 2024-02, no solo las anteriores a 2024-02",
            "ca": "l’historial té les llistes fins a 2024-02, no només les anteriors a 2024-02",
        },
    ),
    "history-not-kept": (
        _not_kept,
        ListNotKeptError,
        {
            "en": "the list of 2024-01 is not kept in full",
            "es": "la lista de 2024-01 no se guarda entera",
            "ca": "la llista de 2024-01 no es desa sencera",
        },
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_refusal_is_its_code_said_in_three_languages(code: str, tmp_path: Path) -> None:
    cause, kind, words = CASES[code]
    with pytest.raises(kind) as raised:
        cause(tmp_path)
    error = raised.value
    assert isinstance(error, CodedError | InvalidInputError)
    assert error.code == code
    english = error.reason if isinstance(error, InvalidInputError) else str(error)
    assert words["en"].format(tmp=tmp_path) in english
    for language in ("es", "ca"):
        said = input_reason(error.code, error.params, "", translator(language))
        assert words[language].format(tmp=tmp_path) in said
        assert said != english


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (
            {"seconds": 600},
            {
                "en": "another import or run is using the rating list: it did not end within 600 s",
                "es": "otra importación o cálculo está usando la lista de Elo: no ha terminado en 600 s",
                "ca": "una altra importació o un altre càlcul està fent servir la llista d’Elo: "
                "no ha acabat en 600 s",
            },
        ),
        (
            {},
            {
                "en": "another import or run is using the rating list: try again when it ends",
                "es": "otra importación o cálculo está usando la lista de Elo: "
                "vuelve a intentarlo cuando termine",
                "ca": "una altra importació o un altre càlcul està fent servir la llista d’Elo: "
                "torna-ho a provar quan acabi",
            },
        ),
        (
            {"store": "x.db", "table": "games", "parent": "events"},
            {
                "en": "the store x.db cannot be upgraded: a row of games names a row of events "
                "that the store does not have; nothing was changed",
                "es": "no se puede actualizar la base de datos x.db: una fila de games nombra "
                "una fila de events que la base de datos no tiene; no se ha cambiado nada",
                "ca": "no es pot actualitzar la base de dades x.db: una fila de games esmenta "
                "una fila de events que la base de dades no té; no s’ha canviat res",
            },
        ),
    ],
)
def test_the_busy_and_upgrade_refusals_are_said_in_three_languages(
    params: dict[str, object], words: dict[str, str]
) -> None:
    code = "store-upgrade-orphans" if "table" in params else "store-busy"
    assert refusal_text(code, params) == words["en"]
    for language in ("es", "ca"):
        assert input_reason(code, params, "", translator(language)) == words[language]


def test_no_store_refusal_writes_a_sentence_of_its_own() -> None:
    """Every code the store raises has its one template (no English written beside it in the code)."""
    source = (Path(__file__).parents[2] / "src/chessrate/ratinglist/store.py").read_text()
    raised = set(
        re.findall(r'(?:coded_refusal\(\s*\w+,\s*|input_refusal\(|refusal_text\()"([a-z-]+)"', source)
    )
    assert raised, "no coded refusal found in store.py"
    assert raised <= set(STORE_REFUSALS)
    assert not re.search(r'Error\(\s*f?"', source), "a refusal written as an English sentence in store.py"
