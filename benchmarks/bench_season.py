"""Season recalculation at national scale: speed, memory and linearity, beside a plain loop.

Run: ``python benchmarks/bench_season.py`` (add ``--quick`` to skip the 2M-game size).

Prints, for a generated national season (15,000 players, 200,000 games this season with two
earlier seasons' totals, 5 % ungraded, 3 % faulty rows): the whole recalculation's wall time
(checks, working grades, grades, categories, the cards' per-player game order), games per
second, peak memory traced during the recalculation, the same work done by a straightforward
per-game loop over the same engine functions, and the time at 20k, 200k and 2M games with the
ratios between them: with the rows in date order (as generated), grouped by event, and three
controls of the same sizes (reading every player reference once; one dictionary lookup per
reference; numpy's argsort of one key per game) that show how the machine's caches alone bend
the ratios once the data outgrows them.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import gc
import itertools
import operator
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlgrade.ecf import game_points, season_grade
from xlgrade.eligibility import classify
from xlgrade.errors import GradingError
from xlgrade.estimate import working_grades
from xlgrade.formats.folder import read_folder_cells
from xlgrade.generate import GeneratedSeason, generate_national, write_csv
from xlgrade.model import Game, Player
from xlgrade.results import parse_game_result
from xlgrade.season import name_key, recalculate
from xlgrade.settings import Settings
from xlgrade.workbook.read import read_inputs


def best_of(runs: int, work: object, *args: object) -> float:
    """Best wall time of ``runs`` calls, in seconds (garbage collected first)."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        work(*args)  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def per_game_loop(players: Sequence[Player], games: Sequence[Game], settings: Settings) -> int:
    """The same season, one game at a time through the one-game engine functions."""
    by_code = {p.code.strip().upper(): i for i, p in enumerate(players) if p.code}
    by_name: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(players):
        by_name[name_key(p.name)].append(i)

    def find(text: str) -> int | None:
        hit = by_code.get(text.strip().upper())
        if hit is not None:
            return hit
        found = by_name.get(name_key(text), [])
        return found[0] if len(found) == 1 else None

    seen: dict[tuple[object, int, int], float] = {}
    kept: list[tuple[int, int, float]] = []
    for g in games:
        w, b = find(g.home), find(g.away)
        if w is None or b is None or w == b:
            continue
        try:
            result = parse_game_result(g.result)
            kind = classify(
                g.time_control or settings.default_time_control or "90+30", system=settings.system
            ).kind
        except GradingError:
            continue
        if g.date is not None and not settings.season_start <= g.date <= settings.season_end:
            continue
        if not result.graded or kind != "standard" or result.home is None:
            continue
        key = (g.date, min(w, b), max(w, b))
        if key in seen:
            continue
        seen[key] = result.home
        kept.append((w, b, result.home))
    known = [p.grade if p.grade is not None else np.nan for p in players]
    working = working_grades(
        known, [k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]
    ).grades
    points = [0.0] * len(players)
    count = [0] * len(players)
    for w, b, s in kept:
        for me, them, score in ((w, b, s), (b, w, 1.0 - s)):
            own = players[me].grade
            points[me] += game_points(own, float(working[them]), score).points
            count[me] += 1
    graded = 0
    for i, p in enumerate(players):
        if count[i]:
            season_grade(points[i], count[i], [p.previous, p.earlier])
            graded += 1
    return graded


def traced_peak(players: Sequence[Player], games: Sequence[Game], settings: Settings) -> int:
    """Peak bytes allocated during one recalculation (inputs excluded)."""
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    recalculate(players, games, settings)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 2M-game size")
    args = parser.parse_args()
    print(f"xlgrade season benchmark — {dt.date.today()}, numpy {np.__version__}")
    start = time.perf_counter()
    national = generate_national(2025)
    made = time.perf_counter() - start
    players, games, settings = national.players, national.games, national.settings
    print(f"generated {len(players):,} players, {len(games):,} games in {made:.1f} s")

    season = recalculate(players, games, settings)
    print(season.accounting.summary())
    assert season.accounting.balanced
    del season  # timed below from the same start as every other size

    vectorised = best_of(5, recalculate, players, games, settings)
    print(
        f"recalculate (whole season):   {vectorised * 1000:8.1f} ms  "
        f"{len(games) / vectorised:>12,.0f} games/s"
    )
    with tempfile.TemporaryDirectory() as folder:
        write_csv(national, folder)
        read = read_inputs(read_folder_cells(folder))
    from_files = best_of(3, recalculate, read.players, read.games, read.settings)
    print(
        f"  the same season read from CSV files: {from_files * 1000:8.1f} ms  "
        f"{len(games) / from_files:>12,.0f} games/s  (every cell a string of its own, as a "
        "reader makes them; generated in memory, references share the players' strings)"
    )
    loop = best_of(2, per_game_loop, players, games, settings)
    print(
        f"per-game loop, same engine:   {loop * 1000:8.1f} ms  "
        f"{len(games) / loop:>12,.0f} games/s   ratio {loop / vectorised:.1f}×"
    )
    peak = traced_peak(players, games, settings)
    print(f"peak memory traced during the recalculation: {peak / 2**20:.1f} MiB")

    scaling(national, quick=args.quick)


