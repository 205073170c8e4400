"""The xlwings Lite book (``xlgrade template OUT.xlsx``): the template's sheets, no macros, and
the Lite add-in's part holding the book's Python code.

xlwings Lite is an Office add-in (store id :data:`ADDIN_ID`, from the Office store, type
``OMEX``). A book that uses it carries, as real Lite books do:

- ``xl/webextensions/webextension1.xml``: a ``we:webextension`` whose ``we:reference`` names
  the add-in, and whose ``we:property`` entries hold the code: ``main.py``,
  ``requirements.txt``, ``pyodideVersion``, ``addinVersion`` and ``xlwingsWorkbookId``, each
  value a JSON string (``json.dumps`` of the text) in an XML attribute, and
  ``xlwingsSettingsWorkbook``, Lite's workbook settings as a JSON object
  (:data:`LITE_SETTINGS`: start the add-in and show its pane when the book opens);
- ``xl/webextensions/taskpanes.xml``: the task pane, docked right and shown when the book
  opens, pointing at the extension through ``xl/webextensions/_rels/taskpanes.xml.rels``;
- a package relationship of type :data:`REL_TASKPANES` to the task panes part, and content
  type overrides :data:`WEBEXTENSION_TYPE` and :data:`TASKPANES_TYPE`;
- a sheet button for each script (:data:`xlgrade.workbook.layout.LITE_BUTTONS`): a rounded
  rectangle in the sheet's drawing, named, over the cell its hyperlink (a drawing
  relationship to ``#Sheet!Cell``) selects, as real Lite books with buttons hold them
  (:func:`buttons_drawing_xml`).

``main.py`` carries xlgrade itself (:func:`main_py`): the engine, the worksheet functions and
the scripts, as a zip of their pure-Python source written in base64 at the end of the file
(:func:`engine_zip`), which ``main.py`` puts on the import path and imports. ``requirements.txt``
names only what Pyodide provides or PyPI holds (:func:`requirements_txt`), never xlgrade, so a
book needs no package index, no web host and no Python of its own, and grades the same way in
every later year. A book made from a book (next season's) carries the engine of the book it was
made from (:func:`book_engine`); a newer engine comes with a book made by a newer xlgrade.

Each book made gets its own web-extension id and ``xlwingsWorkbookId`` (:func:`book_ids`),
as Excel gives each book its own: xlwings Lite keeps a book's trust and settings by them.
Everything is generated here and read back by tests; nothing is copied from a saved book.
"""

from __future__ import annotations

import ast
import base64
import binascii
import hashlib
import importlib.util
import io
import json
import re
import uuid
import xml.etree.ElementTree as ET
import zipfile
import zipimport
from collections.abc import Sequence
from pathlib import Path
from typing import Final, NamedTuple

import xlgrade
from xlgrade.cells import quote
from xlgrade.errors import FormatError
from xlgrade.model import Game, Player
from xlgrade.settings import Settings
from xlgrade.teams import Division
from xlgrade.workbook import layout
from xlgrade.workbook.build import (
    FIXED_TIME,
    LITE,
    add_dynamic_array_metadata,
    members_of,
    repack,
    sheets_package,
)
from xlgrade.workbook.container import assemble_package
from xlgrade.workbook.formulas import STORED_FUNCTIONS, STORED_PREFIX
from xlgrade.workbook.relationships import add_override, add_relationship, sheet_parts
from xlgrade.workbook.xmltext import refuse_foreign_encoding, xml_escape, xml_quoted

__all__ = [
    "ADDIN_ID",
    "ADDIN_VERSION",
    "DRAWING_TYPE",
    "ENGINE_FILES",
    "ENGINE_LEFT_OUT",
    "ENGINE_MODULES",
    "LITE_SETTINGS",
    "OPENPYXL_VERSION",
    "PYODIDE_VERSION",
    "REL_DRAWING",
    "REL_HYPERLINK",
    "REL_TASKPANES",
    "REL_WEBEXTENSION",
    "TASKPANES_TYPE",
    "WEBEXTENSION_TYPE",
    "XLWINGS_VERSION",
    "BookIds",
    "LiteDamage",
    "book_engine",
    "book_ids",
    "book_properties",
    "build_lite_workbook",
    "buttons_drawing_xml",
    "carried_engine",
    "damage_note",
    "engine_digest",
    "engine_functions",
    "engine_version",
    "engine_zip",
    "lite_damage",
    "main_py",
    "mend_lite_book",
    "released_engines",
    "requirements_txt",
    "running_engine",
    "taskpanes_xml",
    "webextension_xml",
    "with_fresh_ids",
]

