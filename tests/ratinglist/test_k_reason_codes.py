"""K reasons and notes stored as codes (migration 0006): a store made with the English sentences of
0005 is upgraded to codes and values, every line and figure kept, and the faces say them in every
language from the catalogs."""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, select, text, update

from chessrate.ratinglist.importer import import_files
from chessrate.ratinglist.k_reasons import k_reason_text, stored_k
from chessrate.ratinglist.periods import Period
from chessrate.ratinglist.runner import run_period
from chessrate.ratinglist.schema import list_entries
from chessrate.ratinglist.store import database_url, init_store, open_store
from chessrate.service.explanations import k_reason, list_note
from chessrate.service.language import ENGLISH, translator
from chessrate.systems.fide.k_factor import K_REASONS, KFactor, SevenHundredCut

from .ratinglist_support import DATA

MIGRATION = (
    Path(__file__).parents[2] / "src/chessrate/ratinglist/migrations/versions/0006_k_reasons_as_codes.py"
)
SWISS = DATA / "trf/swiss-unplayed-rounds.trf"
CANDIDATES = DATA / "pgn/candidates-2022.pgn"

#: Sentences as chessrate 0005 stored them (the core's reason, then its article in brackets), and
#: the code and values each is stored as from 0006.
OLD_SENTENCES = [
    (
        "K 40: new to the list, 12 rated games so far (fewer than 30) (FIDE B.02 8.3.3)",
        {"article": "FIDE B.02 8.3.3", "code": "k-new-player", "params": {"games": 12, "needed": 30}},
    ),
    (
        "K 40: junior (born 2010) until the end of the year of their 18th birthday, rating under 2300; "
        "40 x 20 games exceeds 700, so K is 35, the largest whole number with K x 20 <= 700 (FIDE B.02 "
        "8.3.3; FIDE B.02 8.3.3 (700 rule))",
        {
            "article": "FIDE B.02 8.3.3",
            "code": "k-junior-end-of-year",
            "params": {"year": 2010, "limit": 2300},
            "cut": [40, 20, 700],
        },
    ),
    (
        "K 10: a published rating has reached 2400; it stays 10 even if the rating drops (FIDE B.02 8.3.3)",
        {"article": "FIDE B.02 8.3.3", "code": "k-established", "params": {"limit": 2400}},
    ),
    (
        "K 20: rated below 2400; profile unknown, so K from the rating alone (give birth year, rated games "
        "and highest rating for the full rule) (FIDE B.02 8.3.3)",
        {"article": "FIDE B.02 8.3.3", "code": "k-rating-alone-standard", "params": {"limit": 2400}},
    ),
    (
        "K 20: rating under 2400, rated games unknown, taken as 30 or more (FIDE B.02 8.3.3)",
        {"article": "FIDE B.02 8.3.3", "code": "k-standard-games-unknown", "params": {"limit": 2400}},
    ),
    (
        "K 15: rating from 1600 to 1824 (Ciabe (Madrid) [CIABE])",
        {"article": "Ciabe (Madrid) [CIABE]", "code": "k-band", "params": {"low": 1600, "high": 1824}},
    ),
    (
        "K 20 from the FIDE list in force (no history in this list) (FIDE rating list)",
        {"article": "FIDE rating list", "code": "k-fide-list-in-force", "params": {}},
    ),
    (
        "K 20 because I say so",
        {"article": "", "code": "k-unknown", "params": {"text": "K 20 because I say so"}},
    ),
]


#: Notes as chessrate 0005 stored them, and their clauses from 0006.
OLD_NOTES = [
    ("no games: the deviation grows (Glicko-2 Step 6)", [{"code": "glicko2-no-games", "params": {}}]),
    (
        "1380 is below the floor 1400: shown as unrated (B.02 7.2.1)",
        [{"code": "below-floor", "params": {"rating": 1380, "floor": 1400, "article": "B.02 7.2.1"}}],
    ),
    (
        "Ru = Ra + dp = 1650.00 + -7 = 1643.00, rounded 1643; 9 games against rated opponents from 2024-01 "
        "to 2024-06 (FIDE B.02 7.1.4, 8.2, FIDE 2024-10-01)",
        [
            {"code": "initial-working", "params": {"sum": "1650.00 + -7 = 1643.00", "rating": 1643}},
            {
                "code": "pooled",
                "params": {
                    "n": 9,
                    "first": "2024-01",
                    "last": "2024-06",
                    "source": "FIDE B.02 7.1.4, 8.2, FIDE 2024-10-01",
                    "dropped": False,
                },
            },
        ],
    ),
    (
        "3 games against rated opponents; a first rating needs at least 5 (7.1.4); results may be pooled "
        "over 26 months; 3 games against rated opponents from 2023-01 to 2023-02; a zero score in the first "
        "event is disregarded (B.02 8.2.1) (FIDE B.02 7.1.4, 8.2, FIDE 2022-01-01)",
        [
            {"code": "initial-games", "params": {"n": 3}},
            {"code": "initial-needs", "params": {"n": 5, "article": "7.1.4"}},
            {"code": "initial-pooled-months", "params": {"n": 26}},
            {
                "code": "pooled",
                "params": {
                    "n": 3,
                    "first": "2023-01",
                    "last": "2023-02",
                    "source": "FIDE B.02 7.1.4, 8.2, FIDE 2022-01-01",
                    "dropped": True,
                },
            },
        ],
    ),
    ("a note of another kind", [{"code": "note-text", "params": {"text": "a note of another kind"}}]),
]


