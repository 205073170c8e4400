"""The xlwings Lite book: macro-free, the add-in's part read back (its reference, its code as
JSON strings, the task pane and the relationships), its main.py registering every function and
button, and the shipped books matching fresh builds."""

from __future__ import annotations

import importlib.resources
import importlib.util
import io
import json
import re
import uuid
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from xlgrade import __version__
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.formats.csvfile import write_results_csv
from xlgrade.generate import generate_league
from xlgrade.workbook import layout, lite
from xlgrade.workbook.build import RESULTS_COLUMNS, build_workbook, members_of, repack
from xlgrade.workbook.relationships import sheet_parts

ROOT = Path(__file__).resolve().parents[2]
WORKBOOK = ROOT / "workbook"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
TP = "{http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11}"
RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


@pytest.fixture(scope="module")
def book() -> bytes:
    return lite.build_lite_workbook()


def _properties(package: bytes) -> dict[str, str]:
    root = ET.fromstring(members_of(package)["xl/webextensions/webextension1.xml"])
    found = root.findall(f"{WE}properties/{WE}property")
    return {p.attrib["name"]: json.loads(p.attrib["value"]) for p in found}


MASK = lite.BookIds(uuid.UUID(int=0), uuid.UUID(int=0))


def _masked(package: bytes) -> bytes:
    """The book with its own ids (the web extension's, xlwings Lite's) made zeros."""
    ids = lite.book_ids(package)
    assert ids is not None
    members = members_of(package)
    text = members["xl/webextensions/webextension1.xml"].decode()
    text = text.replace(str(ids.extension).upper(), str(MASK.extension).upper())
    text = text.replace(str(ids.workbook), str(MASK.workbook))
    members["xl/webextensions/webextension1.xml"] = text.encode()
    return repack(members)


def test_shipped_lite_template_is_what_the_builder_makes(book: bytes) -> None:
    shipped = (WORKBOOK / "xlgrade-template.xlsx").read_bytes()
    assert _masked(shipped) == _masked(book), "run: xlgrade template workbook/xlgrade-template.xlsx"
    assert lite.build_lite_workbook(ids=MASK) == _masked(book)


def test_shipped_lite_example_is_the_generated_league_recalculated(tmp_path: Path) -> None:
    built = tmp_path / "example.xlsx"
    assert main(["template", "--example", str(built)]) == 0
    assert _masked((WORKBOOK / "example-league.xlsx").read_bytes()) == _masked(
        built.read_bytes()
    ), "run: xlgrade template --example workbook/example-league.xlsx --force"


def test_each_book_made_has_ids_of_its_own(tmp_path: Path) -> None:
    made = [lite.build_lite_workbook() for _ in range(2)]
    shipped = [(WORKBOOK / name).read_bytes() for name in ("xlgrade-template.xlsx",
                                                           "example-league.xlsx")]  # fmt: skip
    out = tmp_path / "2026-27.xlsx"
    assert main(["new-season", str(WORKBOOK / "example-league.xlsx"), str(out)]) == 0
    csv = tmp_path / "more.csv"
    csv.write_text(write_results_csv(generate_league().games[:3]), encoding="utf-8")
    copy = tmp_path / "copy.xlsx"
    book = WORKBOOK / "example-league.xlsx"
    assert main(["import", str(csv), "--into", str(book), "--out", str(copy), "--again"]) == 0
    assert lite.book_engine(copy.read_bytes()) == lite.book_engine(book.read_bytes())
    ids = [lite.book_ids(book) for book in [*made, *shipped, out.read_bytes(), copy.read_bytes()]]
    extensions = {i.extension for i in ids if i is not None}
    workbooks = {i.workbook for i in ids if i is not None}
    assert len(extensions) == len(workbooks) == len(ids)
    assert not extensions & workbooks


def test_recalculating_a_book_keeps_its_ids(tmp_path: Path) -> None:
    league = generate_league()
    path = tmp_path / "l.xlsx"
    path.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    before = lite.book_ids(path.read_bytes())
    assert main(["recalc", str(path)]) == 0
    assert lite.book_ids(path.read_bytes()) == before