ADDIN_ID: Final = "WA200008175"
"""xlwings Lite's id in the Office store (its page: marketplace.microsoft.com, WA200008175)."""
STORE_TYPE: Final = "OMEX"
"""The store type of an add-in from the Office store."""
ADDIN_VERSION: Final = "1.0.0.0-35"
"""The add-in version a real Lite book records; the add-in rewrites it when it saves the book."""
PYODIDE_VERSION: Final = "0.27.5"
"""The Pyodide version a real Lite book records; as above."""
XLWINGS_VERSION: Final = "0.37.8"
"""The xlwings pinned in ``requirements.txt``: the release whose ``xlwings.server`` the tests
run the functions and scripts through."""
OPENPYXL_VERSION: Final = "3.1.5"
"""The openpyxl pinned in ``requirements.txt``: the New season script draws next season's book
with it (pure Python, in Pyodide's packages; the xlgrade package leaves it out under Pyodide)."""
LITE_SETTINGS: Final = {"startupBehavior": "taskpane"}
"""xlwings Lite's workbook settings the book carries (its ``xlwingsSettingsWorkbook``
property): Settings ▸ Workbook ▸ Startup Behavior set to start the add-in and show its task
pane when the book is opened, as a book saved by the add-in holds it (docs/excel-checklist.md,
"What makes the book start")."""
REQUIRED_BY_LITE: Final = ("python-dotenv==1.2.1", "pyodide-http", "black==26.10.1")
"""The packages xlwings Lite's own requirements.txt marks ``# required`` beside xlwings (the
environment variables, web requests and the editor's formatting); pure Python from PyPI
pinned as the add-in's own example book pins python-dotenv, pyodide-http left to Pyodide,
which provides it (docs/excel-checklist.md, "What makes the book start")."""
ENGINE_MODULES: Final = ("xlgrade_udfs", "xlgrade_lite")
"""The top-level modules the engine carries beside the ``xlgrade`` package: the functions and
the scripts (``udfs/``)."""
ENGINE_FILES: Final = (".py", ".bas", ".typed")
"""The kinds of file the engine takes from the package: its modules, the classic book's VBA
source (the builders read it) and ``py.typed`` — the package data of pyproject.toml, and no
stray file of a working tree."""
ENGINE_LEFT_OUT: Final = (
    "xlgrade/__main__.py",
    "xlgrade/cli.py",
    "xlgrade/commands/",
    "xlgrade/data/",
    "xlgrade/generate.py",
)
"""What the engine leaves out of the package: the command line, the example league's files
and the generator of test leagues (nothing a book runs reads them)."""

REL_TASKPANES: Final = (
    "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
)
"""Package relationship type of ``xl/webextensions/taskpanes.xml``."""
REL_WEBEXTENSION: Final = "http://schemas.microsoft.com/office/2011/relationships/webextension"
"""Relationship type from the task panes part to ``webextension1.xml``."""
WEBEXTENSION_TYPE: Final = "application/vnd.ms-office.webextension+xml"
TASKPANES_TYPE: Final = "application/vnd.ms-office.webextensiontaskpanes+xml"
_NS_WE: Final = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_NS_TP: Final = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_NS_R: Final = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_RELS: Final = "http://schemas.openxmlformats.org/package/2006/relationships"
_NS_XDR: Final = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
_NS_A: Final = "http://schemas.openxmlformats.org/drawingml/2006/main"
REL_DRAWING: Final = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing"
REL_HYPERLINK: Final = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
)
DRAWING_TYPE: Final = "application/vnd.openxmlformats-officedocument.drawing+xml"
_BUTTON_FILL: Final = "1F4E78"
"""The buttons' colour: the template's header fill."""
_BUTTON_COLUMNS: Final = 3
_BUTTON_ROWS: Final = 2
_PANE_WIDTH: Final = 400


def _engine_files() -> dict[str, bytes]:
    """The engine's files by their name in the zip, read from the running xlgrade's source."""
    root = Path(xlgrade.__file__).parent
    files = {
        f"xlgrade/{path.relative_to(root).as_posix()}": path
        for path in root.rglob("*")
        if path.suffix in ENGINE_FILES and "__pycache__" not in path.parts
    }
    for module in ENGINE_MODULES:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            raise FormatError(f"the installed xlgrade has no {module}.py to put in the book")
        files[f"{module}.py"] = Path(spec.origin)
    return {
        name: path.read_bytes()
        for name, path in sorted(files.items())
        if not name.startswith(ENGINE_LEFT_OUT)
    }


def engine_zip() -> bytes:
    """The engine a Lite book carries: the running xlgrade's pure-Python source and files
    (the package but :data:`ENGINE_LEFT_OUT`, and :data:`ENGINE_MODULES`) as a zip, the same
    bytes for the same source. Where the running xlgrade was itself loaded from a book's
    engine (in xlwings Lite), that engine, so that a book made in a book carries the engine
    it was made with."""
    loader = getattr(xlgrade, "__loader__", None)
    if isinstance(loader, zipimport.zipimporter):
        return Path(loader.archive).read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in _engine_files().items():
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=9)
    return out.getvalue()


RELEASED_ENGINES: Final = "lite-engines.csv"
"""The table of the released engines' digests, in the package's ``data`` folder (never in an
engine: :data:`ENGINE_LEFT_OUT`): one row a release, ``Version`` and ``Source SHA-256`` (the
engine's :func:`engine_digest`). ``xlgrade new-season`` carries a book's engine on only where
it is this xlgrade's own or one of these (:func:`carried_engine`); CONTRIBUTING.md says how a
release adds its row."""


