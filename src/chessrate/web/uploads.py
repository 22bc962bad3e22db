"""Forms with files, read into memory: an uploaded file is never written to disk.

Starlette's form parser spools a file of more than 1 MB to a temporary file. The tournament-file
page promises that a file stays in memory and is kept nowhere, so its forms are read here with
python-multipart (the parser Starlette itself uses): each file goes into a ``bytearray`` and
stops growing at its limit; the rest of it is read and dropped, so the fields after it still
arrive. Past a hard limit on the whole body, reading stops.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from fastapi import Request
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

#: Longest text field kept (a pasted club TOML is far shorter).
MAX_FIELD = 100_000
#: Most parts (fields and files) read from one form.
MAX_PARTS = 200


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
        for key, value in body.multi_items():
            if isinstance(value, str):
                fields[key] = value
        return Submitted(fields, {})
    boundary = options.get(b"boundary")
    if not boundary:
        raise UploadError("a multipart form without a boundary")
    parts: list[_Part] = []
    current = _Part()
    header_name = bytearray()
    header_value = bytearray()

    def limit(part: _Part) -> int:
        return file_limit if part.filename is not None or part.name in big_fields else MAX_FIELD

    def on_part_begin() -> None:
        nonlocal current
        current = _Part()

    def on_header_field(data: bytes, start: int, end: int) -> None:
        header_name.extend(data[start:end])

    def on_header_value(data: bytes, start: int, end: int) -> None:
        header_value.extend(data[start:end])

    def on_header_end() -> None:
        current.headers[bytes(header_name).lower()] = bytes(header_value)
        header_name.clear()
        header_value.clear()

    def on_headers_finished() -> None:
        _, disposition = parse_options_header(current.headers.get(b"content-disposition", b""))
        current.name = disposition.get(b"name", b"").decode("utf-8", errors="replace")
        if b"filename" in disposition:
            current.filename = disposition[b"filename"].decode("utf-8", errors="replace")

    def on_part_data(data: bytes, start: int, end: int) -> None:
        current.size += end - start
        room = limit(current) + 1 - len(current.data)  # one byte past the limit tells "too large"
        if room > 0:
            current.data.extend(data[start : min(end, start + room)])

    def on_part_end() -> None:
        if len(parts) < MAX_PARTS:
            parts.append(current)

    parser = MultipartParser(
        boundary,
        {
            "on_part_begin": on_part_begin,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_headers_finished": on_headers_finished,
        },
    )
    hard_limit = 3 * file_limit + MAX_PARTS * MAX_FIELD
    received = 0
    cut = False
    try:
        async for chunk in request.stream():
            room = hard_limit - received
            received += len(chunk)
            if received > hard_limit:
                parser.write(chunk[:room])  # the part being read when the limit is reached is known
                cut = True
                break
            parser.write(chunk)
        if not cut:
            parser.finalize()
    except FormParserError as error:
        raise UploadError(f"the multipart form could not be read: {error}") from None
    if cut and current.filename is not None:
        parts.append(current)  # the file being read when reading stopped: too large
    files: dict[str, Upload] = {}
    too_long: set[str] = set()
    for part in parts:
        cap = limit(part)
        if part.filename is not None:
            if part.filename or part.data:  # a file input left empty sends a nameless empty part
                too_large = len(part.data) > cap or (cut and part is current)
                files[part.name] = Upload(part.filename, bytes(part.data[:cap]), part.size, too_large)
        else:
            if len(part.data) > cap:
                too_long.add(part.name)
            fields[part.name] = bytes(part.data[:cap]).decode("utf-8", errors="replace")
    return Submitted(fields, files, frozenset(too_long), cut=cut)