def migration() -> ModuleType:
    spec = importlib.util.spec_from_file_location("migration_0006", MIGRATION)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("sentence", "coded"), OLD_SENTENCES, ids=lambda v: str(v)[:30])
def test_each_old_sentence_becomes_its_code_and_back(sentence: str, coded: dict[str, Any]) -> None:
    old = migration()
    assert old.coded(sentence) == coded
    k = int(sentence.split()[1].rstrip(":")) if coded["code"] != "k-unknown" else 20
    reduced = 35 if "cut" in coded else k
    assert old.sentence(reduced, coded) == sentence


@pytest.mark.parametrize(("note", "clauses"), OLD_NOTES, ids=lambda v: str(v)[:30])
def test_each_old_note_becomes_its_clauses_and_back(note: str, clauses: list[dict[str, Any]]) -> None:
    old = migration()
    assert old.note_clauses(note) == clauses
    assert old.note_sentence(clauses) == note
    said = {code: list_note(json.dumps(clauses), translator(code)) for code in ("es", "ca", "en")}
    assert len(set(said.values())) == (1 if clauses[0]["code"] == "note-text" else 3)


def test_a_stored_reason_is_the_core_reason_again() -> None:
    k = KFactor(
        k=35,
        code="k-junior-birthday",
        params=(("year", 2009), ("limit", 2300)),
        article="FIDE B.02 8.3.3",
        cut=SevenHundredCut(k=40, games=20, limit=700),
    )
    assert stored_k(35, k_reason_text(k)) == k
    assert json.loads(k_reason_text(k)) == {
        "article": "FIDE B.02 8.3.3",
        "code": "k-junior-birthday",
        "params": {"year": 2009, "limit": 2300},
        "cut": [40, 20, 700],
    }


def _reasons(db: str) -> list[tuple[Any, ...]]:
    engine = create_engine(database_url(db))  # whatever the store's schema
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                list_entries.c.version_id,
                list_entries.c.player_id,
                list_entries.c.k,
                list_entries.c.k_reason,
                list_entries.c.note,
            )
            .where(list_entries.c.k_reason.is_not(None) | list_entries.c.note.is_not(None))
            .order_by(list_entries.c.version_id, list_entries.c.player_id)
        )
        found = [tuple(row) for row in rows]
    engine.dispose()
    return found


def _downgrade(db: str, revision: str) -> None:
    engine = open_store(db)
    with engine.execution_options(sqlite_foreign_keys=False).connect() as connection:
        config = Config()
        config.set_main_option("script_location", "chessrate.ratinglist:migrations")
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()
    engine.dispose()


def test_a_store_made_with_the_sentences_is_upgraded_to_codes(db: str) -> None:
    engine = init_store(db)
    import_files(engine, [SWISS], start=dt.date(2024, 5, 4))
    import_files(engine, [CANDIDATES], start=dt.date(2024, 6, 3))
    for month in (5, 6):
        run_period(engine, Period(2024, month))
    engine.dispose()
    coded = _reasons(db)
    assert coded
    assert all(json.loads(reason)["code"] in K_REASONS for *_, reason, _ in coded if reason)
    assert any(note for *_, note in coded)  # first ratings pooled: notes of clauses

    _downgrade(db, "0005")  # the store as chessrate 0005 kept it: English sentences
    old = _reasons(db)
    assert [row[:3] for row in old] == [row[:3] for row in coded]
    assert all(reason.startswith(f"K {k}") for *_, k, reason, _ in old if reason)  # no 700 rule here
    assert all(not note.startswith("[") for *_, note in old if note)
    version, player, _, _, _ = next(row for row in old if row[3])
    sentence, expected = OLD_SENTENCES[1]  # a junior's K cut by the 700 rule, as 0005 wrote it
    raw = create_engine(database_url(db))
    with raw.begin() as connection:
        connection.execute(
            update(list_entries)
            .where(list_entries.c.version_id == version, list_entries.c.player_id == player)
            .values(k=35, k_reason=sentence)
        )
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0005"
    raw.dispose()

    init_store(db).dispose()  # upgrades to 0006
    upgraded = _reasons(db)
    changed = next(index for index, row in enumerate(upgraded) if row[:2] == (version, player))
    assert upgraded[:changed] + upgraded[changed + 1 :] == coded[:changed] + coded[changed + 1 :]
    assert upgraded[changed][2] == 35
    assert json.loads(upgraded[changed][3]) == expected
    said = {
        language: k_reason(stored_k(35, upgraded[changed][3]), translator(language), source=True)
        for language in ("es", "ca", "en")
    }
    assert said["en"].startswith("K 40: a junior (born 2010) keeps it until the end of the year they turn 18")
    assert said["es"].startswith("K 40: un juvenil (nacido en 2010)")
    assert "The 700 rule" not in said["es"] + said["ca"]
    assert "35" in said["ca"]
    assert ENGLISH.gettext("K %(k)s.", k=35) == "K 35."
