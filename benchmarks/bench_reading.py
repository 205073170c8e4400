"""Reading a league folder: ``xlgrade season`` of a 200,000-game folder beside a process that
only reads the same files with Python's csv module, and the reading in-process beside
pyarrow's CSV reader (when pyarrow is installed; it is no dependency of xlgrade).

Run: ``python benchmarks/bench_reading.py`` (``--runs N`` alternated runs of each, 5 by
default).

Prints, for the generated national season of :func:`xlgrade.generate.generate_national`
(15,000 players, 200,000 games, 3 % faulty rows) written as a folder: the wall time of
``xlgrade season FOLDER`` and of ``python -c`` reading ``players.csv`` and ``results.csv``
into lists of rows with :mod:`csv`, run alternately, their medians and the ratio (target:
at most 2×); then in one process, the best time of each stage of the reading
(:func:`xlgrade.formats.folder.read_folder_cells`, :func:`xlgrade.formats.tables.read_inputs`)
and of the grading, beside ``pyarrow.csv.read_csv`` of the same two files.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlgrade.formats.folder import read_folder_cells
from xlgrade.formats.tables import read_inputs
from xlgrade.generate import generate_national, write_csv
from xlgrade.workbook.read import grade_inputs

CSV_ONLY = (
    "import csv, sys\n"
    "for name in ('players.csv', 'results.csv', 'settings.csv'):\n"
    "    with open(sys.argv[1] + '/' + name, newline='', encoding='utf-8') as f:\n"
    "        rows = list(csv.reader(f))\n"
)


def wall(command: list[str]) -> float:
    """Wall time of one run of ``command``, its output thrown away, in seconds."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def best_of(runs: int, work: Callable[[], object]) -> float:
    """Best wall time of ``runs`` calls, in seconds (garbage collected first)."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="alternated runs of each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        national = generate_national(2025)
        write_csv(national, folder)
        del national
        print(f"a league folder of {len(read_folder_cells(folder)['Results']) - 1:,} games")
        season = [sys.executable, "-m", "xlgrade", "season", folder]
        reading = [sys.executable, "-c", CSV_ONLY, folder]
        ours, theirs = [], []
        for _ in range(args.runs):
            ours.append(wall(season))
            theirs.append(wall(reading))
        ratios = sorted(a / b for a, b in zip(ours, theirs, strict=True))
        print(
            f"xlgrade season:           median {statistics.median(ours):6.2f} s "
            f"({min(ours):.2f}-{max(ours):.2f})"
        )
        print(
            f"csv module, reading only: median {statistics.median(theirs):6.2f} s "
            f"({min(theirs):.2f}-{max(theirs):.2f})"
        )
        print(
            f"ratio of the medians {statistics.median(ours) / statistics.median(theirs):.2f}× "
            f"(of each alternated pair: {ratios[0]:.2f}-{ratios[-1]:.2f}×; target ≤ 2×)"
        )
        in_process(folder, max(2, args.runs // 2))


def in_process(folder: str, runs: int) -> None:
    """The reading's stages and the grading in this process, beside pyarrow's reading."""
    cells = read_folder_cells(folder)
    inputs = read_inputs(cells)
    split = best_of(runs, lambda: read_folder_cells(folder))
    tables = best_of(runs, lambda: read_inputs(cells))
    graded = best_of(runs, lambda: grade_inputs(inputs))
    print(f"in one process (best of {runs}):")
    print(f"  CSV files split into cells (read_folder_cells): {split:6.2f} s")
    print(f"  cells read into players and games (read_inputs): {tables:6.2f} s")
    print(f"  the season graded (grade_inputs):               {graded:6.2f} s")
    try:
        from pyarrow import csv as arrow_csv  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        print("  pyarrow is not installed: its reading is not measured")
        return
    files = [Path(folder) / name for name in ("players.csv", "results.csv")]
    arrow = best_of(runs, lambda: [arrow_csv.read_csv(f) for f in files])
    print(
        f"  pyarrow.csv.read_csv of the two files:          {arrow:6.2f} s "
        f"(the reading, split and read, is {(split + tables) / arrow:.0f}× it)"
    )


if __name__ == "__main__":
    main()
