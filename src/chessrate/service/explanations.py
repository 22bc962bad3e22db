"""The working in words, in the user's language: K and why, the 400-point rule, each game.

The rating core gives the rule that decided K as a code with its values (``KFactor.code``,
``.params``, ``.cut``); :func:`k_reason` says it from the catalogs, English included (docs/codes.md).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from chessrate.service.file_problems import file_problem as file_problem  # where the faces read it
from chessrate.service.language import Template, Translator, said, said_word
from chessrate.service.options import Options
from chessrate.service.problems import list_type_words
from chessrate.systems.elo.calculate import Game, GameWorking
from chessrate.systems.elo.rating import change as elo_change
from chessrate.systems.elo.rating import expected_score
from chessrate.systems.elo.ruleset import CapMode, Expected, RuleSet
from chessrate.systems.fide.k_factor import ARTICLE_K, KFactor
from chessrate.systems.fide.performance import InitialOutcome, InitialRating
from chessrate.systems.fide.regulations import CapScope, FideRules, InitialRatingMethod
from chessrate.systems.rounding import round_half_away_from_zero

if TYPE_CHECKING:
    from chessrate.service.systems import ChesscomResult

Render = Callable[[Translator, dict[str, object]], str]


def _fide_list_k(t: Translator, v: dict[str, object]) -> str:
    month = f" ({v['month']})" if v.get("month") else ""
    kind = list_type_words(str(v["list"]), t)
    return t.gettext("K %(k)s, from FIDE’s %(kind)s rating list%(month)s.", k=v["k"], kind=kind, month=month)


# Each K reason of the core (chessrate.systems.fide.k_factor.K_REASONS), in the catalogs' words.
_K_REASONS: dict[str, Render] = {
    "k-given": said("K %(k)s, as you chose it."),
    "k-everyone": said("K %(k)s for every player (%(rules)s)."),
    "k-fide-list": _fide_list_k,
    "k-fide-list-in-force": said(
        "K %(k)s, from the FIDE list in force: this rating list has no history of the player."
    ),
    "k-rating-alone-established": said(
        "K %(k)s: rated %(limit)s or more. Without birth year, rated games and highest rating, "
        "K comes from the rating alone."
    ),
    "k-rating-alone-standard": said(
        "K %(k)s: rated below %(limit)s. Without birth year, rated games and highest rating, "
        "K comes from the rating alone."
    ),
    "k-established": said(
        "K %(k)s: a published rating has reached %(limit)s, and K stays %(k)s even if the rating drops later."
    ),
    "k-junior-end-of-year": said(
        "K %(k)s: a junior (born %(year)s) keeps it until the end of the year they turn 18, "
        "while rated under %(limit)s."
    ),
    "k-junior-birthday": said(
        "K %(k)s: a junior (born %(year)s) keeps it until their 18th birthday, while rated under %(limit)s."
    ),
    "k-new-player": said(
        "K %(k)s: new to the list, with %(games)s rated games so far (fewer than %(needed)s)."
    ),
    "k-standard": said("K %(k)s: rated under %(limit)s, with %(games)s rated games."),
    "k-standard-games-unknown": said(
        "K %(k)s: rated under %(limit)s; rated games not given, so taken as 30 or more."
    ),
    "k-band": said("K %(k)s: the band for ratings from %(low)s to %(high)s."),
    "k-band-top": said("K %(k)s: the band for ratings from %(low)s up."),
}


def k_reason(k: KFactor, t: Translator, rule_sets: Sequence[RuleSet] = (), *, source: bool = False) -> str:
    """Why K is what it is, in the user's language (the 700 rule in a sentence of its own).

    ``source``: the article or source in brackets after the reason, as a rating list shows it, in
    the user's language when it is the source of one of ``rule_sets`` (a club's, with its
    ``sources``) or of a shipped rule set (the Ciabe club's).
    """
    render = _K_REASONS.get(k.code)
    values: dict[str, object] = dict(k.values)
    text = render(t, values) if render else t.gettext("K %(k)s.", **values)
    if source:
        from chessrate.systems.elo.presets import ciabe_rule_set  # only for a rating list's reason

        said = k_article(dataclasses.replace(k, cut=None), t, (*rule_sets, ciabe_rule_set()))
        text = f"{text.removesuffix('.')} ({said})."
    if k.cut is not None:
        cut = k.cut
        text += " " + t.gettext(
            "The 700 rule: %(k)s × %(games)s games = %(product)s, more than %(limit)s, so K is "
            "%(reduced)s, the largest whole number with K × %(games)s ≤ %(limit)s.",
            k=cut.k,
            games=cut.games,
            product=cut.k * cut.games,
            limit=cut.limit,
            reduced=k.k,
        )
    return text


def k_article(k: KFactor, t: Translator, rule_sets: RuleSet | Sequence[RuleSet] | None = None) -> str:
    """Where K comes from: the article, or a club's source in the user's language (and the 700 rule)."""
    if k.cut is None and k.article == "given":
        return t.gettext("given by you")
    if k.cut is None and k.article == "FIDE rating list":
        return t.gettext("FIDE rating list")
    article = k.article
    clubs = (rule_sets,) if isinstance(rule_sets, RuleSet) else rule_sets or ()
    article = next((rules.source_in(t.language) for rules in clubs if rules.source == article), article)
    if k.cut is not None and article == ARTICLE_K:  # FIDE's K and the 700 rule: one article, said once
        return t.gettext("%(article)s, with the 700 rule", article=article)
    if k.cut is not None:
        return t.gettext("%(article)s; FIDE B.02 8.3.3 (the 700 rule)", article=article)
    return article


def rule_set_title(rules: RuleSet, t: Translator) -> str:
    if rules.fide is not None and rules.is_fide and rules.fide.rapid_and_blitz:
        return t.gettext(
            "FIDE rapid and blitz rules of %(version)s", version=t.date(rules.fide.effective_from)
        )
    if rules.fide is not None and rules.is_fide:
        return t.gettext(
            "FIDE rules of %(version)s",
            version=t.date(rules.fide.effective_from),
        )
    if rules.name == "elo":
        return t.gettext("Plain Elo")
    return rules.title_in(t.language)


def report_rules_title(rules: RuleSet, as_of: dt.date, t: Translator) -> str:
    """The rule set a tournament was rated under, in ``t``'s language, as its title says it in English:
    FIDE's version and the day it was applied to (``FIDE 2022-01-01 (in force on 2022-06-17)``;
    before the oldest version kept, that version: :func:`chessrate.tournament.report.report_rule_set`), plain
    Elo, or a club's own title."""
    if rules.fide is not None and rules.is_fide:
        version, day = rules.fide.name, as_of.isoformat()
        if as_of < rules.fide.effective_from:
            return t.gettext("%(version)s (the oldest kept, for %(day)s)", version=version, day=day)
        return t.gettext("%(version)s (in force on %(day)s)", version=version, day=day)
    if rules.name == "elo":
        return t.gettext("Plain Elo (logistic formula, no cap)")
    return rules.title_in(t.language)


