"""The engine's own tests (tests/rules, tests/season) run in real Pyodide: 32-bit WebAssembly,
where numpy's index type is int32, whatever the scripts of a book happen to reach.

Run: ``python -m tests.pyodide.engine_tests`` from the repository root (CI runs it from
.ci/run). The repository is mounted read-only in spirit (no bytecode, no cache is written
into it) and pytest runs there under Pyodide (tests/pyodide/runtime.py) with the tests'
own settings but coverage, which needs a C tracer Pyodide lacks, and with output captured
at the ``sys`` level (Pyodide has no file descriptors to swap), but the few tests of what no
Lite book does (:data:`LEFT_OUT`). Any test that fails in Pyodide fails the run, and so does
a run that collects no test.
"""

from __future__ import annotations

import subprocess
import sys
import time

from tests.paths import ROOT
from tests.pyodide import runtime
from xlgrade.workbook import lite

SUBJECTS = ("tests/rules", "tests/season")
"""The engine's tests: the rules, and the season graded from its inputs."""
LEFT_OUT = {
    "tests/season/test_generate.py::test_the_lint_refuses_the_generator_in_shipped_code": (
        "runs the lint in a process of its own (Pyodide has none)"
    ),
    "tests/season/test_generate.py::test_the_lint_lets_tests_and_other_imports_be": (
        "runs the lint in a process of its own (Pyodide has none)"
    ),
    "tests/season/test_next_season.py::test_the_new_season_command_writes_a_book_to_type_into": (
        "writes the classic .xlsm book, whose VBA tooling is left out under Pyodide"
    ),
    "tests/season/test_next_season.py::test_the_ribbon_button_saves_and_opens_the_new_book": (
        "the classic book's ribbon button (.xlsm)"
    ),
    "tests/season/test_next_season.py::test_new_season_says_which_cells_it_could_not_carry_on": (
        "writes the classic .xlsm book"
    ),
    "tests/season/test_next_season.py::test_new_season_writes_the_ratings_into_next_seasons_book": (
        "writes the classic .xlsm book"
    ),
    "tests/season/test_rating_season.py::test_a_book_and_a_folder_rate_the_controls_as_typed": (
        "writes the classic .xlsm book"
    ),
    "tests/season/test_next_season.py::"
    "test_new_season_writes_a_p_ratings_earlier_games_into_next_seasons_book": (
        "writes the classic .xlsm book"
    ),
    "tests/season/test_next_season.py::"
    "test_a_rating_below_zero_goes_through_a_season_and_into_the_next": (
        "writes the classic .xlsm book"
    ),
}
"""The engine's tests left out in Pyodide, by node id (a prefix: every parameter), each with
why: what they need is no part of a Lite book (a process, the classic book's VBA)."""

CODE = """
import os, sys
sys.dont_write_bytecode = True
os.environ["COLUMNS"] = "200"  # the summary's reasons whole
os.makedirs("/tmp/engine-tests", exist_ok=True)
os.chdir("/tmp/engine-tests")  # hypothesis keeps its examples here, not in the repository
sys.path[:0] = ["/src", "/src/udfs"]
import pytest
status = pytest.main(["-q", "-p", "no:cacheprovider", "--capture=sys", "-o", "addopts=",
                      "--tb=short", "-rfE", "--rootdir=/src", *{subjects!r},
                      *(f"--deselect={{n}}" for n in {left_out!r})])
if status != 0:
    raise SystemExit(f"pytest in Pyodide ended with status {{int(status)}}")
"""


def main() -> int:
    started = time.perf_counter()
    try:
        runtime.ensure()
    except runtime.SetupError as error:
        print(f"Pyodide could not be set up: {error}", file=sys.stderr)
        return 1
    code = CODE.format(subjects=[f"/src/{s}" for s in SUBJECTS], left_out=list(LEFT_OUT))
    try:
        found = runtime.run(code, {"/src": ROOT}, lite.requirements_txt(), tests=True)
    except subprocess.CalledProcessError as error:
        print(error.stdout, runtime.last_lines(error.stderr), sep="\n")
        print(f"the engine's tests failed in Pyodide {runtime.PYODIDE}", file=sys.stderr)
        return 1
    print(found["output"])
    times = found["times"]
    print(
        f"the engine's tests ({', '.join(SUBJECTS)}) in Pyodide {runtime.PYODIDE}: boot "
        f"{times['boot']:.1f} s, install {times['install']:.1f} s, tests {times['run']:.0f} s; "
        f"whole {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
