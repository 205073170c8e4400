"""The engine's own tests (tests/rules, tests/season) run in real Pyodide: 32-bit WebAssembly,
where numpy's index type is int32, whatever the scripts of a book happen to reach.

Run: ``python -m tests.pyodide.engine_tests`` from the repository root (CI runs it from
.ci/run). The repository is mounted read-only in spirit (no bytecode, no cache is written
into it) and pytest runs there under Pyodide (tests/pyodide/runtime.py) with the tests'
own settings but coverage, which needs a C tracer Pyodide lacks, and with output captured
at the ``sys`` level (Pyodide has no file descriptors to swap). Exits with pytest's status:
any test that fails in Pyodide fails the run; a run that collects no test fails too.
"""

from __future__ import annotations

import subprocess
import sys
import time

from tests.paths import ROOT
from tests.pyodide import runtime

SUBJECTS = ("tests/rules", "tests/season")
"""The engine's tests: the rules, and the season graded from its inputs."""

CODE = """
import os, sys
sys.dont_write_bytecode = True
os.environ["COLUMNS"] = "200"  # the summary's reasons whole
os.makedirs("/tmp/engine-tests", exist_ok=True)
os.chdir("/tmp/engine-tests")  # hypothesis keeps its examples here, not in the repository
sys.path[:0] = ["/src", "/src/udfs"]
import pytest
status = pytest.main(["-q", "-p", "no:cacheprovider", "--capture=sys", "-o", "addopts=",
                      "--tb=short", "-rfE", "--rootdir=/src", *{subjects!r}])
if status != 0:
    raise SystemExit(f"pytest in Pyodide ended with status {{int(status)}}")
"""


def main() -> int:
    started = time.perf_counter()
    code = CODE.format(subjects=[f"/src/{s}" for s in SUBJECTS])
    try:
        found = runtime.run(code, {"/src": ROOT}, tests=True)
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
