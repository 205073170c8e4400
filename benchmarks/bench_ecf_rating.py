"""Benchmark: the ECF rating's month and season, in games a second.

Prints, does not assert. Run from the repository root:

    python benchmarks/bench_ecf_rating.py

A national month: 15,000 active players (most fully rated, some partially rated, some new,
some returning after 36 months, a tenth juniors) and 20,000 games; and a season of twelve such
months, each rated from the state the month before left. Each is rated two ways in the same
run, over the same rules: :func:`xlgrade.ecf_rating.rate_month` (the three passes over numpy
arrays) and ``tests.rating_by_game.rate_month_by_game`` (a loop over the games calling the
scalar rules, as a grader works on paper). The two must give the same ratings; the script
says so. The target is a million games a second for the season (array form).

Then the whole season as a league grader runs it: :func:`xlgrade.season.recalculate` with the
setting ``System`` at the ECF rating (2020 rules), over a generated national season
(:func:`xlgrade.generate.generate_national`: 15,000 players, 12 × 20,000 result rows, 5 %
ungraded and 3 % faulty as generated, each row put in month ``row % 12`` of the season so that
every month has the benchmark's 20,000 rows; every graded player starts at the 2020 seeding of
his grade, 7.5 × grade + 700, category K; everyone an adult). Beside it, in the same run, the
engine alone over the same rated games (the season's own months,
:func:`xlgrade.ecf_rating.rate_month` from the same start) and the per-game loop over them, and
how much of the season's time is the 1997 grading that a rated season still does for the
teams' limits and next season's grades. The rated and the graded season are run one after
the other, again and again, and their medians compared: the rated season is to cost at most
1.15× the graded one (:data:`RATED_RATIO_TARGET`). One more run of each, traced
(tracemalloc), gives the megabytes each result keeps and the most each held at once.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import gc
import itertools
import math
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from tests.rating_by_game import rate_month_by_game
from xlgrade import ecf_rating as er
from xlgrade.generate import generate_national
from xlgrade.model import Game, Player
from xlgrade.season import STANDARD, SeasonResult, recalculate, run
from xlgrade.settings import GRADING_1997, RATING_2020, Settings

PLAYERS = 15_000
GAMES = 20_000
MONTHS = 12
START = er.month_index(__import__("datetime").date(2025, 9, 1))
RATED_RATIO_TARGET = 1.15
"""A rated season costs at most this much more than the same season graded."""


def make_state(rng: np.random.Generator) -> er.RatingState:
    """A national list at the start of the season."""
    rating = np.round(rng.normal(1650, 300, PLAYERS)).clip(500, 2700)
    kind = rng.choice(4, PLAYERS, p=[0.85, 0.07, 0.05, 0.03])  # full, partial, new, returning
    rating[kind == 2] = np.nan
    last = np.where(kind == 3, START - 40, START - rng.integers(1, 24, PLAYERS))
    last = np.where(kind == 2, er.NO_MONTH, last)
    return er.start_state(
        START,
        rating,
        full=(kind == 0) | (kind == 3),
        last_month=last,
        games=rng.integers(1, 10, PLAYERS),
        recent_results=rng.integers(0, 30, PLAYERS),
    )


def make_month(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A month's games: white, black (different players), white's score."""
    white = rng.integers(0, PLAYERS, GAMES)
    black = (white + rng.integers(1, PLAYERS, GAMES)) % PLAYERS
    score = rng.choice([0.0, 0.5, 1.0], GAMES, p=[0.4, 0.2, 0.4])
    return white, black, score


def season(
    rate: Callable[..., er.MonthResult],
    state: er.RatingState,
    months: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    junior: np.ndarray,
    nominal: np.ndarray,
) -> tuple[float, er.RatingState]:
    """Seconds to rate ``months`` one after another from ``state``, and the state at the end."""
    start = time.perf_counter()
    for white, black, score in months:
        state = rate(state, white, black, score, junior=junior, nominal=nominal).state
    return time.perf_counter() - start, state


