"""Worksheet functions over whole columns, beside the per-cell alternative.

Prints, for one run on this computer:

1. ``GRADE_POINTS`` over a 10,000-row column in one call (as Excel hands it over: rows of
   floats, result texts, empty cells), against 10,000 single-cell calls, and the engine's
   per-game :func:`xlgrade.ecf.game_points` in a loop. Target: one call ≤ 10 ms. Then the
   same column, the table form (home and away sides as one 10,000 × 2 range, one call) and
   1,000 single-cell calls, timed in turn with the functions of commit :data:`BEFORE` (its
   ``udfs/`` and ``xlgrade/`` read out of git into a temporary folder and imported in this
   process) in this process's CPU time: the call both take, the horizon as a 1 × 1 range and
   the floor left out. Target: ≤ 1.0× that version for the column and the table.
2. A season-sized sheet (5,000 games, 400 players): every figure the grader sees computed
   with whole-column calls — points for both sides of every game, then each player's grade,
   category, junior enhancement, Elo equivalent and class. The sums per player stand in for
   Excel's own SUMIFS/COUNTIFS. Target: at most 20 calls of xlgrade functions in all.
3. The shipped template (the xlwings Lite book ``xlgrade template`` writes) filled with 500,
   5,000 and 20,000 results: the calls of xlgrade functions one full recalculation makes,
   counted from the book's own formula cells (target ≤ 10, the same at every size), and that
   recalculation timed through ``xlwings.server.custom_functions_call`` (the Office.js
   protocol xlwings Lite runs): the add-in probe and each points column's ``SEASON_POINTS``
   with its arguments taken from the book's own cells (the Results and Players tables and
   the Settings cells, :mod:`tests.live_points`) shaped as Office.js passes them
   (:mod:`xlgrade.workbook.excel_calls`), no answer a message; beside it, the same tables
   read and graded once, as ``xlgrade recalc`` does. ``xlwings.server``
   needs a licence key: xlwings' key for noncommercial use is set when none is. xlwings
   imports ``pyodide.ffi.JsNull`` for every cell it reads; under Pyodide that import is
   cached, here it fails and costs more than the grading, so the benchmark gives it the
   stand-in Pyodide has (an empty ``JsNull`` class).

Run: ``python benchmarks/bench_udfs.py`` (from the repository root, with the package
importable, e.g. ``pip install -e .[test]``). Figures are printed, never asserted.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "udfs"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import xlgrade_udfs as xl

from xlgrade import ecf
from xlgrade.generate import generate_league
from xlgrade.workbook import layout
from xlgrade.workbook.build import members_of
from xlgrade.workbook.lite import build_lite_workbook
from xlgrade.workbook.relationships import sheet_parts

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "4e2436a"
"""The commit the functions' cost is compared with: before every argument was read through
one coercion (``_taking_cells``)."""
ROWS = 10_000
GAMES = 5_000
PLAYERS = 400
REPEATS = 30
RESULT_TEXTS = ("1-0", "½-½", "0-1", 1.0, 0.5, 0.0, "W", "D", "L", "1-0 def")
OPTIONS = ([[40.0]], [[True]])
"""The points formulas' horizon and floor, as Excel hands them over: ``IF(Horizon="",40,Horizon)``
and ``FloorAtZero<>"no"`` of the Settings sheet's defaults, each one value as a 1 × 1 range."""


def _messages(answer: list[list[Any]]) -> list[Any]:
    """The cells of an answer that are messages for bad input (there should be none)."""
    return [row[0] for row in answer if str(row[0]).startswith("#VALUE!")]


