"""Recalculating a league workbook of 20,000 results without Excel, beside a full openpyxl
load-and-save of the same file, in the same run; with ``--package-check``, the cost of the
checks a book passes before it is read (docs/limits.md) on a national-size book, beside the
full read of the same book.

    python benchmarks/bench_workbook.py [--results 20000] [--players 400] [--stages]
    python benchmarks/bench_workbook.py --package-check [--national-games 200000]

With ``--stages``, the same recalculation is then run again on a copy of the same book in its
steps, each timed: the read of the input sheets (:func:`xlgrade.workbook.recalc.read_book_inputs`,
the package check included), the grading, the output tables, and the write of the output
sheets (their XML, deflated, and the package written whole). The timed recalc above is run
as before, first.

The package check is timed in its steps, each on the same bytes in the same run: the zip's
central directory and the sizes it declares (:func:`xlgrade.workbook.container.package_members`),
the whole check (:func:`xlgrade.workbook.package.check_package`: the directory, the used range
of each input sheet, which inflates it once), one inflate of the Results part alone, and the
full read of the input sheets (:func:`xlgrade.workbook.package.read_sheets`, the check
included). Each is the best of ``--repeat`` runs.

Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import openpyxl

from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.settings import Settings
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.container import inflated_size, package_members, read_part
from xlgrade.workbook.package import check_package, read_sheets, write_sheets
from xlgrade.workbook.read import grade_inputs, output_tables
from xlgrade.workbook.recalc import read_book_inputs, recalculate_book
from xlgrade.workbook.relationships import sheet_parts


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


def _best(repeat: int, step: Callable[[], object]) -> float:
    """The fastest of ``repeat`` runs of ``step``, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        times.append(time.perf_counter() - started)
    return min(times)


def package_check(games: int, repeat: int) -> None:
    """Build a national-size book (``generate_national``) and time its package check beside
    its full read (module docstring)."""
    from xlgrade.generate import generate_national

    national = generate_national(2025, games=games)
    started = time.perf_counter()
    data = build_workbook(national.players, national.games, national.settings)
    built = time.perf_counter() - started
    members = {m.name: m for m in package_members(data)[0]}
    results = members[sheet_parts(data)[layout.RESULTS]]
    sheets = layout.INPUT_SHEETS
    directory = _best(repeat, lambda: sum(inflated_size(m) for m in package_members(data)[0]))
    check = _best(repeat, lambda: check_package(data, sheets))
    inflate = _best(repeat, lambda: read_part(data, results))
    read = _best(repeat, lambda: read_sheets(data, sheets))
    print(
        f"national book: {len(national.games):,} results, {len(national.players):,} players, "
        f"{len(data) / 1e6:.0f} MB; Results part {inflated_size(results) / 1e6:.0f} MB inflated "
        f"(built in {built:.0f} s; best of {repeat})"
    )
    print(f"  zip directory and declared sizes:      {directory:7.3f} s")
    print(f"  package check (check_package):         {check:7.3f} s")
    print(f"  one inflate of the Results part:       {inflate:7.3f} s")
    print(f"  full read of the input sheets:         {read:7.3f} s  (the check included)")
    print(f"  the check is {check / read:.0%} of the full read")


def stages(book: Path) -> list[tuple[str, float]]:
    """The steps of one recalculation of ``book`` (:func:`recalculate_book`), each timed."""
    times: list[tuple[str, float]] = []
    started = time.perf_counter()
    data = book.read_bytes()
    inputs = read_book_inputs(data, book)
    times.append(("read the input sheets", time.perf_counter() - started))
    started = time.perf_counter()
    result = grade_inputs(inputs)
    times.append(("grade the season", time.perf_counter() - started))
    started = time.perf_counter()
    tables = output_tables(result, inputs.divisions)
    times.append(("make the output tables", time.perf_counter() - started))
    started = time.perf_counter()
    write_sheets(book, tables, data=data)
    times.append(("write the output sheets", time.perf_counter() - started))
    return times


def main() -> None:
    """Build the book, recalculate it, then load and save it with openpyxl; print the times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument(
        "--package-check", action="store_true", help="time the package check instead"
    )
    parser.add_argument("--national-games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--stages", action="store_true", help="then time the recalculation's steps")
    args = parser.parse_args()
    if args.package_check:
        package_check(args.national_games, args.repeat)
        return
    players, games = league(args.players, args.results)
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "league.xlsm"
        started = time.perf_counter()
        built_bytes = build_workbook(players, games, Settings(season_name="bench"))
        book.write_bytes(built_bytes)
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

        steps: list[tuple[str, float]] = []
        if args.stages:
            again = Path(folder) / "stages.xlsm"
            again.write_bytes(built_bytes)
            steps = stages(again)

    print(f"workbook: {args.results} results, {args.players} players, {size:.1f} MB")
    print(f"  build (openpyxl, once):           {built:6.2f} s")
    print(f"  xlgrade recalc (read+grade+write): {recalc:6.2f} s wall")
    print(f"  openpyxl load + save, same file:  {openpyxl_time:6.2f} s wall")
    print(
        f"  {summary.players} players, {summary.games} games, {summary.graded} graded, "
        f"{summary.exceptions} exceptions"
    )
    if steps:
        total = sum(seconds for _, seconds in steps)
        print(f"  the recalc again in its steps, on a copy of the same book: {total:.2f} s")
        for step, seconds in steps:
            print(f"    {step + ':':33s}{seconds:6.2f} s")


if __name__ == "__main__":
    main()
