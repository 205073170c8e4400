"""LibreOffice, headless, computing a workbook's formulas with xlgrade's Excel functions.

A throw-away LibreOffice profile gets a Basic function for every worksheet function of
:mod:`xlgrade_udfs` (``GRADE_POINTS``…) that hands each call, through LibreOffice's Python
script provider, to :func:`xlgrade.workbook.excel_calls.officejs_call`: the arguments shaped
as Office.js passes them and called through ``xlwings.server`` as xlwings Lite calls them (a
whole column in, the column's answers back as the 2-D array Calc spills), and is set
to recalculate OOXML books on load. Opening a book in that profile and converting it (to
``.xlsx`` or PDF) therefore computes the template's Results formulas as Excel would. The CI
check of the template (``tests/workbook/test_libreoffice.py``) and the README's pictures
(``docs/render_pictures.py``) both work this way.

LibreOffice's embedded Python must not see this interpreter's installation: with a pyenv or
virtual-environment ``bin`` folder first on PATH, or PYTHONHOME set, it takes a foreign standard
library, the script provider fails and ``soffice.bin`` never exits. :func:`clean_environment`
removes them; :func:`run_soffice` also bounds every run in time and ends its process group.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

__all__ = [
    "SOFFICE_TIMEOUT",
    "LibreOfficeError",
    "calc_copy",
    "calc_names",
    "clean_environment",
    "find_soffice",
    "make_profile",
    "run_soffice",
]

SOFFICE_TIMEOUT: Final = 180.0
"""Seconds one soffice run may take."""

SCRIPT_MODULE: Final = "xlgrade_lo"
"""Name of the Python script the Basic shim calls, in the profile's user scripts."""

_BASIC_HEAD: Final = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE script:module PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "module.dtd">
<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" \
script:language="StarBasic">
"""

_BASIC_CALL: Final = f"""Function XlgradeCall(name, arguments, missing)
    Dim factory As Object, provider As Object, script As Object
    factory = createUnoService(&quot;com.sun.star.script.provider.MasterScriptProviderFactory&quot;)
    provider = factory.createScriptProvider(&quot;&quot;)
    script = provider.getScript(&quot;vnd.sun.star.script:{SCRIPT_MODULE}.py$call?\
language=Python&amp;location=user&quot;)
    Dim answer As Variant, grid() As Variant, first As Long, i As Long, j As Long
    answer = script.invoke(Array(name, arguments, missing), Array(), Array())
    If Not IsArray(answer) Then
        XlgradeCall = answer
        Exit Function
    End If
    REM Rows of cells (a whole column in one call) become the 2-D array Calc spills.
    first = LBound(answer)
    ReDim grid(1 To UBound(answer) - first + 1, 1 To UBound(answer(first)) - \
LBound(answer(first)) + 1)
    For i = 1 To UBound(grid, 1)
        For j = 1 To UBound(grid, 2)
            grid(i, j) = answer(first + i - 1)(LBound(answer(first)) + j - 1)
        Next j
    Next i
    XlgradeCall = grid
End Function
"""


def _basic_function(name: str, arity: int) -> str:
    """A Basic function ``name`` of ``arity`` optional arguments handing the call over, with
    which arguments were left out, to :data:`_PYTHON_SIDE`."""
    names = [f"a{i}" for i in range(1, arity + 1)]
    lines = [f"Function {name}({', '.join(f'Optional {a}' for a in names)})"]
    lines += [
        f"    Dim m{a} As Boolean : m{a} = IsMissing({a}) : If m{a} Then {a} = 0" for a in names
    ]
    given = ", ".join(names)
    missing = ", ".join(f"m{a}" for a in names)
    lines += [f"    {name} = XlgradeCall(&quot;{name}&quot;, Array({given}), Array({missing}))"]
    return "\n".join([*lines, "End Function", ""])


def _basic_shim(functions: dict[str, int]) -> str:
    """The Basic module: one function for each of ``functions`` (name: number of arguments)."""
    body = "".join(_basic_function(name, arity) for name, arity in functions.items())
    return _BASIC_HEAD + _BASIC_CALL + body + "</script:module>\n"


_PYTHON_SIDE: Final = """import sys

for _path in {paths!r}:
    if _path not in sys.path:
        sys.path.append(_path)

from xlgrade.workbook import excel_calls


def call(name, arguments, missing):
    given = [excel_calls.OMITTED if m else a for a, m in zip(arguments, missing)]
    while given and given[-1] is excel_calls.OMITTED:
        given.pop()
    answer = excel_calls.officejs_call(name, *given)
    if len(answer) == 1 and len(answer[0]) == 1:
        return answer[0][0]
    return tuple(tuple(row) for row in answer)  # a sequence of sequences for Basic


