"""The files an import is given: files, folders (a month's folder of event files) and globs.

``chessrate list import --db DB FILE... | FOLDER/ | 'GLOB'``: a folder stands for its event files
(:data:`EVENT_SUFFIXES`, not its subfolders, not hidden files), a pattern that names no file
(``'2025-10/*.trf'``, quoted so that the shell leaves it) for the files it matches; both in the
order of their names, so an import of a folder is the import of its files named one by one in
that order. A folder or a pattern with no event file is refused by name
(``import-no-event-files``); any other name is a file, which the import reads or refuses.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from chessrate.ratinglist.refusals import input_refusal

#: The suffixes of a folder's event files (TRF files are often ``.txt``), letter case aside.
EVENT_SUFFIXES = (".trf", ".trfx", ".txt", ".pgn", ".csv")
_PATTERN = frozenset("*?[")


def event_files(arguments: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """The files named by ``arguments``, in order; each folder's and pattern's sorted by name."""
    files: list[Path] = []
    for argument in arguments:
        given = os.fspath(argument)
        try:
            mode = os.stat(given).st_mode
        except OSError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            files += _named(_folder_files(Path(given)), given)
        elif mode is None and _PATTERN & set(given):
            matched = [
                Path(name) for name in glob.glob(given) if _has_event_suffix(name) and os.path.isfile(name)
            ]
            files += _named(sorted(matched, key=str), given)
        else:
            files.append(Path(given))  # a file (or not: the import says why it cannot read it)
    return files


def _folder_files(folder: Path) -> list[Path]:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    # Names, not paths, tested and sorted: a Path a file (3,600 in a month's folder) only at the end.
    found = [
        entry.path
        for entry in entries
        if entry.is_file() and not entry.name.startswith(".") and _has_event_suffix(entry.name)
    ]
    return list(map(Path, sorted(found)))


def _has_event_suffix(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in EVENT_SUFFIXES


def _named(files: list[Path], given: str) -> list[Path]:
    if not files:
        raise input_refusal(
            "import-no-event-files", field="file", value=given, suffixes=", ".join(EVENT_SUFFIXES)
        )
    return files
