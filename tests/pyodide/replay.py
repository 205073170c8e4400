"""The calls of a job, made on each book's own ``main.py`` in the interpreter this runs in.

The same file runs in real Pyodide (tests/pyodide/runner.mjs) and in CPython, so that the
two answers can be compared line for line (tests/pyodide/check_books.py). It needs only the
standard library and xlwings: everything else comes from the book, as in xlwings Lite.

A job (JSON) holds the worksheet-function payloads (Office.js, as
``xlwings.server.custom_functions_call`` takes them) and, for each book, the path of its
``main.py`` (from the job's folder) and its script runs: the script's name, the book
payload (``xw.Book(json=...)``) and the files put in Files ▸ Import/Export first. For
each book, ``main.py`` is run as a module named ``main``, as xlwings Lite runs it; then
every function payload, then every script. The answers (JSON) are per book: each
function's answer as Excel receives it; each script's actions, what it printed to the
pane, and each file it wrote (its mode bits, whether it can be read, and a digest of its
content with the book's own ids made zeros). A call that raises gives its exception's type
and message instead.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import sys
import time
import traceback
import types
import zipfile
from typing import Any

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
"""A book's own ids (its web extension's, xlwings Lite's), fresh in every book made."""


def _load(main_py: str) -> types.ModuleType:
    """The book's ``main.py`` run as xlwings Lite runs it: a module ``main``."""
    module = types.ModuleType("main")
    module.__file__ = main_py
    sys.modules["main"] = module
    with open(main_py, encoding="utf-8") as source:
        exec(compile(source.read(), "main.py", "exec"), module.__dict__)
    return module


def _officejs_side() -> None:
    """xlwings' Office.js side, as the Lite add-in sets it up before running a book: the
    documented noncommercial key and the engines (as
    xlgrade.workbook.excel_calls.prepare_officejs, which the book's engine also holds, sets
    them up for the tests)."""
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
    import xlwings as xw
    from xlwings.main import Engine
    from xlwings.pro import _xlofficejs, _xlremote

    present = {engine.name for engine in xw.engines}
    for impl in (_xlremote.engine, _xlofficejs.engine):
        if impl.name not in present:
            xw.engines.add(Engine(impl=impl))


def _raised(error: BaseException) -> dict[str, str]:
    return {"raised": f"{type(error).__name__}: {error}", "where": traceback.format_exc(limit=-3)}


def _digest(path: str) -> dict[str, Any]:
    """A written file: mode bits, whether it can be read, its content's digest (a zip's
    members one by one, the ids in its text made zeros)."""
    mode = os.stat(path).st_mode & 0o777
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as error:
        return {"mode": oct(mode), "readable": f"{type(error).__name__}: {error}"}
    members: dict[str, str] = {}
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for name in archive.namelist():
                body = archive.read(name)
                if name.endswith((".xml", ".rels")):
                    body = _UUID.sub("0" * 8 + "-0000-0000-0000-" + "0" * 12, body.decode())
                    body = body.encode()
                members[name] = hashlib.sha256(body).hexdigest()
    else:
        members[""] = hashlib.sha256(data).hexdigest()
    return {"mode": oct(mode), "readable": True, "members": members}


async def _script(module: types.ModuleType, run: dict[str, Any], folder: str) -> dict[str, Any]:
    import xlwings as xw
    from xlwings import server

    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, text in run.get("files", {}).items():
        with open(os.path.join(folder, name), "wb") as stream:
            stream.write(base64.b64decode(text))
    given = set(os.listdir(folder))
    pane = io.StringIO()
    out: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(pane):
            book = xw.Book(json=run["payload"])
            done = await server.custom_scripts_call(
                module, run["script"], typehint_to_value={xw.Book: book}
            )
        out["actions"] = done.json()["actions"]
    except Exception as error:
        out |= _raised(error)
    out["pane"] = pane.getvalue()
    out["files"] = {
        name: _digest(os.path.join(folder, name))
        for name in sorted(set(os.listdir(folder)) - given)
    }
    return out


async def run(job_path: str, out_path: str, folder: str) -> None:
    """Make the calls of the job at ``job_path``; write the answers to ``out_path``.
    ``folder`` is xlwings Lite's Files ▸ Import/Export folder (``/data`` in Pyodide)."""
    _officejs_side()
    from xlwings import server

    with open(job_path, encoding="utf-8") as stream:
        job = json.load(stream)
    answers: dict[str, Any] = {}
    for name, book in job["books"].items():
        started = time.perf_counter()
        out: dict[str, Any] = {"functions": [], "scripts": []}
        try:
            module = _load(os.path.join(os.path.dirname(job_path), book["main_py"]))
        except Exception as error:
            answers[name] = {"load": _raised(error)}
            continue
        out["load_seconds"] = time.perf_counter() - started
        live = sys.modules["xlgrade.workbook.live"]
        live.LITE_FILES = folder  # type: ignore[attr-defined]
        for data in job["functions"]:
            try:
                answer = await server.custom_functions_call(data, module)
                out["functions"].append(json.loads(json.dumps(answer, default=repr)))
            except Exception as error:
                out["functions"].append(_raised(error))
        for script in book["scripts"]:
            started = time.perf_counter()
            done = await _script(module, script, folder)
            done["seconds"] = time.perf_counter() - started
            out["scripts"].append(done)
        answers[name] = out
    with open(out_path, "w", encoding="utf-8") as stream:
        json.dump(answers, stream)


if __name__ == "__main__":
    import asyncio

    asyncio.run(run(*sys.argv[1:4]))