def test_a_copy_gets_ids_of_its_own(book: bytes) -> None:
    copy = lite.with_fresh_ids(book)
    old, new = lite.book_ids(book), lite.book_ids(copy)
    assert old is not None
    assert new is not None
    assert old.extension != new.extension
    assert old.workbook != new.workbook
    assert _masked(copy) == _masked(book)
    classic = build_workbook()
    assert lite.with_fresh_ids(classic) == classic  # no web extension: nothing to change


def test_no_macros_and_the_plain_workbook_type(book: bytes) -> None:
    parts = members_of(book)
    assert "xl/vbaProject.bin" not in parts
    assert not [name for name in parts if name.startswith("customUI/")]
    types_xml = parts["[Content_Types].xml"].decode()
    assert "spreadsheetml.sheet.main+xml" in types_xml
    assert "macroEnabled" not in types_xml


def test_the_add_in_reference(book: bytes) -> None:
    root = ET.fromstring(members_of(book)["xl/webextensions/webextension1.xml"])
    references = [root.find(f"{WE}reference"), *root.findall(f"{WE}alternateReferences/*")]
    for reference in references:
        assert reference is not None
        assert reference.attrib["id"].upper() == "WA200008175"
        assert reference.attrib["storeType"] == "OMEX"


def test_the_code_is_stored_as_json_strings(book: bytes) -> None:
    found = _properties(book)
    assert set(found) == {
        "main.py", "requirements.txt", "pyodideVersion", "addinVersion", "xlwingsWorkbookId",
        "xlwingsSettingsWorkbook",
    }  # fmt: skip
    # Only what Pyodide provides (or PyPI holds): never xlgrade, which main.py carries. The
    # packages xlwings Lite's own requirements.txt marks "# required" come first, as there.
    assert found["requirements.txt"].splitlines() == [
        f"xlwings=={lite.XLWINGS_VERSION}  # required",
        "python-dotenv==1.2.1  # required",
        "pyodide-http  # required",
        "black==26.10.1  # required",
        "numpy",
        f"openpyxl=={lite.OPENPYXL_VERSION}",
    ]
    assert found["main.py"] == lite.main_py()
    assert found["xlwingsWorkbookId"] == str(lite.book_ids(book).workbook)  # type: ignore[union-attr]


def test_the_book_asks_lite_to_start_and_show_its_pane_on_opening(book: bytes) -> None:
    # Lite's workbook setting Startup Behavior as a saved Lite book holds it: a JSON object,
    # not a JSON string, under xlwingsSettingsWorkbook (the pane's own part is read back in
    # the test of the package's parts below).
    root = ET.fromstring(members_of(book)["xl/webextensions/webextension1.xml"])
    (setting,) = [p for p in root.iter(f"{WE}property")
                  if p.attrib["name"] == "xlwingsSettingsWorkbook"]  # fmt: skip
    assert setting.attrib["value"] == '{"startupBehavior":"taskpane"}'
    assert lite.book_properties(book)["xlwingsSettingsWorkbook"] == setting.attrib["value"]


def test_main_py_carries_this_xlgrade(book: bytes) -> None:
    code = _properties(book)["main.py"]
    assert code.startswith(f'"""xlgrade {__version__}: chess grading in this workbook')
    engine = lite.book_engine(book)
    assert engine == lite.engine_zip()
    assert lite.engine_version(engine) == __version__
    with zipfile.ZipFile(io.BytesIO(engine)) as archive:
        names = set(archive.namelist())
        assert archive.read("xlgrade_udfs.py") == (ROOT / "udfs" / "xlgrade_udfs.py").read_bytes()
    assert {"xlgrade/__init__.py", "xlgrade/ecf.py", "xlgrade/workbook/live.py",
            "xlgrade_lite.py", "xlgrade/workbook/vba/GradingRibbon.bas"} <= names  # fmt: skip
    assert not [n for n in names if n.startswith(lite.ENGINE_LEFT_OUT) or "__pycache__" in n]
    # The book stays within what Office keeps for an add-in's settings (2 MB).
    assert len(members_of(book)["xl/webextensions/webextension1.xml"]) < 1_000_000


