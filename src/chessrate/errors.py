"""The errors chessrate raises, as one tree.

:class:`RatingError` is the root: ``except RatingError`` catches everything chessrate refuses. Only
invalid input (a value, a file, a rule set) is also a ``ValueError``; a store that is busy or
damaged, a computation that did not converge or a rule its publisher keeps private is not, so
an ``except ValueError`` around a call never hides a damaged database.
"""

from __future__ import annotations

import errno
from typing import NamedTuple


class RatingError(Exception):
    """Base class of every error chessrate raises on bad input or impossible requests."""


class InvalidInputError(RatingError, ValueError):
    """A value given by the user is malformed or out of range.

    ``field`` names the input (``rating``, ``result``, ``k``...) so that every face can show the
    message beside the field that caused it. ``code`` names the kind of fault (``not-a-number``,
    ``rating-range``...) and ``params`` its values, so that a face can say ``reason`` in its own
    language (:func:`chessrate.service.problems.input_reason`); both may be empty.
    """

    def __init__(
        self,
        field: str,
        value: object,
        reason: str,
        *,
        code: str = "",
        params: dict[str, object] | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        super().__init__(f"invalid {field} {value!r}: {reason}")


class CodedError(RatingError):
    """An error whose English message is one sentence, with a ``code`` naming the fault and
    ``params`` its values, so that a face can say it in its own language
    (:func:`chessrate.service.problems.input_reason`); the message stays the English sentence
    (the command line's)."""

    def __init__(self, message: str, *, code: str = "", params: dict[str, object] | None = None) -> None:
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        super().__init__(message)


class RuleSetError(CodedError, ValueError):
    """A rule set is unknown, or its definition (a club TOML file) is malformed (``toml-syntax``,
    line 3)."""


class ConvergenceError(RatingError):
    """An iterative computation did not converge within its bounded number of steps."""


class FileFormatError(RatingError, ValueError):
    """A tournament file (TRF, PGN, CSV) is malformed or inconsistent.

    ``line`` is the 1-based line of the file at fault, or ``None`` when the fault is the whole file
    (empty, of no known format). The message starts with the line: ``line 12: invalid result 'x'``.
    """

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        code: str = "",
        params: tuple[tuple[str, object], ...] = (),
    ) -> None:
        self.line = line
        self.reason = message
        #: The reader's problem code and values (:class:`chessrate.formats.model.Problem`), if any.
        self.code = code
        self.params = params
        super().__init__(message if line is None else f"line {line}: {message}")


class UnpublishedRuleError(RatingError):
    """The request needs a rule or constant that its publisher does not make public.

    Raised instead of a guess, e.g. for the ECF's P rating of a new player.
    """


def N_(message: str) -> str:
    """``message`` as it is, marked for the catalogs (babel's default ``N_``): said by its code."""
    return message


class Reason(NamedTuple):
    """Why a file cannot be read (or an address listened on, a host reached): a code the faces say
    in their language, and its English words."""

    code: str
    english: str


#: The system's reasons a file cannot be read, by error number (POSIX <errno.h>), as codes: the
#: system's own words (``strerror``) are English whatever the user's language.
FILE_REASONS = {
    errno.ENOENT: Reason("file-not-found", N_("no such file or folder")),
    errno.EISDIR: Reason("file-is-folder", N_("a folder, not a file")),
    errno.EACCES: Reason("file-permission-denied", N_("permission denied")),
    errno.EPERM: Reason("file-permission-denied", N_("permission denied")),
    errno.ENOTDIR: Reason("file-path-not-folder", N_("a part of the path is not a folder")),
    errno.ENAMETOOLONG: Reason("file-name-too-long", N_("the name is too long")),
    errno.ENOEXEC: Reason("file-not-a-program", N_("not a program this system can run")),
}
#: Any other reason (an I/O error, a file that vanished while read...).
FILE_UNREADABLE = Reason("file-cannot-be-read", N_("cannot be read"))


def file_reason(error: OSError) -> Reason:
    """Why ``error``'s file cannot be read, as a code and its English (never ``strerror``)."""
    return FILE_REASONS.get(error.errno or 0, FILE_UNREADABLE)


def file_refusal(field: str, value: object, error: OSError) -> InvalidInputError:
    """The refusal of the file ``value`` (of ``field``) that ``error`` keeps from being read: its code
    the reason's (:func:`file_reason`), so that every face says it in its language."""
    reason = file_reason(error)
    return InvalidInputError(field, value, reason.english, code=reason.code)


#: The system's reasons a server cannot listen on an address (binding its socket: ``serve --host``
#: and ``--port``), by error number, as codes: ``strerror`` is English whatever the language.
ADDRESS_REASONS = {
    errno.EADDRINUSE: Reason("address-in-use", N_("the port is already in use")),
    errno.EADDRNOTAVAIL: Reason("address-not-available", N_("not an address of this machine")),
    errno.EACCES: Reason("address-permission-denied", N_("permission denied")),
    errno.EPERM: Reason("address-permission-denied", N_("permission denied")),
}
#: Any other reason.
ADDRESS_REFUSED = Reason("address-refused", N_("the system does not allow it"))


def address_reason(error: OSError) -> Reason:
    """Why a socket cannot be bound as ``error`` says, as a code and its English (never ``strerror``)."""
    return ADDRESS_REASONS.get(error.errno or 0, ADDRESS_REFUSED)


#: The system's reasons a platform cannot be reached (fetching games by username), as codes: the
#: system's words (``strerror``, a resolver's or TLS's message) are English whatever the language.
#: chessrate.platforms.http.network_reason tells them from the error.
NETWORK_NAME_UNKNOWN = Reason("network-name-unknown", N_("its name cannot be looked up: is the network up?"))
NETWORK_REFUSED = Reason("network-refused", N_("the connection was refused"))
NETWORK_CUT = Reason("network-cut", N_("the connection was cut"))
NETWORK_NO_ROUTE = Reason("network-no-route", N_("no route to it: is the network up?"))
NETWORK_NOT_SECURE = Reason("network-not-secure", N_("no secure connection could be made"))
NETWORK_FAILED = Reason("network-failed", N_("the network failed"))
NETWORK_REASONS = (
    NETWORK_NAME_UNKNOWN,
    NETWORK_REFUSED,
    NETWORK_CUT,
    NETWORK_NO_ROUTE,
    NETWORK_NOT_SECURE,
    NETWORK_FAILED,
)
