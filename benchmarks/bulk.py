"""Bulk rating at scale: chessrate's numpy engine against its peers, 10^4 ... 10^7 games.

    PYTHONPATH=src python benchmarks/bulk.py                   # 10^4 ... 10^7 games, plot
    PYTHONPATH=src python benchmarks/bulk.py --max-games 100000  # a quick run

Every size is synthetic games (``chessrate.testing.synthetic.generate(seed=1)``, one player per 40 games) over
12 monthly rating periods, rated period after period: each period from the ratings the previous
one left. On the same data, in the same run:

* FIDE Elo (rules of 2025-10-01: table 8.1.2, 400 cap below 2650, K by rating, 700 rule,
  rounding per period): ``chessrate.bulk.rate_elo_period`` against a straightforward pure-Python
  loop (same rules, same results: checked), chessrate's own scalar path (``rate_period``,
  decimals), skelo's ``EloEstimator`` and riix's ``Elo`` (batched).
* Glicko-2 (tau 0.5): ``chessrate.bulk.rate_glicko2_period`` against the PyPI ``glicko2``
  package (one ``update_player`` per player and period), chessrate's scalar
  ``rate_whole_period``, skelo's ``Glicko2Estimator`` and riix's ``Glicko2`` (batched).

The engines get their input in their own form, converted before the clock starts (our arrays;
Python lists for the loops; a DataFrame for skelo). The process is pinned to one core. Slow peers
run on the smaller sizes only (``--peer-max-games``); their time at larger sizes is extrapolated
per game and marked so. riix's batched updates build a games x players mask, so they grow
quadratically and are not extrapolated. Peak memory is tracemalloc's peak over the whole run (all
periods), in a separate untimed run, divided by the games; the input arrays (17 bytes a game)
are counted apart.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import math
import os
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from chessrate import bulk
from chessrate.systems.elo.calculate import Event, Game, rate_period
from chessrate.systems.elo.ruleset import fide_rule_set
from chessrate.systems.fide.regulations import rules_in_force
from chessrate.systems.fide.tables import scoring_probability
from chessrate.systems.glicko.glicko2 import Glicko2Rating, PeriodGame, rate_whole_period
from chessrate.testing import synthetic

DAY = dt.date(2025, 10, 1)
RULES = fide_rule_set(rules_in_force(DAY), day=DAY)
FIDE = rules_in_force(DAY)
TAU = 0.5
ROOT = Path(__file__).resolve().parents[1]
#: Our input per game: White's and Black's indices (8 bytes each) and White's half points (1).
INPUT_BYTES = 17

Runner = Callable[[synthetic.SyntheticGames], Callable[[], Any]]


@dataclass
class Engine:
    name: str
    system: str  # "FIDE Elo" or "Glicko-2"
    prepare: Runner  # data -> a function that rates every period (input already converted)
    max_games: int | None = None  # None: every size
    linear: bool = True  # extrapolated per game beyond max_games
    ours: bool = False
    times: dict[int, float] = field(default_factory=dict)
    #: Peak bytes per game of the run: the engine's input form (converted from the arrays) and its
    #: working memory; for ours, the arrays themselves (17 B a game) added.
    memory: dict[int, float] = field(default_factory=dict)
    #: Ours: peak working memory per game of the largest period.
    period_memory: dict[int, float] = field(default_factory=dict)


# --- chessrate bulk ----------------------------------------------------------------------------


def bulk_fide(data: synthetic.SyntheticGames) -> Callable[[], np.ndarray]:
    periods = data.periods()

    def run() -> np.ndarray:
        ratings = data.players.rating
        for period in periods:
            k = bulk.k_factors(ratings, rules=RULES)
            ratings = bulk.rate_elo_period(
                data.white[period],
                data.black[period],
                data.white_half_points[period],
                ratings,
                k,
                rules=RULES,
            ).new_rating
        return ratings

    return run


def bulk_glicko2(data: synthetic.SyntheticGames) -> Callable[[], np.ndarray]:
    periods = data.periods()

    def run() -> np.ndarray:
        rating = data.players.rating.astype(np.float64)
        deviation, volatility = data.players.deviation, data.players.volatility
        for period in periods:
            result = bulk.rate_glicko2_period(
                data.white[period],
                data.black[period],
                data.white_half_points[period],
                rating,
                deviation,
                volatility,
                tau=TAU,
            )
            rating, deviation, volatility = result.rating, result.deviation, result.volatility
        return rating

    return run


# --- peers: FIDE Elo ---------------------------------------------------------------------------


def python_loop_fide(data: synthetic.SyntheticGames) -> Callable[[], list[int]]:
    """The straightforward loop: per game a table look-up and two sums, per player K and rounding."""
    periods = [(p.start, p.stop) for p in data.periods()]
    white, black, half = data.white.tolist(), data.black.tolist(), data.white_half_points.tolist()
    start = data.players.rating.tolist()
    pd_high = [int(scoring_probability(d) * 100) for d in range(737)]  # table 8.1.2, |D| 0..736
    cap_below = FIDE.cap_applies_below or 10**9

    def expected(own: int, opponent: int) -> int:
        d = own - opponent
        if own < cap_below:
            d = max(-400, min(400, d))
        return pd_high[min(d, 736)] if d >= 0 else 100 - pd_high[min(-d, 736)]

    def run() -> list[int]:
        ratings = list(start)
        for first, last in periods:
            sums = [0] * len(ratings)
            games = [0] * len(ratings)
            for i in range(first, last):
                w, b = white[i], black[i]
                rw, rb = ratings[w], ratings[b]
                score = 50 * half[i]
                sums[w] += score - expected(rw, rb)
                sums[b] += 100 - score - expected(rb, rw)
                games[w] += 1
                games[b] += 1
            for p, n in enumerate(games):
                if n:
                    k = FIDE.k_established if ratings[p] >= FIDE.k_established_from else FIDE.k_standard
                    if k * n > 700:
                        k = 700 // n
                    change = k * sums[p]  # hundredths
                    ratings[p] += (abs(change) + 50) // 100 * (1 if change >= 0 else -1)
        return ratings

    return run


def scalar_fide(data: synthetic.SyntheticGames) -> Callable[[], list[Decimal]]:
    """chessrate's scalar path: one ``rate_period`` per player and period, in decimals."""
    periods = data.periods()
    white, black, half = data.white.tolist(), data.black.tolist(), data.white_half_points.tolist()
    start = [Decimal(r) for r in data.players.rating.tolist()]

    def run() -> list[Decimal]:
        ratings = list(start)
        for period in periods:
            games: dict[int, list[Game]] = {}
            for i in range(period.start, period.stop):
                w, b, s = white[i], black[i], Decimal(half[i]) / 2
                games.setdefault(w, []).append(Game(ratings[b], s))
                games.setdefault(b, []).append(Game(ratings[w], 1 - s))
            ratings = list(ratings)
            before = list(ratings)
            for p, played in games.items():
                ratings[p] = rate_period(before[p], [Event(tuple(played))], rules=RULES).new_rating
        return ratings

    return run


