"""Forms with files, read into memory: an uploaded file is never written to disk.

Starlette's form parser spools a file of more than 1 MB to a temporary file. The tournament-file
page promises that a file stays in memory and is kept nowhere, so its forms are read here with
python-multipart (the parser Starlette itself uses): each file goes into a ``bytearray`` and
stops growing at its limit; the rest of it is read and dropped, so the fields after it still
arrive. Past a hard limit on the whole body, reading stops.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, NamedTuple

from fastapi import Request
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

from chessrate.formats.text import decode
from chessrate.service.options import MAX_TOML
from chessrate.service.problems import Problems
from chessrate.web.site import Site, site_of, size_text

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

#: Longest text field kept (a pasted club TOML is far shorter).
MAX_FIELD = 100_000
#: Most parts (fields and files) read from one form.
MAX_PARTS = 200
#: Largest club rules file read, on every page and the API: as many bytes as the pasted text may have
#: characters (``MAX_TOML``), so that a file read is never then refused for its length. A club's TOML
#: is a few hundred bytes (``data/ciabe.toml``: 1,200). A larger file is refused, never cut.
MAX_RULES_FILE = MAX_TOML


@dataclass(frozen=True)
class Upload:
    """A file as received: its name, its bytes up to the limit, and its full size."""

    filename: str
    data: bytes
    #: Bytes received, also those past the limit that were dropped.
    size: int
    too_large: bool


@dataclass(frozen=True)
class Submitted:
    """The text fields (query first, then the body) and the files of a request."""

    fields: dict[str, str]
    files: dict[str, Upload]
    #: Text fields longer than their limit, kept cut to it.
    too_long: frozenset[str] = frozenset()
    #: The body was larger than the hard limit and was not read to its end.
    cut: bool = False


def safe_file_name(uploaded: str, *, default: str = "upload") -> str:
    """A client's file name made safe to write in a folder of ours: its last part only, ASCII
    letters, digits and ``.-_``, no leading dot, at most 100 characters.

    >>> safe_file_name("../../etc/passwd"), safe_file_name(".."), safe_file_name("Liga 2024.trf")
    ('passwd', 'upload', 'Liga-2024.trf')
    """
    last = PurePath(uploaded.replace("\\", "/")).name
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", last).lstrip(".-")[-100:].lstrip(".-")
    return name or default


class UploadError(ValueError):
    """The body claims to be a multipart form but is not one (no boundary, broken parts)."""


@dataclass
class _Part:
    name: str = ""
    filename: str | None = None
    data: bytearray = field(default_factory=bytearray)
    size: int = 0
    headers: dict[bytes, bytes] = field(default_factory=dict)


class _Parts:
    """python-multipart's callbacks: the parts of one form collected in memory, each to its limit."""

    def __init__(self, limit: Callable[[_Part], int]) -> None:
        self.limit = limit
        self.done: list[_Part] = []
        self.current = _Part()
        self.header_name = bytearray()
        self.header_value = bytearray()

    def callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self.on_part_begin,
            "on_part_data": self.on_part_data,
            "on_part_end": self.on_part_end,
            "on_header_field": self.on_header_field,
            "on_header_value": self.on_header_value,
            "on_header_end": self.on_header_end,
            "on_headers_finished": self.on_headers_finished,
        }

    def on_part_begin(self) -> None:
        self.current = _Part()

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self.header_name.extend(data[start:end])

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self.header_value.extend(data[start:end])

    def on_header_end(self) -> None:
        self.current.headers[bytes(self.header_name).lower()] = bytes(self.header_value)
        self.header_name.clear()
        self.header_value.clear()

    def on_headers_finished(self) -> None:
        _, disposition = parse_options_header(self.current.headers.get(b"content-disposition", b""))
        self.current.name = disposition.get(b"name", b"").decode("utf-8", errors="replace")
        if b"filename" in disposition:
            self.current.filename = disposition[b"filename"].decode("utf-8", errors="replace")

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        part = self.current
        part.size += end - start
        room = self.limit(part) + 1 - len(part.data)  # one byte past the limit tells "too large"
        if room > 0:
            part.data.extend(data[start : min(end, start + room)])

    def on_part_end(self) -> None:
        if len(self.done) < MAX_PARTS:
            self.done.append(self.current)