def timed(function: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """Best and median seconds of ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def points_column() -> None:
    rng = random.Random(5)
    own = [[None if rng.random() < 0.05 else float(rng.randint(60, 220))] for _ in range(ROWS)]
    opponent = [[float(rng.randint(60, 220))] for _ in range(ROWS)]
    result = [[rng.choice(RESULT_TEXTS)] for _ in range(ROWS)]
    for i in range(0, ROWS, 500):  # a few empty rows, as a sheet has
        opponent[i] = [None]
    answer = xl.GRADE_POINTS(own, opponent, result, *OPTIONS)
    assert len(answer) == ROWS
    assert not _messages(answer)

    best, median = timed(lambda: xl.GRADE_POINTS(own, opponent, result, *OPTIONS), REPEATS)
    print(
        f"GRADE_POINTS, one call over {ROWS:,} rows:   best {best * 1e3:7.2f} ms, "
        f"median {median * 1e3:7.2f} ms   (target ≤ 10 ms)"
    )

    cells = [(o[0], p[0], r[0]) for o, p, r in zip(own, opponent, result, strict=True)]

    def per_cell() -> None:
        for o, p, r in cells:
            xl.GRADE_POINTS([[o]], [[p]], [[r]], *OPTIONS)

    best_cells, median_cells = timed(per_cell, 3)
    print(
        f"GRADE_POINTS, {ROWS:,} single-cell calls:     best {best_cells * 1e3:7.2f} ms, "
        f"median {median_cells * 1e3:7.2f} ms   ({median_cells / median:.0f}× the one call; "
        "Excel adds its own cost per call)"
    )
    scores = {"1-0": 1.0, "½-½": 0.5, "0-1": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
    engine_rows = [
        (o, p, scores.get(r, r)) for o, p, r in cells if p is not None and r != "1-0 def"
    ]

    def engine_loop() -> None:
        for o, p, s in engine_rows:
            ecf.game_points(o, p, s)

    best_engine, median_engine = timed(engine_loop, 3)
    print(
        f"ecf.game_points in a loop ({len(engine_rows):,} games): best {best_engine * 1e3:7.2f}"
        f" ms, median {median_engine * 1e3:7.2f} ms   (the engine alone, no cells)"
    )
    against_before(own, opponent, result)


def functions_at(commit: str) -> Any:
    """The module ``xlgrade_udfs`` as it was at ``commit``, with the engine of that commit,
    imported beside today's (whose modules are put back after): ``None`` where git or the
    commit is not at hand (a shallow clone, an unpacked sdist)."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "xlgrade", "udfs"],
            capture_output=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    folder = tempfile.mkdtemp(prefix="xlgrade-before-")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    ours = ("xlgrade", "xlgrade_udfs")
    saved = {n: m for n, m in sys.modules.items() if n.split(".")[0] in ours}
    for name in saved:
        del sys.modules[name]
    sys.path[:0] = [folder, str(Path(folder) / "udfs")]
    try:
        return importlib.import_module("xlgrade_udfs")
    finally:
        del sys.path[:2]
        for name in [n for n in sys.modules if n.split(".")[0] in ours]:
            del sys.modules[name]
        sys.modules.update(saved)


def in_turn(calls: dict[str, Callable[[], Any]], repeats: int) -> dict[str, tuple[float, float]]:
    """Best and median seconds of each call in this process's CPU time, the calls run one after
    the other in each round, so that a busy minute of the shared machine weighs on all of them
    alike (its other work is not counted, only what it does to the caches)."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, function in calls.items():
            start = time.process_time()
            function()
            times[name].append(time.process_time() - start)
    return {name: (min(t), statistics.median(t)) for name, t in times.items()}


def against_before(
    own: list[list[Any]], opponent: list[list[Any]], result: list[list[Any]]
) -> None:
    """Today's ``GRADE_POINTS`` beside :data:`BEFORE`'s, on a column and on the table form."""
    before = functions_at(BEFORE)
    if before is None:
        print(f"GRADE_POINTS against {BEFORE}: not timed (git or that commit is not at hand)")
        return
    flipped = {"1-0": "0-1", "0-1": "1-0", "W": "L", "L": "W", 1.0: 0.0, 0.0: 1.0}
    table = (
        [[o[0], p[0]] for o, p in zip(own, opponent, strict=True)],
        [[p[0], o[0]] for o, p in zip(own, opponent, strict=True)],
        [[r[0], flipped.get(r[0], r[0])] for r in result],
    )
    horizon = OPTIONS[0]  # the floor as a range is newer than BEFORE: both take it left out
    for form, (a, b, c) in (("column", (own, opponent, result)), ("table", table)):
        now = xl.GRADE_POINTS(a, b, c, horizon)
        assert now == before.GRADE_POINTS(a, b, c, horizon)
        assert not _messages([[cell] for row in now for cell in row])
        figures = in_turn(
            {
                "now": lambda a=a, b=b, c=c: xl.GRADE_POINTS(a, b, c, horizon),
                "before": lambda a=a, b=b, c=c: before.GRADE_POINTS(a, b, c, horizon),
            },
            2 * REPEATS,
        )
        (best, median), (best_before, median_before) = figures["now"], figures["before"]
        shape = f"{len(a):,} × {len(a[0]):,}"
        print(
            f"GRADE_POINTS, the {form} form ({shape}), in turn with {BEFORE}, CPU time: best "
            f"{best * 1e3:6.2f} ms against {best_before * 1e3:6.2f} ms ({best / best_before:.2f}×),"
            f" median {median * 1e3:6.2f} against {median_before * 1e3:6.2f} ms "
            f"({median / median_before:.2f}×)   (target ≤ 1.0×)"
        )
    cells = list(zip(own[:1000], opponent, result, strict=False))

    def single(function: Callable[..., Any]) -> Callable[[], None]:
        return lambda: [function([o], [p], [r], horizon) for o, p, r in cells]

    figures = in_turn({"now": single(xl.GRADE_POINTS), "before": single(before.GRADE_POINTS)}, 5)
    (best, _), (best_before, _) = figures["now"], figures["before"]
    print(
        f"GRADE_POINTS, {len(cells):,} single-cell calls in turn with {BEFORE}, CPU time: best "
        f"{best * 1e3:6.2f} ms against {best_before * 1e3:6.2f} ms ({best / best_before:.2f}×; "
        "the engine counts grades to 9 decimals since, xlgrade.ecf.grades_as_counted)"
    )


class Counter:
    """Counts calls of the worksheet functions."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        function = getattr(xl, name)

        def call(*args: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return function(*args)

        return call


def season_sheet() -> None:
    rng = random.Random(7)
    grades = [float(rng.randint(60, 230)) if rng.random() > 0.1 else None for _ in range(PLAYERS)]
    ages = [float(rng.randint(8, 17)) if rng.random() < 0.15 else None for _ in range(PLAYERS)]
    prev = [(rng.randint(0, 30), rng.uniform(80, 200)) for _ in range(PLAYERS)]
    earlier = [(rng.randint(0, 30), rng.uniform(80, 200)) for _ in range(PLAYERS)]
    home = [rng.randrange(PLAYERS) for _ in range(GAMES)]
    away = [(h + rng.randrange(1, PLAYERS)) % PLAYERS for h in home]
    results = [rng.choice(("1-0", "½-½", "0-1")) for _ in range(GAMES)]
    flipped = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½"}
    working = [g if g is not None else 120.0 for g in grades]  # stands in for estimates

    xlc = Counter()
    start = time.perf_counter()
    # Results sheet: two formulas, one a column.
    home_points = xlc.GRADE_POINTS(
        [[grades[h]] for h in home],
        [[working[a]] for a in away],
        [[r] for r in results],
        *OPTIONS,
    )
    away_points = xlc.GRADE_POINTS(
        [[grades[a]] for a in away],
        [[working[h]] for h in home],
        [[flipped[r]] for r in results],
        *OPTIONS,
    )
    assert not _messages(home_points)
    assert not _messages(away_points)
    # Players sheet: SUMIFS / COUNTIFS (Excel's own) give each player's points and games.
    points = [0.0] * PLAYERS
    games = [0] * PLAYERS
    for h, a, hp, ap in zip(home, away, home_points, away_points, strict=True):
        points[h] += hp[0]
        points[a] += ap[0]
        games[h] += 1
        games[a] += 1
    column = [[v] for v in points], [[float(v)] for v in games]
    prev_points = [[p * g] for g, p in prev]
    prev_games = [[float(g)] for g, _ in prev]
    earlier_points = [[p * g] for g, p in earlier]
    earlier_games = [[float(g)] for g, _ in earlier]
    new = xlc.SEASON_GRADE(*column, prev_points, prev_games, earlier_points, earlier_games)
    xlc.GRADE_CATEGORY(column[1], prev_games, earlier_games)
    xlc.JUNIOR_ENHANCEMENT([[a] for a in ages])
    xlc.PERFORMANCE_GRADE([[working[a]] for a in away[:40]], [[r] for r in results[:40]])
    elo = xlc.ECF_TO_ELO(new)
    xlc.RATING_CLASS(elo)
    xlc.ECF_CODE_VALID([[f"{100000 + i}A"] for i in range(PLAYERS)])
    elapsed = time.perf_counter() - start
    total = sum(xlc.calls.values())
    print(
        f"Season sheet, {GAMES:,} games and {PLAYERS} players: {total} function calls "
        f"(target ≤ 20), {elapsed * 1e3:.1f} ms in all"
    )
    print("  calls:", ", ".join(f"{n} {c}" for n, c in xlc.calls.items()))
    per_cell = 2 * GAMES + 6 * PLAYERS
    print(f"  the same sheet with one formula per cell: {per_cell:,} function calls")


# --------------------------------------------------------------------------------------------
# 3. The shipped template, recalculated as xlwings Lite recalculates it


SIZES = (500, 5_000, 20_000)


def template_calls(package: bytes) -> list[str]:
    """The formula cells of a built book that call an xlgrade function: what one full
    recalculation calls, once each (an array formula is one call however many rows it fills).
    A Lite book stores a call as ``_xldudf_NAME(`` (xlgrade.workbook.formulas.STORED_PREFIX)."""
    names = "|".join(sorted(xl.FUNCTIONS, key=len, reverse=True))
    calling = re.compile(rf"<c r=\"([A-Z]+\d+)\"[^>]*><f[^>]*>[^<]*(?:\b|_xldudf_)({names})\(")
    found = []
    for sheet, part in sheet_parts(package).items():
        text = members_of(package)[part].decode()
        found += [f"{sheet}!{cell} {name}" for cell, name in calling.findall(text)]
    return found


def lite_recalculation(folder: Path) -> None:
    from tests.live_points import live_columns
    from xlgrade.formats.tables import read_inputs
    from xlgrade.season import recalculate
    from xlgrade.workbook.excel_calls import lite_module, officejs_matrix, prepare_officejs

    prepare_officejs()
    from xlwings import server

    if "pyodide" not in sys.modules:  # see the module docstring
        ffi = types.ModuleType("pyodide.ffi")
        ffi.JsNull = type("JsNull", (), {})  # type: ignore[attr-defined]
        sys.modules["pyodide"] = types.ModuleType("pyodide")
        sys.modules["pyodide.ffi"] = ffi
    import xlwings as xw

    module = lite_module()
    base = {"version": xw.__version__, "client": "Office.js", "runtime": "1.4",
            "culture_info_name": "en-GB", "date_format": "dd/mm/yyyy"}  # fmt: skip

    async def calls(requests: list[tuple[str, list[Any]]]) -> list[Any]:
        answers = []
        for name, args in requests:
            data = base | {"func_name": name, "args": args, "caller_address": "Results!M2"}
            answers.append(await server.custom_functions_call(data, module))
        return answers

    for size in SIZES:
        league = generate_league(players=max(40, size // 12), games=size, seed=11)
        book = folder / f"league-{size}.xlsx"
        book.write_bytes(build_lite_workbook(league.players, league.games, league.settings))
        shipped = template_calls(book.read_bytes())
        # Each points column's call with its arguments taken from the book's own cells.
        columns = live_columns(book)
        requests = [("GRADE_POINTS", [[[100]], [[100]], [[1]], None, None])]  # the probe
        requests += [
            ("SEASON_POINTS", [officejs_matrix(a) for a in column.arguments]) for column in columns
        ]
        start = time.perf_counter()
        answers = asyncio.run(calls(requests))
        column_time = time.perf_counter() - start
        graded = sum(isinstance(row[0], float) for answer in answers[1:] for row in answer)
        assert answers[0] == [[150.0]]
        assert not any(map(_messages, answers))
        # The alternative: the same tables read and graded once, as xlgrade recalc does.
        results, players, season, _ = columns[0].arguments
        raw = {layout.SETTINGS: season, layout.PLAYERS: players, layout.RESULTS: results}
        start = time.perf_counter()
        inputs = read_inputs(raw)
        recalculate(inputs.players, inputs.games, inputs.settings, inputs.problems)
        season_time = time.perf_counter() - start
        print(
            f"Shipped template, {size:>6,} results: {len(shipped)} calls "
            f"({', '.join(c.split()[0] for c in shipped)}; target ≤ 10), {graded:,} points, "
            f"one recalculation through xlwings.server {column_time * 1e3:8.1f} ms;  the "
            f"season read and graded once from the same cells: {season_time * 1e3:8.1f} ms"
        )


if __name__ == "__main__":
    print(f"Python {sys.version.split()[0]}")
    points_column()
    season_sheet()
    with tempfile.TemporaryDirectory() as folder:
        lite_recalculation(Path(folder))