def expected_method(rules: RuleSet, t: Translator) -> str:
    if rules.expected is Expected.TABLE:
        return t.gettext("FIDE table 8.1.2 (two decimals)")
    return t.gettext("logistic formula 1 / (1 + 10^(−D/400))")


def cap_note(options: Options, rating: Decimal, t: Translator) -> str:
    """Whether the 400-point rule applies, and why."""
    if options.cap_mode is CapMode.OFF:
        return t.gettext("Off, as you chose: the real difference is used.")
    limit = options.rules.cap.limit if options.rules.cap else 400
    if options.cap_mode is CapMode.ON:
        return t.gettext("On, as you chose: a difference over %(limit)s counts as %(limit)s.", limit=limit)
    cap = options.rule_set_cap
    if cap is None:
        return t.gettext("This rule set has no 400-point rule: the real difference is used.")
    since = options.rules.fide.effective_from if options.rules.fide else None
    since_text = t.date(since) if since else ""
    if cap.applies_below is not None:
        if cap.applies_to(rating):
            return t.gettext(
                "Applies: a difference over %(limit)s counts as %(limit)s for players rated below "
                "%(below)s (FIDE B.02 8.3.1, from %(since)s), and your rating is %(rating)s.",
                limit=cap.limit,
                below=cap.applies_below,
                since=since_text,
                rating=t.number(rating),
            )
        return t.gettext(
            "Does not apply: since %(since)s it is only for players rated below %(below)s (FIDE B.02 "
            "8.3.1), and your rating is %(rating)s. The real difference is used.",
            below=cap.applies_below,
            since=since_text,
            rating=t.number(rating),
        )
    if cap.scope is CapScope.ONE_GAME_PER_TOURNAMENT:
        return t.gettext(
            "Applies to one game per tournament, the one with the largest difference: it counts as "
            "%(limit)s (FIDE B.02 8.3.1 in force from %(since)s).",
            limit=cap.limit,
            since=since_text,
        )
    return t.gettext("Applies: a difference over %(limit)s counts as %(limit)s.", limit=cap.limit)