g_exportedScripts = (call,)
"""

# Recalculate OOXML books on load, and let the Basic function run.
_REGISTRY_ITEMS: Final = (
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
    '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>'
    '<item oor:path="/org.openoffice.Office.Common/Security/Scripting">'
    '<prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>0</value></prop></item>'
)


class LibreOfficeError(RuntimeError):
    """LibreOffice is missing, did not finish in time, or did not do what was asked."""


def find_soffice() -> str | None:
    """The LibreOffice program on PATH (``soffice`` or ``libreoffice``), or ``None``."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def clean_environment() -> dict[str, str]:
    """This process's environment without this interpreter's, pyenv's or any virtual
    environment's folders and variables (see the module's description)."""
    own = {os.path.dirname(sys.executable), os.path.join(sys.prefix, "bin")}
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYENV", "_PYENV", "PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV"))
    }
    env["PATH"] = os.pathsep.join(
        folder
        for folder in env.get("PATH", "").split(os.pathsep)
        if folder and folder not in own and "/.pyenv/" not in folder and "venv" not in folder
    )
    return env


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` and everything it started (its own process group)."""
    for ending in (signal.SIGTERM, signal.SIGKILL):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, ending)
            process.wait(timeout=5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass


def run_soffice(
    soffice: str,
    arguments: Sequence[str],
    log: Path,
    *,
    done: Path | None = None,
    timeout: float = SOFFICE_TIMEOUT,
) -> None:
    """Run ``soffice arguments`` in a clean environment, its output appended to ``log``.

    With ``done``, the run counts as finished once that file exists and has stopped growing
    (``soffice.bin`` sometimes lingers after writing it). The process group is always ended.

    Raises:
        LibreOfficeError: the run took longer than ``timeout`` seconds.
    """
    with log.open("ab") as stream:
        process = subprocess.Popen(
            [soffice, *arguments],
            stdin=subprocess.DEVNULL,
            stdout=stream,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=clean_environment(),
        )
    try:
        deadline = time.monotonic() + timeout
        size = -1
        while process.poll() is None:
            if done is not None and done.exists():
                if done.stat().st_size == size > 0:
                    break  # written and no longer growing
                size = done.stat().st_size
            if time.monotonic() > deadline:
                raise LibreOfficeError(
                    f"soffice did not finish within {timeout:g} s; its output is in {log}"
                )
            time.sleep(0.25)
    finally:
        _stop(process)


def _python_paths() -> list[str]:
    """Folders LibreOffice's Python needs to import ``xlgrade_udfs`` and what it imports."""
    spec = importlib.util.find_spec("xlgrade_udfs")
    if spec is None or spec.origin is None:
        raise LibreOfficeError("xlgrade_udfs cannot be imported: install xlgrade first")
    package = Path(__file__).resolve().parents[2]
    paths = [str(Path(spec.origin).resolve().parent), str(package)]
    paths += [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    return list(dict.fromkeys(paths))


def _functions() -> dict[str, int]:
    """Every worksheet function of :mod:`xlgrade_udfs` and its number of arguments."""
    import inspect

    import xlgrade_udfs

    return {
        name: len(inspect.signature(function).parameters)
        for name, function in xlgrade_udfs.FUNCTIONS.items()
    }


_STORED_NAME: Final = re.compile(rb"(?<![A-Za-z0-9_.])_xldudf_\w*?([A-Z][A-Z0-9_]*)\(")
"""An Office.js custom function's name as Excel stores it in a formula: ``_xldudf_``, the
add-in's namespace and the name (``_xldudf_XLGRADE_GRADE_POINTS(``)."""


def calc_names(part: bytes) -> bytes:
    """A part of a book (a sheet's or a table's XML) with every stored Office.js function name
    of :mod:`xlgrade_udfs` written as the plain name, the Basic function LibreOffice calls.

    LibreOffice links a formula's function to a Basic function of the same name only; a book
    whose formulas Excel stored as ``_xldudf_…GRADE_POINTS(`` is handed to it with
    ``GRADE_POINTS(``. Names that are not xlgrade's are left as they are.
    """
    known = set(_functions())

    def plain(found: re.Match[bytes]) -> bytes:
        whole = found.group(0)
        for start in range(len(b"_xldudf_"), len(whole) - 1):
            name = whole[start:-1].decode("ascii")
            if name in known and whole[start - 1 : start] == b"_":
                return name.encode("ascii") + b"("
        return whole

    return _STORED_NAME.sub(plain, part)


def calc_copy(book: Path, folder: Path) -> Path:
    """``book`` as LibreOffice is to open it: a copy in ``folder`` whose parts have the plain
    function names (:func:`calc_names`), or ``book`` itself when it has no stored name."""
    import zipfile

    with zipfile.ZipFile(book) as source:
        parts = {item.filename: source.read(item) for item in source.infolist()}
        infos = source.infolist()
    changed = {name: calc_names(data) for name, data in parts.items() if name.endswith(".xml")}
    if all(changed[name] == parts[name] for name in changed):
        return book
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / book.name
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for item in infos:
            copy.writestr(item, changed.get(item.filename, parts[item.filename]))
    return target


def make_profile(soffice: str, folder: Path, log: Path) -> str:
    """A fresh LibreOffice profile in ``folder`` with the worksheet functions installed; its
    URL, for ``-env:UserInstallation=``.

    Raises:
        LibreOfficeError: soffice did not create its profile.
    """
    url = folder.as_uri()
    run_soffice(
        soffice, [f"-env:UserInstallation={url}", "--headless", "--terminate_after_init"], log
    )
    user = folder / "user"
    module = user / "basic" / "Standard" / "Module1.xba"
    registry = user / "registrymodifications.xcu"
    if not module.exists() or not registry.exists():
        raise LibreOfficeError(f"soffice did not create its profile in {folder}; see {log}")
    module.write_text(_basic_shim(_functions()), encoding="utf-8")
    scripts = user / "Scripts" / "python"
    scripts.mkdir(parents=True, exist_ok=True)
    script = _PYTHON_SIDE.format(paths=_python_paths())
    (scripts / f"{SCRIPT_MODULE}.py").write_text(script, encoding="utf-8")
    text = registry.read_text(encoding="utf-8")
    registry.write_text(text.replace("</oor:items>", _REGISTRY_ITEMS + "</oor:items>"), "utf-8")
    return url
