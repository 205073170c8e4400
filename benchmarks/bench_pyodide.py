"""The Lite book in Pyodide, the interpreter xlwings Lite runs it in, beside CPython.

Prints, for one run on this computer, in :data:`ROUNDS` rounds of a fresh Pyodide (under
node) and then a fresh CPython, so that both meet the same load:

1. Pyodide's boot and the install of what the book's ``requirements.txt`` names (micropip,
   from local files: no network time).
2. The book's start: ``main.py`` run as xlwings Lite runs it (decode and check the engine,
   write it, import every function and script), in each interpreter.
3. **Recalculate season** as a grader presses it: ``custom_scripts_call`` on the book as
   Lite hands it over (tests/functions/officejs.py's payload), on the example league and on
   a 5,000-result league (``xlgrade.generate``), the median of :data:`RUNS` presses after
   the first (which imports the grading modules), and Pyodide's time against CPython's.
4. Where each spends a press on the 5,000-result league (cProfile, one more press in the
   last round): the steps (reading the sheets, grading, the output tables, writing), whose
   code the time is spent in (xlwings' Office.js side, xlgrade, numpy), and in Pyodide the
   functions with the most time of their own.

Pyodide and the wheels come from tests/pyodide/runtime.py (the CI check's cache). Run:
``python benchmarks/bench_pyodide.py`` from the repository root. Figures are printed,
never asserted.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.functions.officejs import book_payload, book_tables  # noqa: E402
from tests.pyodide import runtime  # noqa: E402
from xlgrade.cli import main as cli  # noqa: E402
from xlgrade.generate import generate_league  # noqa: E402
from xlgrade.workbook import lite  # noqa: E402
from xlgrade.workbook.package import read_sheets  # noqa: E402
from xlgrade.workbook.relationships import sheet_parts  # noqa: E402

RUNS = 5
"""Presses of Recalculate season on each book in each interpreter, after the first."""
ROUNDS = 3
"""Rounds, each a fresh Pyodide and then a fresh CPython, one after the other, so that both
meet the same load on the machine."""
RESULTS = 5_000

ROUND = """
import asyncio, cProfile, io, json, os, pstats, sys, time, types
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
start = time.perf_counter()
main = types.ModuleType("main")
sys.modules["main"] = main
with open({path!r}, encoding="utf-8") as source:
    exec(compile(source.read(), "main.py", "exec"), main.__dict__)
out = {{"start": time.perf_counter() - start}}
import xlwings as xw
from xlwings.main import Engine
from xlwings.pro import _xlofficejs, _xlremote
for impl in (_xlremote.engine, _xlofficejs.engine):
    if impl.name not in {{e.name for e in xw.engines}}:
        xw.engines.add(Engine(impl=impl))
from xlwings import server
with open({job!r}, encoding="utf-8") as stream:
    job = json.load(stream)

async def press(payload, profile=None):
    book = xw.Book(json=payload)
    start = time.perf_counter()
    if profile:
        profile.enable()
    await server.custom_scripts_call(main, "recalculate_season",
                                     typehint_to_value={{xw.Book: book}})
    if profile:
        profile.disable()
    return time.perf_counter() - start

async def presses():
    for name, payload in job["books"].items():
        out[name] = [await press(payload) for _ in range({runs} + 1)]
    if not {profile!r}:
        return
    profile = cProfile.Profile()
    await press(job["books"][{profile!r}], profile)
    stats = pstats.Stats(profile).stats
    stages, owners = {{}}, {{}}
    for (path, _, function), (_, _, own, whole, _) in stats.items():
        if function in {stages!r}:
            stages[function] = stages.get(function, 0.0) + whole
        owner = next((o for o in {owners!r} if o in path), "other")
        owners[owner] = owners.get(owner, 0.0) + own
    text = io.StringIO()
    pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(8)
    out["profile"] = {{"stages": stages, "owners": owners, "top": text.getvalue()}}

{run}
print("ROUND", json.dumps(out))
"""
"""One round in one interpreter: the book's start (``main.py`` run as a module ``main``, as
Lite runs it), then Recalculate season pressed on each book of the job (times in seconds,
the first press apart); in the last round one more press on the book named ``profile``
under cProfile: the time of each of :data:`STAGES` with what it calls, the time spent in
each of :data:`OWNERS`' code, and the functions with the most time of their own."""
STAGES = ("read_live", "read_inputs", "grade_inputs", "output_tables", "write_live",
          "write_live_formulas")  # fmt: skip
"""The steps of a press (xlgrade.workbook.live.recalculate and the script's first step)."""
OWNERS = ("/xlwings/", "/xlgrade/", "/numpy/")
"""Whose code the time of a press is spent in, by a part of the file's path."""


