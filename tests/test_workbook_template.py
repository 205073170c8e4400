"""The template workbook: its sheets and headers, the ribbon and the VBA read back out of the
built file, and the shipped copy matching a fresh build."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from oletools.olevba import VBA_Parser
from python_calamine import CalamineWorkbook
from test_workbook_helpers import members

from xlgrade.cli import main
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook

SHIPPED = Path(__file__).resolve().parent.parent / "workbook" / "xlgrade-template.xlsm"


@pytest.fixture(scope="module")
def template() -> bytes:
    return build_workbook()


def test_shipped_template_is_what_the_builder_makes(template: bytes) -> None:
    assert SHIPPED.read_bytes() == template, (
        "run: xlgrade template workbook/xlgrade-template.xlsm --force"
    )


def test_builds_are_reproducible(template: bytes) -> None:
    assert build_workbook() == template


def test_sheets_and_headers(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsm"
    assert main(["template", str(path)]) == 0
    book = CalamineWorkbook.from_path(str(path))
    assert book.sheet_names[:4] == ["How to use", "Settings", "Players", "Results"]
    for sheet in (*layout.OUTPUT_SHEETS, "Grade History", "xlwings.conf"):
        assert sheet in book.sheet_names
    rows = {name: book.get_sheet_by_name(name).to_python() for name in book.sheet_names}
    assert tuple(rows["Players"][0]) == (
        "Code", "Name", "Club", "Date of birth", "Junior", "Grade", "Estimated grade",
        "Previous games", "Previous points", "Earlier games", "Earlier points", "Lapsed grade",
    )  # fmt: skip
    assert tuple(rows["Results"][0][:10]) == (
        "Date", "Division", "Match", "Board", "Home player", "Result", "Away player",
        "Time control", "Home points", "Away points",
    )  # fmt: skip
    assert rows["xlwings.conf"][0][:2] == ["UDF Modules", "xlgrade_udfs"]
    labels = [row[0] for row in rows["Settings"][1:]]
    for label in ("Season name", "Season start", "Season end", "Horizon", "Minimum games",
                  "Borrowing rule", "Category rules", "Junior age date", "Elo K policy",
                  "Conversion"):  # fmt: skip
        assert label in labels


def test_existing_file_is_not_replaced_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.xlsm"
    path.write_bytes(b"mine")
    assert main(["template", str(path)]) == 1
    assert path.read_bytes() == b"mine"
    assert "exists" in capsys.readouterr().err


def test_ribbon_xml_reads_back(template: bytes) -> None:
    parts = members(template)
    rels = parts["_rels/.rels"].decode()
    assert "http://schemas.microsoft.com/office/2007/relationships/ui/extensibility" in rels
    assert "http://schemas.microsoft.com/office/2006/relationships/ui/extensibility" in rels
    for name, ns in (
        ("customUI/customUI14.xml", "http://schemas.microsoft.com/office/2009/07/customui"),
        ("customUI/customUI.xml", "http://schemas.microsoft.com/office/2006/01/customui"),
    ):
        root = ET.fromstring(parts[name])
        tab = root.find(f"{{{ns}}}ribbon/{{{ns}}}tabs/{{{ns}}}tab")
        assert tab is not None
        assert tab.get("label") == "Grading"
        buttons = {b.get("label"): b.get("onAction") for b in tab.iter(f"{{{ns}}}button")}
        assert buttons["Recalculate season"] == "RecalculateSeason"
        assert buttons["Check results"] == "CheckResults"
        assert buttons["New season from this one"] == "NewSeason"


def test_vba_callbacks_read_back(template: bytes, tmp_path: Path) -> None:
    path = tmp_path / "t.xlsm"
    path.write_bytes(template)
    parser = VBA_Parser(str(path))
    try:
        modules = {name: code for _, _, name, code in parser.extract_macros()}
    finally:
        parser.close()
    source = modules["GradingRibbon.bas"]
    parts = members(template)
    for callback in re.findall(r'onAction="(\w+)"', parts["customUI/customUI14.xml"].decode()):
        assert re.search(rf"Public Sub {callback}\(control As IRibbonControl\)", source), callback
    assert "xlgrade_udfs.recalculate_season()" in source
    assert "RunPython" in source
    shipped = (
        Path(__file__).resolve().parent.parent
        / "xlgrade"
        / "workbook"
        / "vba"
        / "GradingRibbon.bas"
    )
    assert source.replace("\r\n", "\n").strip() == shipped.read_text().strip()


def test_macro_enabled_content_type(template: bytes) -> None:
    types = members(template)["[Content_Types].xml"].decode()
    assert "application/vnd.ms-excel.sheet.macroEnabled.main+xml" in types
    assert "xl/vbaProject.bin" in members(template)


def test_results_formulas_use_functions_both_applications_have(template: bytes) -> None:
    sheet = members(template)["xl/worksheets/sheet4.xml"].decode()
    formulas = re.findall(r"<f>(.*?)</f>", sheet)
    assert any("GRADE_POINTS(" in f for f in formulas)
    for formula in formulas:
        for newer in ("XLOOKUP", "LET(", "FILTER(", "SEQUENCE("):
            assert newer not in formula


def test_shipped_example_league_is_the_generated_league_recalculated(tmp_path: Path) -> None:
    built = tmp_path / "example.xlsm"
    assert main(["template", "--example", str(built)]) == 0
    shipped = SHIPPED.parent / "example-league.xlsm"
    assert shipped.read_bytes() == built.read_bytes(), (
        "run: xlgrade template --example workbook/example-league.xlsm --force"
    )
    grading = CalamineWorkbook.from_path(str(built)).get_sheet_by_name("Grading List").to_python()
    assert grading[0][:9] == [
        "Code", "Name", "Club", "Games", "Points", "Grade", "Category", "Junior", "Elo",
    ]  # fmt: skip
    assert len(grading) > 30
