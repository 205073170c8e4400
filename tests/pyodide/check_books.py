"""The Lite books where Excel runs them: every call in real Pyodide and in CPython, compared.

Run: ``python -m tests.pyodide.check_books [CALLS.json]`` from the repository root (CI runs it
from .ci/run). The books are every shipped Lite book (``workbook/*.xlsx`` carrying
``main.py``) and the books xlgrade makes: a fresh ``xlgrade template``, that template after
``xlgrade import`` of the Madrid TRF and of a players and a results CSV, an
``xlgrade new-season`` book, an ``xlgrade recalc`` output and a league rated by the ECF
rating, recalculated. On each book's own ``main.py``, in Pyodide (tests/pyodide/runtime.py)
and in CPython alike (tests/pyodide/replay.py):

- every worksheet function through ``xlwings.server.custom_functions_call``, with every
  Office.js payload the tests make (tests/pyodide/record.py; CALLS.json is the file the
  test run wrote, else tests/functions are run here to make one);
- every script through ``custom_scripts_call`` on the book's own payload
  (tests/functions/officejs.py): Recalculate season, Check results, New season, and Import of
  each of the files tests/functions/test_lite_scripts.py imports.

Pyodide gets what the books' ``requirements.txt`` names, installed by micropip
(tests/pyodide/runtime.py). Every answer, every action, everything printed to the pane and
every file written (its mode bits, whether it can be read, its content) must be the same in
both; a call that raises, in either, a traceback printed, a file written that its owner
cannot read, or a book whose requirements cannot be installed fails the check too. Exits 1
and lists each difference when any; the figures printed are the run's times.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.functions.conftest import load_lite
from tests.functions.officejs import MADRID, book_payload, book_tables, import_files
from tests.paths import ROOT
from tests.pyodide import runtime
from tests.pyodide.record import RECORD
from xlgrade.cli import main as cli
from xlgrade.formats.csvfile import write_players_csv, write_results_csv
from xlgrade.generate import generate_league
from xlgrade.workbook import lite
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import sheet_parts

HERE = Path(__file__).resolve().parent
LEFT_OUT = ("where", "seconds", "load_seconds")
"""What may differ between the two runs: where an exception was raised, and times."""


def _cli(*arguments: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = cli(list(arguments))
    if status != 0:
        raise SystemExit(f"xlgrade {' '.join(arguments)} failed ({status})")


def make_books(folder: Path) -> dict[str, Path]:
    """The books checked, by name: the shipped Lite books and those xlgrade makes."""
    import dataclasses

    from xlgrade.settings import RATING_2020

    books = {
        f"shipped {p.name}": p
        for p in sorted((ROOT / "workbook").glob("*.xlsx"))
        if "main.py" in lite.book_properties(p.read_bytes())
    }
    template = folder / "template.xlsx"
    _cli("template", str(template))
    books["xlgrade template"] = template
    trf = folder / "template-trf.xlsx"
    shutil.copy(template, trf)
    _cli("import", str(MADRID), "--into", str(trf))
    books["template + import TRF"] = trf
    league = generate_league()
    csvs = folder / "template-csv.xlsx"
    shutil.copy(template, csvs)
    (folder / "players.csv").write_text(write_players_csv(league.players), encoding="utf-8")
    (folder / "results.csv").write_text(write_results_csv(league.games), encoding="utf-8")
    _cli("import", str(folder / "players.csv"), "--into", str(csvs))
    _cli("import", str(folder / "results.csv"), "--into", str(csvs))
    books["template + import CSV"] = csvs
    new = folder / "2026-27.xlsx"
    _cli("new-season", str(ROOT / "workbook" / "example-league.xlsx"), str(new))
    books["xlgrade new-season"] = new
    filled = folder / "league.xlsx"
    filled.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    done = folder / "league-recalc.xlsx"
    _cli("recalc", str(filled), "--out", str(done))
    books["xlgrade recalc"] = done
    rated_players = [
        dataclasses.replace(p, rating=1500.0 + 10 * i) for i, p in enumerate(league.players)
    ]
    settings = dataclasses.replace(league.settings, system=RATING_2020)
    rated = folder / "rated.xlsx"
    rated.write_bytes(lite.build_lite_workbook(rated_players, league.games, settings))
    rated_done = folder / "rated-recalc.xlsx"
    _cli("recalc", str(rated), "--out", str(rated_done))
    books["rated league, recalc"] = rated_done
    return books


def _scripts() -> list[str]:
    """Every script a Lite book registers, by function name."""
    module = load_lite()
    from xlwings import server

    return [meta["function_name"] for meta in server.custom_scripts_meta(module)]


def make_job(books: dict[str, Path], calls: list[dict[str, Any]], job: Path) -> dict[str, Any]:
    """The job for tests/pyodide/replay.py in the folder ``job``: each book's ``main.py``,
    the function payloads ``calls``, each script's runs."""
    files = import_files(job)
    imports = {path.name: base64.b64encode(path.read_bytes()).decode() for path in files.values()}
    described: dict[str, Any] = {}
    for number, (name, book) in enumerate(books.items()):
        data = book.read_bytes()
        code = f"main-{number}.py"
        (job / code).write_text(lite.book_properties(data)["main.py"], encoding="utf-8")
        payload = book_payload(read_sheets(book, list(sheet_parts(data))), book_tables(book))
        runs: list[dict[str, Any]] = []
        for script in _scripts():
            if script == "import_file":
                runs.extend(
                    {"script": script, "payload": payload, "files": {file: text}}
                    for file, text in imports.items()
                )
            else:
                runs.append({"script": script, "payload": payload})
        described[name] = {
            "main_py": code,
            "scripts": runs,
            "requirements": lite.book_properties(data)["requirements.txt"],
        }
    content = {"functions": calls, "books": described}
    (job / "job.json").write_text(json.dumps(content, default=str), encoding="utf-8")
    return content