async def read_form(
    request: Request, *, file_limit: int, big_fields: frozenset[str] = frozenset()
) -> Submitted:
    """The query and form fields of ``request`` and its files, each file kept to ``file_limit`` bytes.

    Text fields are kept to :data:`MAX_FIELD` characters, except those in ``big_fields`` (a file's
    text sent back by a form), which get ``file_limit``. A urlencoded body is read by Starlette
    (it has no files).
    """
    fields: dict[str, str] = dict(request.query_params.items())
    if request.method != "POST":
        return Submitted(fields, {})
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    if content_type != b"multipart/form-data":
        body = await request.form(max_part_size=file_limit)
        fields.update((key, value) for key, value in body.multi_items() if isinstance(value, str))
        return Submitted(fields, {})
    boundary = options.get(b"boundary")
    if not boundary:
        raise UploadError("a multipart form without a boundary")

    def limit(part: _Part) -> int:
        return file_limit if part.filename is not None or part.name in big_fields else MAX_FIELD

    parts = _Parts(limit)
    parser = MultipartParser(boundary, parts.callbacks())
    cut = await _feed(request, parser, hard_limit=3 * file_limit + MAX_PARTS * MAX_FIELD)
    if cut and parts.current.filename is not None:
        parts.done.append(parts.current)  # the file being read when reading stopped: too large
    return _submitted(fields, parts, cut=cut)


async def read_form_or_query(
    request: Request, *, file_limit: int, big_fields: frozenset[str] = frozenset()
) -> tuple[Submitted, str | None]:
    """:func:`read_form`'s answer and None; or, for a body that is not a form, the query alone and why."""
    try:
        return await read_form(request, file_limit=file_limit, big_fields=big_fields), None
    except UploadError as error:
        return Submitted(dict(request.query_params.items()), {}), str(error)


class PageForm(NamedTuple):
    """What a page's handler starts from: the site, the form (or the query alone and why the body
    could not be read) and the page's language (``lang`` of the query or the form first)."""

    site: Site
    submitted: Submitted
    unreadable: str | None
    language: str


async def read_page_form(request: Request, *, file_limit: int, big_fields: frozenset[str]) -> PageForm:
    """:func:`read_form_or_query` of a page, with its site and language."""
    site = site_of(request)
    submitted, unreadable = await read_form_or_query(request, file_limit=file_limit, big_fields=big_fields)
    return PageForm(site, submitted, unreadable, site.language(request, submitted.fields))


async def _feed(request: Request, parser: MultipartParser, *, hard_limit: int) -> bool:
    """The body into ``parser``; True when it was cut at ``hard_limit`` bytes."""
    received = 0
    try:
        async for chunk in request.stream():
            room = hard_limit - received
            received += len(chunk)
            if received > hard_limit:
                parser.write(chunk[:room])  # the part being read when the limit is reached is known
                return True
            parser.write(chunk)
        parser.finalize()
    except FormParserError as error:
        raise UploadError(f"the multipart form could not be read: {error}") from None
    return False


def _submitted(fields: dict[str, str], parts: _Parts, *, cut: bool) -> Submitted:
    """The text fields and files of the parts read, each kept to its limit."""
    files: dict[str, Upload] = {}
    too_long: set[str] = set()
    for part in parts.done:
        cap = parts.limit(part)
        if part.filename is None:
            if len(part.data) > cap:
                too_long.add(part.name)
            fields[part.name] = bytes(part.data[:cap]).decode("utf-8", errors="replace")
        elif part.filename or part.data:  # a file input left empty sends a nameless empty part
            too_large = len(part.data) > cap or (cut and part is parts.current)
            files[part.name] = Upload(part.filename, bytes(part.data[:cap]), part.size, too_large)
    return Submitted(fields, files, frozenset(too_long), cut=cut)


def rules_file_text(data: bytes) -> str:
    """An uploaded club rules file's text, read as the file readers read text: UTF-8, else Windows-1252."""
    return decode(data)[0]


def refuse_rules_file(problems: Problems, filename: str) -> None:
    """A club rules file over :data:`MAX_RULES_FILE`, refused beside its field (never cut)."""
    t = problems.t
    problems.add(
        ("rules_file",),
        filename,
        f"larger than {MAX_RULES_FILE} bytes",
        message=t.gettext(
            "The rules file “%(file)s” is larger than %(size)s: a club’s rules take a few hundred bytes.",
            file=filename,
            size=size_text(MAX_RULES_FILE, t),
        ),
    )
