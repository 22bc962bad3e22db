"""Bad and missing input, collected per field, with messages in the user's language.

Every value is parsed by :mod:`chessrate.parse`; an :class:`~chessrate.errors.InvalidInputError`
is kept under the path of the field that caused it, so that the web page shows the message beside
that field, the API answers 422 naming it and the command line prints one line about it. Paths are
tuples such as ``("games", 2, "opponent")``: the form's field is ``games-2-opponent``, the API's
``loc`` is ``["body", "games", 2, "opponent"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from chessrate.errors import ADDRESS_REASONS, ADDRESS_REFUSED, InvalidInputError, RatingError
from chessrate.parse import MAX_RATING, MIN_RATING
from chessrate.ratinglist.refusals import FILE_REASON_WORDS, IMPORT_REFUSALS, STORE_REFUSALS
from chessrate.service.fetch_refusals import FETCH_REFUSALS
from chessrate.service.language import Template, Translator, said, said_plural, said_with_reason, said_word

T = TypeVar("T")
Path = tuple[str | int, ...]

#: Fields that hold a rating, all checked by ``parse_rating``.
RATING_FIELDS = frozenset({"rating", "opponent", "average", "start_rating", "highest_rating"})
#: Longest part of a bad value repeated in a message.
VALUE_SHOWN = 30


def field_id(path: Path) -> str:
    """The form name and error-slot id of a field: ``games-2-opponent``."""
    return "-".join(str(part) for part in path)


def field_name(path: Path) -> str:
    """The field's own name, the last name in its path: ``opponent`` of ``games-2-opponent``."""
    return next((part for part in reversed(path) if isinstance(part, str)), "")


@dataclass
class Problem:
    path: Path
    value: object
    #: The library's reason, in English (the API's ``ctx.reason``).
    reason: str
    #: What the user reads beside the field, in their language.
    message: str
    #: The library's own sentence, in English, when the error is more than a bad value of the
    #: field (a club's rules that do not parse, a file refused): the command line prints it whole.
    detail: str | None
    #: The reason in the user's language (from the error's code; else ``reason``).
    said: str = ""


