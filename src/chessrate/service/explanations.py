"""The working in words, in the user's language: K and why, the 400-point rule, each game.

The rating core explains K in English (``KFactor.reason``); :func:`k_reason` renders the same
reason from the catalogs by recognising each of the core's sentences (every one is tested), and
falls back to the core's English text for a sentence it does not know.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from chessrate.service.language import Translator
from chessrate.service.options import Options
from chessrate.service.problems import input_reason, list_type_words
from chessrate.systems.elo.calculate import Game, GameWorking
from chessrate.systems.elo.rating import change as elo_change
from chessrate.systems.elo.rating import expected_score
from chessrate.systems.elo.ruleset import CapMode, Expected, RuleSet
from chessrate.systems.fide.k_factor import ARTICLE_K, KFactor
from chessrate.systems.fide.performance import InitialRating
from chessrate.systems.fide.regulations import CapScope, FideRules, InitialRatingMethod

if TYPE_CHECKING:
    from chessrate.service.systems import ChesscomResult

Render = Callable[[Translator, dict[str, str]], str]

# The core's K sentences (chessrate.systems.fide.k_factor,
# chessrate.systems.elo.ruleset.KByRatingBand) and ours.
# Patterns as text: ``re`` compiles (and caches) each only when a reason is matched against it.
_K_REASONS: tuple[tuple[str, Render], ...] = (
    (
        r"K (?P<k>\d+) given",
        lambda t, m: t.gettext("K %(k)s, as you chose it.", **m),
    ),
    (
        r"K (?P<k>\d+) from the FIDE (?P<kind>standard|rapid|blitz) list(?P<month> \(\w+\))?",
        lambda t, m: t.gettext(
            "K %(k)s, from FIDE’s %(kind)s rating list%(month)s.",
            k=m["k"],
            kind=list_type_words(m["kind"], t),
            month=m["month"] or "",
        ),
    ),
    (
        r"K (?P<k>\d+): rated (?P<limit>\d+) or more; profile unknown.*",
        lambda t, m: t.gettext(
            "K %(k)s: rated %(limit)s or more. Without birth year, rated games and highest rating, "
            "K comes from the rating alone.",
            **m,
        ),
    ),
    (
        r"K (?P<k>\d+): rated below (?P<limit>\d+); profile unknown.*",
        lambda t, m: t.gettext(
            "K %(k)s: rated below %(limit)s. Without birth year, rated games and highest rating, "
            "K comes from the rating alone.",
            **m,
        ),
    ),
    (
        r"K (?P<k>\d+): a published rating has reached (?P<limit>\d+); .*",
        lambda t, m: t.gettext(
            "K %(k)s: a published rating has reached %(limit)s, and K stays %(k)s even if the rating "
            "drops later.",
            **m,
        ),
    ),
    (
        (
            r"K (?P<k>\d+): junior \(born (?P<year>\d+)\) until the end of the year of their 18th "
            r"birthday, rating under (?P<limit>\d+)"
        ),
        lambda t, m: t.gettext(
            "K %(k)s: a junior (born %(year)s) keeps it until the end of the year they turn 18, "
            "while rated under %(limit)s.",
            **m,
        ),
    ),
    (
        (
            r"K (?P<k>\d+): junior \(born (?P<year>\d+)\) until their 18th birthday, rating under "
            r"(?P<limit>\d+)"
        ),
        lambda t, m: t.gettext(
            "K %(k)s: a junior (born %(year)s) keeps it until their 18th birthday, while rated under "
            "%(limit)s.",
            **m,
        ),
    ),
    (
        (r"K (?P<k>\d+): new to the list, (?P<games>\d+) rated games so far \(fewer than (?P<needed>\d+)\)"),
        lambda t, m: t.gettext(
            "K %(k)s: new to the list, with %(games)s rated games so far (fewer than %(needed)s).", **m
        ),
    ),
    (
        r"K (?P<k>\d+): rating under (?P<limit>\d+), (?P<games>\d+) rated games",
        lambda t, m: t.gettext("K %(k)s: rated under %(limit)s, with %(games)s rated games.", **m),
    ),
    (
        r"K (?P<k>\d+): rating under (?P<limit>\d+), rated games unknown, taken as 30 or more",
        lambda t, m: t.gettext(
            "K %(k)s: rated under %(limit)s; rated games not given, so taken as 30 or more.", **m
        ),
    ),
    (
        r"K (?P<k>\d+): rating from (?P<low>\d+) to (?P<high>\d+)",
        lambda t, m: t.gettext("K %(k)s: the band for ratings from %(low)s to %(high)s.", **m),
    ),
    (
        r"K (?P<k>\d+): rating from (?P<low>\d+) up",
        lambda t, m: t.gettext("K %(k)s: the band for ratings from %(low)s up.", **m),
    ),
)

_SEVEN_HUNDRED = re.compile(
    r"; (?P<k>\d+) x (?P<games>\d+) games exceeds (?P<limit>\d+), so K is (?P<reduced>\d+), .*$"
)


def k_reason(k: KFactor, t: Translator, rule_sets: Sequence[RuleSet] = ()) -> str:
    """Why K is what it is, in the user's language (the 700 rule in a sentence of its own).

    A rating list stores the reason with its source after it (``K 10: rating from 1825 up (Ciabe,
    …)``): the reason is said as any other, and the source kept in brackets, in the user's language
    when it is the source of one of ``rule_sets`` (a club's, with its ``sources``) or of a shipped
    rule set (the Ciabe club's).
    """
    reason = k.reason
    cut = _SEVEN_HUNDRED.search(reason)
    base = reason[: cut.start()] if cut else reason

    def known(text: str) -> bool:
        return any(re.fullmatch(pattern, text) for pattern, _ in _K_REASONS)

    source = ""
    if base.endswith(")") and not known(base):
        depth, start = 0, len(base) - 1
        for start in range(len(base) - 1, -1, -1):  # the "(" that opens the last bracket
            depth += {")": 1, "(": -1}.get(base[start], 0)
            if depth == 0:
                break
        if depth == 0 and base[start - 1 : start] == " " and known(base[: start - 1]):
            base, source = base[: start - 1], base[start + 1 : -1]
    text = next(
        (
            render(t, match.groupdict())
            for pattern, render in _K_REASONS
            if (match := re.fullmatch(pattern, base))
        ),
        base,
    )
    if source:
        from chessrate.systems.elo.presets import ciabe_rule_set  # only for a rating list's stored reason

        source = next(
            (
                rules.source_in(t.language)
                for rules in (*rule_sets, ciabe_rule_set())
                if rules.source == source
            ),
            source,
        )
        text = f"{text[:-1]} ({source})." if text.endswith(".") else f"{text} ({source})"
    if cut:
        values = cut.groupdict()
        product = int(values["k"]) * int(values["games"])
        text += " " + t.gettext(
            "The 700 rule: %(k)s × %(games)s games = %(product)s, more than %(limit)s, so K is "
            "%(reduced)s, the largest whole number with K × %(games)s ≤ %(limit)s.",
            product=product,
            **values,
        )
    return text


_SEVEN_HUNDRED_ARTICLE = "; FIDE B.02 8.3.3 (700 rule)"


def k_article(k: KFactor, t: Translator, rules: RuleSet | None = None) -> str:
    """Where K comes from: the article, or a club's source in the user's language (and the 700 rule)."""
    if k.article == "given":
        return t.gettext("given by you")
    if k.article == "FIDE rating list":
        return t.gettext("FIDE rating list")
    article, cut, _ = k.article.partition(_SEVEN_HUNDRED_ARTICLE)
    if rules is not None and article == rules.source:
        article = rules.source_in(t.language)
    if cut and article == ARTICLE_K:  # FIDE's K and the 700 rule: one article, said once
        return t.gettext("%(article)s, with the 700 rule", article=article)
    if cut:
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
            level=chesscom_level(result.level.value, t),
        )
    if not result.deviation_given:
        note += " " + t.gettext("No RD was given: 350 is a new player’s (Glickman, Step 1).")
    return note


def chesscom_level(level: str, t: Translator) -> str:
    """A Chess.com sign-up level in the user's language."""
    return {
        "new": t.gettext("New to chess"),
        "beginner": t.gettext("Beginner"),
        "intermediate": t.gettext("Intermediate"),
        "advanced": t.gettext("Advanced"),
        "expert": t.gettext("Expert"),
    }.get(level, level)


def rule_set_title_fide(rules: FideRules, t: Translator) -> str:
    """The FIDE version by its first day."""
    if rules.rapid_and_blitz:
        return t.gettext("FIDE rapid and blitz rules of %(version)s", version=t.date(rules.effective_from))
    return t.gettext(
        "FIDE rules of %(version)s",
        version=t.date(rules.effective_from),
    )


def initial_reason(initial: InitialRating, rules: FideRules, t: Translator) -> str:
    """Why the initial rating is what it is, from the working the core returns (B.02 7.1.4, 8.2)."""
    if initial.games == 0:
        return t.gettext("no games against rated opponents.")
    if initial.rating is None and initial.points == 0:
        return t.gettext("a score of zero in a first event is not counted (8.2.1).")
    if initial.rating is None and initial.games < rules.initial_rating_min_games:
        return t.gettext(
            "%(games)s games against rated opponents; a first rating needs at least %(needed)s, which "
            "may be gathered over 26 months (7.1.4).",
            games=initial.games,
            needed=rules.initial_rating_min_games,
        )
    if initial.unrounded is None or initial.average_opponent is None or initial.dp is None:
        return initial.reason
    values = {
        "ra": t.fixed(initial.average_opponent),
        "dp": t.whole(initial.dp, signed=True),
        "ru": t.fixed(initial.unrounded),
    }
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
        working = t.gettext("Ru = Ra + dp (table 8.1.1) = %(ra)s + (%(dp)s) = %(ru)s", **values)
    if rules.initial_rating_method is InitialRatingMethod.TWO_HYPOTHETICAL_1800_DRAWS:
        working += " " + t.gettext("(counting two draws against opponents rated 1800, 8.2.2)")
    if initial.rating is None:
        return (
            working
            + "; "
            + t.gettext("below the lowest published rating, %(floor)s.", floor=rules.rating_floor)
        )
    if (
        rules.initial_rating_max is not None
        and initial.rating == rules.initial_rating_max
        and (initial.unrounded > rules.initial_rating_max)
    ):
        return working + "; " + t.gettext("a first rating is at most %(max)s.", max=rules.initial_rating_max)
    return working + "."


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


# The clauses of a rating list's note (chessrate.ratinglist.initial, .publish, .glicko2_period and
# chessrate.systems.fide.performance), each recognised and rendered from the catalogs.
_NOTE_CLAUSES: tuple[tuple[re.Pattern[str], Render], ...] = (
    (
        re.compile(r"(?P<n>\d+) games against rated opponents"),
        lambda t, m: t.gettext("%(n)s games against rated opponents", **m),
    ),
    (
        re.compile(
            r"(?P<n>\d+) games against rated opponents from (?P<first>[\d-]+) to (?P<last>[\d-]+) "
            r"\((?P<source>.*)\)"
        ),
        lambda t, m: t.gettext(
            "%(n)s games against rated opponents from %(first)s to %(last)s (%(source)s)", **m
        ),
    ),
    (
        re.compile(r"a first rating needs at least (?P<n>\d+) \((?P<article>[\d.]+)\)"),
        lambda t, m: t.gettext("a first rating needs at least %(n)s (%(article)s)", **m),
    ),
    (
        re.compile(r"results may be pooled over (?P<n>\d+) months"),
        lambda t, m: t.gettext("results may be pooled over %(n)s months", **m),
    ),
    (
        re.compile(
            r"a (?:score of zero|zero score) in (?:a|the) first event is disregarded \((?P<article>[^)]*)\)"
        ),
        lambda t, m: t.gettext("a score of zero in a first event is disregarded (%(article)s)", **m),
    ),
    (
        re.compile(
            r"(?P<rating>\d+) is below the floor (?P<floor>\d+): shown as unrated \((?P<article>[^)]*)\)"
        ),
        lambda t, m: t.gettext(
            "%(rating)s is below the floor %(floor)s: shown as unrated (%(article)s)", **m
        ),
    ),
    (
        re.compile(r"(?P<rating>\d+) capped at the maximum initial rating (?P<limit>\d+)"),
        lambda t, m: t.gettext("%(rating)s capped at the maximum initial rating %(limit)s", **m),
    ),
    (
        re.compile(r"Ru = Ra \+ dp = (?P<sum>.*), rounded (?P<rating>\d+)"),
        lambda t, m: t.gettext("Ru = Ra + dp = %(sum)s, rounded %(rating)s", **m),
    ),
    (
        re.compile(r"no games: the deviation grows \(Glicko-2 Step 6\)"),
        lambda t, m: t.gettext("no games: the deviation grows (Glicko-2 Step 6)"),
    ),
)


def list_note(note: str, t: Translator) -> str:
    """A rating list's note on a player's line, clause by clause in the user's language."""
    rendered: list[str] = []
    for clause in note.split("; "):
        rendered.append(
            next(
                (
                    render(t, match.groupdict())
                    for pattern, render in _NOTE_CLAUSES
                    if (match := pattern.fullmatch(clause))
                ),
                clause,
            )
        )
    return "; ".join(rendered)


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
