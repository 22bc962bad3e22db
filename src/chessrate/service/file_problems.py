"""A tournament file's problems in the user's language: each reader's code and values, said from the catalogs.

The readers (:mod:`chessrate.formats`), FIDE's list reader and the tournament report give each
problem as a code with its values (``Problem.code``, ``.params``); :func:`file_problem` says it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from chessrate.service.language import Translator
from chessrate.service.problems import input_reason, list_type_words

FileText = Callable[[Translator, dict[str, object]], str]


def _csv_field(t: Translator, name: object) -> str:
    labels = {
        "white": t.gettext("White’s name"),
        "black": t.gettext("Black’s name"),
        "white_rating": t.gettext("White’s rating"),
        "black_rating": t.gettext("Black’s rating"),
        "result": t.gettext("result"),
        "date": t.gettext("date"),
        "round": t.gettext("round"),
    }
    return labels.get(str(name), str(name))


def _invalid_value(t: Translator, p: dict[str, object]) -> str:
    if "reason" in p:  # a CSV cell refused by chessrate.parse
        reason = input_reason(str(p.get("reason_code", "")), p, str(p["reason"]), t)
        return t.gettext(
            "invalid %(field)s “%(value)s”: %(reason)s",
            field=_csv_field(t, p["field"]),
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
    "unknown-format": lambda t, p: t.gettext("not a TRF, PGN or CSV file"),
    "control-character": lambda t, p: t.gettext(
        "a control character (%(character)s) in column %(column)s", **p
    ),
    "control-character-in-tag": lambda t, p: t.gettext(
        "a control character (%(character)s) in the %(tag)s tag", **p
    ),
    "empty-file": lambda t, p: t.gettext("the file is empty"),
    "no-games": lambda t, p: t.gettext("the file has no games"),
    "no-players": lambda t, p: t.gettext("the file has no 001 player record"),
    "repeated-player": lambda t, p: t.gettext(
        "starting number %(player)s already used on line %(other_line)s", **p
    ),
    "self-pairing": lambda t, p: (
        t.gettext("“%(name)s” plays themselves", **p) if "name" in p else t.gettext("paired with themselves")
    ),
    "unknown-opponent": lambda t, p: t.gettext("meets %(opponent)s, who is not in the file", **p),
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
    "result-mismatch": lambda t, p: t.gettext(
        "has result “%(result)s” against %(opponent)s, whose line %(other_line)s has “%(other_result)s”", **p
    ),
    "colour-mismatch": lambda t, p: t.gettext("has the same colour “%(colour)s” as %(opponent)s", **p),
    "colour-missing": lambda t, p: t.gettext("the game with %(opponent)s has no colour on one side", **p),
    "points-mismatch": lambda t, p: t.gettext(
        "player %(player)s declares %(declared)s points; the rounds give %(computed)s", **p
    ),
    "player-count": lambda t, p: t.gettext(
        "record 062 announces %(count)s players; the file has %(found)s", **p
    ),
    "rated-count": lambda t, p: t.gettext(
        "record 072 announces %(count)s rated players; the file has %(found)s", **p
    ),
    "csv-syntax": lambda t, p: t.gettext("unreadable CSV: %(detail)s", **p),
    "csv-header": lambda t, p: t.gettext(
        "the header row must name the columns %(columns)s; missing: %(missing)s", **p
    ),
    "csv-column": lambda t, p: t.gettext("column “%(column)s” is not used", **p),
    "csv-repeated-column": lambda t, p: t.gettext(
        "the header row names the column “%(column)s” more than once", **p
    ),
    "csv-quote-open": lambda t, p: t.gettext(
        "a quote opened on this line runs to line %(to_line)s; a field cannot hold a line break", **p
    ),
    "csv-row": lambda t, p: t.gettext("%(found)s fields where the header has %(count)s", **p),
    "rating-changes": lambda t, p: t.gettext(
        "“%(name)s” is rated %(rating)s here and %(other_rating)s elsewhere; each game keeps its own ratings",
        **p,
    ),
    "no-result": lambda t, p: (
        t.gettext("paired with %(opponent)s but no result yet", **p)
        if "opponent" in p
        else t.gettext("the game has no result")
    ),
    "invalid-result": lambda t, p: t.gettext("invalid result “%(value)s”", **p),
    "variant": lambda t, p: t.gettext("“%(value)s”, not standard chess: not rated", **p),
    "unreadable-round": lambda t, p: t.gettext("cannot read the round “%(value)s”", **p),
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
    "no-rating": lambda t, p: t.gettext("“%(name)s” has no rating", **p),
    "several-events": lambda t, p: t.gettext("the games belong to %(count)s events", **p),
    "name-mismatch": lambda t, p: t.gettext(
        "player %(player)s is “%(name)s” here and “%(other_name)s” on line %(other_line)s", **p
    ),
    "unknown-line": lambda t, p: t.gettext("not a TRF record: “%(value)s”", **p),
    "unknown-record": lambda t, p: t.gettext("unknown record “%(record)s”", **p),
    "repeated-record": lambda t, p: t.gettext("record %(record)s repeated; the first one is kept", **p),
    "unreadable-date": lambda t, p: (
        t.gettext("cannot read the date “%(value)s” of record %(record)s", **p)
        if "record" in p
        else t.gettext("cannot read the round date “%(value)s”", **p)
    ),
    "ambiguous-date": lambda t, p: _ambiguous_date(t, p),
    "unreadable-count": lambda t, p: t.gettext("record %(record)s is not a number: “%(value)s”", **p),
    "invalid-rounds": lambda t, p: (
        t.gettext(
            "record %(record)s announces %(value)s rounds, more than the %(limit)s a file may have", **p
        )
        if "limit" in p
        else t.gettext("invalid number of rounds “%(value)s” in record %(record)s", **p)
    ),
    "unread-scoring": lambda t, p: t.gettext("scoring not understood: %(value)s", **p),
    "invalid-player": lambda t, p: t.gettext(
        "invalid starting number “%(value)s” (columns %(columns)s)", **p
    ),
    "invalid-sex": lambda t, p: t.gettext("unknown sex “%(value)s” (column %(columns)s)", **p),
    "unknown-title": lambda t, p: t.gettext("unknown title “%(value)s” (columns %(columns)s)", **p),
    "no-name": lambda t, p: t.gettext("player %(player)s has no name (columns %(columns)s)", **p),
    "invalid-points": lambda t, p: t.gettext("invalid points “%(value)s” (columns %(columns)s)", **p),
    "unreadable-birth-date": lambda t, p: t.gettext(
        "cannot read the birth date “%(value)s” (columns %(columns)s)", **p
    ),
    "misaligned-cell": lambda t, p: t.gettext("“%(value)s” is not in the TRF columns", **p),
    "invalid-opponent": lambda t, p: t.gettext("invalid opponent “%(value)s”", **p),
    "invalid-colour": lambda t, p: t.gettext("invalid colour “%(value)s”", **p),
    "bye-with-opponent": lambda t, p: t.gettext("bye “%(value)s” with opponent %(opponent)s", **p),
    "result-without-opponent": lambda t, p: t.gettext("result “%(value)s” without an opponent", **p),
    "too-many-rounds": lambda t, p: (
        t.gettext("cells for %(count)s rounds, more than the %(limit)s a file may have", **p)
        if "limit" in p
        else t.gettext("cells for %(count)s rounds; the file announces %(planned)s", **p)
    ),
    # FIDE's rating list (formats.fide_list) and what the report found in it (report.py).
    "unknown-column": lambda t, p: t.gettext("column “%(column)s” of the header is not known: ignored", **p),
    "bad-player-line": lambda t, p: _bad_list_player(t, p),
    "bad-player-record": lambda t, p: _bad_list_player(t, p),
    "broken-xml": lambda t, p: t.gettext("the XML is broken (%(reason)s); reading stopped", **p),
    "xml-encoding": lambda t, p: t.gettext(
        "the XML’s encoding is unknown (%(reason)s); reading stopped", **p
    ),
    "xml-entities": lambda t, p: t.gettext("the XML declares a DTD or an entity: refused"),
    "line-too-long": lambda t, p: t.gettext(
        "a line or text longer than %(limit)s characters; reading stopped", **p
    ),
    "zip-unreadable": lambda t, p: t.gettext("the zip cannot be read; reading stopped"),
    "unknown-flag": lambda t, p: t.gettext("flag “%(flag)s” is not i, w or wi: ignored", **p),
    "unknown-sex": lambda t, p: t.gettext("sex “%(sex)s” is not M or F: ignored", **p),
    "list-rating-differs": lambda t, p: _list_rating_differs(t, p),
    # The report's own notes (chessrate.tournament.report: TournamentReport.notes).
    "rules-oldest-kept": lambda t, p: _oldest_kept(t, p),
    "game-not-rated": lambda t, p: t.gettext(
        "the game %(white)s-%(black)s (%(white_rating)s against %(black_rating)s) is not rated: "
        "%(difference)s points or more apart with a player above %(above)s (%(source)s)",
        **p,
    ),
    "k-file-unknown-player": lambda t, p: t.gettext(
        "K file: no player has the FIDE id or start number %(key)s", **p
    ),
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