def test_the_sizes_the_docs_state_are_the_templates(book: bytes) -> None:
    # The README's Speed table gives the figures of one measurement (bench_lite_book.py),
    # docs/install.md round ones: each within a few per cent of the shipped template, so that
    # neither goes stale as the engine grows (the shipped template is this one, as built).
    code = lite.book_properties(book)["main.py"]
    engine = lite.book_engine(book)
    assert engine is not None
    kb = 1000
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"template (\d+) kB \(`main.py` (\d+) kB, ([\d,]+) lines; engine zip "
                      r"(\d+) kB", readme)  # fmt: skip
    assert found is not None, "the README's Speed table lost the Lite book's sizes"
    stated = [float(found[n].replace(",", "")) for n in (1, 2, 3, 4)]
    measured = [len(book) / kb, len(code.encode()) / kb, len(code.splitlines()), len(engine) / kb]
    for say, size in zip(stated, measured, strict=True):
        assert say == pytest.approx(size, rel=0.03), (stated, measured)
    guide = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    found = re.search(r"about (\d+) kB\s+of text, some ([\d,]+) lines at the end of the file; "
                      r"the book is about (\d+) kB", guide)  # fmt: skip
    assert found is not None, "docs/install.md lost the Lite book's sizes"
    engine_lines = len(code.split('_ENGINE = """', 1)[1].split('"""', 1)[0].split())
    stated = [float(found[n].replace(",", "")) for n in (1, 2, 3)]
    measured = [len(code.encode()) / kb, engine_lines, len(book) / kb]
    for say, size in zip(stated, measured, strict=True):
        assert say == pytest.approx(size, rel=0.10), (stated, measured)


def test_a_changed_engine_is_refused(book: bytes) -> None:
    members = members_of(book)
    part = members["xl/webextensions/webextension1.xml"].decode()
    start = part.index("_ENGINE = ") + 200
    members["xl/webextensions/webextension1.xml"] = (
        part[:start] + ("B" if part[start] != "B" else "C") + part[start + 1 :]
    ).encode()
    with pytest.raises(FormatError, match=r"^x.xlsx: xlgrade's engine in main.py was changed"):
        lite.book_engine(repack(members), "x.xlsx")
    assert lite.book_engine(build_workbook()) is None  # a classic book carries none


def _with_web_extension(book: bytes, edit: Callable[[str], str]) -> bytes:
    members = members_of(book)
    part = members["xl/webextensions/webextension1.xml"].decode()
    members["xl/webextensions/webextension1.xml"] = edit(part).encode()
    return repack(members)


def _cut_short(part: str) -> str:
    """The engine's base64 cut off mid-way, as a truncated copy of the text would leave it
    (a length that is no whole number of base64 groups)."""
    start = part.index("_ENGINE = ")
    end = part.index("_load_engine(_ENGINE)")
    closing = part.rindex("\\n\\&quot;", start, end)  # the closing quotes, as stored
    return part[: start + 1001] + part[closing:]