def not_rated_note(not_rated: Sequence[Game], rules: RuleSet, t: Translator) -> str | None:
    """The games left out as not rated (FIDE rapid and blitz 8.3.1 from 1 December 2024), and why;
    None when every game was rated."""
    if not not_rated or rules.fide is None:
        return None
    return t.ngettext(
        "Not rated, so left out: the game against %(opponents)s. Games between players %(difference)s "
        "points or more apart are not rated when one of them is rated above %(above)s (FIDE rapid "
        "and blitz 8.3.1, from 1 December 2024).",
        "Not rated, so left out: the games against %(opponents)s. Games between players %(difference)s "
        "points or more apart are not rated when one of them is rated above %(above)s (FIDE rapid "
        "and blitz 8.3.1, from 1 December 2024).",
        len(not_rated),
        opponents=", ".join(t.number(game.opponent) for game in not_rated),
        difference=rules.fide.not_rated_difference,
        above=rules.fide.not_rated_above,
    )


def game_story(game: GameWorking, k: int, t: Translator) -> str:
    """One game in words: what was expected, what was scored, and so the change."""
    if game.score is None or game.change is None:
        return ""
    values = {
        "score": t.number(game.score),
        "expected": t.fixed(game.expected),
        "change": t.change(game.change),
        "k": str(k),
        "gap": t.whole(abs(game.raw_difference))
        if game.raw_difference == game.raw_difference.to_integral_value()
        else t.number(abs(game.raw_difference), 1),
    }
    stronger = game.raw_difference < 0
    weaker = game.raw_difference > 0
    if game.score == Decimal("0.5") and stronger:
        return t.gettext(
            "A draw against a stronger player gains points: against an opponent rated %(gap)s points "
            "higher you were expected to score only %(expected)s of a point; a draw is worth "
            "%(score)s, more than that, so you gain %(k)s × (%(score)s − %(expected)s) = %(change)s.",
            **values,
        )
    if game.score == Decimal("0.5") and weaker:
        return t.gettext(
            "A draw against a weaker player costs points: against an opponent rated %(gap)s points "
            "lower you were expected to score %(expected)s; a draw is worth %(score)s, less than "
            "that, so the change is %(k)s × (%(score)s − %(expected)s) = %(change)s.",
            **values,
        )
    if game.score > game.expected:
        return t.gettext(
            "You scored %(score)s where %(expected)s was expected, so you gain "
            "%(k)s × (%(score)s − %(expected)s) = %(change)s.",
            **values,
        )
    if game.score < game.expected:
        return t.gettext(
            "You scored %(score)s where %(expected)s was expected, so you lose: "
            "%(k)s × (%(score)s − %(expected)s) = %(change)s.",
            **values,
        )
    return t.gettext("You scored exactly what was expected: no change.")


def chesscom_note(result: ChesscomResult, t: Translator) -> str:
    """Why the Chess.com figure is an estimate, and where its start came from
    (chessrate.systems.glicko.chesscom)."""
    start = result.start
    note = t.gettext(
        "An estimate: Chess.com does not publish its rating constants. Here: Glicko-1 as Glickman "
        "published it, one rating period, from rating %(rating)s and RD %(rd)s.",
        rating=t.number(start.rating, 1),
        rd=t.number(start.deviation, 1),
    )
    if result.level is not None and not result.rating_given:
        note += " " + t.gettext(
            "The rating is the start of the level “%(level)s”, chessrate’s choice.",
            level=said_word(CHESSCOM_LEVELS, result.level.value, t),
        )
    if not result.deviation_given:
        note += " " + t.gettext("No RD was given: 350 is a new player’s (Glickman, Step 1).")
    return note


