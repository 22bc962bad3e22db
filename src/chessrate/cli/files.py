"""The files a command is given: a regular file, of a size checked before any of it is read.

A device (``/dev/zero``), a FIFO or a folder is refused at once, by name, with exit 2: reading one
would never end or would fill memory before any size check.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from chessrate.errors import InvalidInputError, file_refusal


def checked_file(path: Path, field: str, limit: int | None = None) -> int:
    """The size of ``path``, a regular file of at most ``limit`` bytes; else one error naming it."""
    try:
        status = os.stat(path)
    except OSError as error:
        raise file_refusal(field, str(path), error) from None
    if not stat.S_ISREG(status.st_mode):
        raise InvalidInputError(
            field, str(path), "not a regular file (a device, a pipe or a folder)", code="not-a-file"
        )
    if limit is not None and status.st_size > limit:
        raise _too_large(path, field, limit)
    return status.st_size


def _too_large(path: Path, field: str, limit: int) -> InvalidInputError:
    return InvalidInputError(
        field, str(path), f"larger than {limit} bytes", code="file-too-large", params={"limit": limit}
    )


def read_checked(path: Path, field: str, limit: int) -> bytes:
    """The bytes of ``path`` (:func:`checked_file`), read with at most ``limit`` + 1 bytes held."""
    checked_file(path, field, limit)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise file_refusal(field, str(path), error) from None
    if len(data) > limit:  # grew since it was checked
        raise _too_large(path, field, limit)
    return data