@dataclass
class Problems:
    """Errors and missing fields of one request."""

    t: Translator
    errors: dict[Path, Problem] = field(default_factory=dict)
    missing: list[Path] = field(default_factory=list)
    #: The rating system of the request and the ratings it accepts, said by the hint of a rating
    #: field that holds no number or one out of range: FIDE's Elo, 0 to 4000, unless the request
    #: sets its own (DWZ, ECF, US Chess: ``chessrate.service.systems``).
    rating_scale: tuple[str, int | Decimal, int | Decimal] = ("Elo", int(MIN_RATING), int(MAX_RATING))

    def __bool__(self) -> bool:
        return bool(self.errors or self.missing)

    def parse(self, path: Path, text: str, parser: Callable[[str], T]) -> T | None:
        """``parser(text)``, or None with the error kept under ``path`` (or noted missing if blank)."""
        if not text.strip():
            self.missing.append(path)
            return None
        return self._compute(path, text, lambda: parser(text))

    def optional(self, path: Path, text: str, parser: Callable[[str], T]) -> T | None:
        """Like :meth:`parse`, but a blank field is simply absent."""
        if not text.strip():
            return None
        return self._compute(path, text, lambda: parser(text))

    def attempt(
        self, path: Path, value: object, compute: Callable[[], T], *, fields: Collection[str] = ()
    ) -> T | None:
        """``compute()`` (a calculation of the core), or None with its error kept under ``path``.

        An :class:`~chessrate.errors.InvalidInputError` naming one of ``fields`` (the DWZ core
        refusing an ``age``, US Chess's ``games played``) is kept under that field, with its value.
        """
        return self._compute(path, value, compute, fields=fields)

    def _compute(
        self, path: Path, value: object, compute: Callable[[], T], *, fields: Collection[str] = ()
    ) -> T | None:
        try:
            return compute()
        except RatingError as error:
            if isinstance(error, InvalidInputError):
                own = error.field.strip().replace(" ", "_")
                if own in fields:
                    path, value = (own,), error.value
            self.add(path, value, error)
        except ArithmeticError:
            # A value so small or so large that the arithmetic fails (an overflow, a division by
            # an RD squared to zero): a problem of the field, never a crash.
            reason = "too extreme to compute with"
            self.add(path, value, InvalidInputError(field_name(path), value, reason, code="not-computable"))
        return None

    def add(self, path: Path, value: object, error: RatingError | str, **extra: object) -> None:
        """Keep ``error`` under ``path``. ``message=``: what the user reads, whatever the error;
        ``hint=``: what to type, with the field's whole range: shown when the value is not of the
        field's kind (not a number), out of that range, or refused without a code to say it by."""
        reason = error.reason if isinstance(error, InvalidInputError) else str(error)
        code, params = _code(error)
        said = input_reason(code, params, reason, self.t)
        detail = None if isinstance(error, str | InvalidInputError) else str(error)
        if path not in self.errors:
            message = self._message(path, value, code, said, {**extra, "params": params})
            self.errors[path] = Problem(path, value, reason, message, detail, said)

    def _message(self, path: Path, value: object, code: str, reason: str, extra: dict[str, object]) -> str:
        """What the user reads: the field's own hint when the value is not of its kind, else the reason
        the error gives (from its code), so that a range or a rule is said as it is."""
        _ = self.t.gettext
        if "message" in extra:
            return str(extra["message"])
        name = field_name(path)
        shown = str(value) if value is not None else ""
        shown = shown if len(shown) <= VALUE_SHOWN else shown[: VALUE_SHOWN - 1] + "…"
        hint = extra.get("hint")
        if hint is not None and (code in KIND_CODES | RANGE_CODES or not code):
            return str(hint)
        if name in RATING_FIELDS and code in KIND_CODES | {"rating-range"}:
            return self._rating_hint(shown, code, extra["params"])
        hints = _FIELD_HINTS.get(name)
        if hints is not None and (hints[0] is None or code in hints[0]):
            return hints[1](self.t, {"value": shown, "reason": reason})
        if not shown and code:  # nothing typed: the reason says what to give
            return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")
        return _("Check this value: %(reason)s", reason=reason)

    def _rating_hint(self, shown: str, code: str, params: object) -> str:
        """What to type in a rating field: a number in the system's range (the error's own bounds
        when it gives them)."""
        system, low, high = self.rating_scale
        if code == "rating-range" and isinstance(params, dict) and {"low", "high"} <= params.keys():
            low, high = params["low"], params["high"]
        if system == "Elo":
            return self.t.gettext(
                "“%(value)s” is not a rating: write a number from %(low)s to %(high)s, such as 1500.",
                value=shown,
                low=low,
                high=high,
            )
        return self.t.gettext(
            "“%(value)s” is not a %(system)s rating: write a number from %(low)s to %(high)s, such as 1500.",
            value=shown,
            system=system,
            low=low,
            high=high,
        )


#: The codes of a value that is not of the field's kind at all (a word where a number goes).
KIND_CODES = frozenset({"not-a-number", "not-finite", "too-long", "digits", "too-large", "not-whole"})
#: The codes of a number out of its field's range (chessrate.parse.parse_count, parse_in_range).
RANGE_CODES = frozenset({"minimum", "maximum"})

