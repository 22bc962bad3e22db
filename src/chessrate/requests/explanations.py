"""The working in words, in the user's language: K and why, the 400-point rule, each game.

The rating core explains K in English (``KFactor.reason``); :func:`k_reason` renders the same
reason from the catalogs by recognising each of the core's sentences (every one is tested), and
falls back to the core's English text for a sentence it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from chessrate.calculate import GameWorking
from chessrate.fide.k_factor import KFactor
from chessrate.fide.performance import InitialRating
from chessrate.fide.rules import CapScope, FideRules, InitialRatingMethod
from chessrate.requests.language import Translator
from chessrate.requests.options import Options
from chessrate.ruleset import CapMode, Expected, RuleSet

Render = Callable[[Translator, dict[str, str]], str]

# The core's K sentences (chessrate.fide.k_factor, chessrate.ruleset.KByRatingBand) and ours.
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


def k_reason(k: KFactor, t: Translator) -> str:
    """Why K is what it is, in the user's language (the 700 rule in a sentence of its own)."""
    reason = k.reason
    cut = _SEVEN_HUNDRED.search(reason)
    base = reason[: cut.start()] if cut else reason
    text = next(
        (
            render(t, match.groupdict())
            for pattern, render in _K_REASONS
            if (match := re.fullmatch(pattern, base))
        ),
        base,
    )
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


def k_article(k: KFactor, t: Translator) -> str:
    if k.article == "given":
        return t.gettext("given by you")
    if k.article == "FIDE rating list":
        return t.gettext("FIDE rating list")
    return k.article


def list_type_words(kind: str, t: Translator) -> str:
    """``standard``, ``rapid``, ``blitz`` in the user's language."""
    return {
        "standard": t.gettext("standard"),
        "rapid": t.gettext("rapid"),
        "blitz": t.gettext("blitz"),
    }.get(kind, kind)


def rule_set_title(rules: RuleSet, t: Translator) -> str:
    if rules.fide is not None and rules.name == "fide":
        return t.gettext(
            "FIDE rules of %(version)s",
            version=t.date(rules.fide.effective_from),
        )
    if rules.name == "elo":
        return t.gettext("Plain Elo")
    return rules.title


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


def rule_set_title_fide(rules: FideRules, t: Translator) -> str:
    """The FIDE version by its first day."""
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
    working = t.gettext(
        "Ru = Ra + dp = %(ra)s + (%(dp)s) = %(ru)s",
        ra=t.fixed(initial.average_opponent),
        dp=t.whole(initial.dp, signed=True),
        ru=t.fixed(initial.unrounded),
    )
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