def recorded_calls(given: str | None) -> list[dict[str, Any]]:
    """The Office.js payloads of the tests: from the file ``given`` (the CI test run's), else
    recorded by running tests/functions here."""
    if given:
        calls: list[dict[str, Any]] = json.loads(Path(given).read_text(encoding="utf-8"))
        return calls
    with tempfile.TemporaryDirectory() as name:
        where = Path(name) / "calls.json"
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--no-cov",
             "tests/functions"],
            cwd=ROOT, env=os.environ | {RECORD: str(where)}, check=True,
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        recorded: list[dict[str, Any]] = json.loads(where.read_text(encoding="utf-8"))
    return recorded


_ESCAPE = re.compile(r"\\U([0-9a-f]{8})|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})")
"""A character as ``repr`` writes one it takes for unprintable."""


def _unescaped(text: str) -> str:
    """``text`` with every ``repr`` escape of a character replaced by the character: which
    characters ``repr`` prints is the Unicode version of the interpreter's database (Unicode
    15 in Pyodide's Python 3.12, 14 in Python 3.11), not the platform."""
    return _ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), text)


def _plain(value: Any) -> Any:
    """An answer without what may differ (:data:`LEFT_OUT`, and how a message quotes a
    character: :func:`_unescaped`)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k not in LEFT_OUT}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return _unescaped(value)
    return value


def _short(value: Any, limit: int = 400) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "…"


def differences(
    job: dict[str, Any], cpython: dict[str, Any], pyodide: dict[str, Any]
) -> Iterator[str]:
    """Each difference between the two runs, and each call that raised in either."""
    for name, book in job["books"].items():
        try:
            runtime.book_wheels(book["requirements"])
        except runtime.SetupError as error:
            yield f"{name}: its requirements.txt cannot be installed as Lite would: {error}"
        ours, theirs = cpython.get(name, {}), pyodide.get(name, {})
        for side, found in (("CPython", ours), ("Pyodide", theirs)):
            if "load" in found:
                yield f"{name}: main.py does not load in {side}: {found['load']['raised']}"
        if "load" in ours or "load" in theirs:
            continue
        for number, (call, a, b) in enumerate(
            zip(job["functions"], ours["functions"], theirs["functions"], strict=True)
        ):
            where = f"{name}: {call['func_name']} (call {number})"
            for side, answer in (("CPython", a), ("Pyodide", b)):
                if isinstance(answer, dict) and "raised" in answer:
                    yield f"{where} raised in {side}: {answer['raised']}\n{answer['where']}"
            if _plain(a) != _plain(b):
                yield f"{where}: CPython {_short(a)}, Pyodide {_short(b)}"
        for run, a, b in zip(job["books"][name]["scripts"], ours["scripts"], theirs["scripts"],
                             strict=True):  # fmt: skip
            where = f"{name}: {run['script']}" + "".join(f" of {f}" for f in run.get("files", {}))
            for side, done in (("CPython", a), ("Pyodide", b)):
                if "raised" in done:
                    yield f"{where} raised in {side}: {done['raised']}\n{done['where']}"
                if "Traceback" in done["pane"]:
                    yield f"{where} printed a traceback in {side}:\n{done['pane']}"
                for file, seen in done["files"].items():
                    if seen["readable"] is not True or int(seen["mode"], 8) & 0o644 != 0o644:
                        yield f"{where}: {file} written in {side} mode {seen['mode']}: {seen}"
            for part in ("pane", "actions", "files", "raised"):
                if _plain(a.get(part)) != _plain(b.get(part)):
                    yield (
                        f"{where}: its {part} differ: CPython {_short(a.get(part))}, "
                        f"Pyodide {_short(b.get(part))}"
                    )


PYODIDE_CODE = """
import sys
sys.path.insert(0, "/job")
import replay
await replay.run("/job/job.json", "/job/pyodide.json", "/data")
"""


def main(argv: list[str]) -> int:
    started = time.perf_counter()
    calls = recorded_calls(argv[0] if argv else os.environ.get(RECORD))
    if not calls:
        print("no Office.js call was recorded to replay", file=sys.stderr)
        return 1
    try:
        runtime.ensure()
    except runtime.SetupError as error:
        print(f"Pyodide could not be set up: {error}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="xlgrade-pyodide-") as name:
        folder = Path(name)
        job_dir = folder / "job"
        job_dir.mkdir()
        books = make_books(folder)
        job = make_job(books, calls, job_dir)
        shutil.copy(HERE / "replay.py", job_dir)
        made = time.perf_counter()
        subprocess.run(
            [sys.executable, str(job_dir / "replay.py"), str(job_dir / "job.json"),
             str(job_dir / "cpython.json"), str(folder / "data")],
            check=True, cwd=folder,
        )  # fmt: skip
        in_cpython = time.perf_counter() - made
        try:
            timings = runtime.run(PYODIDE_CODE, {"/job": job_dir}, lite.requirements_txt())
        except subprocess.CalledProcessError as error:
            print(error.stdout, runtime.last_lines(error.stderr), sep="\n", file=sys.stderr)
            print("the calls could not be run in Pyodide", file=sys.stderr)
            return 1
        cpython = json.loads((job_dir / "cpython.json").read_text(encoding="utf-8"))
        pyodide = json.loads((job_dir / "pyodide.json").read_text(encoding="utf-8"))
    found = list(differences(job, cpython, pyodide))
    functions = len(calls) * len(books)
    scripts = sum(len(b["scripts"]) for b in job["books"].values())
    times = timings["times"]
    print(
        f"{len(books)} Lite books, {len(calls)} function payloads each ({functions} calls) and "
        f"{scripts} script runs, in Pyodide {runtime.PYODIDE} and in CPython "
        f"{sys.version.split()[0]}: {len(found)} differences"
    )
    print(
        f"times: CPython {in_cpython:.1f} s; Pyodide boot {times['boot']:.1f} s, install "
        f"{times['install']:.1f} s, calls {times['run']:.1f} s; whole check "
        f"{time.perf_counter() - started:.0f} s"
    )
    for line in found:
        print(f"DIFFERENCE {line}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