#: The games of a player's record: a whole number from 0 to 10,000.
_GAMES_SO_FAR = (
    KIND_CODES | RANGE_CODES,
    said("“%(value)s”: write a whole number of games, from 0 to 10,000."),
)
#: A field's hint (said with the value shown as ``value``, the library's reason as ``reason``)
#: and the codes it answers (None: every code).
_FIELD_HINTS: dict[str, tuple[frozenset[str] | None, Template]] = {
    "result": (
        KIND_CODES | {"result"},
        said("“%(value)s” is not a result: write 1, ½ (or 0.5) or 0, or win, draw or loss."),
    ),
    "points": (
        KIND_CODES | {"points-range", "half-points"},
        said("“%(value)s”: points are whole or half points, from 0 to the number of games."),
    ),
    "games": (KIND_CODES | RANGE_CODES, said("“%(value)s”: write the number of games, from 1 to 10,000.")),
    "rated_games": _GAMES_SO_FAR,
    "games_this_period": _GAMES_SO_FAR,
    "k": (
        KIND_CODES | {"k", "k-maximum"},
        said("“%(value)s”: K is a whole number from 1 to 1000, such as 20."),
    ),
    "birth_year": (
        KIND_CODES | {"minimum", "future-year"},
        said("“%(value)s” is not a birth year: write four digits, not in the future."),
    ),
    "as_of": (
        None,
        said("“%(value)s” is not a day we know rules for: write YYYY-MM-DD, from 2014-07-01 on."),
    ),
    "rules_toml": (None, said("The club’s rules could not be read: %(reason)s")),
}


def _code(error: RatingError | str) -> tuple[str, dict[str, object]]:
    """An error's code and values (an InvalidInputError's, a club rule set's), if it has them."""
    if isinstance(error, str):
        return "", {}
    code = getattr(error, "code", "")
    params = getattr(error, "params", {})
    return (code if isinstance(code, str) else ""), (dict(params) if isinstance(params, dict) else {})


#: Why the server cannot listen on an address (the codes of chessrate.errors.address_reason).
_ADDRESS_REASON_WORDS: dict[str, Template] = {
    reason.code: said(reason.english) for reason in (*ADDRESS_REASONS.values(), ADDRESS_REFUSED)
}