def test_an_engine_cut_short_is_named_not_a_raw_error(
    book: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    short = _with_web_extension(book, _cut_short)
    with pytest.raises(
        FormatError,
        match=r"^x.xlsx: xlgrade's engine in main.py was changed or "
        r"cut short and cannot be carried on: `xlgrade new-season --new-engine`",
    ):
        lite.book_engine(short, "x.xlsx")
    assert lite.lite_damage(short) == lite.LiteDamage(engine=True)
    path = tmp_path / "league.xlsx"
    path.write_bytes(short)
    assert main(["new-season", str(path), str(tmp_path / "next.xlsx")]) == 1
    refused = capsys.readouterr().err
    assert "main.py was changed or cut short and cannot be carried on" in refused
    assert f"`xlgrade recalc {path}` puts it in this one" in refused
    assert not (tmp_path / "next.xlsx").exists()
    assert main(["new-season", "--new-engine", str(path), str(tmp_path / "next.xlsx")]) == 0
    assert lite.book_engine((tmp_path / "next.xlsx").read_bytes()) == lite.engine_zip()
    # recalc puts this xlgrade's engine in, keeping the book's ids.
    ids = lite.book_ids(short)
    assert main(["recalc", str(path)]) == 0
    assert lite.book_engine(path.read_bytes()) == lite.engine_zip()
    assert lite.book_ids(path.read_bytes()) == ids
    assert lite.lite_damage(path.read_bytes()) is None


def test_lost_ids_are_made_anew_and_said(
    book: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lost = _with_web_extension(book, lambda part: part.replace("xlwingsWorkbookId", "lostId"))
    assert lite.lite_damage(lost) == lite.LiteDamage(ids=True)
    path = tmp_path / "league.xlsx"
    path.write_bytes(lost)
    assert main(["recalc", str(path)]) == 0
    assert f"note: {path} has lost the book's ids" in capsys.readouterr().out
    assert lite.book_ids(path.read_bytes()) is not None
    assert lite.book_engine(path.read_bytes()) == lite.book_engine(book)  # its own engine kept
    # An import into a copy of it (--out) says the same and gives the copy ids of its own.
    path.write_bytes(lost)
    csv = tmp_path / "games.csv"
    csv.write_text(write_results_csv(generate_league().games[:5]), encoding="utf-8")
    copy = tmp_path / "copy.xlsx"
    assert main(["import", str(csv), "--into", str(path), "--out", str(copy)]) == 0
    assert f"note: {path} has lost the book's ids" in capsys.readouterr().out
    assert lite.lite_damage(copy.read_bytes()) is None


def test_lost_spill_metadata_is_put_back(book: bytes) -> None:
    # The cells keep cm="1" but the part it points at is gone: Excel would not spill them.
    members = members_of(book)
    del members["xl/metadata.xml"]
    lost = repack(members)
    assert lite.lite_damage(lost) == lite.LiteDamage(spill=True)
    mended, said = lite.mend_lite_book(lost)
    assert said == ['the live columns\' dynamic-array marks (cm="1", xl/metadata.xml)']
    assert members_of(mended)["xl/metadata.xml"] == members_of(book)["xl/metadata.xml"]
    assert lite.lite_damage(mended) is None
    assert lite.book_ids(mended) == lite.book_ids(book)  # nothing else touched


def test_a_book_that_lost_nothing_is_not_touched(book: bytes) -> None:
    assert lite.lite_damage(book) is None
    assert lite.mend_lite_book(book) == (book, [])
    assert lite.lite_damage(build_workbook()) is None  # never a Lite book: nothing to say


def test_the_task_pane_and_the_relationships(book: bytes) -> None:
    parts = members_of(book)
    package_rels = ET.fromstring(parts["_rels/.rels"])
    (pane_rel,) = [r for r in package_rels if r.attrib["Type"] == lite.REL_TASKPANES]
    assert pane_rel.attrib["Target"] == "xl/webextensions/taskpanes.xml"
    pane = ET.fromstring(parts["xl/webextensions/taskpanes.xml"]).find(f"{TP}taskpane")
    assert pane is not None
    assert pane.attrib["dockstate"] == "right"
    assert pane.attrib["visibility"] == "1"  # shown when the book opens
    reference = pane.find(f"{TP}webextensionref")
    assert reference is not None
    pane_rels = ET.fromstring(parts["xl/webextensions/_rels/taskpanes.xml.rels"])
    (target,) = [r for r in pane_rels if r.attrib["Id"] == reference.attrib[f"{R}id"]]
    assert target.attrib["Type"] == lite.REL_WEBEXTENSION
    assert target.attrib["Target"] == "webextension1.xml"
    types_xml = ET.fromstring(parts["[Content_Types].xml"])
    overrides = {o.attrib.get("PartName"): o.attrib.get("ContentType") for o in types_xml}
    assert overrides["/xl/webextensions/webextension1.xml"] == lite.WEBEXTENSION_TYPE
    assert overrides["/xl/webextensions/taskpanes.xml"] == lite.TASKPANES_TYPE


XDR = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _shape_name(anchor: ET.Element) -> str:
    found = anchor.find(f"{XDR}sp/{XDR}nvSpPr/{XDR}cNvPr")
    assert found is not None
    return found.attrib["name"]


def _rels(parts: dict[str, bytes], part: str) -> dict[str, ET.Element]:
    folder, _, name = part.rpartition("/")
    root = ET.fromstring(parts[f"{folder}/_rels/{name}.rels"])
    return {r.attrib["Id"]: r for r in root.findall(f"{RELS}Relationship")}


def test_the_sheet_buttons_link_their_cells_and_the_scripts_name_them(
    book: bytes, lite_module: object
) -> None:
    from xlwings import server

    parts = members_of(book)
    sheets = sheet_parts(book)
    scripts = {s["name"]: s for s in server.custom_scripts_meta(lite_module)}
    assert {b.script for b in layout.LITE_BUTTONS} == set(scripts)  # a button for each
    for button in layout.LITE_BUTTONS:
        part = sheets[button.sheet]
        sheet = ET.fromstring(parts[part])
        (drawing_ref,) = sheet.findall(f"{{{MAIN}}}drawing")
        drawing_rel = _rels(parts, part)[drawing_ref.attrib[f"{R}id"]]
        assert drawing_rel.attrib["Type"] == lite.REL_DRAWING
        drawing_part = "xl/drawings/" + drawing_rel.attrib["Target"].rsplit("/", 1)[-1]
        drawing = ET.fromstring(parts[drawing_part])
        shapes = {_shape_name(a): a for a in drawing.findall(f"{XDR}twoCellAnchor")}
        anchor = shapes[button.shape]
        # The shape's top-left corner is the linked cell (P2: column 15, row 1 from 0), so
        # the shape covers it, as xlwings Lite asks.
        column, row = button.cell[0], int(button.cell[1:])
        start = anchor.find(f"{XDR}from")
        assert start is not None
        assert start.findtext(f"{XDR}col") == str(ord(column) - ord("A"))
        assert start.findtext(f"{XDR}row") == str(row - 1)
        assert ord(column) - ord("A") > len(RESULTS_COLUMNS)  # right of the points, a gap
        link = anchor.find(f"{XDR}sp/{XDR}nvSpPr/{XDR}cNvPr/{A}hlinkClick")
        assert link is not None
        target = _rels(parts, drawing_part)[link.attrib[f"{R}id"]]
        assert target.attrib["Type"] == lite.REL_HYPERLINK
        assert target.attrib["Target"] == f"#{button.sheet}!{button.cell}"
        assert "TargetMode" not in target.attrib  # a place in this book
        text = "".join(t.text or "" for t in anchor.iter(f"{A}t"))
        assert text == button.script
        assert scripts[button.script]["button"] == f"[{button.shape}]Results!{button.cell}"
        assert scripts[button.script]["show_taskpane"] is True
    types_xml = parts["[Content_Types].xml"].decode()
    assert f'PartName="/{drawing_part}" ContentType="{lite.DRAWING_TYPE}"' in types_xml


@pytest.fixture(scope="module")
def lite_module() -> object:
    from tests.functions.conftest import load_lite

    return load_lite()


def test_the_same_sheets_as_the_classic_book_but_the_xlwings_setting(tmp_path: Path) -> None:
    league = generate_league()
    path = tmp_path / "l.xlsx"
    path.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    classic = tmp_path / "c.xlsm"
    classic.write_bytes(build_workbook(league.players, league.games, league.settings))
    lite_book, classic_book = (CalamineWorkbook.from_path(str(p)) for p in (path, classic))
    assert lite_book.sheet_names == [n for n in classic_book.sheet_names
                                     if n != layout.XLWINGS_CONF]  # fmt: skip
    for name in (layout.SETTINGS, layout.PLAYERS, layout.RESULTS):
        assert (lite_book.get_sheet_by_name(name).to_python()
                == classic_book.get_sheet_by_name(name).to_python())  # fmt: skip
    how = [row[0] for row in lite_book.get_sheet_by_name(layout.HOW_TO_USE).to_python()]
    assert any("xlwings Lite" in line for line in how)
    assert any("docs/install.md" in line for line in how)
    # Which button mends the points once, if Excel did not link the stored calls.
    assert any("press Recalculate season once" in line for line in how)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--classic", "x.xlsx"], "x.xlsx: the classic book holds macros; name it .xlsm"),
        (["x.xls"], "x.xls: name the book .xlsx (xlwings Lite) or .xlsm (classic)"),
    ],
)
def test_a_name_that_does_not_fit_the_book_is_refused(
    arguments: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [*arguments[:-1], str(tmp_path / arguments[-1])]
    assert main(["template", *arguments]) == 1
    assert message in capsys.readouterr().err.replace(str(tmp_path) + "/", "")
    assert not list(tmp_path.iterdir())


def test_an_xlsm_name_gives_the_classic_book(tmp_path: Path) -> None:
    path = tmp_path / "c.xlsm"
    assert main(["template", str(path)]) == 0
    assert path.read_bytes() == build_workbook()


def test_next_seasons_lite_book_is_a_lite_book(tmp_path: Path) -> None:
    out = tmp_path / "2026-27.xlsx"
    assert main(["new-season", str(WORKBOOK / "example-league.xlsx"), str(out)]) == 0
    parts = members_of(out.read_bytes())
    assert "xl/webextensions/webextension1.xml" in parts
    assert "xl/vbaProject.bin" not in parts
    assert _properties(out.read_bytes())["main.py"] == lite.main_py()


def _other_engine() -> bytes:
    """This xlgrade's engine with its version changed to 0.0.9: an engine other than this
    xlgrade's, as an older release's, or one changed on purpose, would be."""
    engine = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(lite.engine_zip())) as old, \
            zipfile.ZipFile(engine, "w") as new:  # fmt: skip
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "xlgrade/__init__.py":
                data = data.replace(f'"{__version__}"'.encode(), b'"0.0.9"')
            new.writestr(info, data)
    return engine.getvalue()