def engine_digest(engine: bytes) -> str:
    """The SHA-256 of an engine's source: of each file's name and its content's SHA-256, in name
    order, one line each. It names the code, not the zip's bytes (which a zlib of another
    version deflates otherwise), so a release's engine has one digest wherever it was made.

    Raises:
        FormatError: the engine is not a zip.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(engine)) as archive:
            files = {info.filename: archive.read(info) for info in archive.infolist()}
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise FormatError(f"the engine is not a zip: {error}") from None
    lines = "".join(
        f"{name}\0{hashlib.sha256(content).hexdigest()}\n"
        for name, content in sorted(files.items())
    )
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def released_engines() -> dict[str, str]:
    """The released engines' digests (:data:`RELEASED_ENGINES`), digest → version.

    Raises:
        FormatError: a row of the table is not a version and a 64-digit digest, naming it.
    """
    import csv
    from importlib.resources import files

    text = files("xlgrade").joinpath("data", RELEASED_ENGINES).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for number, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        version, digest = (row.get("Version") or "").strip(), (row.get("Source SHA-256") or "")
        if not version or not re.fullmatch(r"[0-9a-f]{64}", digest.strip()):
            raise FormatError(f"xlgrade/data/{RELEASED_ENGINES} line {number}: {row!r}")
        found[digest.strip()] = version
    return found


def running_engine(engine: bytes | None = None) -> str:
    """This xlgrade's engine (``engine``, :func:`engine_zip` when ``None``) in words, for a
    note: ``"xlgrade 0.1.0's, SHA-256 0123456789abcdef…"`` (:func:`engine_digest`)."""
    engine = engine_zip() if engine is None else engine
    return f"xlgrade {engine_version(engine)}'s, SHA-256 {engine_digest(engine)[:16]}…"


def carried_engine(package: bytes, where: str = "the book") -> tuple[bytes | None, str]:
    """The engine next season's Lite book carries, from this season's ``package`` read from
    ``where``, and the words that say which it is: the book's own where it is this xlgrade's
    engine or a released one (:func:`released_engines`), else this xlgrade's (``None``, as
    :func:`build_lite_workbook` takes it). The SHA-256 written beside the engine in ``main.py``
    is no proof of where it came from (whoever changes the engine can write it again), so the
    book's engine is trusted only by a digest kept outside the book: this xlgrade's own engine
    and its table of releases.

    Raises:
        FormatError: the engine in ``main.py`` was changed or cut short so that its checksum
            fails (:func:`book_engine`), naming ``where``.
    """
    engine = book_engine(package, where)
    running = engine_zip()
    mine = running_engine(running)
    if engine is None:
        return None, f"this xlgrade's engine ({mine}): {where} carries none"
    digest = engine_digest(engine)
    try:
        says = f"it says xlgrade {engine_version(engine)}"
    except (FormatError, KeyError, UnicodeDecodeError, zipfile.BadZipFile):
        says = "it names no version"
    if digest == engine_digest(running):
        return engine, f"{where}'s engine, which is this xlgrade's ({mine})"
    released = released_engines().get(digest)
    if released is not None:
        return engine, (
            f"{where}'s engine, xlgrade {released} as released (SHA-256 {digest[:16]}…, in "
            f"xlgrade/data/{RELEASED_ENGINES})"
        )
    return None, (
        f"this xlgrade's engine ({mine}), not {where}'s: its engine ({says}, SHA-256 "
        f"{digest[:16]}…) is neither this xlgrade's nor a released one, so it may have been "
        "changed (its checksum in main.py proves nothing, being beside it)"
    )


def engine_version(engine: bytes) -> str:
    """The xlgrade version of an engine (its ``xlgrade/__init__.py``)."""
    with zipfile.ZipFile(io.BytesIO(engine)) as archive:
        text = archive.read("xlgrade/__init__.py").decode("utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)
    if found is None:
        raise FormatError("the engine's xlgrade/__init__.py names no __version__")
    return found.group(1)


_ENGINE_LINE: Final = 100
"""Characters a line of the engine's base64 in ``main.py``."""
_LOADER: Final = """
import base64
import binascii
import hashlib
import os
import sys
import tempfile

XLGRADE_VERSION = {version!r}
XLGRADE_SHA256 = {digest!r}


def _load_engine(text):
    \"\"\"Put the engine below on the import path, ahead of any xlgrade imported before.\"\"\"
    data = base64.b64decode(text)
    if hashlib.sha256(data).hexdigest() != XLGRADE_SHA256:
        raise ImportError(
            "xlgrade's engine at the end of main.py was changed and cannot be loaded: "
            "take main.py from a book xlgrade made (How to use names the install guide)"
        )
    name = f"xlgrade-{{XLGRADE_VERSION}}-{{XLGRADE_SHA256[:16]}}.zip"
    path = os.path.join(tempfile.gettempdir(), name)
    if os.path.exists(path):
        os.remove(path)  # an earlier load's, which may not be readable (below)
    with open(path, "wb") as archive:
        archive.write(data)
    # Readable whatever the umask: Pyodide 0.27 starts with 0o777, a new file's mode 000.
    os.chmod(path, 0o644)
    for module in [m for m in sys.modules if m.split(".")[0] in {modules!r}]:
        del sys.modules[module]
    kept = [p for p in sys.path if not os.path.basename(p).startswith("xlgrade-")]
    sys.path[:] = [path, *kept]


_ENGINE = \"\"\"
{encoded}
\"\"\"

_load_engine(_ENGINE)

from xlgrade_lite import *  # noqa: E402, F403
"""
"""The code of ``main.py`` after its docstring: the engine checked, written to a file and put
first on the import path (an older engine imported before gives way), then the functions and
scripts imported into ``main``, where xlwings Lite registers them."""


def main_py(engine: bytes | None = None) -> str:
    """The book's ``main.py``: what it is, then the loader, the ``engine``
    (:func:`engine_zip` when ``None``) in base64, and one import that registers every function
    and every button."""
    engine = engine_zip() if engine is None else engine
    version = engine_version(engine)
    encoded = base64.b64encode(engine).decode("ascii")
    lines = [encoded[i : i + _ENGINE_LINE] for i in range(0, len(encoded), _ENGINE_LINE)]
    docstring = (
        f'"""xlgrade {version}: chess grading in this workbook, through xlwings Lite.\n'
        "\n"
        "The worksheet functions (GRADE_POINTS, SEASON_GRADE, ECF_TO_ELO, ...) and the scripts\n"
        "(Recalculate season, Check results, Import, New season) are xlgrade's, carried in this\n"
        f"file: _ENGINE at its end is xlgrade {version}'s pure-Python source, a zip in base64,\n"
        "which the lines below put on Python's import path. Nothing else is installed but what\n"
        "requirements.txt names (numpy, openpyxl, and xlwings with what Lite marks required),\n"
        "so the book grades the same way in every later year, and next season's book (New\n"
        "season) keeps this engine. A book made by a newer xlgrade carries the newer one.\n"
        "Leave _ENGINE as it is: its SHA-256 is checked, and a changed character stops it\n"
        "loading.\n"
        "The How to use sheet says how to use the book.\n"
        '"""\n'
    )
    return docstring + _LOADER.format(
        version=version,
        digest=hashlib.sha256(engine).hexdigest(),
        modules=("xlgrade", *ENGINE_MODULES),
        encoded="\n".join(lines),
    )


