"""What carrying xlgrade in the xlwings Lite book costs, beside importing it from files.

Prints, for one run on this computer:

1. The shipped Lite template's size, its ``main.py``'s size and lines, and the engine zip's.
2. The time a fresh interpreter (``python -I -S -B``, only numpy's and xlwings' folders on the
   path, as in tests/functions/test_lite_install.py) takes to run the book's ``main.py`` —
   decode and check the engine, write it, import every function and script from it — beside
   importing ``xlgrade_lite`` from a copy of the source files without compiled ``.pyc``
   (what a freshly installed wheel does first), five runs of each.

Run: ``python benchmarks/bench_lite_book.py`` (from the repository root, with the package
importable). Figures are printed, never asserted.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy
import xlwings

from xlgrade.workbook import lite

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5
TIMED = (
    "import os, sys, time\n"
    "sys.path.extend(sys.argv[2:])\n"
    "os.environ.setdefault('XLWINGS_LICENSE_KEY', 'noncommercial')\n"
    "start = time.perf_counter()\n"
    "{body}\n"
    "print(time.perf_counter() - start)\n"
)
BOOK = TIMED.format(
    body="exec(compile(open(sys.argv[1]).read(), 'main.py', 'exec'), {'__name__': 'main'})"
)
SOURCE = TIMED.format(
    body="sys.path.insert(0, sys.argv[1]); exec('from xlgrade_lite import *', {'__name__': 'm'})"
)


def _times(code: str, first: str, sites: list[str], folder: Path) -> list[float]:
    out = []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-I", "-S", "-B", "-c", code, first, *sites],
            cwd=folder, capture_output=True, text=True, check=True,
        )  # fmt: skip
        out.append(float(done.stdout.split()[-1]))
    return out


def main() -> None:
    book = (ROOT / "workbook" / "xlgrade-template.xlsx").read_bytes()
    code = lite.book_properties(book)["main.py"]
    engine = lite.book_engine(book) or b""
    print(f"Python {sys.version.split()[0]}")
    print(
        f"Shipped Lite template: {len(book) / 1e3:.0f} kB; main.py {len(code) / 1e3:.0f} kB in "
        f"{len(code.splitlines()):,} lines; the engine zip {len(engine) / 1e3:.0f} kB"
    )
    sites = sorted({str(Path(m.__file__).parents[1]) for m in (numpy, xlwings)})
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "main.py").write_text(code, encoding="utf-8")
        source = folder / "source"
        shutil.copytree(ROOT / "xlgrade", source / "xlgrade",
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        for module in lite.ENGINE_MODULES:
            shutil.copy(ROOT / "udfs" / f"{module}.py", source)
        for label, timed, first in (
            ("the book's main.py (engine from the book)", BOOK, str(folder / "main.py")),
            ("import from source files, no .pyc", SOURCE, str(source)),
        ):
            times = _times(timed, first, sites, folder)
            print(f"  {label:44} best {min(times):.2f} s, median {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
