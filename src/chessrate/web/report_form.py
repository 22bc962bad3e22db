"""The tournament-file form (``/report`` and ``POST /api/report``) read into the report's inputs.

The file arrives as bytes in memory (:mod:`chessrate.web.uploads`). Nothing is kept: the page sends
the file's text back inside its download form, so that the CSV is made from the same file without
the server storing it.
"""

from __future__ import annotations

import dataclasses

from chessrate.service.options import OptionInputs
from chessrate.service.tournament_file import (
    MAX_FILE,
    MAX_LIST_FILE,
    MAX_SMALL_FILE,
    FileInput,
    ReportInputs,
)
from chessrate.web import forms
from chessrate.web.uploads import MAX_RULES_FILE, Submitted, Upload, rules_file_text

#: Form fields that carry a file's text back (the download form), read with the file's limit.
TEXT_FIELDS = frozenset({"content", "k_content", "list_content"})


def effective_fields(submitted: Submitted) -> dict[str, str]:
    """The text fields, with an uploaded club rules file as ``rules_toml`` when none was pasted (a file
    over :data:`~chessrate.web.uploads.MAX_RULES_FILE` is not read: :func:`rules_file_too_large`)."""
    fields = dict(submitted.fields)
    rules_file = submitted.files.get("rules_file")
    pasted = fields.get("rules_toml", "").strip()
    if rules_file and rules_file.data and not pasted and rules_file_too_large(submitted) is None:
        fields["rules_toml"] = rules_file_text(rules_file.data)
    return fields


def rules_file_too_large(submitted: Submitted) -> str | None:
    """The name of an uploaded club rules file over the limit, refused; None when there is none."""
    rules_file = submitted.files.get("rules_file")
    if rules_file is None or not (rules_file.too_large or rules_file.size > MAX_RULES_FILE):
        return None
    return rules_file.filename or "rules.toml"


def report_inputs(submitted: Submitted, *, api: bool = False) -> ReportInputs:
    """The inputs of a submitted form: the page's (``k_preset``) or the API's (``k``)."""
    fields = effective_fields(submitted)
    if api:
        options = OptionInputs(
            **{name: fields.get(name, "") for name in ("as_of", "rules_toml", "k")},
            rules=fields.get("rules", "fide"),
            expected=fields.get("expected", "rules"),
            cap=fields.get("cap", "auto"),
        )
    else:  # the page: K from the rules, 40, 20, 10 or "custom" with k; no player profile
        options = dataclasses.replace(forms.options(fields), birth_year="", rated_games="", highest_rating="")
    return ReportInputs(
        file=_file_input(submitted, "file", "content", "filename", MAX_FILE),
        k_file=_file_input(submitted, "k_file", "k_content", "k_filename", MAX_SMALL_FILE),
        # FIDE's list is fixed columns of Latin-1 bytes: its text comes back as such.
        players_list=_file_input(
            submitted, "players_list", "list_content", "list_filename", MAX_LIST_FILE, encoding="latin-1"
        ),
        list_type=fields.get("list_type", ""),
        strict=fields.get("strict", ""),
        options=options,
    )


def _file_input(
    submitted: Submitted, name: str, text_field: str, name_field: str, limit: int, *, encoding: str = "utf-8"
) -> FileInput | None:
    """The uploaded file ``name``, else the text sent back in ``text_field`` (the download form)."""
    upload: Upload | None = submitted.files.get(name)
    if upload is not None:
        too_large = upload.too_large or upload.size > limit or (submitted.cut and not upload.data)
        return FileInput(
            name=upload.filename, data=upload.data[:limit], size=upload.size, too_large=too_large
        )
    text = submitted.fields.get(text_field, "")
    if not text:
        return None
    data = text.encode(encoding, errors="replace")
    filename = submitted.fields.get(name_field, "") or "tournament"
    too_large = text_field in submitted.too_long or len(data) > limit
    return FileInput(name=filename, data=data[:limit], size=len(data), too_large=too_large)