_ENGINE_TEXT: Final = re.compile(
    r'^XLGRADE_SHA256 = \'([0-9a-f]{64})\'$.*^_ENGINE = """\n(.*?)"""$', re.MULTILINE | re.DOTALL
)


def book_engine(package: bytes, where: str = "the book") -> bytes | None:
    """The engine the Lite book ``package`` carries in its ``main.py``, or ``None`` when it
    carries none (a classic book, or a Lite book whose ``main.py`` imports an installed
    xlgrade).

    Raises:
        FormatError: the engine in ``main.py`` was changed (its SHA-256 does not match),
            naming ``where``.
    """
    code = book_properties(package).get("main.py")
    found = _ENGINE_TEXT.search(code if isinstance(code, str) else "")
    if found is None:
        return None
    engine = _checked_engine(found)
    if engine is None:
        raise FormatError(
            f"{where}: xlgrade's engine in main.py was changed or cut short and cannot be "
            f"carried on: `xlgrade new-season --new-engine` gives next season's book this "
            f"xlgrade's engine, and `xlgrade recalc {where}` puts it in this one; a copy of "
            "the book last saved by Excel still holds its own"
        )
    return engine


def _checked_engine(found: re.Match[str]) -> bytes | None:
    """The engine of a ``main.py`` (its :data:`_ENGINE_TEXT` match) where its SHA-256 is the
    one written above it; ``None`` where it was changed or cut short."""
    engine = _decoded(found.group(2))
    if engine is None or hashlib.sha256(engine).hexdigest() != found.group(1):
        return None
    return engine


def _decoded(text: str) -> bytes | None:
    """The engine's base64 text as bytes; ``None`` where it is not base64 (cut short)."""
    try:
        return base64.b64decode(text, validate=False)
    except (binascii.Error, ValueError):
        return None


def requirements_txt() -> str:
    """The book's ``requirements.txt``: xlwings (the Lite add-in's own package) and the
    packages Lite marks ``# required`` (:data:`REQUIRED_BY_LITE`), as Lite's own file lists
    them, then numpy (the engine's) and openpyxl (New season's book), all in Pyodide's
    packages or on PyPI; never xlgrade, which ``main.py`` carries."""
    required = [f"xlwings=={XLWINGS_VERSION}", *REQUIRED_BY_LITE]
    lines = [f"{name}  # required" for name in required]
    return "\n".join([*lines, "numpy", f"openpyxl=={OPENPYXL_VERSION}"]) + "\n"


class BookIds(NamedTuple):
    """A Lite book's own ids: its web extension's (``we:webextension/@id``) and xlwings
    Lite's ``xlwingsWorkbookId``."""

    extension: uuid.UUID
    workbook: uuid.UUID

    @classmethod
    def fresh(cls) -> BookIds:
        """New ids, as Excel and xlwings Lite give a new book."""
        return cls(uuid.uuid4(), uuid.uuid4())


_WEBEXTENSION_PART: Final = "xl/webextensions/webextension1.xml"