# The reasons of chessrate.parse (InvalidInputError.code), in the user's language.
_INPUT_REASONS: dict[str, Callable[[Translator, dict[str, object]], str]] = {
    "not-a-number": said("not a number"),
    "not-finite": said("not a finite number"),
    "result": said("a result is 1, ½ (or 0.5) or 0, or win, draw or loss"),
    "thousands-separator": said("write a rating without a thousands separator, such as 1500"),
    "rating-range": said("a rating is between %(low)s and %(high)s"),
    "points-range": said("points are between 0 and the %(games)s games played"),
    "half-points": said("points are whole or half points"),
    "not-whole": said("not a whole number"),
    "minimum": said("it must be at least %(minimum)s"),
    "k": said("K is a whole number above zero"),
    "date": said("a date is written YYYY-MM-DD"),
    "too-large": said("too large"),
    "too-long": said("longer than %(length)s characters"),
    "digits": said("write the number with the digits 0-9"),
    "maximum": said("it must be at most %(maximum)s"),
    "k-maximum": said("K is at most %(maximum)s"),
    "above-zero": said("it must be above zero"),
    "not-negative": said("it cannot be negative"),
    "one-of": said("write one of: %(choices)s"),
    "not-rated-game": said(
        "the game is not rated: %(difference)s points or more apart with a player above %(above)s "
        "(FIDE rapid and blitz 8.3.1, from 1 December 2024)"
    ),
    "not-rated-with-total": said(
        "a game is not rated (FIDE rapid and blitz 8.3.1): give each game’s result, not the total"
    ),
    "colour-result": said(
        "a result such as 1-0 gives White’s score, and the player’s colour is not known here: write "
        "1, ½ or 0 from the player’s side"
    ),
    "too-small": said("too small to compute with"),
    "not-computable": said("too extreme to compute with"),
    "too-many-rows": said("at most %(maximum)s games"),
    "too-many-events": said("at most %(maximum)s tournaments"),
    "future-year": said("a birth year cannot be in the future"),
    "whole-rating": said("this rating is a whole number"),
    "pool-rating": said("write POOL=RATING, such as lichess-classical=1900"),
    "pool-same": said("the rating given is already in this pool"),
    "pool-no-conversion": said("no published conversion leads to this pool"),
    "pool-needs": said("the published conversions to %(pool)s need: %(needs)s"),
    "age": said("an age is a whole number of years from 0 to %(maximum)s"),
    "uscf-rating-needed": said(
        "a player with rated games played has a rating: give it, or 0 games for an unrated player"
    ),
    "lichess-rating-bounds": said(
        "a Lichess rating is from 400 (lila's minRating) to below 4000 (lila's sanity check)"
    ),
    "pool-rating-outside": lambda t, p: (
        t.gettext("a %(pool)s rating is from %(lowest)s to below %(highest)s", **p)
        if p.get("highest")
        else t.gettext("a %(pool)s rating is %(lowest)s or more", **p)
    ),
    "pool-result-outside": said(
        "the published fit %(fit)s gives %(value)s %(pool)s, below its lowest rating %(lowest)s: outside "
        "the range the fit can say anything about"
    ),
    "ecf-grade-not-rating": said(
        "%(value)s looks like an old three-digit ECF grade, not a rating: a grade converts as "
        "7.5 × grade + 700 = %(rating)s; give it as a grade to convert every value"
    ),
    "dwz-first-rating": said(
        "a first DWZ (Index 0) is not computed: the Wertungsordnung gives it, with at least 5 games against "
        "opponents with a DWZ, neither all won nor all lost, by an iteration over the whole tournament "
        "(WO 3.4.1, 3.4.4), which one player's games cannot run"
    ),
    "uscf-future-event": said(
        "the event ends after today (%(today)s): a US Chess event is rated once it has ended"
    ),
    "uscf-games-played-needed": said(
        "give the rated games played before this event: they weigh the rating (0 only for an unrated player)"
    ),
    "c-for-idle-periods": said("periods idle grow the RD by c each period: give c"),
    "c-growth": said("c is a number, or FROM:TO:N for the c that takes an RD from FROM to TO in N periods"),
    # The rating systems' own refusals (chessrate.systems: FIDE's Elo, DWZ, ECF, US Chess, Glicko).
    "games-none": said("at least one game"),
    "tournament-no-games": said("a tournament needs at least one game"),
    "events-no-games": said("every tournament needs at least one game"),
    "event-no-games": said("an event needs at least one game"),
    "performance-no-games": said("a performance needs at least one game"),
    "dwz-no-games": said("an evaluation needs at least one game"),
    "points-or-results": said("give per-game results or total points"),
    "points-at-most": said("points are between 0 and %(games)s"),
    "points-of-games": said("points are between 0 and the %(games)s games"),
    "period-result-needed": said("every game of a period needs a result"),
    "rules-need-k": said("the rule set '%(rules)s' needs K to be given"),
    "rules-known-from": lambda t, p: t.gettext(
        "%(list)s rules are known from %(first)s on", list=_list_word(t, p), first=p["first"]
    ),
    "fractional-score": said("p is between 0 and 1"),
    "standard-rating-rapid-only": said(
        "a standard rating counts only for a rapid or blitz tournament from 1 March 2024 "
        "(FIDE rapid and blitz 7.2.1)"
    ),
    "dwz-index": said("the Index counts previous evaluations: 0 or more"),
    "ecf-grade": said("an ECF grade is 0 or more"),
    "games-count": said("a number of games, 0 or more"),
    "whole-not-negative": said("a whole number, 0 or more"),
    "whole-at-least-one": said("a whole number of at least 1"),
    "score-range": said("a score is between 0 (loss) and 1 (win)"),
    "deviation-grows": said("RD only grows while idle"),
    "own-opponent": said("a player cannot play themself"),
    "no-start-rating": said("has no rating at the period start"),
    "lichess-deviation-bounds": said("a Lichess RD is from 45 to 500 (lila's bounds)"),
    # The numpy engine's arrays (chessrate.bulk): games and players by their index from 0.
    "bulk-score": said("game %(game)s: a score is 1, 0.5 or 0"),
    "bulk-whole-array": said("a one-dimensional array of whole numbers"),
    "bulk-per-game": said("one value per game (%(games)s)"),
    "bulk-index-negative": said("game %(game)s: cannot be negative"),
    "bulk-whole-per-game": said("one whole number per game (%(games)s)"),
    "bulk-half-points": said("game %(game)s: 0, 1 or 2 half points"),
    "bulk-own-opponent": said("game %(game)s: a player cannot play themself"),
    "bulk-player-unknown": said("game %(game)s: only %(players)s players rated"),
    "bulk-rating-per-player": said("one rating per player"),
    "bulk-rating-per-game": said("one per game (%(games)s)"),
    "bulk-whole-ratings": said("the bulk engine rates whole-number ratings"),
    "bulk-rating-range": said("a rating is between %(low)s and %(high)s"),
    "bulk-player-rating-range": said("player %(player)s: a rating is between %(low)s and %(high)s"),
    "bulk-per-player": said("one value per player"),
    "bulk-finite": said("player %(player)s: a finite number"),
    "bulk-setting-positive": said("must be a finite number above zero"),
    "bulk-profile-per-player": said("one whole number per player (%(players)s), -1 if unknown"),
    "bulk-k-per-player": said("one whole number per player (%(players)s)"),
    "bulk-k-positive": said("player %(player)s: K is a whole number above zero"),
    "bulk-deviation-range": said("player %(player)s: an RD is between %(low)s and %(high)s"),
    "bulk-volatility-range": said("player %(player)s: a volatility is between %(low)s and %(high)s"),
    "bulk-setting-range": said("must be a number from %(low)s to %(high)s"),
    # A club's rule set as TOML (chessrate.systems.elo.presets.rule_set_from_toml: RuleSetError.code).
    "toml-syntax": said(
        "line %(line)s, column %(column)s is not valid TOML (a key = value per line, text in quotes)"
    ),
    "toml-syntax-end": said("the TOML ends before something it opened is closed"),
    "rules-unknown-key": said("unknown key “%(key)s”"),
    "rules-missing-key": said("the key “%(key)s” is missing"),
    "rules-type": lambda t, p: t.gettext(
        "%(key)s = %(value)s is not %(kind)s", key=p["key"], value=p["value"], kind=_toml_kind(t, p["kind"])
    ),
    "rules-choice": said("%(key)s = %(value)s: write %(choices)s"),
    "rules-difference-cap": said("difference_cap = %(value)s: write false or a whole number above 0"),
    "rules-max-k-times-games": said("max_k_times_games = %(value)s is not a whole number above 0"),
    "rules-translations": said('%(key)s = %(value)s: write { es = "...", ca = "..." }'),
    "rules-band": said("k_by_rating entry %(entry)s must be { from = RATING, k = K }"),
    "rules-band-from": said("k_by_rating entry %(entry)s: from = %(value)s is not a rating"),
    "rules-band-k": said("k_by_rating entry %(entry)s: k = %(value)s is not a whole number above 0"),
    "rules-band-order": said(
        "k_by_rating entry %(entry)s: from = %(value)s must be above the previous band’s"
    ),
    "rules-no-bands": said("k_by_rating has no bands"),
    "rules-first-band": said("the first k_by_rating band must start from 0"),
    # A rule set by name or club file (chessrate.systems.elo.presets.resolve_rule_set, cli.options).
    "rules-unknown-name": said("unknown rule set '%(rules)s': use one of %(known)s, or a club's .toml file"),
    "rules-file-unreadable": said_with_reason(
        said("cannot read rule set file %(file)s: %(reason)s"), FILE_REASON_WORDS
    ),
    # A rule set chosen on a form (chessrate.service.options.resolve_options).
    "rules-not-a-choice": said(
        "not a rule set we know: use fide, fide-rapid, fide-blitz, elo or ciabe, or a club's own rules"
    ),
    # A K file given beside a tournament (chessrate.tournament.k_file.read_k_file).
    "k-file-csv": said("it is not a CSV file (%(detail)s)"),
    "k-file-header": said("the first line must be the header “player,k”"),
    "k-file-row": said(
        "line %(line)s: write a FIDE id or a start number, a comma and its K, not “%(value)s”"
    ),
    "k-file-k": lambda t, p: t.gettext(
        "line %(line)s: K “%(value)s”: %(reason)s",
        line=p["line"],
        value=p["value"],
        reason=input_reason(str(p["reason_code"]), p, str(p["detail"]), t),
    ),
    # FIDE's rating list given beside a tournament (formats.fide_list, report.players_list_for).
    "zip-members": said("the zip holds %(count)s files, not one list"),
    "zip-unreadable": said("the zip cannot be read"),
    "zip-too-large": said("the zip unpacks to %(size)s bytes, more than the %(limit)s a list may have"),
    "line-too-long": said("the header line is longer than %(limit)s characters"),
    "not-a-list": lambda t, p: (
        t.gettext("not a FIDE rating list: the header line has no %(missing)s", **p)
        if p.get("missing")
        else t.gettext(
            "not a FIDE rating list: the header line has no rating column (SRtng, or the month as SEP26)"
        )
    ),
    "list-type": said("a list is standard, rapid or blitz"),
    "list-type-by-name": lambda t, p: t.gettext(
        "by its name, the file is FIDE’s %(list)s list", list=_list_word(t, p)
    ),
    "list-type-unnamed": said(
        "the file holds one list and its name does not say which: choose standard, rapid or blitz"
    ),
    # Games given to estimate strength from (analysis.games, strength).
    "unreadable-movetext": said("game %(game)s: its moves cannot be read"),
    "illegal-move": said("game %(game)s: the move %(move)s is not legal there"),
    "invalid-move": said("game %(game)s: “%(move)s” is not a move"),
    "ambiguous-move": said("game %(game)s: the move %(move)s could be made by more than one piece"),
    "unreadable-game": said("game %(game)s: its position (FEN) or moves cannot be read"),
    "variant": said("game %(game)s: the variant “%(variant)s” is not standard chess"),
    "too-many-games": said("more than %(count)s games"),
    "game-too-long": said("game %(game)s: more than %(plies)s plies, longer than any legal game"),
    "null-move": said("game %(game)s: move %(move)s is a null move, which cannot be analysed"),
    "impossible-position": said("game %(game)s: its start position (FEN) cannot arise in a game"),
    "too-many-positions": said(
        "%(count)s positions to analyse, more than the %(limit)s one request may have here: "
        "send fewer or shorter games"
    ),
    "engine-time": said(
        "the analysis took more than %(seconds)s s of engine time: send fewer or shorter games"
    ),
    "cancelled": said("the analysis was stopped"),
    "engine-failed": said("the engine could not analyse any game (first: game %(game)s, move %(move)s)"),
    "engine-not-run": said_with_reason(said("the engine could not be run: %(reason)s"), FILE_REASON_WORDS),
    "scheduler-lost": said("the connection to the Dask scheduler failed"),
    "no-game": said("no game found in the PGN"),
    "no-moves": said("no move to judge in the games"),
    "no-player-games": said("no game of this player in the file"),
    "no-estimate": said("no estimate could be made from these moves"),
    "list-type-missing": lambda t, p: t.gettext("the file is FIDE’s %(list)s list", list=_list_word(t, p)),
    # The web server's address (chessrate serve --host; ``reason``: a code of errors.address_reason).
    "host-unknown": said("not an address of this machine or a name it knows"),
    "host-unusable": said_with_reason(said("cannot listen there (%(reason)s)"), _ADDRESS_REASON_WORDS),
    "admin-password-short": said("an admin password has at least %(minimum)s characters"),
    # A file named on the command line (chessrate.cli.files).
    "not-a-file": said("not a regular file (a device, a pipe or a folder)"),
    "file-too-large": said("larger than %(limit)s bytes"),
    # Why a file cannot be read (chessrate.errors.file_reason: the system's reason as a code).
    **FILE_REASON_WORDS,
    # The games of strength and analyse (chessrate.cli.fetch_options): a PGN file or a username.
    "fetch-two-platforms": said("give --lichess or --chesscom, not both"),
    "games-source-needed": said("give a PGN file, --lichess USER or --chesscom USER"),
    "games-source-both": said("give a PGN file or %(option)s, not both"),
    # The rating-list store, its history and its imports (chessrate.ratinglist.refusals).
    **STORE_REFUSALS,
    **IMPORT_REFUSALS,
    **FETCH_REFUSALS,  # games by username (issue 31)
    "period-format": said("a rating period is written YYYY-MM, such as 2024-03"),
    "period-last": said("the last rating period is 9999-11"),
    "period-order": said("period %(period)s cannot be run before %(next)s: run the periods in order"),
    "period-unpublished": said("period %(period)s has no published list: run it first"),
    "rules-mixing": said(
        "the lists already published were computed with other rules than %(rules)s, the store’s default: "
        "run this period from the command line, naming the rule set with --rules"
    ),
    "rules-kind": said("the lists before were computed with %(previous)s: Elo and Glicko-2 lists do not mix"),
    "list-missing-players": said_plural(
        "the list of period %(period)s: %(num)s line names a player the store does not have (player id "
        "%(player)s); nothing was written",
        "the list of period %(period)s: %(num)s lines name a player the store does not have (player id "
        "%(player)s); nothing was written",
        "count",
    ),
    "import-database": said(
        "the database refused the import of %(files)s and nothing was imported (it says, in English: "
        "%(reason)s)"
    ),
    "run-database": said(
        "the database refused the run of period %(period)s and nothing was written (it says, in English: "
        "%(reason)s)"
    ),
    # FIDE's list imported into the store, and the demo list (ratinglist.fide_import, ratinglist.demo).
    "list-month-unknown": said("neither %(name)s nor its name says the list’s month: give it (YYYY-MM)"),
    "list-month-differs": said("%(name)s is the list of %(month)s"),
    "fide-list-imported": lambda t, p: t.gettext(
        "%(file)s: FIDE’s %(list)s list of %(month)s was already imported from another file "
        "(%(earlier_file)s); nothing was imported",
        file=p["file"],
        list=_list_word(t, p),
        month=p["month"],
        earlier_file=p["earlier_file"],
    ),
    "fide-list-failed": said("%(file)s could not be read to the end (%(reason)s); nothing was imported"),
    "fide-list-empty": said("no player could be read from %(file)s; nothing was imported"),
    "demo-not-empty": said("the store %(store)s already holds events: the demo needs an empty one"),
    "rules-relative-path": said(
        "the rule set is the club file %(rules)s, a path relative to the folder where the list was run, "
        "which this server cannot know: run the period from the command line, in that folder"
    ),
    "no-list": said("no list has been published yet"),
    "period-no-list": lambda t, p: (
        t.gettext("period %(period)s has no draft list", period=p["period"])
        if p.get("status") == "draft"
        else t.gettext("period %(period)s has no published list", period=p["period"])
    ),
}