def _books(folder: Path) -> dict[str, Path]:
    """The example league, recalculated as shipped, and a 5,000-result league."""
    books = {"the example league (300 results)": ROOT / "workbook" / "example-league.xlsx"}
    league = generate_league(players=max(40, RESULTS // 12), games=RESULTS, seed=11)
    big = folder / "league-5000.xlsx"
    big.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    assert cli(["recalc", str(big)]) == 0
    books[f"a league of {RESULTS:,} results"] = big
    return books


def _round(
    folder: Path, requirements: str, profile: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, float]]:
    """One round: a fresh Pyodide, then a fresh CPython; their findings and Pyodide's
    timings (boot, install)."""
    code = ROUND.format(path="/bench/main.py", job="/bench/job.json", runs=RUNS, profile=profile,
                        stages=STAGES, owners=OWNERS, run="await presses()")  # fmt: skip
    found = runtime.run(code, {"/bench": folder}, requirements)
    pyodide = json.loads(found["output"].split("ROUND", 1)[1])
    code = ROUND.format(path=str(folder / "main.py"), job=str(folder / "job.json"), runs=RUNS,
                        profile=profile, stages=STAGES, owners=OWNERS,
                        run="asyncio.run(presses())")  # fmt: skip
    done = subprocess.run([sys.executable, "-I", "-B", "-c", code], cwd=folder,
                          capture_output=True, text=True, check=True)  # fmt: skip
    cpython = json.loads(done.stdout.split("ROUND", 1)[1])
    return pyodide, cpython, found["times"]


def _spread(times: list[float]) -> str:
    return f"{min(times):.2f}–{max(times):.2f} s"


def main() -> None:
    runtime.ensure()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        books = _books(folder)
        code = lite.book_properties(books[next(iter(books))].read_bytes())["main.py"]
        (folder / "main.py").write_text(code, encoding="utf-8")
        payloads: dict[str, Any] = {}
        for label, path in books.items():
            sheets = read_sheets(path, list(sheet_parts(path.read_bytes())))
            payloads[label] = book_payload(sheets, book_tables(path))
        (folder / "job.json").write_text(json.dumps({"books": payloads}, default=str),
                                         encoding="utf-8")  # fmt: skip
        big = list(books)[-1]
        rounds = [_round(folder, lite.requirements_txt(), big if r == ROUNDS - 1 else "")
                  for r in range(ROUNDS)]  # fmt: skip
    print(f"Python {sys.version.split()[0]} beside Pyodide {runtime.PYODIDE}; {ROUNDS} rounds, "
          "each a fresh Pyodide then a fresh CPython")  # fmt: skip
    boots = [t["boot"] for _, _, t in rounds]
    installs = [t["install"] for _, _, t in rounds]
    print(f"Pyodide's boot {_spread(boots)}; the install of requirements.txt (micropip, local "
          f"files) {_spread(installs)}")  # fmt: skip
    starts = [(p["start"], c["start"]) for p, c, _ in rounds]
    print("The book's start (main.py: the engine decoded, checked, written, every function and "
          "script imported), Pyodide against CPython, round by round:")  # fmt: skip
    print("  " + "; ".join(f"{p:.2f} s against {c:.2f} s ({p / c:.1f}×)" for p, c in starts))
    print(f"Recalculate season (custom_scripts_call on the book's payload), median of {RUNS} "
          "presses after the first, Pyodide against CPython, round by round:")  # fmt: skip
    for label in books:
        cells = []
        for p, c, _ in rounds:
            a, b = statistics.median(p[label][1:]), statistics.median(c[label][1:])
            cells.append(f"{a:.2f} s against {b:.2f} s ({a / b:.2f}×)")
        print(f"  {label}: " + "; ".join(cells))
    pyodide, cpython, _ = rounds[-1]
    print(f"Where a press on {big} goes (cProfile, which slows both): Pyodide, CPython")
    theirs, ours = pyodide["profile"], cpython["profile"]
    for stage in STAGES:
        a, b = theirs["stages"].get(stage, 0.0), ours["stages"].get(stage, 0.0)
        print(f"  {stage:20} {a:6.2f} s {b:6.2f} s  {a / b if b else 0:.1f}×")
    for owner in (*OWNERS, "other"):
        a, b = theirs["owners"].get(owner, 0.0), ours["owners"].get(owner, 0.0)
        label = f"in {owner.strip('/')}'s code" if owner != "other" else "elsewhere"
        print(f"  {label:20} {a:6.2f} s {b:6.2f} s  {a / b if b else 0:.1f}×")
    print("  Pyodide's functions with the most time of their own:")
    lines = theirs["top"].strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    for line in lines[start : start + 9]:
        print(f"    {line.strip()}")


if __name__ == "__main__":
    main()