def by_event(games: Sequence[Game]) -> list[Game]:
    """The same rows grouped by event (then date), as a national file compiled from each
    league's and congress's own returns would be; new objects, made in that order."""
    ordered = sorted(games, key=lambda g: (g.event, g.date or dt.date.min))
    return [dataclasses.replace(g) for g in ordered]


def reference_reads(games: Sequence[Game]) -> None:
    """Control: the length of every player reference (both sides of every row), the least a
    program can do that looks at each reference at all."""
    for side in ("home", "away"):
        np.fromiter(map(len, map(operator.attrgetter(side), games)), np.int64, len(games))


def reference_lookups(players: Sequence[Player], games: Sequence[Game]) -> None:
    """Control: one dictionary lookup per player reference (both sides of every row), the
    least any matching of typed references to players must do."""
    index = {p.code: i for i, p in enumerate(players) if p.code}
    index.update((p.name, i) for i, p in enumerate(players))
    for side in ("home", "away"):
        np.fromiter(
            map(index.get, map(operator.attrgetter(side), games), itertools.repeat(-1)),
            np.int64,
            len(games),
        )


def scaling(national: GeneratedSeason, *, quick: bool) -> None:
    """Time at 20k, 200k and 2M games (players scaled with them), the ratios, and three
    controls of the same size that show what the machine's memory does to any program."""
    sizes = [(1_500, 20_000), (15_000, 200_000)]
    if not quick:
        sizes.append((150_000, 2_000_000))
    columns = (
        "date order",
        "event order",
        "control: reading",
        "control: lookups",
        "control: argsort",
    )
    timings: dict[str, list[tuple[int, float]]] = {c: [] for c in columns}
    print(
        "scaling (players grow with the games; 'event order' is the same rows grouped by "
        "event; the controls read every player reference once, look each up in a dictionary, "
        "and run numpy's argsort of one int64 key per game):"
    )
    rng = np.random.default_rng(1)
    for n_players, n_games in sizes:
        data = (
            national
            if n_games == len(national.games)
            else generate_national(2025, players=n_players, games=n_games)
        )
        runs = 3 if n_games < 1_000_000 else 2
        grouped = by_event(data.games)
        keys = rng.integers(0, 2**46, n_games)
        figures = {
            "date order": best_of(runs, recalculate, data.players, data.games, data.settings),
            "event order": best_of(runs, recalculate, data.players, grouped, data.settings),
            "control: reading": best_of(runs, reference_reads, data.games),
            "control: lookups": best_of(runs, reference_lookups, data.players, data.games),
            "control: argsort": best_of(runs, np.argsort, keys),
        }
        for column, seconds in figures.items():
            timings[column].append((n_games, seconds))
        print(
            f"  {n_games:>9,} games: recalculate {figures['date order'] * 1000:8.1f} ms "
            f"({n_games / figures['date order']:>10,.0f} games/s), event order "
            f"{figures['event order'] * 1000:8.1f} ms; controls "
            f"{figures['control: reading'] * 1000:7.1f} ms, "
            f"{figures['control: lookups'] * 1000:7.1f} ms, "
            f"{figures['control: argsort'] * 1000:6.1f} ms"
        )
        del data, grouped
    for column in columns:
        steps = ", ".join(
            f"{g2 // g1}× the games → {t2 / t1:.1f}× the time"
            for (g1, t1), (g2, t2) in itertools.pairwise(timings[column])
        )
        print(f"  {column:17s} {steps}")
    per_game = statistics.mean(t / g for g, t in timings["date order"]) * 1e9
    print(f"  recalculate: mean {per_game:.0f} ns per game")


if __name__ == "__main__":
    main()
