"""What xlwings Lite installs: a pure-Python wheel whose engine, worksheet functions and scripts
import only the standard library and numpy (Pyodide has no python-calamine, no pyOpenVBA), with
the file tooling left out under Pyodide (``sys_platform == "emscripten"``) by markers."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILE_TOOLING = ("openpyxl", "python_calamine", "pyopenvba", "oletools")

# Imports the modules named, with the packages ``blocked`` made unimportable, and prints the
# top-level packages they loaded that are not the standard library's.
PROBE = """
import importlib, importlib.abc, os, pkgutil, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError("not under Pyodide: " + name)
sys.meta_path.insert(0, Refuse())
before = set(sys.modules)
import xlgrade
names = [m.name for m in pkgutil.walk_packages(xlgrade.__path__, "xlgrade.")]
engine = [n for n in names if n.count(".") == 1 and not n.startswith(("xlgrade.commands",
          "xlgrade.workbook", "xlgrade.formats", "xlgrade.cli", "xlgrade.__main__"))]
engine += [n for n in names if n.startswith("xlgrade.season.")]
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
for name in engine + {modules!r}:
    importlib.import_module(name)
loaded = {{m.split(".")[0] for m in set(sys.modules) - before}}
# Cython's runtime modules, made as a Cython-built extension loads (numpy 1's random): no package.
loaded = {{m for m in loaded if m != "cython_runtime" and not m.startswith("_cython_")}}
print(" ".join(sorted(loaded - set(sys.stdlib_module_names))))
print(len(engine))
"""
LITE_CELLS = [
    "xlgrade_udfs",
    "xlgrade.workbook.live",
    "xlgrade.workbook.read",
    "xlgrade.workbook.importing",
    "xlgrade.formats.detect",
]
"""What the functions and the scripts run on besides the engine: the Import script reads the
file it is given and writes the book object, without the file tooling."""


def _probe(blocked: tuple[str, ...], modules: list[str]) -> tuple[set[str], int]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(blocked=set(blocked), modules=modules)],
        cwd=ROOT,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'udfs'}", "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    packages, engine = done.stdout.split("\n")[:2]
    return set(packages.split()), int(engine)


def test_engine_and_functions_import_only_the_standard_library_and_numpy() -> None:
    packages, engine = _probe((*FILE_TOOLING, "xlwings"), LITE_CELLS)
    assert packages == {"numpy", "xlgrade", "xlgrade_udfs"}
    assert engine >= 15  # every rule module was imported, not a handful


def test_the_lite_module_imports_without_the_file_tooling() -> None:
    # xlwings is the add-in's own package in Lite; only the file tooling is missing there.
    packages, _ = _probe(FILE_TOOLING, ["xlgrade_lite"])
    assert {"xlgrade_lite", "xlwings"} <= packages
    assert not packages & set(FILE_TOOLING)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip wheel .`` builds, from a copy of the sources (the tree stays clean)."""
    pytest.importorskip("wheel")  # the test extra has it: setuptools needs it for a wheel
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        (source / name).write_bytes((ROOT / name).read_bytes())
    for folder in ("xlgrade", "udfs"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                target = source / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    out = source / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps",
         "--no-build-isolation", "--quiet", "-w", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_is_pure_python(wheel: Path) -> None:
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (info,) = [n for n in names if n.endswith(".dist-info/WHEEL")]
        assert "Root-Is-Purelib: true" in archive.read(info).decode()
        assert not [n for n in names if n.endswith((".so", ".pyd", ".dylib"))]
        for module in ("xlgrade_udfs.py", "xlgrade_lite.py", "xlgrade/workbook/live.py"):
            assert module in names


def test_file_tooling_is_left_out_under_pyodide(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        message = Parser().parsestr(archive.read(meta).decode())
    required = {line.split(";")[0].split(">")[0].strip(): line for line in
                message.get_all("Requires-Dist") or [] if "extra ==" not in line}  # fmt: skip
    assert set(required) == {"numpy", "openpyxl", "python-calamine", "pyopenvba"}
    assert ";" not in required["numpy"]
    for name in ("openpyxl", "python-calamine", "pyopenvba"):
        assert 'sys_platform != "emscripten"' in required[name]


# Runs a book's main.py as xlwings Lite runs it, in an interpreter started with no site
# packages but the folders given (numpy's and xlwings'), where xlgrade cannot be imported:
# every function and script must come from the book. The scripts run on the book's own sheets
# as Lite hands them over; Import and New season use a temporary Files ▸ Import/Export folder.
# As in Pyodide, whose file system has no locks, there is no fcntl module; as in Pyodide 0.27,
# the umask is 0o777 (a file made as it says has mode 000) and there is no os.link.
BOOK_RUN = """
import asyncio, hashlib, importlib.util, json, os, stat, sys, types
sys.path.extend(sys.argv[3:])
sys.modules["fcntl"] = None
os.umask(0o777)
del os.link
missing = [m for m in ("xlgrade", "xlgrade_udfs", "xlgrade_lite") if importlib.util.find_spec(m)]
assert not missing, missing
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
main = types.ModuleType("main")
with open(sys.argv[1], encoding="utf-8") as source:
    exec(compile(source.read(), "main.py", "exec"), main.__dict__)
import xlwings as xw
from xlwings import server
from xlwings.main import Engine
from xlwings.pro import _xlofficejs, _xlremote
for impl in (_xlremote.engine, _xlofficejs.engine):
    if impl.name not in {e.name for e in xw.engines}:
        xw.engines.add(Engine(impl=impl))
live = sys.modules["xlgrade.workbook.live"]
live.LITE_FILES = sys.argv[2]
functions = server.custom_functions_meta(main)["functions"]
answers = {}
for meta in functions:
    data = {"func_name": meta["name"], "args": [[[""]] for _ in meta["parameters"]],
            "version": xw.__version__, "client": "Office.js", "runtime": "1.4",
            "culture_info_name": "en-GB", "date_format": "dd/mm/yyyy",
            "caller_address": "Results!M2"}
    if meta["name"] == "GRADE_POINTS":
        data["args"] = [[[100]], [[100]], [[1]]]
    if meta["name"] == "SEASON_POINTS":
        data["args"] = [[["Date", "Home player", "Result", "Away player"],
                         ["2025-10-01", "John Smith", "1:0", "Brown, Ann"]],
                        [["Name", "Grade"], ["Smith, John", 150], ["Brown, Ann", 130]],
                        [["Setting", "Value"]], [["home"]]]
    answers[meta["name"]] = asyncio.run(server.custom_functions_call(data, main))
with open(os.path.join(sys.argv[2], "payload.json"), encoding="utf-8") as payload:
    book_json = json.load(payload)
os.remove(os.path.join(sys.argv[2], "payload.json"))
scripts = {}
for meta in server.custom_scripts_meta(main):
    book = xw.Book(json=book_json)
    done = asyncio.run(server.custom_scripts_call(main, meta["function_name"],
                                                  typehint_to_value={xw.Book: book}))
    scripts[meta["name"]] = [a["func"] for a in done.json()["actions"]]
made = sorted(os.listdir(sys.argv[2]))
engine_zip = sys.modules["xlgrade"].__file__.split(".zip")[0] + ".zip"
modes = [stat.S_IMODE(os.stat(p).st_mode)
         for p in [engine_zip, *(os.path.join(sys.argv[2], m) for m in made)]]
print(json.dumps({"module": sys.modules["xlgrade"].__file__, "answers": answers,
                  "scripts": scripts, "made": made, "modes": modes}, default=str))
"""


def _sites_without_xlgrade(modules: list[ModuleType], folder: Path) -> list[str]:
    """The site folders that hold ``modules``, each as a folder of links to all it holds but
    the files of an xlgrade installed there (``pip install .`` puts the package, the functions'
    modules and their ``__pycache__`` beside numpy, as its ``RECORD`` lists them; an editable
    install only a finder that needs the ``site`` module)."""
    sites = []
    for number, site in enumerate(sorted({Path(str(m.__file__)).parents[1] for m in modules})):
        ours = set()
        for record in site.glob("xlgrade-*.dist-info"):
            ours |= {Path(str(f)).parts[0] for f in metadata.Distribution.at(record).files or []}
        linked = folder / f"site{number}"
        linked.mkdir()
        for entry in site.iterdir():
            if entry.name not in ours:
                (linked / entry.name).symlink_to(entry)
        sites.append(str(linked))
    return sites


def assert_lite_book_runs(data: bytes, folder: Path) -> None:
    """The Lite book ``data`` runs as xlwings Lite runs it, with xlgrade not installed (see
    ``BOOK_RUN``): every function answers from the book's own engine, every script runs on its
    sheets, and New season leaves a book with the same engine. ``folder`` is the run's own."""
    import numpy
    import xlgrade_udfs
    import xlwings

    from tests.functions.officejs import book_payload
    from xlgrade.workbook import lite
    from xlgrade.workbook.package import read_sheets
    from xlgrade.workbook.relationships import sheet_parts

    code = folder / "main.py"
    code.write_text(lite.book_properties(data)["main.py"], encoding="utf-8")
    files = folder / "files"
    files.mkdir()
    sheets = read_sheets(data, list(sheet_parts(data)))
    (files / "payload.json").write_text(json.dumps(book_payload(sheets), default=str))
    sites = _sites_without_xlgrade([numpy, xlwings], folder)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", BOOK_RUN, str(code), str(files), *sites],
        cwd=folder, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert ".zip" in found["module"]  # the book's engine, not an installed xlgrade
    assert set(found["answers"]) == set(xlgrade_udfs.FUNCTIONS)
    # A win against a 100 is worth 100 + 50 points (the 1997 rules' game points).
    assert found["answers"]["GRADE_POINTS"] == [[150]]
    # The season read and graded in the book's engine: Smith (150) beat Brown (130): 130 + 50.
    assert found["answers"]["SEASON_POINTS"] == [[180]]
    assert all(isinstance(a, list) and a and isinstance(a[0], list)
               for a in found["answers"].values())  # fmt: skip
    assert set(found["scripts"]) == {"Recalculate season", "Check results", "Import",
                                     "New season"}  # fmt: skip
    for actions in found["scripts"].values():
        assert actions.count("setFormula") == 3  # each writes the live formulas again
    assert "setValues" in found["scripts"]["Recalculate season"]
    (made,) = found["made"]  # New season's book (no lock file, no temporary), with the engine
    engine = lite.book_engine(data)
    assert engine is not None
    assert lite.book_engine((files / made).read_bytes()) == engine
    # The engine's zip the book unpacks and the book New season writes can be read (and
    # downloaded) whatever the umask.
    assert found["modes"] == [0o644, 0o644]


@pytest.mark.parametrize("name", ["xlgrade-template.xlsx", "example-league.xlsx"])
def test_a_shipped_lite_book_runs_with_xlgrade_not_installed(name: str, tmp_path: Path) -> None:
    assert_lite_book_runs((ROOT / "workbook" / name).read_bytes(), tmp_path)


def test_the_version_is_written_once(wheel: Path) -> None:
    import tomllib

    from xlgrade import __version__

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "xlgrade.__version__"}
    assert wheel.name == f"xlgrade-{__version__}-py3-none-any.whl"


def test_the_release_is_checked_and_published_by_trusted_publishing() -> None:
    workflow = (ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert 'tags: ["v*"]' in workflow
    assert '"v$version" != "$GITHUB_REF_NAME"' in workflow  # the tag is the version
    assert "python -m build" in workflow
    assert "twine check --strict" in workflow
    assert "id-token: write" in workflow  # no token kept: PyPI trusts the workflow
    assert "pypa/gh-action-pypi-publish" in workflow
    assert "password" not in workflow
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '"$python" -m build' in ci
    assert "twine check --strict" in ci