def skelo_elo(data: synthetic.SyntheticGames) -> Callable[[], Any]:
    import pandas as pd
    from skelo.model.elo import EloEstimator

    frame = pd.DataFrame({"white": data.white, "black": data.black, "day": data.day.astype(np.int64)})
    won = (data.white_half_points == 2).astype(int)  # skelo has no draws (its issue #10)

    def run() -> Any:
        return EloEstimator(key1_field="white", key2_field="black", timestamp_field="day", default_k=20).fit(
            frame, won
        )

    return run


def riix_elo(data: synthetic.SyntheticGames) -> Callable[[], Any]:
    from riix.models.elo import Elo

    periods = data.periods()
    matchups = np.column_stack([data.white, data.black])
    outcomes = data.white_half_points / 2.0
    competitors = list(range(len(data.players.rating)))

    def run() -> Any:
        model = Elo(competitors, k=20.0, update_method="batched")
        model.ratings[:] = data.players.rating
        for month, period in enumerate(periods):
            model.update(matchups[period], outcomes[period], time_step=month, use_cache=False)
        return model.ratings

    return run


# --- peers: Glicko-2 ---------------------------------------------------------------------------


def pypi_glicko2(data: synthetic.SyntheticGames) -> Callable[[], list[float]]:
    import glicko2

    periods = [(p.start, p.stop) for p in data.periods()]
    white, black, half = data.white.tolist(), data.black.tolist(), data.white_half_points.tolist()
    start = list(
        zip(
            data.players.rating.tolist(),
            data.players.deviation.tolist(),
            data.players.volatility.tolist(),
            strict=True,
        )
    )

    def run() -> list[float]:
        glicko2.Player._tau = TAU  # the package's tau is a class attribute
        players = [glicko2.Player(rating=r, rd=d, vol=v) for r, d, v in start]
        for first, last in periods:
            rating = [p.rating for p in players]
            rd = [p.rd for p in players]
            opponents: list[list[float]] = [[] for _ in players]
            deviations: list[list[float]] = [[] for _ in players]
            outcomes: list[list[float]] = [[] for _ in players]
            for i in range(first, last):
                w, b, s = white[i], black[i], half[i] / 2
                opponents[w].append(rating[b])
                deviations[w].append(rd[b])
                outcomes[w].append(s)
                opponents[b].append(rating[w])
                deviations[b].append(rd[w])
                outcomes[b].append(1 - s)
            for p, player in enumerate(players):
                if opponents[p]:
                    player.update_player(opponents[p], deviations[p], outcomes[p])
                else:
                    player.did_not_compete()
        return [p.rating for p in players]

    return run