def national_season(seed: int) -> tuple[list[Player], list[Game], Settings]:
    """The generated national season of the module's description, rated."""
    made = generate_national(seed, players=PLAYERS, games=GAMES * MONTHS)
    # Adults throughout (no date of birth, no junior mark), so that the engine alone and the
    # loop below take the season's own k and nominal opponents.
    adults = [dataclasses.replace(p, date_of_birth=None, junior=False) for p in made.players]
    players = [
        dataclasses.replace(p, rating=7.5 * p.grade + 700, rating_category="K")
        if p.grade is not None
        else p
        for p in adults
    ]
    first = made.settings.season_start
    games = []
    for i, g in enumerate(made.games):
        if g.date is not None:
            month = first.month - 1 + i % MONTHS
            day = dt.date(first.year + month // 12, month % 12 + 1, min(g.date.day, 28))
            g = dataclasses.replace(g, date=day)
        games.append(g)
    settings = dataclasses.replace(made.settings, system=RATING_2020)
    return players, games, settings


def timed_seasons(
    players: list[Player], games: list[Game], rated: Settings, graded: Settings, repeat: int
) -> tuple[float, float, float, SeasonResult, float]:
    """The whole season rated and graded, one after the other ``repeat`` times (the machine's
    load falls on both alike): the median wall time of each, the median share of the rated
    runs spent in the 1997 grading (:func:`xlgrade.season.lists.grade_list`), the last
    rated result, and the ratio of the two medians of this process's CPU time (the other
    processes of a shared machine left out)."""
    grading = run.grade_list  # type: ignore[attr-defined]
    spent = [0.0]

    def counted(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return grading(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            spent[0] += time.perf_counter() - start

    rated_s: list[float] = []
    graded_s: list[float] = []
    cpu: dict[bool, list[float]] = {True: [], False: []}
    shares: list[float] = []
    result: SeasonResult | None = None
    run.grade_list = counted  # type: ignore[attr-defined,assignment]
    try:
        for _ in range(repeat):
            for settings, times in ((rated, rated_s), (graded, graded_s)):
                gc.collect()
                spent[0] = 0.0
                start, start_cpu = time.perf_counter(), time.process_time()
                made = recalculate(players, games, settings)
                times.append(time.perf_counter() - start)
                cpu[settings is rated].append(time.process_time() - start_cpu)
                if settings is rated:
                    result = made
                    shares.append(spent[0])
    finally:
        run.grade_list = grading  # type: ignore[attr-defined]
    assert result is not None
    median = statistics.median
    cpu_ratio = median(cpu[True]) / median(cpu[False])
    return median(rated_s), median(graded_s), median(shares), result, cpu_ratio


def season_memory(
    players: list[Player], games: list[Game], settings: Settings
) -> tuple[float, float]:
    """The megabytes a season's result keeps, and the most held at once while it is worked
    (tracemalloc, once, after the timed runs: tracing slows the run)."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        made = recalculate(players, games, settings)
        kept, peak = tracemalloc.get_traced_memory()
        del made
    finally:
        tracemalloc.stop()
    return (kept - base) / 1e6, (peak - base) / 1e6


def season_rated_games(
    result: SeasonResult,
) -> tuple[er.RatingState, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """The standard list's start and its months' games, as the season rated them."""
    rated = result.rated[STANDARD]
    spans = rated.spans.tolist()
    months = [
        (rated.white[a:b], rated.black[a:b], rated.score[a:b]) for a, b in itertools.pairwise(spans)
    ]
    return rated.start, months


def whole_season(seed: int, repeat: int) -> bool:
    """Time the whole season (module description) beside the engine alone and the loop."""
    players, games, settings = national_season(seed)
    graded_settings = dataclasses.replace(settings, system=GRADING_1997)
    seconds, graded_s, grading, result, cpu_ratio = timed_seasons(
        players, games, settings, graded_settings, repeat
    )
    rated = result.accounting.standard_graded + result.accounting.rapid_graded
    start, months = season_rated_games(result)
    # national_season made everyone an adult.
    junior = np.zeros(len(players), dtype=np.bool_)
    nominal = np.full(len(players), er.NOMINAL_ADULT)
    standard = sum(w.size for w, _, _ in months)
    engine_s, engine = min(
        (season(er.rate_month, start, months, junior, nominal) for _ in range(repeat)),
        key=lambda r: r[0],
    )
    loop_s, loop = season(rate_month_by_game, start, months, junior, nominal)
    print()
    print(
        f"Whole season (xlgrade.season.recalculate, System 'ECF rating (2020 rules)'): "
        f"{len(players):,} players, {len(games):,} result rows, {rated:,} rated "
        f"({standard:,} standard) in {len(months)} months"
    )
    print(f"{'form':<50}{'seconds':>9}{'games/s':>14}")
    rows = (
        ("whole season, rated (every row's checks, lists)", seconds, rated),
        ("  of which the 1997 grading (teams, next season)", grading, rated),
        ("the same season graded by the 1997 rules", graded_s, rated),
        ("engine alone, standard list (rate_month)", engine_s, standard),
        ("per-game loop, standard list (rate_month_by_game)", loop_s, standard),
    )
    for label, took, n in rows:
        print(f"{label:<50}{took:>9.3f}{n / took:>14,.0f}")
    same = np.array_equal(engine.rating, loop.rating, equal_nan=True) and np.array_equal(
        engine.rating, result.rated[STANDARD].rating, equal_nan=True
    )
    ratio = seconds / graded_s
    print(
        f"rated season / the same season graded by the 1997 rules: {ratio:.2f}× "
        f"(medians of {repeat} runs each, alternating; target ≤ {RATED_RATIO_TARGET:.2f}×: "
        f"{'met' if ratio <= RATED_RATIO_TARGET else 'NOT met'})"
    )
    print(f"the same in this process's CPU time (medians): {cpu_ratio:.2f}×")
    (rated_kept, rated_peak), (graded_kept, graded_peak) = (
        season_memory(players, games, s) for s in (settings, graded_settings)
    )
    print(
        f"memory (tracemalloc), rated / graded: result kept {rated_kept:.1f} / "
        f"{graded_kept:.1f} MB, peak {rated_peak:.1f} / {graded_peak:.1f} MB"
    )
    print(f"whole season {loop_s / seconds:,.0f}× the per-game loop's standard list alone")
    print(f"season, engine and loop give the same standard ratings: {'yes' if same else 'NO'}")
    met = "met" if rated / seconds >= 1e6 else "NOT met"
    print(f"target 1,000,000 g/s for the whole season: {met}")
    return same


def main(argv: list[str] | None = None) -> int:
    """Rate a month and a season both ways; print games a second and whether they agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument(
        "--repeat", type=int, default=5, help="best (arrays) or median (whole season) of this many"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    state = make_state(rng)
    junior = rng.random(PLAYERS) < 0.1
    nominal = np.where(junior, rng.integers(7, 18, PLAYERS) * 100.0, er.NOMINAL_ADULT)
    months = [make_month(rng) for _ in range(MONTHS)]
    print(f"ECF rating: {PLAYERS:,} players, {GAMES:,} games a month, {MONTHS} months")
    print(f"{'form':<34}{'month':>14}{'season':>16}")
    results: dict[str, tuple[float, float, er.RatingState]] = {}
    for label, rate, repeat in (
        ("arrays (rate_month)", er.rate_month, args.repeat),
        ("per-game loop (rate_month_by_game)", rate_month_by_game, 1),
    ):
        month_s = min(season(rate, state, months[:1], junior, nominal)[0] for _ in range(repeat))
        runs = [season(rate, state, months, junior, nominal) for _ in range(repeat)]
        season_s = min(r[0] for r in runs)
        results[label] = (month_s, season_s, runs[0][1])
        print(f"{label:<34}{GAMES / month_s:>10,.0f} g/s{GAMES * MONTHS / season_s:>12,.0f} g/s")
    (_, fast_season, fast), (_, slow_season, slow) = results.values()
    same = np.array_equal(fast.rating, slow.rating, equal_nan=True) and np.array_equal(
        fast.full, slow.full
    )
    print(f"arrays are {slow_season / fast_season:,.0f}× the loop over the season")
    print(f"same ratings after {MONTHS} months: {'yes' if same else 'NO'}")
    rated = np.isfinite(fast.rating)
    print(
        f"after the season: {int(rated.sum()):,} rated, {int((rated & ~fast.full).sum()):,} "
        f"partial; mean rating {float(np.nanmean(fast.rating)):,.0f}"
    )
    target = GAMES * MONTHS / fast_season
    print(f"target 1,000,000 g/s for the season: {'met' if target >= 1e6 else 'NOT met'}")
    whole = whole_season(args.seed, args.repeat)
    return 0 if same and whole and math.isfinite(target) else 1


if __name__ == "__main__":
    raise SystemExit(main())