#: Chess.com's sign-up levels (:class:`chessrate.systems.glicko.chesscom.Level`).
CHESSCOM_LEVELS: dict[str, Template] = {
    "new": said("New to chess"),
    "beginner": said("Beginner"),
    "intermediate": said("Intermediate"),
    "advanced": said("Advanced"),
    "expert": said("Expert"),
}


def rule_set_title_fide(rules: FideRules, t: Translator) -> str:
    """The FIDE version by its first day."""
    if rules.rapid_and_blitz:
        return t.gettext("FIDE rapid and blitz rules of %(version)s", version=t.date(rules.effective_from))
    return t.gettext(
        "FIDE rules of %(version)s",
        version=t.date(rules.effective_from),
    )


def initial_reason(initial: InitialRating, rules: FideRules, t: Translator) -> str:
    """Why the first rating is what it is, from the core's outcome and working (B.02 7.1.4, 8.2)."""
    outcome = initial.outcome
    if outcome is InitialOutcome.NO_RATED_GAMES:
        return t.gettext("no games against rated opponents.")
    if outcome is InitialOutcome.ZERO_SCORE:
        return t.gettext("a score of zero in a first event is not counted (8.2.1).")
    if outcome is InitialOutcome.TOO_FEW_GAMES:
        return t.gettext(
            "%(games)s games against rated opponents; a first rating needs at least %(needed)s, which "
            "may be gathered over 26 months (7.1.4).",
            games=initial.games,
            needed=rules.initial_rating_min_games,
        )
    if outcome is InitialOutcome.RULES_NOT_READ:
        return t.gettext(
            "the initial-rating text of %(rules)s was not read, so no first rating is computed.",
            rules=rules.name,
        )
    if outcome is InitialOutcome.BELOW_HALF_NOT_READ:
        return t.gettext(
            "a score below 50 %% under %(rules)s: the formula of the time for it was not read, so no first "
            "rating is computed.",
            rules=rules.name,
        )
    working = _initial_working(initial, rules, t)
    if outcome is InitialOutcome.BELOW_FLOOR:
        return (
            working
            + "; "
            + t.gettext("below the lowest published rating, %(floor)s.", floor=rules.rating_floor)
        )
    if outcome is InitialOutcome.CAPPED:
        rounded = round_half_away_from_zero(initial.unrounded or 0)
        capped = t.gettext(
            "rounded %(rounded)s; a first rating is at most %(max)s.",
            rounded=rounded,
            max=rules.initial_rating_max,
        )
        return working + "; " + capped
    if (
        rules.rating_floor is None
        and rules.initial_rating_method is InitialRatingMethod.AVERAGE_PLUS_12_5_PER_HALF_POINT
    ):
        return (
            working
            + "; "
            + t.gettext("the lowest published rating under %(rules)s was not read.", rules=rules.name)
        )
    return working + "."


def _initial_working(initial: InitialRating, rules: FideRules, t: Translator) -> str:
    """Ru's working by the rules' method (B.02 8.2.3; [FIDE09] for 2008-2011)."""
    assert initial.average_opponent is not None  # a computed outcome
    assert initial.unrounded is not None
    values = {"ra": t.fixed(initial.average_opponent), "ru": t.fixed(initial.unrounded)}
    if rules.initial_rating_method is InitialRatingMethod.AVERAGE_PLUS_12_5_PER_HALF_POINT:
        return t.gettext(
            "Ru = Ra + 12.5 per half point over 50 %% = %(ra)s + %(halves)s × 12.5 = %(ru)s",
            halves=t.whole(2 * initial.points - initial.games),
            **values,
        )
    assert initial.dp is not None  # every other method gives dp
    method = _initial_method(initial, rules)
    if method == "plus-20":
        working = t.gettext(
            "Ru = Ra + 20 per half point over 50 %% = %(ra)s + %(halves)s × 20 = %(ru)s",
            halves=initial.dp // 20,
            **values,
        )
    elif method == "fifty":
        working = t.gettext("Ru = Ra = %(ra)s, for a score of 50 %%", **values)
    else:
        working = t.gettext(
            "Ru = Ra + dp (table 8.1.1) = %(ra)s + (%(dp)s) = %(ru)s",
            dp=t.whole(initial.dp, signed=True),
            **values,
        )
    if rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS:
        working += " " + t.gettext("(counting two draws against opponents rated 1800, 8.2.2)")
    return working