def _toml_kind(t: Translator, kind: object) -> str:
    """A TOML value's kind as the rule set file needs it, in the user's language."""
    return {
        "str": t.gettext("text in quotes"),
        "int": t.gettext("a whole number"),
        "list": t.gettext("a list [ ... ]"),
        "bool": t.gettext("true or false"),
    }.get(str(kind), str(kind))


#: FIDE's lists.
LIST_TYPES: dict[str, Template] = {
    "standard": said("standard"),
    "rapid": said("rapid"),
    "blitz": said("blitz"),
}


def list_type_words(kind: str, t: Translator) -> str:
    """``standard``, ``rapid``, ``blitz`` in the user's language."""
    return said_word(LIST_TYPES, kind, t)


def _list_word(t: Translator, p: dict[str, object]) -> str:
    return list_type_words(str(p["list"]), t)


def input_reason(code: str, params: dict[str, object], reason: str, t: Translator) -> str:
    """Why a value was refused (an :class:`~chessrate.errors.InvalidInputError`), in ``t``'s language.

    A fractional bound is written as the language writes numbers (0.001; es, ca: 0,001).
    """
    render = _INPUT_REASONS.get(code)
    values = {
        name: t.number(value, 6) if isinstance(value, Decimal | float) else value
        for name, value in params.items()
    }
    try:
        return render(t, values) if render else reason
    except (KeyError, TypeError, ValueError):
        return reason