def scalar_glicko2(data: synthetic.SyntheticGames) -> Callable[[], dict[int, Glicko2Rating]]:
    periods = data.periods()
    white, black, half = data.white.tolist(), data.black.tolist(), data.white_half_points.tolist()
    start = {
        i: Glicko2Rating(r, d, v)
        for i, (r, d, v) in enumerate(
            zip(
                data.players.rating.tolist(),
                data.players.deviation.tolist(),
                data.players.volatility.tolist(),
                strict=True,
            )
        )
    }

    def run() -> dict[int, Glicko2Rating]:
        ratings = start
        for period in periods:
            games = [PeriodGame(white[i], black[i], half[i] / 2) for i in range(period.start, period.stop)]
            ratings = rate_whole_period(ratings, games, tau=TAU)
        return ratings

    return run


def skelo_glicko2(data: synthetic.SyntheticGames) -> Callable[[], Any]:
    import pandas as pd
    from skelo.model.glicko2 import Glicko2Estimator

    frame = pd.DataFrame({"white": data.white, "black": data.black, "day": data.day.astype(np.int64)})
    won = (data.white_half_points == 2).astype(int)

    def run() -> Any:
        return Glicko2Estimator(key1_field="white", key2_field="black", timestamp_field="day").fit(frame, won)

    return run


def riix_glicko2(data: synthetic.SyntheticGames) -> Callable[[], Any]:
    from riix.models.glicko2 import Glicko2

    periods = data.periods()
    matchups = np.column_stack([data.white, data.black])
    outcomes = data.white_half_points / 2.0
    competitors = list(range(len(data.players.rating)))

    def run() -> Any:
        model = Glicko2(competitors, tau=TAU, update_method="batched")
        for month, period in enumerate(periods):
            model.update(matchups[period], outcomes[period], time_step=month)
        return model.mus

    return run


# --- the run -----------------------------------------------------------------------------------


def engines(peer_max: int) -> list[Engine]:
    return [
        Engine("chessrate bulk", "FIDE Elo", bulk_fide, ours=True),
        Engine("pure-Python loop", "FIDE Elo", python_loop_fide, max_games=peer_max),
        Engine("chessrate scalar (Decimal)", "FIDE Elo", scalar_fide, max_games=min(peer_max, 10**4)),
        Engine("skelo EloEstimator", "FIDE Elo", skelo_elo, max_games=min(peer_max, 10**5)),
        Engine("riix Elo (batched)", "FIDE Elo", riix_elo, max_games=min(peer_max, 10**5), linear=False),
        Engine("chessrate bulk", "Glicko-2", bulk_glicko2, ours=True),
        Engine("PyPI glicko2", "Glicko-2", pypi_glicko2, max_games=peer_max),
        Engine("chessrate scalar glicko2", "Glicko-2", scalar_glicko2, max_games=min(peer_max, 10**5)),
        Engine("skelo Glicko2Estimator", "Glicko-2", skelo_glicko2, max_games=min(peer_max, 10**4)),
        Engine(
            "riix Glicko2 (batched)", "Glicko-2", riix_glicko2, max_games=min(peer_max, 10**4), linear=False
        ),
    ]