def _initial_method(initial: InitialRating, rules: FideRules) -> str:
    """Which term B.02 8.2.3 adds to Ra: ``plus-20``, ``fifty`` (none) or ``dp`` (table 8.1.1).

    Until 2024 (8.2.3 of 2014 and 2022): "If the player scores 50%, then Ru = Ra. If they score more
    than 50%, then Ru = Ra + 20 for each half point scored over 50%. If they score less than 50%,
    then Ru = Ra + dp"; from 2024, Ru = Ra + dp with two draws against 1800 counted.
    """
    if rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS:
        return "dp"
    over = 2 * initial.points - initial.games
    return "plus-20" if over > 0 else "fifty" if over == 0 else "dp"


def initial_term(initial: InitialRating, rules: FideRules, t: Translator) -> str:
    """The name of the term added to Ra by the rules' method, with its article (B.02 8.2.3)."""
    method = _initial_method(initial, rules)
    if method == "plus-20":
        return t.gettext("+20 per half point over 50 % (FIDE B.02 8.2.3)")
    if method == "fifty":
        return t.gettext("none for a score of 50 % (FIDE B.02 8.2.3)")
    return t.gettext("dp from table 8.1.1 (FIDE B.02 8.2.3)")


def _pooled(t: Translator, p: dict[str, object]) -> str:
    text = t.gettext("%(n)s games against rated opponents from %(first)s to %(last)s (%(source)s)", **p)
    if p.get("dropped"):  # B.02 8.2.1, the first event's zero score left out of the pool
        text += "; " + t.gettext(
            "a score of zero in a first event is disregarded (%(article)s)", article="B.02 8.2.1"
        )
    return text


# The clauses of a rating list's note, by code (chessrate.ratinglist.notes), in the catalogs' words.
_NOTE_CLAUSES: dict[str, Render] = {
    "initial-no-games": said("no games against rated opponents"),
    "initial-zero-score": said("a score of zero in a first event is disregarded (%(article)s)"),
    "initial-games": said("%(n)s games against rated opponents"),
    "initial-needs": said("a first rating needs at least %(n)s (%(article)s)"),
    "initial-pooled-months": said("results may be pooled over %(n)s months"),
    "initial-below-lowest": said("%(rating)s is below the lowest published rating %(floor)s"),
    "initial-working": said("Ru = Ra + dp = %(sum)s, rounded %(rating)s"),
    "initial-capped": said("%(rating)s capped at the maximum initial rating %(limit)s"),
    "pooled": _pooled,
    "below-floor": said("%(rating)s is below the floor %(floor)s: shown as unrated (%(article)s)"),
    "glicko2-no-games": said("no games: the deviation grows (Glicko-2 Step 6)"),
}


def list_note(note: str, t: Translator) -> str:
    """A rating list's note on a player's line (its clauses' codes: chessrate.ratinglist.notes), in
    the user's language; a clause kept whole by migration 0006 (``note-text``) as it was written."""
    from chessrate.ratinglist.notes import note_clauses  # only for a rating list's line

    said = []
    for code, params in note_clauses(note):
        render = _NOTE_CLAUSES.get(code)
        said.append(render(t, params) if render else str(params.get("text", "")))
    return "; ".join(said)


#: Table and formula figures closer than this are not worth a note (issue 14: 0.1 rating points).
TABLE_FORMULA_NOTE = Decimal("0.1")


def table_formula_note(game: GameWorking, k: int, rules: RuleSet, t: Translator) -> str:
    """When FIDE's table 8.1.2 and the logistic formula give changes 0.1 or more apart, the formula's figures.

    Online calculators (and worked examples written with them) use the formula: near a difference of 400 the
    table's step and the formula part by up to 0.01 in E, which K turns into a visible gap.
    """
    if rules.expected is not Expected.TABLE or game.score is None or game.change is None:
        return ""
    formula = expected_score(game.difference)
    formula_change = elo_change(k, game.score, formula)
    if abs(formula_change - game.change) < TABLE_FORMULA_NOTE:
        return ""
    return t.gettext(
        "FIDE’s table 8.1.2 gives E %(table)s at this difference; the formula gives %(formula)s, so a "
        "calculator that uses the formula shows %(change)s instead of %(table_change)s.",
        table=t.fixed(game.expected),
        formula=t.fixed(formula),
        change=t.change(formula_change),
        table_change=t.change(game.change),
    )