def _member(package: bytes, name: str, size: int = -1) -> bytes | None:
    """The member ``name`` of the zip ``package`` (its first ``size`` bytes, inflated, where
    given), or ``None`` where it has none: one member read, not the whole book."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        if name not in archive.NameToInfo:
            return None
        with archive.open(name) as stream:
            return stream.read(size)


def _web_extension(package: bytes) -> ET.Element | None:
    """The root of the book's web-extension part, parsed; ``None`` without one.

    Raises:
        FormatError: the part declares an encoding xlgrade does not read, or is not XML.
    """
    part = _member(package, _WEBEXTENSION_PART)
    if part is None:
        return None
    refuse_foreign_encoding(part[:400], _WEBEXTENSION_PART)
    try:
        return ET.fromstring(part)
    except ET.ParseError as error:
        raise FormatError(
            f"the add-in's part {quote(_WEBEXTENSION_PART)} is not well-formed XML ({error})"
        ) from None


def _raw_properties(root: ET.Element) -> dict[str, str]:
    """The ``we:property`` values of the web extension ``root``, by name, as written (JSON).

    Raises:
        FormatError: a property lacks its name or its value.
    """
    found: dict[str, str] = {}
    for at, element in enumerate(root.iter(f"{{{_NS_WE}}}property"), start=1):
        name, value = element.attrib.get("name"), element.attrib.get("value")
        if name is None or value is None:
            lacks = "name" if name is None else f"value (its name is {quote(name)})"
            raise FormatError(
                f"the add-in's part {quote(_WEBEXTENSION_PART)}: its property {at} has no "
                f"{lacks}: the book's xlwings Lite settings are damaged"
            )
        found[name] = value
    return found


def _json_value(name: str, value: str) -> object:
    """The JSON ``value`` of the web extension's property ``name``, decoded.

    Raises:
        FormatError: it is not JSON text, quoting it.
    """
    try:
        return json.loads(value)
    except ValueError:
        raise FormatError(
            f"the add-in's part {quote(_WEBEXTENSION_PART)}: its property {quote(name)} holds "
            f"{quote(value)}, which is not the JSON text xlwings Lite writes: the book's "
            "xlwings Lite settings are damaged"
        ) from None


def book_properties(package: bytes) -> dict[str, str]:
    """The ``we:property`` values of the book's web extension, a JSON string decoded, any
    other JSON value (Lite's settings object) as its JSON text; none without the part.

    Raises:
        FormatError: the part or one of its properties is damaged, naming it.
    """
    root = _web_extension(package)
    if root is None:
        return {}
    found: dict[str, str] = {}
    for name, text in _raw_properties(root).items():
        value = _json_value(name, text)
        found[name] = value if isinstance(value, str) else text
    return found


def book_ids(package: bytes) -> BookIds | None:
    """The ids of the Lite book ``package``, or ``None`` without its web-extension part.

    Raises:
        FormatError: the part, its ``id`` or its ``xlwingsWorkbookId`` is damaged, naming it.
    """
    root = _web_extension(package)
    if root is None:
        return None
    said = {"id": root.attrib.get("id", "")}
    said["xlwingsWorkbookId"] = str(
        _json_value("xlwingsWorkbookId", _raw_properties(root).get("xlwingsWorkbookId", '""'))
    )
    ids = []
    for name, text in said.items():
        try:
            ids.append(uuid.UUID(text.strip("{}")))
        except ValueError:
            raise FormatError(
                f"the add-in's part {quote(_WEBEXTENSION_PART)}: its {quote(name)} is "
                f"{quote(text)}, not the UUID Excel and xlwings Lite give a book"
            ) from None
    return BookIds(ids[0], ids[1])


def _property(name: str, value: object) -> str:
    """A ``we:property``: its value as JSON (a text as a JSON string), compact as Office
    writes it."""
    text = json.dumps(value, separators=(",", ":"))
    return f"<we:property name={xml_quoted(name)} value={xml_quoted(text)}/>"


_CONTAINS_FUNCTIONS: Final = "{D87F86FE-615C-45B5-9D79-34F1136793EB}"
_FUNCTION_IDS: Final = "{7C84B067-C214-45C3-A712-C9D94CD141B2}"
"""The ``a:ext`` uris under which books saved by Excel record that an add-in's custom
functions are called in the book, and their stored names (docs/excel-checklist.md)."""


def engine_functions(engine: bytes) -> tuple[str, ...]:
    """The worksheet functions the engine ``engine`` defines, in the order it defines them:
    each ``def`` of its ``xlgrade_udfs.py`` under ``@worksheet_function(...)``, read from the
    source, not run."""
    with zipfile.ZipFile(io.BytesIO(engine)) as archive:
        tree = ast.parse(archive.read("xlgrade_udfs.py"))
    return tuple(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(
            isinstance(d, ast.Call)
            and isinstance(d.func, ast.Name)
            and d.func.id == "worksheet_function"
            for d in node.decorator_list
        )
    )


def _functions_ext(engine: bytes) -> str:
    """The extension list Excel writes for an add-in whose custom functions a book calls: that
    it calls some, and the stored name of every function of the add-in (here, the engine's)."""
    ids = "".join(
        f"<we:customFunctionIds>{STORED_PREFIX}{name}</we:customFunctionIds>"
        for name in engine_functions(engine)
    )
    return (
        f'<we:extLst><a:ext xmlns:a="{_NS_A}" uri="{_CONTAINS_FUNCTIONS}">'
        '<we:containsCustomFunctions val="1"/></a:ext>'
        f'<a:ext xmlns:a="{_NS_A}" uri="{_FUNCTION_IDS}"><we:customFunctionIdList>{ids}'
        "</we:customFunctionIdList></a:ext></we:extLst>"
    )


def webextension_xml(engine: bytes | None = None, ids: BookIds | None = None) -> bytes:
    """``xl/webextensions/webextension1.xml``: the add-in's reference, the book's code
    (:func:`main_py` carrying ``engine``), the book's ``ids`` (fresh when ``None``) and, as
    Excel records them, the custom functions the book's formulas call."""
    ids = ids or BookIds.fresh()
    engine = engine_zip() if engine is None else engine
    reference = (
        f'<we:reference id="{ADDIN_ID.lower()}" version="1.0.0.0" store="en-US" '
        f'storeType="{STORE_TYPE}"/>'
    )
    alternate = (
        f'<we:alternateReferences><we:reference id="{ADDIN_ID}" version="1.0.0.0" '
        f'store="{ADDIN_ID}" storeType="{STORE_TYPE}"/></we:alternateReferences>'
    )
    properties = "".join(
        _property(name, value)
        for name, value in (
            ("main.py", main_py(engine)),
            ("requirements.txt", requirements_txt()),
            ("pyodideVersion", PYODIDE_VERSION),
            ("addinVersion", ADDIN_VERSION),
            ("xlwingsWorkbookId", str(ids.workbook)),
            ("xlwingsSettingsWorkbook", LITE_SETTINGS),
        )
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<we:webextension xmlns:we="{_NS_WE}" id="{{{str(ids.extension).upper()}}}">'
        f"{reference}{alternate}<we:properties>{properties}</we:properties><we:bindings/>"
        f'<we:snapshot xmlns:r="{_NS_R}"/>{_functions_ext(engine)}</we:webextension>'
    ).encode()


def with_fresh_ids(package: bytes) -> bytes:
    """The Lite book ``package`` with new ids (:class:`BookIds`), for a copy that is a book of
    its own; every other member as it was. Any other package is returned as it is, and so is
    a Lite book whose ids are lost (:func:`mend_lite_book` gives it new ones)."""
    try:
        old = book_ids(package)
    except FormatError:
        return package
    if old is None:
        return package
    new = BookIds.fresh()
    text = (_member(package, _WEBEXTENSION_PART) or b"").decode("utf-8")
    text = text.replace(str(old.extension).upper(), str(new.extension).upper())
    text = text.replace(str(old.workbook), str(new.workbook))
    # Only the add-in's part is written anew; every other is copied as it is, not inflated.
    return assemble_package(package, {_WEBEXTENSION_PART: text.encode("utf-8")}, {})


def taskpanes_xml() -> bytes:
    """``xl/webextensions/taskpanes.xml``: the add-in's pane, docked right, shown on opening."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<wetp:taskpanes xmlns:wetp="{_NS_TP}"><wetp:taskpane dockstate="right" '
        f'visibility="1" width="{_PANE_WIDTH}" row="0"><wetp:webextensionref '
        f'xmlns:r="{_NS_R}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>'
    ).encode()


def _taskpanes_rels() -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{_NS_RELS}"><Relationship Id="rId1" '
        f'Type="{REL_WEBEXTENSION}" Target="webextension1.xml"/></Relationships>'
    ).encode()


def _cell_index(cell: str) -> tuple[int, int]:
    """``P2`` → (column 15, row 1), counted from 0 as a drawing's anchors count."""
    letters = cell.rstrip("0123456789")
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - 64
    return column - 1, int(cell[len(letters) :]) - 1


def buttons_drawing_xml(buttons: Sequence[layout.LiteButton]) -> tuple[bytes, bytes]:
    """The drawing part of a sheet's ``buttons`` and its relationships: each a rounded
    rectangle named :attr:`~xlgrade.workbook.layout.LiteButton.shape`, anchored from its
    cell over three columns and two rows, its text the script's name, its click a hyperlink
    (relationship ``rIdN``) to ``#Sheet!Cell``."""
    anchors, rels = [], []
    for number, button in enumerate(buttons, start=1):
        column, row = _cell_index(button.cell)
        anchors.append(
            f"<xdr:twoCellAnchor><xdr:from><xdr:col>{column}</xdr:col><xdr:colOff>0</xdr:colOff>"
            f"<xdr:row>{row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to>"
            f"<xdr:col>{column + _BUTTON_COLUMNS}</xdr:col><xdr:colOff>0</xdr:colOff>"
            f"<xdr:row>{row + _BUTTON_ROWS}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>"
            f'<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="{number + 1}" '
            f"name={xml_quoted(button.shape)} descr={xml_quoted(f'Runs {button.script}')}>"
            f'<a:hlinkClick xmlns:r="{_NS_R}" r:id="rId{number}"/></xdr:cNvPr><xdr:cNvSpPr/>'
            '</xdr:nvSpPr><xdr:spPr><a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom>'
            f'<a:solidFill><a:srgbClr val="{_BUTTON_FILL}"/></a:solidFill><a:ln><a:noFill/>'
            '</a:ln></xdr:spPr><xdr:txBody><a:bodyPr vertOverflow="clip" horzOverflow="clip" '
            'rtlCol="0" anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r>'
            '<a:rPr lang="en-GB" sz="1100" b="1"><a:solidFill><a:srgbClr val="FFFFFF"/>'
            f"</a:solidFill></a:rPr><a:t>{xml_escape(button.script)}</a:t></a:r></a:p>"
            "</xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor>"
        )
        target = f"#{button.sheet}!{button.cell}"
        rels.append(
            f'<Relationship Id="rId{number}" Type="{REL_HYPERLINK}" Target={xml_quoted(target)}/>'
        )
    drawing = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<xdr:wsDr xmlns:xdr="{_NS_XDR}" xmlns:a="{_NS_A}">{"".join(anchors)}</xdr:wsDr>'
    )
    relationships = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{_NS_RELS}">{"".join(rels)}</Relationships>'
    )
    return drawing.encode(), relationships.encode()


