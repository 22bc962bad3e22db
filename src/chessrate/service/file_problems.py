"""A tournament file's problems in the user's language: each reader's code and values, said from the catalogs.

The readers (:mod:`chessrate.formats`), FIDE's list reader and the tournament report give each
problem as a code with its values (``Problem.code``, ``.params``); :func:`file_problem` says it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from chessrate.service.language import Template, Translator, said, said_if, said_word
from chessrate.service.problems import input_reason, list_type_words

FileText = Callable[[Translator, dict[str, object]], str]


#: A CSV game list's fields (chessrate.formats.csvgames).
CSV_FIELDS: dict[str, Template] = {
    "white": said("White’s name"),
    "black": said("Black’s name"),
    "white_rating": said("White’s rating"),
    "black_rating": said("Black’s rating"),
    "result": said("result"),
    "date": said("date"),
    "round": said("round"),
}


def _invalid_value(t: Translator, p: dict[str, object]) -> str:
    if "reason" in p:  # a CSV cell refused by chessrate.parse
        reason = input_reason(str(p.get("reason_code", "")), p, str(p["reason"]), t)
        return t.gettext(
            "invalid %(field)s “%(value)s”: %(reason)s",
            field=said_word(CSV_FIELDS, str(p["field"]), t),
            value=p["value"],
            reason=reason,
        )
    if "tag" in p:  # a PGN tag
        return t.gettext("invalid %(tag)s “%(value)s”", **p)
    fields = {"rating": t.gettext("rating"), "FIDE ID": t.gettext("FIDE id"), "rank": t.gettext("rank")}
    field = fields.get(str(p.get("field")), str(p.get("field", "")))
    return t.gettext(
        "invalid %(field)s “%(value)s” (columns %(columns)s)",
        field=field,
        value=p["value"],
        columns=p["columns"],
    )


# Each problem a tournament-file reader reports (chessrate.formats: Problem.code and .params).
_FILE_PROBLEMS: dict[str, FileText] = {
    "unknown-format": said("not a TRF, PGN or CSV file"),
    "control-character": said("a control character (%(character)s) in column %(column)s"),
    "control-character-in-tag": said("a control character (%(character)s) in the %(tag)s tag"),
    "empty-file": said("the file is empty"),
    "no-games": said("the file has no games"),
    "no-players": said("the file has no 001 player record"),
    "repeated-player": said("starting number %(player)s already used on line %(other_line)s"),
    "self-pairing": said_if("name", said("“%(name)s” plays themselves"), said("paired with themselves")),
    "unknown-opponent": said("meets %(opponent)s, who is not in the file"),
    "asymmetric-pairing": lambda t, p: (
        t.gettext(
            "meets %(opponent)s, but line %(other_line)s gives %(opponent)s no opponent in round %(round)s",
            **p,
        )
        if not p.get("other_opponent")
        else t.gettext(
            "meets %(opponent)s, but line %(other_line)s gives %(opponent)s opponent %(other_opponent)s in "
            "round %(round)s",
            **p,
        )
    ),
    "result-mismatch": said(
        "has result “%(result)s” against %(opponent)s, whose line %(other_line)s has “%(other_result)s”"
    ),
    "colour-mismatch": said("has the same colour “%(colour)s” as %(opponent)s"),
    "colour-missing": said("the game with %(opponent)s has no colour on one side"),
    "points-mismatch": said("player %(player)s declares %(declared)s points; the rounds give %(computed)s"),
    "player-count": said("record 062 announces %(count)s players; the file has %(found)s"),
    "rated-count": said("record 072 announces %(count)s rated players; the file has %(found)s"),
    "csv-syntax": said("unreadable CSV: %(detail)s"),
    "csv-header": said("the header row must name the columns %(columns)s; missing: %(missing)s"),
    "csv-column": said("column “%(column)s” is not used"),
    "csv-repeated-column": said("the header row names the column “%(column)s” more than once"),
    "csv-quote-open": said(
        "a quote opened on this line runs to line %(to_line)s; a field cannot hold a line break"
    ),
    "csv-row": said("%(found)s fields where the header has %(count)s"),
    "rating-changes": said(
        "“%(name)s” is rated %(rating)s here and %(other_rating)s elsewhere; each game keeps its own ratings"
    ),
    "no-result": said_if(
        "opponent", said("paired with %(opponent)s but no result yet"), said("the game has no result")
    ),
    "invalid-result": said("invalid result “%(value)s”"),
    "variant": said("“%(value)s”, not standard chess: not rated"),
    "unreadable-round": said("cannot read the round “%(value)s”"),
    "no-player-name": lambda t, p: (
        t.gettext("the game has no White player")
        if p["colour"] == "White"
        else t.gettext("the game has no Black player")
    ),
    "invalid-rating": _invalid_value,
    "invalid-fide-id": _invalid_value,
    "invalid-rank": _invalid_value,
    "invalid-white": _invalid_value,
    "invalid-black": _invalid_value,
    "invalid-white-rating": _invalid_value,
    "invalid-black-rating": _invalid_value,
    "invalid-date": _invalid_value,
    "invalid-round": _invalid_value,
    "no-rating": said("“%(name)s” has no rating"),
    "several-events": said("the games belong to %(count)s events"),
    "name-mismatch": said("player %(player)s is “%(name)s” here and “%(other_name)s” on line %(other_line)s"),
    "unknown-line": said("not a TRF record: “%(value)s”"),
    "unknown-record": said("unknown record “%(record)s”"),
    "repeated-record": said("record %(record)s repeated; the first one is kept"),
    "unreadable-date": said_if(
        "record",
        said("cannot read the date “%(value)s” of record %(record)s"),
        said("cannot read the round date “%(value)s”"),
    ),
    "ambiguous-date": lambda t, p: _ambiguous_date(t, p),
    "unreadable-count": said("record %(record)s is not a number: “%(value)s”"),
    "invalid-rounds": said_if(
        "limit",
        said("record %(record)s announces %(value)s rounds, more than the %(limit)s a file may have"),
        said("invalid number of rounds “%(value)s” in record %(record)s"),
    ),
    "unread-scoring": said("scoring not understood: %(value)s"),
    "invalid-player": said("invalid starting number “%(value)s” (columns %(columns)s)"),
    "invalid-sex": said("unknown sex “%(value)s” (column %(columns)s)"),
    "unknown-title": said("unknown title “%(value)s” (columns %(columns)s)"),
    "no-name": said("player %(player)s has no name (columns %(columns)s)"),
    "invalid-points": said("invalid points “%(value)s” (columns %(columns)s)"),
    "unreadable-birth-date": said("cannot read the birth date “%(value)s” (columns %(columns)s)"),
    "misaligned-cell": said("“%(value)s” is not in the TRF columns"),
    "invalid-opponent": said("invalid opponent “%(value)s”"),
    "invalid-colour": said("invalid colour “%(value)s”"),
    "bye-with-opponent": said("bye “%(value)s” with opponent %(opponent)s"),
    "result-without-opponent": said("result “%(value)s” without an opponent"),
    "too-many-rounds": said_if(
        "limit",
        said("cells for %(count)s rounds, more than the %(limit)s a file may have"),
        said("cells for %(count)s rounds; the file announces %(planned)s"),
    ),
    "mixed-encoding": said("this line is UTF-8 in a file that is not: read as UTF-8 (“%(value)s”)"),
    "more-problems": said(
        "%(count)s more problems not listed (the first %(limit)s errors and the first %(limit)s warnings are)"
    ),
    # FIDE's rating list (formats.fide_list) and what the report found in it (report.py).
    "unknown-column": said("column “%(column)s” of the header is not known: ignored"),
    "bad-player-line": lambda t, p: _bad_list_player(t, p),
    "bad-player-record": lambda t, p: _bad_list_player(t, p),
    "broken-xml": said("the XML is broken (%(reason)s); reading stopped"),
    "xml-encoding": said("the XML’s encoding is unknown (%(reason)s); reading stopped"),
    "xml-entities": said("the XML declares a DTD or an entity: refused"),
    "line-too-long": said("a line or text longer than %(limit)s characters; reading stopped"),
    "zip-unreadable": said("the zip cannot be read; reading stopped"),
    "unknown-flag": said("flag “%(flag)s” is not i, w or wi: ignored"),
    "unknown-sex": said("sex “%(sex)s” is not M or F: ignored"),
    "list-rating-differs": lambda t, p: _list_rating_differs(t, p),
    # The report's own notes (chessrate.tournament.report: TournamentReport.notes).
    "rules-oldest-kept": lambda t, p: _oldest_kept(t, p),
    "game-not-rated": said(
        "the game %(white)s-%(black)s (%(white_rating)s against %(black_rating)s) is not rated: "
        "%(difference)s points or more apart with a player above %(above)s (%(source)s)"
    ),
    "k-file-unknown-player": said("K file: no player has the FIDE id or start number %(key)s"),
}


def _oldest_kept(t: Translator, p: dict[str, object]) -> str:
    values = {
        "day": t.date(dt.date.fromisoformat(str(p["day"]))),
        "oldest": t.date(dt.date.fromisoformat(str(p["oldest"]))),
    }
    if p.get("list", "standard") != "standard":
        return t.gettext(
            "the tournament is of %(day)s, before %(oldest)s, the oldest FIDE rapid and blitz rules this "
            "calculator keeps: it is rated under the rules of %(oldest)s (the rules of its day differed)",
            **values,
        )
    return t.gettext(
        "the tournament is of %(day)s, before %(oldest)s, the oldest FIDE rules this calculator keeps: "
        "it is rated under the rules of %(oldest)s (the rules of its day differed)",
        **values,
    )


def _ambiguous_date(t: Translator, p: dict[str, object]) -> str:
    text = t.gettext(
        "the date “%(value)s” of record %(record)s is %(taken)s read day first (as taken) or %(other)s "
        "read month first",
        value=p["value"],
        record=p["record"],
        taken=t.date(dt.date.fromisoformat(str(p["taken"]))),
        other=t.date(dt.date.fromisoformat(str(p["other"]))),
    )
    if p["record"] != "042":
        return text
    return text + t.gettext("; it chooses the rating rules unless the rules’ date is given")


def _bad_list_player(t: Translator, p: dict[str, object]) -> str:
    # The other cells are named by FIDE's own header (B-day, SRtng...), the same in every language.
    cell = t.gettext("FIDE id") if p["cell"] == "FIDE id" else p["cell"]
    if p["why"] == "out-of-range":
        return t.gettext(
            "%(cell)s “%(value)s” is not a rating from %(low)s to %(high)s: player skipped",
            cell=cell,
            value=p["value"],
            low=p["low"],
            high=p["high"],
        )
    if p["why"] == "control-character":
        return t.gettext(
            "%(cell)s holds a control character (%(value)s): player skipped", cell=cell, value=p["value"]
        )
    if p["why"] == "not-a-year":
        return t.gettext("%(cell)s “%(value)s” is not a year: player skipped", cell=cell, value=p["value"])
    return t.gettext("%(cell)s “%(value)s” is not a number: player skipped", cell=cell, value=p["value"])


def _list_rating_differs(t: Translator, p: dict[str, object]) -> str:
    listed = list_type_words(str(p["list"]), t)
    return t.gettext(
        "player %(player)s (%(name)s, FIDE id %(fide_id)s): the file’s rating, %(file_rating)s, differs from "
        "the %(list)s list’s, %(list_rating)s; the file’s is used",
        **{**p, "list": f"{listed} {p['month']}".strip()},
    )


def file_problem(code: str, params: tuple[tuple[str, object], ...], message: str, t: Translator) -> str:
    """A tournament file's problem in ``t``'s language: where in the file (round, player, columns) and what.

    Falls back to the reader's English ``message`` for a problem it does not know.
    """
    values = dict(params)
    render = _FILE_PROBLEMS.get(code)
    if render is None:
        return message
    try:
        text = render(t, values)
        if "round" in values and "player" in values:
            return t.gettext("round %(round)s, player %(player)s: %(text)s", text=text, **values)
        if "round" in values and "columns" in values:
            return t.gettext("round %(round)s (columns %(columns)s): %(text)s", text=text, **values)
    except (KeyError, TypeError, ValueError):
        return message
    return text