def timed(run: Callable[[], Any], repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def prepare_and_run(engine: Engine, data: synthetic.SyntheticGames) -> Any:
    return engine.prepare(data)()


def traced_peak(run: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    run()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def check_same_ratings(data: synthetic.SyntheticGames) -> None:
    """The pure-Python loop and the bulk engine must agree, player for player, after all periods."""
    ours = bulk_fide(data)()
    loop = python_loop_fide(data)()
    if ours.tolist() != loop:
        raise SystemExit("the bulk engine and the pure-Python loop disagree")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--max-games", type=int, default=10**7, help="largest size (default 10^7)")
    parser.add_argument(
        "--peer-max-games", type=int, default=10**6, help="largest size the slow peers run (default 10^6)"
    )
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "bulk-scaling.png")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here too")
    parser.add_argument("--no-memory", action="store_true", help="skip the traced memory runs")
    args = parser.parse_args(argv)

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    sizes = [n for n in (10**4, 10**5, 10**6, 10**7) if n <= args.max_games] or [args.max_games]
    table = engines(args.peer_max_games)
    print(f"# numpy {np.__version__}, Python {sys.version.split()[0]}, cores used: 1", flush=True)
    for size in sizes:
        data = synthetic.generate(games=size, seed=1)
        if size <= 10**5:
            check_same_ratings(data)
        for engine in table:
            if engine.max_games is not None and size > engine.max_games:
                continue
            run = engine.prepare(data)
            engine.times[size] = timed(run, repeats=3 if engine.ours or size <= 10**5 else 1)
            if not args.no_memory and (engine.ours or size <= 10**5):
                peak = traced_peak(partial(prepare_and_run, engine, data))
                engine.memory[size] = peak / size + (INPUT_BYTES if engine.ours else 0)
                if engine.ours:
                    engine.period_memory[size] = peak / max(p.stop - p.start for p in data.periods())
            rate = size / engine.times[size] / 1e6
            memory = f"  {engine.memory[size]:7.1f} B/game" if size in engine.memory else ""
            if size in engine.period_memory:
                memory += f" ({engine.period_memory[size]:.1f} B per game of the largest period at work)"
            print(
                f"{engine.system:9} {engine.name:28} {size:>10,} games  {rate:8.3f} M games/s{memory}",
                flush=True,
            )
        del data
    report(table, sizes, args)


def games_per_second(engine: Engine, size: int) -> tuple[float | None, bool]:
    """Measured, or extrapolated per game from the largest measured size (True when so)."""
    if size in engine.times:
        return size / engine.times[size], False
    if not engine.linear or not engine.times:
        return None, False
    largest = max(engine.times)
    return largest / engine.times[largest], True


def report(table: list[Engine], sizes: list[int], args: argparse.Namespace) -> None:
    results: dict[str, Any] = {"sizes": sizes, "engines": []}
    for system in ("FIDE Elo", "Glicko-2"):
        ours = next(e for e in table if e.system == system and e.ours)
        print(f"\n## {system}\n")
        print("| engine | " + " | ".join(f"{n:,} games" for n in sizes) + " | peak memory (B/game) |")
        print("|---|" + "---|" * len(sizes) + "---|")
        for engine in (e for e in table if e.system == system):
            cells = []
            for size in sizes:
                rate, extrapolated = games_per_second(engine, size)
                if rate is None:
                    cells.append("—")
                    continue
                mark = "*" if extrapolated else ""
                cell = f"{rate / 1e6:.3g} M/s{mark}"
                if not engine.ours:
                    ours_rate = size / ours.times[size]
                    cell += f" (×{ours_rate / rate:,.0f})"
                cells.append(cell)
            memory = max(engine.memory.values()) if engine.memory else float("nan")
            print(f"| {engine.name} | " + " | ".join(cells) + f" | {memory:.0f} |")
            results["engines"].append(
                {
                    "name": engine.name,
                    "system": system,
                    "seconds": engine.times,
                    "bytes_per_game": engine.memory,
                    "working_bytes_per_period_game": engine.period_memory,
                }
            )
        measured = sorted(ours.times)
        if len(measured) >= 2:
            slope = np.polyfit(np.log(measured), np.log([ours.times[n] for n in measured]), 1)[0]
            large = [n for n in measured if n >= 10**5]
            tail = (
                np.polyfit(np.log(large), np.log([ours.times[n] for n in large]), 1)[0]
                if len(large) >= 2
                else float("nan")
            )
            print(f"\ntime ~ games^{slope:.2f} over all sizes, ^{tail:.2f} from 10^5 games up")
        if ours.period_memory:
            print(f"working memory at most {max(ours.period_memory.values()):.1f} B per game of a period")
    print(
        "\n(×N): how many times faster chessrate bulk is; *: extrapolated per game from the largest size run"
    )
    plot(table, sizes, args.plot)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


def plot(table: list[Engine], sizes: list[int], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for axis, system in zip(axes, ("FIDE Elo", "Glicko-2"), strict=True):
        for engine in (e for e in table if e.system == system):
            measured = sorted(engine.times)
            if not measured:
                continue
            line = axis.plot(
                measured,
                [engine.times[n] for n in measured],
                marker="o",
                linewidth=2.5 if engine.ours else 1.2,
                label=engine.name,
            )[0]
            if engine.linear and measured[-1] < sizes[-1]:
                per_game = engine.times[measured[-1]] / measured[-1]
                rest = [measured[-1]] + [n for n in sizes if n > measured[-1]]
                axis.plot(rest, [per_game * n for n in rest], linestyle=":", color=line.get_color())
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_title(f"{system}: 12 monthly periods, one core")
        axis.set_xlabel("games")
        axis.grid(visible=True, which="both", alpha=0.3)
        axis.legend(fontsize=8)
    axes[0].set_ylabel("seconds (dotted: extrapolated per game)")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    print(f"plot: {path}")


if __name__ == "__main__":
    main()