def _book_with(engine: bytes, folder: Path) -> Path:
    # build_lite_workbook writes the engine's checksum beside it in main.py, as whoever
    # changes an engine can: the checksum passes, and proves nothing of where it came from.
    league = generate_league()
    book = folder / "2025-26.xlsx"
    book.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings,
                                              engine=engine))  # fmt: skip
    assert lite.book_engine(book.read_bytes()) == engine  # its own checksum holds
    return book


def test_an_engine_neither_this_xlgrades_nor_released_is_not_carried(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = _other_engine()
    book = _book_with(other, tmp_path)
    out = tmp_path / "2026-27.xlsx"
    assert main(["new-season", str(book), str(out)]) == 0
    assert lite.book_engine(out.read_bytes()) == lite.engine_zip()
    said = capsys.readouterr().out
    digest = lite.engine_digest(other)
    assert f"note: {out} carries this xlgrade's engine (xlgrade {__version__}'s, SHA-256 " in said
    assert (
        f"not {book}'s: its engine (it says xlgrade 0.0.9, SHA-256 {digest[:16]}…) is neither "
        "this xlgrade's nor a released one"
    ) in said


def test_a_released_engine_is_carried_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = _other_engine()
    book = _book_with(other, tmp_path)
    digest = lite.engine_digest(other)
    table = tmp_path / "data" / lite.RELEASED_ENGINES
    table.parent.mkdir()
    table.write_text(f"Version,Source SHA-256\n0.0.9,{digest}\n", encoding="utf-8")
    monkeypatch.setattr(importlib.resources, "files", lambda package: tmp_path)
    assert lite.released_engines() == {digest: "0.0.9"}
    out = tmp_path / "2026-27.xlsx"
    assert main(["new-season", str(book), str(out)]) == 0
    assert lite.book_engine(out.read_bytes()) == other
    assert _properties(out.read_bytes())["main.py"].startswith('"""xlgrade 0.0.9: chess')
    said = capsys.readouterr().out
    assert f"note: {out} carries {book}'s engine, xlgrade 0.0.9 as released (SHA-256 " in said
    newer = tmp_path / "2026-27 newer.xlsx"
    assert main(["new-season", "--new-engine", str(book), str(newer)]) == 0
    assert lite.book_engine(newer.read_bytes()) == lite.engine_zip()
    assert f"note: {newer} carries this xlgrade's engine (xlgrade {__version__}'s" in (
        capsys.readouterr().out
    )


def test_the_table_of_released_engines_reads_and_an_engine_digest_is_of_its_source() -> None:
    table = lite.released_engines()  # the shipped table: every row a version and a digest
    assert all(len(digest) == 64 for digest in table)
    # The digest names the files, not the zip's bytes: the same source deflated otherwise
    # (stored, not deflated) has the same digest; one byte changed, another.
    engine = lite.engine_zip()
    stored = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(engine)) as old, zipfile.ZipFile(stored, "w") as new:
        for info in old.infolist():
            new.writestr(info.filename, old.read(info), compress_type=zipfile.ZIP_STORED)
    assert stored.getvalue() != engine
    assert lite.engine_digest(stored.getvalue()) == lite.engine_digest(engine)
    assert lite.engine_digest(_other_engine()) != lite.engine_digest(engine)
    with pytest.raises(FormatError, match="the engine is not a zip"):
        lite.engine_digest(b"not a zip")


