"""What xlwings Lite installs: a pure-Python wheel whose engine, worksheet functions and scripts
import only the standard library and numpy (Pyodide has no python-calamine, no pyOpenVBA), with
the file tooling left out under Pyodide (``sys_platform == "emscripten"``) by markers."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

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
