"""A union of leagues graded as one season, beside the same games graded as one league.

Run: ``python benchmarks/bench_union.py`` (``--games N`` for another size; ``--quick`` for
50,000 games).

A generated national season (:func:`xlgrade.generate.generate_national`) is split into leagues
by its events: each league has its own rows and a Players table of the players its rows name
(a player who plays in two leagues is on both tables, as he would be). Printed: the union's
time (:func:`xlgrade.season.union.grade_union`: each league's references, the players joined
across leagues, the same game once, the season graded) against the same games graded as one
league (:func:`xlgrade.season.recalculate` over the whole Players table), the ratio, the
union's peak memory (traced), and the union's time as the same games are split into more
leagues and as the games grow: a merge that is linear in the rows keeps the first flat and the
second in proportion.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlgrade.generate import GeneratedSeason, generate_national
from xlgrade.season import recalculate
from xlgrade.season.references import PlayerIndex
from xlgrade.season.union import LeagueSeason, grade_union

SHARED: Final = 0.05
"""Share of the players who play in two leagues."""


def split(season: GeneratedSeason, leagues: int) -> list[LeagueSeason]:
    """The season's rows in ``leagues`` leagues by event, each with the players it names;
    then :data:`SHARED` of the players play a third of their games in a second league (the
    rows move there, with both players on its table)."""
    events = sorted({g.event for g in season.games})
    league_of = {event: i % leagues for i, event in enumerate(events)}
    index = PlayerIndex(season.players)
    home, _ = index.indices([g.home for g in season.games])
    away, _ = index.indices([g.away for g in season.games])
    shared = set(random.Random(7).sample(range(len(season.players)),
                                          int(SHARED * len(season.players))))  # fmt: skip
    rows: dict[int, list[int]] = defaultdict(list)
    for position, game in enumerate(season.games):
        k = league_of[game.event]
        if (int(home[position]) in shared or int(away[position]) in shared) and position % 3 == 0:
            k = (k + 1) % leagues  # a game of his in his second league
        rows[k].append(position)
    out = []
    for k in range(leagues):
        games = [season.games[p] for p in rows[k]]
        named: set[int] = set()
        for side in ("home", "away"):
            found, _ = index.indices([getattr(g, side) for g in games])
            named.update(int(i) for i in found.tolist() if i >= 0)
        players = [season.players[i] for i in sorted(named)]
        out.append(LeagueSeason(f"League {k + 1}", players, games, settings=season.settings))
    return out


def timed(work: object, *args: object) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    value = work(*args)  # type: ignore[operator]
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    games = 50_000 if args.quick else args.games
    players = max(1_000, games * 15 // 200)
    season = generate_national(players=players, games=games)
    leagues = split(season, 20)
    tables = sum(len(lg.players) for lg in leagues)
    seen: dict[object, int] = defaultdict(int)
    for lg in leagues:
        for p in lg.players:
            seen[p.code or (p.name, p.club)] += 1
    many = sum(1 for n in seen.values() if n > 1)
    print(
        f"{len(season.games):,} games, {len(season.players):,} players in 20 leagues; "
        f"{tables:,} league Players rows; {many:,} players ({many / len(seen):.0%}) in more "
        "than one league"
    )
    one, _ = timed(recalculate, season.players, season.games, season.settings)
    union_time, union = timed(grade_union, leagues)
    result = union.result  # type: ignore[attr-defined]
    print(f"one league:   {one:6.2f} s  ({result.accounting.rows:,} rows)")
    print(
        f"union of 20:  {union_time:6.2f} s  ratio {union_time / one:.2f} × one league; "
        f"{len(union.joins):,} joined, {len(union.undecided):,} not decided"
    )  # type: ignore[attr-defined]
    tracemalloc.start()
    grade_union(leagues)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"union peak memory (traced): {peak / 2**20:,.0f} MiB")
    print("the same games in more leagues (linear in the rows: flat):")
    for count in (5, 20, 50):
        seconds, _ = timed(grade_union, split(season, count))
        print(f"  {count:3d} leagues: {seconds:6.2f} s")
    print("more games, 20 leagues (linear: in proportion):")
    for size in (games // 4, games // 2, games):
        part = generate_national(players=max(1_000, size * 15 // 200), games=size)
        seconds, _ = timed(grade_union, split(part, 20))
        print(f"  {size:9,d} games: {seconds:6.2f} s  ({seconds / size * 1e6:.1f} µs a game)")


if __name__ == "__main__":
    main()