def _add_buttons(members: dict[str, bytes], package: bytes) -> None:
    """Draw :data:`~xlgrade.workbook.layout.LITE_BUTTONS` on their sheets (each sheet's own
    drawing part: the template's sheets that take buttons have none)."""
    parts = sheet_parts(package)
    for sheet in dict.fromkeys(b.sheet for b in layout.LITE_BUTTONS):
        part = parts[sheet]
        number = 1
        while f"xl/drawings/drawing{number}.xml" in members:
            number += 1
        drawing, rels = buttons_drawing_xml([b for b in layout.LITE_BUTTONS if b.sheet == sheet])
        members[f"xl/drawings/drawing{number}.xml"] = drawing
        members[f"xl/drawings/_rels/drawing{number}.xml.rels"] = rels
        folder, _, name = part.rpartition("/")
        sheet_rels = f"{folder}/_rels/{name}.rels"
        old = members.get(sheet_rels, _EMPTY_RELS)
        members[sheet_rels] = add_relationship(
            old, "xlgradeButtons", REL_DRAWING, f"../drawings/drawing{number}.xml"
        )
        xml = members[part].decode("utf-8")
        reference = f'<drawing xmlns:r="{_NS_R}" r:id="xlgradeButtons"/>'
        # The drawing goes before the legacy drawing, the table parts or the extensions,
        # whichever comes first (the order of CT_Worksheet).
        for follower in ("<legacyDrawing", "<tableParts", "<extLst", "</worksheet>"):
            if follower in xml:
                xml = xml.replace(follower, reference + follower, 1)
                break
        members[part] = xml.encode("utf-8")
        members["[Content_Types].xml"] = add_override(
            members["[Content_Types].xml"], f"/xl/drawings/drawing{number}.xml", DRAWING_TYPE
        )


_EMPTY_RELS: Final = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<Relationships xmlns="{_NS_RELS}"></Relationships>'
).encode()


