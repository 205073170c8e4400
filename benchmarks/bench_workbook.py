"""Recalculating a league workbook of 20,000 results without Excel, beside a full openpyxl
load-and-save of the same file, in the same run.

    python benchmarks/bench_workbook.py [--results 20000] [--players 400]

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import tempfile
import time
from pathlib import Path

import openpyxl

from xlgrade.model import EarlierSeason, Game, Player, Settings
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.recalc import recalculate_book


def league(n_players: int, n_results: int, seed: int = 7) -> tuple[list[Player], list[Game]]:
    """A random league: players with grades, results between them."""
    rng = random.Random(seed)
    players = [
        Player(
            f"Player {i:05d}",
            club=f"Club {i % 25}",
            grade=float(rng.randint(60, 230)) if rng.random() > 0.1 else None,
            previous=EarlierSeason(rng.randint(0, 30), rng.uniform(0, 4000))
            if rng.random() > 0.5
            else None,
        )
        for i in range(n_players)
    ]
    start = dt.date(2025, 6, 1)
    games = []
    for row in range(n_results):
        home, away = rng.sample(range(n_players), 2)
        games.append(
            Game(
                players[home].name,
                players[away].name,
                rng.choice(("1-0", "½-½", "0-1", "1-0", "0-1")),
                date=start + dt.timedelta(days=rng.randint(0, 364)),
                event=f"Division {row % 4 + 1}",
                match=f"Match {row // 6}",
                board=row % 6 + 1,
                time_control=rng.choice(("75", "30/75, 15", "25")),
            )
        )
    return players, games


def main() -> None:
    """Build the book, recalculate it, then load and save it with openpyxl; print the times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=400)
    args = parser.parse_args()
    players, games = league(args.players, args.results)
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "league.xlsm"
        started = time.perf_counter()
        book.write_bytes(build_workbook(players, games, Settings(season_name="bench")))
        built = time.perf_counter() - started
        copy = Path(folder) / "copy.xlsm"
        shutil.copy(book, copy)
        size = book.stat().st_size / 1e6

        started = time.perf_counter()
        summary = recalculate_book(book)
        recalc = time.perf_counter() - started

        started = time.perf_counter()
        workbook = openpyxl.load_workbook(copy, keep_vba=True)
        workbook.save(copy)
        openpyxl_time = time.perf_counter() - started

    print(f"workbook: {args.results} results, {args.players} players, {size:.1f} MB")
    print(f"  build (openpyxl, once):           {built:6.2f} s")
    print(f"  xlgrade recalc (read+grade+write): {recalc:6.2f} s wall")
    print(f"  openpyxl load + save, same file:  {openpyxl_time:6.2f} s wall")
    print(
        f"  {summary.players} players, {summary.games} games, {summary.graded} graded, "
        f"{summary.exceptions} exceptions"
    )


if __name__ == "__main__":
    main()
