"""Benchmark: the ECF rating's month and season, in games a second.

Prints, does not assert. Run from the repository root:

    python benchmarks/bench_ecf_rating.py

A national month: 15,000 active players (most fully rated, some partially rated, some new,
some returning after 36 months, a tenth juniors) and 20,000 games; and a season of twelve such
months, each rated from the state the month before left. Each is rated two ways in the same
run, over the same rules: :func:`xlgrade.ecf_rating.rate_month` (the three passes over numpy
arrays) and :func:`xlgrade.ecf_rating.rate_month_by_game` (a loop over the games calling the
scalar rules, as a grader works on paper). The two must give the same ratings; the script
says so. The target is a million games a second for the season (array form).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from xlgrade import ecf_rating as er

PLAYERS = 15_000
GAMES = 20_000
MONTHS = 12
START = er.month_index(__import__("datetime").date(2025, 9, 1))


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


def main(argv: list[str] | None = None) -> int:
    """Rate a month and a season both ways; print games a second and whether they agree."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
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
        ("per-game loop (rate_month_by_game)", er.rate_month_by_game, 1),
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
    return 0 if same and math.isfinite(target) else 1


if __name__ == "__main__":
    raise SystemExit(main())