def build_lite_workbook(
    players: Sequence[Player] = (),
    games: Sequence[Game] = (),
    settings: Settings | None = None,
    divisions: Sequence[Division] = (),
    *,
    engine: bytes | None = None,
    ids: BookIds | None = None,
) -> bytes:
    """The xlwings Lite template as ``.xlsx`` bytes, with ``players``, ``games`` and the
    ``divisions``' rules typed in.

    With no arguments this is the empty book that ``xlgrade template OUT.xlsx`` writes and
    ``workbook/xlgrade-template.xlsx`` ships. ``main.py`` carries ``engine`` (the running
    xlgrade's, :func:`engine_zip`, when ``None``); the book's ``ids`` are fresh when ``None``.
    The same input and ids give the same bytes.
    """
    package = sheets_package(players, games, settings, LITE, divisions)
    members = members_of(package)
    _add_buttons(members, package)
    members[_WEBEXTENSION_PART] = webextension_xml(engine, ids)
    members["xl/webextensions/taskpanes.xml"] = taskpanes_xml()
    members["xl/webextensions/_rels/taskpanes.xml.rels"] = _taskpanes_rels()
    types = members["[Content_Types].xml"]
    types = add_override(types, "/xl/webextensions/webextension1.xml", WEBEXTENSION_TYPE)
    types = add_override(types, "/xl/webextensions/taskpanes.xml", TASKPANES_TYPE)
    members["[Content_Types].xml"] = types
    members["_rels/.rels"] = add_relationship(
        members["_rels/.rels"], "xlgradeLite", REL_TASKPANES, "xl/webextensions/taskpanes.xml"
    )
    return repack(members)


_TASKPANES_PART: Final = "xl/webextensions/taskpanes.xml"
_TASKPANES_RELS: Final = "xl/webextensions/_rels/taskpanes.xml.rels"
_LIVE_CELL: Final = re.compile(
    r"<(?P<tag>(?:\w+:)?c) (?P<attrs>[^>]*?)>(?P<formula><(?:\w+:)?f\b[^>]*>[^<]*?"
    + re.escape(STORED_PREFIX)
    + r"[^<]*</(?:\w+:)?f>)",
    re.IGNORECASE,
)
"""A cell whose formula calls an add-in function as Excel stores it (``_xldudf_NAME``): the
live columns and the probe, the cells of a Lite book that need the add-in."""


class LiteDamage(NamedTuple):
    """What a Lite book has lost (:func:`lite_damage`), each ``True`` where lost.

    Attributes:
        addin: the web-extension part (``main.py``, ``requirements.txt``, the ids): the book
            no longer opens the xlwings Lite pane nor carries its Python.
        engine: ``main.py``, or the engine in it (changed, or cut short).
        ids: the book's ids (:class:`BookIds`), which xlwings Lite keeps its trust by.
        spill: the dynamic-array marks of the cells calling the functions (``cm="1"`` and
            ``xl/metadata.xml``): Excel would show the live columns as fixed ``{=…}`` arrays.
    """

    addin: bool = False
    engine: bool = False
    ids: bool = False
    spill: bool = False

    def words(self) -> list[str]:
        """What was lost, in words a grader reads."""
        lost = []
        if self.addin:
            lost.append(
                "its xlwings Lite part (webextension1.xml: main.py with xlgrade's engine, "
                "requirements.txt, the book's ids)"
            )
        if self.engine and not self.addin:
            lost.append("xlgrade's engine in main.py (missing, changed or cut short)")
        if self.ids and not self.addin:
            lost.append("the book's ids")
        if self.spill:
            lost.append(
                "its live columns' dynamic-array marks (Excel would show fixed {=…} arrays)"
            )
        return lost


_HEAD: Final = 1 << 20
"""How much of a sheet's XML, inflated, is read for its second row (where the live columns'
formulas and the probe are): the first rows of any sheet, not a national book's 200 MB."""


def _heads(package: bytes) -> dict[str, str]:
    """The start of the Results and Lists sheets' XML (:data:`_HEAD`), where they are."""
    try:
        parts = sheet_parts(package)
    except FormatError:
        return {}
    heads = {}
    for sheet in (layout.RESULTS, layout.LISTS):
        if sheet in parts:
            head = _member(package, parts[sheet], _HEAD)
            heads[parts[sheet]] = (head or b"").decode("utf-8", "replace")
    return heads


def _was_lite(names: set[str], package_rels: bytes, heads: dict[str, str]) -> bool:
    """Whether a package holds a sign of the xlwings Lite add-in: its part, its task pane
    (part or relationship) or a cell calling one of its functions as Excel stores them."""
    if _WEBEXTENSION_PART in names or _TASKPANES_PART in names:
        return True
    if REL_TASKPANES.encode() in package_rels:
        return True
    return any(STORED_PREFIX in head.lower() for head in heads.values())


def _ids_whole(part: bytes) -> bool:
    try:
        root = ET.fromstring(part)
        uuid.UUID(root.attrib["id"].strip("{}"))
        values = {p.attrib["name"]: p.attrib["value"] for p in root.iter(f"{{{_NS_WE}}}property")}
        uuid.UUID(json.loads(values["xlwingsWorkbookId"]))
    except (ET.ParseError, KeyError, ValueError, TypeError, AttributeError, LookupError):
        return False
    return True


def _engine_whole(part: bytes) -> bool:
    """Whether the web-extension ``part`` has a ``main.py`` whose engine checks, or that
    carries none (one that imports an installed xlgrade)."""
    try:
        values = {
            p.attrib["name"]: p.attrib["value"]
            for p in ET.fromstring(part).iter(f"{{{_NS_WE}}}property")
        }
        code = json.loads(values["main.py"])
    except (ET.ParseError, KeyError, ValueError, LookupError):
        return False
    found = _ENGINE_TEXT.search(code if isinstance(code, str) else "")
    return found is None or _checked_engine(found) is not None


