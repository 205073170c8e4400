"""The season's team checks beside the season's own grading, at 10k, 100k and 1M games.

Run: ``python benchmarks/bench_season_checks.py`` (``--sizes 10000 100000`` for fewer sizes).

For each size a national season is generated (:func:`xlgrade.generate.generate_national`, one
player for every 13 games), its divisions given a handbook's rules (:func:`xlgrade.generate.
league_divisions`: board order, a maximum total, playing down after 3 games, one team per
division), and then timed, best of three, in the same run: the season's grading
(:func:`xlgrade.season.recalculate`) and the checks of every team in every match
(:func:`xlgrade.teams.league_breaches`, the per-match rules and the season's). Prints each
time, the checks over the grading, and how much each grows from one size to the next (10x the
games: linear work grows 10x). The targets: the checks at most 2x the grading at every size,
and growing at most 11x for 10x the games.
"""

from __future__ import annotations

import argparse
import functools
import gc
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlgrade.generate import generate_national, league_divisions
from xlgrade.season import recalculate
from xlgrade.teams import league_breaches


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, object]:
    """Best processor time of ``runs`` calls, in seconds (garbage collected first), and a
    result: the processor time, not the wall's, since the machine may be shared and both are
    single-threaded."""
    times, result = [], None
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        result = work()
        times.append(time.process_time() - start)
    return min(times), result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=3, help="best of so many (default 3)")
    args = parser.parse_args(argv)
    before: tuple[float, float] | None = None
    for size in args.sizes:
        season = generate_national(players=max(200, size // 13), games=size)
        divisions = {d.name: d for d in league_divisions(season)}
        settings = season.settings
        players, games = list(season.players), list(season.games)
        grading, result = best_of(
            args.runs, functools.partial(recalculate, players, games, settings)
        )
        checks, found = best_of(
            args.runs,
            functools.partial(league_breaches, result, divisions),  # type: ignore[arg-type]
        )
        count = len(found)  # type: ignore[arg-type]
        line = (
            f"{size:>9,} games, {len(divisions)} divisions: grading {grading:.2f} s, checks "
            f"{checks:.2f} s ({count:,} breaches): the checks {checks / grading:.2f}x the grading"
        )
        if before is not None:
            line += f"; growth grading {grading / before[0]:.1f}x, checks {checks / before[1]:.1f}x"
        print(line, flush=True)
        before = (grading, checks)


if __name__ == "__main__":
    main()
