"""What an import and the store refuse, each fault once: a code, its values and one template in
the catalogs.

:mod:`chessrate.ratinglist.importer`, :mod:`~chessrate.ratinglist.store` and
:mod:`~chessrate.ratinglist.facts` raise each refusal with its code and values, and the English
message it carries is said from the template below, by the English catalog
(:data:`chessrate.service.language.ENGLISH`); the faces say the same template in the user's
language (:func:`chessrate.service.problems.input_reason`). No sentence is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from chessrate.errors import FILE_REASONS, FILE_UNREADABLE, CodedError, InvalidInputError, file_reason
from chessrate.service.language import ENGLISH, Translator, said, said_if, said_plural, said_with_reason

Template = Callable[[Translator, dict[str, object]], str]

#: Why a file cannot be read (the codes of :func:`chessrate.errors.file_reason`), in the language.
FILE_REASON_WORDS: dict[str, Template] = {
    reason.code: said(reason.english) for reason in (*FILE_REASONS.values(), FILE_UNREADABLE)
}


#: The import's refusals by code (``StoreError.code`` or ``InvalidInputError.code``).
IMPORT_REFUSALS: dict[str, Template] = {
    "import-no-files": said("give at least one file to import"),
    "import-one-file": said("the event’s dates and the event it replaces are given for one file"),
    "import-refused-file": said_plural(
        "%(file)s has %(num)s error; nothing was imported: %(errors)s",
        "%(file)s has %(num)s errors; nothing was imported: %(errors)s",
        "count",
    ),
    "import-missing-rows": said_plural(
        "the import names %(num)s row of %(table)s that the store does not have; nothing was imported",
        "the import names %(num)s rows of %(table)s that the store does not have; nothing was imported",
        "count",
    ),
    "import-same-games": said(
        "%(file)s: the same games on the same days were already imported as event %(event)s “%(name)s” "
        "from %(earlier_file)s; nothing was imported"
    ),
    "import-same-file": said(
        "%(file)s was already imported as event %(event)s “%(name)s” from %(earlier_file)s; "
        "nothing was imported"
    ),
    "import-no-date": said(
        "%(file)s gives no date: import it from the command line, with the event’s --start date"
    ),
    "import-ends-before-start": said("%(file)s ends before it starts"),
    "import-same-player": said("%(file)s: two players of the file are the same stored player"),
    "import-no-event-files": said("no event file here (%(suffixes)s); nothing was imported"),
    "import-file-errors": said_plural(
        "%(file)s: %(num)s error: %(errors)s",
        "%(file)s: %(num)s errors: %(errors)s",
        "count",
    ),
    "import-refused-files": lambda t, p: "\n".join(
        [
            t.ngettext(
                "%(num)s file has errors; nothing was imported:",
                "%(num)s files have errors; nothing was imported:",
                int(str(p["count"])),
            ),
            *(_said(refusal, t) for refusal in p["refusals"]),  # type: ignore[attr-defined]
        ]
    ),
    # A file of an import, or FIDE's list, that the system cannot read (``reason``: a file reason's code).
    "file-unreadable": said_with_reason(said("%(file)s cannot be read (%(reason)s)"), FILE_REASON_WORDS),
    "replaces-unknown": said("no event has this id"),
    "replaces-replaced": said("already replaced by event %(event)s"),
}


#: The store's refusals by code (``StoreError.code``, the ``db`` field's ``InvalidInputError.code``),
#: and a history's asked out of its order (:class:`chessrate.ratinglist.facts.HistoryOrderError`).
STORE_REFUSALS: dict[str, Template] = {
    "db-empty": said("give a database URL or a file path"),
    "db-url": said("not a usable database URL (%(reason)s)"),
    "store-damaged": said(
        "the store’s file %(store)s is damaged: check it (chessrate list check) and restore the last backup"
    ),
    "store-busy": said_if(
        "seconds",
        said("another import or run is using the rating list: it did not end within %(seconds)s s"),
        said("another import or run is using the rating list: try again when it ends"),
    ),
    "store-init": said("the store %(store)s cannot be created (the database says: %(reason)s)"),
    "store-upgrade-orphans": said(
        "the store %(store)s cannot be upgraded: a row of %(table)s names a row of %(parent)s that the "
        "store does not have; nothing was changed"
    ),
    "no-migrations": said("no migrations found in the chessrate package"),
    "no-store": said("there is no store at %(store)s: create it with chessrate list init"),
    "store-unopenable": said("the store %(store)s cannot be opened (the database says: %(reason)s)"),
    "not-a-store": said("%(store)s is not a chessrate store"),
    "not-sqlite": said("%(store)s is not a chessrate store (not a SQLite database)"),
    "foreign-database": said(
        "%(store)s is not a chessrate store: it holds other tables (%(tables)s); nothing was changed"
    ),
    "store-schema": said(
        "the store %(store)s has schema %(found)s and this chessrate needs %(needed)s: upgrade it with "
        "chessrate list init"
    ),
    "history-order": said("the list of %(period)s is added after the list of %(latest)s"),
    "history-later-lists": said(
        "the history holds the lists up to %(latest)s, not only those before %(before)s"
    ),
    "history-not-kept": said("the list of %(period)s is not kept in full"),
}

_REFUSALS = {**IMPORT_REFUSALS, **STORE_REFUSALS}


def refusal_text(code: str, params: dict[str, object], t: Translator = ENGLISH) -> str:
    """The refusal ``code`` with its values, in ``t``'s language (English: the message raised)."""
    return _REFUSALS[code](t, params)


def _said(refusal: tuple[str, dict[str, object], str], t: Translator) -> str:
    """One file's refusal of ``import-refused-files``: its code's template, else its text as raised."""
    code, params, text = refusal
    template = IMPORT_REFUSALS.get(code)
    return text if template is None else template(t, params)


Refused = TypeVar("Refused", bound=CodedError)


def coded_refusal(kind: type[Refused], code: str, **params: object) -> Refused:
    """The refusal ``code`` with its values as a ``kind`` error, its English said from its one template."""
    return kind(refusal_text(code, params), code=code, params=params)


def input_refusal(code: str, *, field: str, value: object, **params: object) -> InvalidInputError:
    """A refused value of ``field``, its reason said from its one template."""
    return InvalidInputError(field, value, refusal_text(code, params), code=code, params=params)


def unreadable_file(field: str, path: Path, error: OSError) -> InvalidInputError:
    """``file-unreadable``: ``path``, of ``field``, that ``error`` keeps from being read, the reason a
    code (:func:`chessrate.errors.file_reason`), so that the refusal is said wholly in the language."""
    return input_refusal(
        "file-unreadable", field=field, value=str(path), file=path.name, reason=file_reason(error).code
    )