def _unmarked(names: set[str], heads: dict[str, str]) -> bool:
    """Whether a cell calling an add-in function lacks its dynamic-array mark (``cm``), or the
    package its metadata part: only array formulas are marked, as Excel marks them."""
    marked = False
    for head in heads.values():
        for found in _LIVE_CELL.finditer(head):
            if 't="array"' not in found["formula"]:
                continue
            if " cm=" not in f" {found['attrs']}":
                return True
            marked = True
    return marked and "xl/metadata.xml" not in names


def lite_damage(package: bytes) -> LiteDamage | None:
    """What the Lite book ``package`` has lost, as a LibreOffice save loses it (it drops the
    web-extension part and the dynamic-array metadata, and leaves the task pane pointing at
    nothing); ``None`` for a book that has lost nothing, and for one that never was a Lite
    book (no sign of the add-in, :func:`_was_lite`). Reads the few parts it needs."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        names = set(archive.namelist())
    heads = _heads(package)
    if not _was_lite(names, _member(package, "_rels/.rels") or b"", heads):
        return None
    part = _member(package, _WEBEXTENSION_PART)
    addin = part is None
    damage = LiteDamage(
        addin=addin,
        engine=part is None or not _engine_whole(part),
        ids=part is None or not _ids_whole(part),
        spill=_unmarked(names, heads),
    )
    return damage if any(damage) else None


def _marked(text: str) -> str:
    """A sheet's XML with each cell calling an add-in function named as xlgrade names it (a
    LibreOffice save writes the name in lower case) and each such array formula marked a
    dynamic array (``cm="1"``)."""

    def mend(found: re.Match[str]) -> str:
        formula = found["formula"]
        for name in STORED_FUNCTIONS:
            formula = re.sub(
                re.escape(STORED_PREFIX + name) + r"\(",
                f"{STORED_PREFIX}{name}(",
                formula,
                flags=re.IGNORECASE,
            )
        attrs = found["attrs"]
        if 't="array"' in formula and " cm=" not in f" {attrs}":
            attrs = f'{attrs} cm="1"'
        return f"<{found['tag']} {attrs}>{formula}"

    return _LIVE_CELL.sub(mend, text)


def mend_lite_book(package: bytes) -> tuple[bytes, list[str]]:
    """The Lite book ``package`` with what it lost (:func:`lite_damage`) put back from this
    xlgrade, and what was put back, in words: the add-in's part with this xlgrade's engine
    (:func:`engine_zip`) where the book's own is lost, new ids where its ids are (xlwings
    Lite then asks once to trust the book again), the task pane's part and relationship, and
    the live columns' dynamic-array marks. Every other member is kept as it was; a book that
    lost nothing is returned as it is, with no words."""
    damage = lite_damage(package)
    if damage is None:
        return package, []
    members = members_of(package)
    changed: dict[str, bytes] = {}
    said: list[str] = []
    if damage.addin or damage.engine or damage.ids:
        engine = None if damage.engine else book_engine(package)
        ids = None if damage.ids else book_ids(package)
        changed[_WEBEXTENSION_PART] = webextension_xml(engine, ids)
        changed[_TASKPANES_PART] = taskpanes_xml()
        changed[_TASKPANES_RELS] = _taskpanes_rels()
        types = members["[Content_Types].xml"].decode("utf-8")
        for part, kind in (
            ("/" + _WEBEXTENSION_PART, WEBEXTENSION_TYPE),
            ("/" + _TASKPANES_PART, TASKPANES_TYPE),
        ):
            types = re.sub(rf'<Override PartName="{re.escape(part)}"[^>]*/>', "", types)
            types = add_override(types.encode(), part, kind).decode("utf-8")
        changed["[Content_Types].xml"] = types.encode("utf-8")
        changed["_rels/.rels"] = add_relationship(
            members["_rels/.rels"], "xlgradeLite", REL_TASKPANES, _TASKPANES_PART
        )
        if damage.engine:
            said.append(f"main.py carrying this xlgrade's engine ({xlgrade.__version__})")
        if damage.ids:
            said.append("new ids (xlwings Lite asks once to trust the book again)")
        if damage.addin:
            said.append("the task pane's part")
    if damage.spill:
        for name, data in members.items():
            if name.startswith("xl/worksheets/") and name.endswith(".xml"):
                text = data.decode("utf-8")
                mended = _marked(text)
                if mended != text:
                    changed[name] = mended.encode("utf-8")
        whole = {**members, **changed}
        add_dynamic_array_metadata(whole)
        changed.update({n: d for n, d in whole.items() if members.get(n) != d})
        said.append('the live columns\' dynamic-array marks (cm="1", xl/metadata.xml)')
    return _with_members(package, changed), said


def _with_members(package: bytes, changed: dict[str, bytes]) -> bytes:
    """``package`` with the members ``changed`` (new ones at the end), all else as it was."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(package)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = changed.get(info.filename)
            target.writestr(info, source.read(info) if data is None else data)
        for name in sorted(set(changed) - set(source.namelist())):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, changed[name])
    return out.getvalue()


def damage_note(where: str, damage: LiteDamage, then: str | None = None) -> str:
    """The ``note:`` line that says what the Lite book at ``where`` lost and ``then`` what was
    done about it (by default, how to put it back: ``xlgrade recalc``)."""
    lost = "; ".join(damage.words())
    then = then or f"`xlgrade recalc {where}` puts it back from this xlgrade"
    return (
        f"note: {where} has lost {lost}, as a save by a program other than Excel loses them "
        f"(LibreOffice does; docs/install.md says which programs may save a Lite book): {then}"
    )
