"""Benchmark: how long the command line takes to start, against a bare Python.

Prints, does not assert. Run from the repository root, in the environment xlgrade is installed
in:

    python benchmarks/bench_startup.py [--runs N]

Each of ``xlgrade --help`` and ``xlgrade CMD --help`` (every command of
:data:`xlgrade.cli.COMMANDS`) is started as a new process, as a grader's shell starts it, and
timed beside ``python -c pass`` in the same run, the processes taking turns so that the
machine's load falls on all of them alike. The figure is the best of N wall-clock times (the
median beside it) and its ratio to ``python -c pass``; the target is 3× or less. Then the
modules each one imports: neither numpy nor openpyxl should be among them (the help needs
neither; ``tests/cli/test_help.py`` checks it).

The command is the ``xlgrade`` script of this environment when there is one, else the same
thing through ``python -c`` (``from xlgrade.cli import main``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from xlgrade.cli import COMMANDS, build_parser

HEAVY = ("numpy", "openpyxl", "python_calamine")
"""The modules the help must not load."""


def command_names() -> list[str]:
    """The name each command is typed as (``importing`` is ``import``), in ``--help`` order."""
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = list(action.choices)
    assert len(names) == len(COMMANDS)
    return names


def xlgrade() -> list[str]:
    """The argv that starts the command line: its script, or ``python -c`` doing the same."""
    script = Path(sys.executable).with_name("xlgrade")
    found = str(script) if script.is_file() else shutil.which("xlgrade")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from xlgrade.cli import main; sys.exit(main())"]


def wall(argv: list[str]) -> float:
    """Seconds from starting ``argv`` to its exit, its output thrown away."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def heavy_imports(args: list[str]) -> list[str]:
    """The modules of :data:`HEAVY` that ``xlgrade ARGS`` has imported when it exits."""
    code = (
        "import sys, contextlib, io\n"
        "from xlgrade.cli import main\n"
        "try:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        f"        main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    return done.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each (default: 21)")
    runs = parser.parse_args().runs
    start = xlgrade()
    cases: dict[str, list[str]] = {"python -c pass": [sys.executable, "-c", "pass"]}
    cases["xlgrade --help"] = [*start, "--help"]
    for name in command_names():
        cases[f"xlgrade {name} --help"] = [*start, name, "--help"]
    for argv in cases.values():  # warm the file cache
        wall(argv)
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(runs):
        for label, argv in cases.items():
            times[label].append(wall(argv))
    bare = min(times["python -c pass"])
    print(f"{'':28} {'best':>8} {'median':>8} {'× pass':>7}  heavy modules")
    for label, seconds in times.items():
        best, median = min(seconds), statistics.median(seconds)
        args = label.split()[1:] if label.startswith("xlgrade") else None
        heavy = "" if args is None else (" ".join(heavy_imports(args)) or "none")
        print(
            f"{label:28} {best * 1000:6.1f}ms {median * 1000:6.1f}ms {best / bare:6.1f}×  {heavy}"
        )
    worst = max(min(s) for label, s in times.items() if label != "python -c pass")
    print(
        f"slowest help: {worst / bare:.1f}× python -c pass (target 3× or less), best of {runs}; "
        f"command: {' '.join(start)}"
    )


if __name__ == "__main__":
    main()