def test_an_engine_loaded_from_a_book_is_carried_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In xlwings Lite, xlgrade is imported from the book's engine: a book made there (New
    # season) carries that archive, whatever this source holds.
    import zipimport

    import xlgrade

    archive = tmp_path / "xlgrade-engine.zip"
    archive.write_bytes(lite.engine_zip()[:-1] + b"\x00")  # other bytes, still a zip
    monkeypatch.setattr(xlgrade, "__loader__", zipimport.zipimporter(str(archive)))
    assert lite.engine_zip() == archive.read_bytes()


def test_an_engine_without_its_version_or_its_modules_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = io.BytesIO()
    with zipfile.ZipFile(engine, "w") as archive:
        archive.writestr("xlgrade/__init__.py", '"""No version here."""\n')
    with pytest.raises(FormatError, match="names no __version__"):
        lite.engine_version(engine.getvalue())
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FormatError, match=r"^the installed xlgrade has no xlgrade_udfs.py"):
        lite.engine_zip()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            lambda part: re.sub(r'(name="main\.py" value=")[^"]*', r"\1[1,", part),
            "its property 'main.py' holds '[1,', which is not the JSON text xlwings Lite writes",
        ),
        (
            lambda part: part.replace('<we:property name="pyodideVersion"', "<we:property", 1),
            "its property 3 has no name",
        ),
        (lambda part: re.sub(r'(name="xlwingsWorkbookId" value=")[^"]*', r"\1{x", part), ""),
        (lambda part: re.sub(r'id="\{[0-9A-F-]+\}"', 'id="{nope}"', part, count=1), ""),
    ],
    ids=["bad JSON value", "nameless property", "bad JSON id", "non-UUID id"],
)
def test_a_damaged_web_extension_is_named_or_mended_in_every_route(
    book: bytes,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[str], str],
    said: str,
) -> None:
    """A web extension whose settings are damaged: refused naming the part and the property
    where the book's engine is to be carried on, or given new ids (xlwings Lite asks to trust
    the book again), never an internal error."""
    path = tmp_path / "league.xlsx"
    path.write_bytes(_with_web_extension(book, change))
    csv = tmp_path / "games.csv"
    csv.write_text(write_results_csv(generate_league().games[:5]), encoding="utf-8")
    for args in (
        ["new-season", str(path), str(tmp_path / "next.xlsx")],
        ["import", str(csv), "--into", str(path), "--out", str(tmp_path / "copy.xlsx")],
    ):
        code = main(args)
        err = capsys.readouterr().err
        if said and args[0] == "new-season":
            assert code == 1
            assert "the add-in's part 'xl/webextensions/webextension1.xml': " + said in err
            assert not (tmp_path / "next.xlsx").exists()
        else:
            assert code == 0, err
