"""The Results sheet's live points: one GRADE_POINTS formula a column, whatever the number of
rows, written as a dynamic array (Excel 365/2021 spill it and grow it with the table) that is
an array formula over the table's rows elsewhere; opened without the add-in it says so."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

import pytest
import xlgrade_udfs

from tests.league import GAMES, PLAYERS, SETTINGS
from xlgrade.generate import generate_league
from xlgrade.workbook import build, formulas, lite
from xlgrade.workbook.build import build_workbook, members_of, repack
from xlgrade.workbook.relationships import sheet_parts

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"


def _calls(package: bytes) -> dict[str, list[tuple[str, str, str]]]:
    """Every cell formula calling GRADE_POINTS, by sheet: (cell, attributes of <f>, text)."""
    parts = members_of(package)
    found: dict[str, list[tuple[str, str, str]]] = {}
    for sheet, part in sheet_parts(package).items():
        text = parts[part].decode()
        for cell, attributes, formula in re.findall(
            r'<c r="([A-Z]+\d+)"[^>]*><f([^>]*)>([^<]*GRADE_POINTS[^<]*)</f>', text
        ):
            found.setdefault(sheet, []).append((cell, attributes, formula))
    return found


@pytest.mark.parametrize("route", ["classic", "lite"])
def test_calls_do_not_grow_with_the_rows(route: str) -> None:
    league = generate_league()
    make = build_workbook if route == "classic" else lite.build_lite_workbook
    empty, full = _calls(make()), _calls(make(league.players, league.games, league.settings))
    for calls in (empty, full):
        assert [cell for cell, _, _ in calls["Results"]] == ["M2", "N2"]
        assert [cell for cell, _, _ in calls["Lists"]] == ["E2"]  # the probe
    rows = len(league.games)
    for (_, attributes, _), letter in zip(full["Results"], "MN", strict=True):
        assert f'ref="{letter}2:{letter}{rows + 1}"' in attributes  # the table's data rows
        assert 't="array"' in attributes


def test_each_column_reads_the_whole_table_columns() -> None:
    home = build.points_formula("Home points", "lite")
    assert home.count("GRADE_POINTS(") == 1
    assert "GRADE_POINTS(ResultsTable[Home grade],ResultsTable[Away grade],ResultsTable" in home
    away = build.points_formula("Away points", "lite")
    assert "GRADE_POINTS(ResultsTable[Away grade],ResultsTable[Home grade],ResultsTable" in away


def test_the_formulas_are_dynamic_arrays() -> None:
    package = lite.build_lite_workbook()
    parts = members_of(package)
    results = parts[sheet_parts(package)["Results"]].decode()
    for cell in ("M2", "N2"):
        assert re.search(rf'<c r="{cell}"[^>]* cm="1"><f t="array"', results)
    metadata = ET.fromstring(parts["xl/metadata.xml"])
    (kind,) = metadata.iter(f"{MAIN}metadataType")
    assert kind.attrib["name"] == "XLDAPR"
    dynamic = next(e for e in metadata.iter() if e.tag.endswith("dynamicArrayProperties"))
    assert dynamic.attrib["fDynamic"] == "1"
    (record,) = metadata.iter(f"{MAIN}rc")
    assert record.attrib == {"t": "1", "v": "0"}  # cm="1": the first metadata type's first
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    assert 'relationships/sheetMetadata" Target="metadata.xml"' in rels
    assert 'PartName="/xl/metadata.xml"' in parts["[Content_Types].xml"].decode()


def test_lite_books_store_the_calls_as_excel_stores_an_add_ins_functions() -> None:
    # Excel saves a call of an Office.js add-in's function as _xldudf_ + namespace + name
    # (xlwings Lite's have no namespace) and lists the names in the web-extension part.
    for route, make in (("lite", lite.build_lite_workbook), ("classic", build_workbook)):
        package = make()
        calls = [text for found in _calls(package).values() for _, _, text in found]
        assert len(calls) == 3
        stored = "_xldudf_GRADE_POINTS(" if route == "lite" else "GRADE_POINTS("
        for text in calls:
            assert text.count("GRADE_POINTS(") == text.count(stored) == 1
    for header in formulas.POINTS_HEADERS:
        typed = formulas.points_formula(header, "lite", stored=False)
        assert formulas.points_formula(header, "lite") == typed.replace(
            "GRADE_POINTS(", "_xldudf_GRADE_POINTS("
        )
        assert formulas.points_formula(header, "classic") == typed
    part = members_of(lite.build_lite_workbook())["xl/webextensions/webextension1.xml"]
    extension = ET.fromstring(part)
    contains = next(e for e in extension.iter() if e.tag == f"{WE}containsCustomFunctions")
    assert contains.attrib == {"val": "1"}
    ids = [e.text for e in extension.iter() if e.tag == f"{WE}customFunctionIds"]
    # Every function of the add-in, used or not, as the Excel-saved xlwings book lists them.
    assert ids == [f"_xldudf_{name}" for name in xlgrade_udfs.FUNCTIONS]
    assert "_xldudf_GRADE_POINTS" in ids
    assert "_xldudf_GLICKO2" in ids


def test_only_the_first_row_says_why_there_are_no_points() -> None:
    for route in ("classic", "lite"):
        formula = build.points_formula("Home points", route)  # type: ignore[arg-type]
        assert formula.startswith(f'=IF({build.FUNCTIONS_MISSING}<>"",IF(ROW(')
        assert "IFERROR" not in formula  # a row's own error shows as it is
        assert "ISERROR" not in formula


@pytest.fixture(scope="module")
def messages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[list[object]]]]:
    """The small league's books as LibreOffice computes them where GRADE_POINTS is unknown,
    as built and with the Lists sheet's probe or system test changed to stand for the other
    cases: Excel (INFO("system") "pcdos"), xlgrade there but not answering (the probe #N/A)."""
    from xlgrade.workbook.libreoffice import find_soffice, make_profile, run_soffice
    from xlgrade.workbook.package import read_sheets

    soffice = find_soffice()
    if soffice is None:
        pytest.skip("LibreOffice is not installed")
    folder = tmp_path_factory.mktemp("messages")
    url = make_profile(soffice, folder / "profile", folder / "profile.log")
    module = folder / "profile" / "user" / "basic" / "Standard" / "Module1.xba"
    module.write_text(module.read_text().replace("GRADE_POINTS", "SOMETHING_ELSE"))
    books = []
    for route, make in (("lite", lite.build_lite_workbook), ("classic", build_workbook)):
        package = make(PLAYERS, GAMES, SETTINGS)
        for case, old, new in (
            ("office", "", ""),
            ("excel", 'INFO("system")', '"pcdos"'),
            ("silent", formulas.probe_formula(route)[1:], "NA()"),  # type: ignore[arg-type]
        ):
            members = members_of(package)
            part = sheet_parts(package)["Lists"]
            text = members[part].decode()
            for before, after in ((old, new), (escape(old), escape(new))):
                text = text.replace(before, after) if before else text
            members[part] = text.encode()
            path = folder / f"{route}-{case}.xlsx"
            path.write_bytes(repack(members))
            books.append(path)
    out = folder / "out"
    arguments = [f"-env:UserInstallation={url}", "--headless", "--convert-to", "xlsx",
                 "--outdir", str(out), *map(str, books)]  # fmt: skip
    run_soffice(soffice, arguments, folder / "soffice.log", done=out / books[-1].name)
    return {path.stem: read_sheets(out / path.name, ["Results", "Lists"]) for path in books}


@pytest.mark.parametrize("route", ["lite", "classic"])
@pytest.mark.parametrize("case", ["office", "excel", "silent"])
def test_the_points_say_what_is_missing_in_terms_of_what_the_grader_has(
    route: str, case: str, messages: dict[str, dict[str, list[list[object]]]]
) -> None:
    want = {
        "office": formulas.OFFICE_TEXT,
        "excel": formulas.MISSING_TEXT[route],  # type: ignore[index]
        "silent": formulas.NOT_ANSWERING_TEXT[route],  # type: ignore[index]
    }[case]
    sheets = messages[f"{route}-{case}"]
    results = sheets["Results"]
    home, away = (results[0].index(h) for h in formulas.POINTS_HEADERS)
    assert (results[1][home], results[1][away]) == (want, want)
    assert {row[c] for row in results[2 : len(GAMES) + 1] for c in (home, away)} == {None}
    grade = results[0].index("Home grade")
    assert [row[grade] for row in results[1:4]] == [142, 120, 155]  # the rest computes
    assert sheets["Lists"][1][5] == want


def test_the_messages_name_what_the_grader_can_do() -> None:
    assert "xlgrade recalc" in formulas.OFFICE_TEXT
    assert "Excel" in formulas.OFFICE_TEXT
    assert "pane's output" in formulas.MISSING_TEXT["lite"]
    assert "Recalculate season" in formulas.MISSING_TEXT["lite"]
    assert "pane's output" in formulas.NOT_ANSWERING_TEXT["lite"]
    for text in (formulas.OFFICE_TEXT, *formulas.MISSING_TEXT.values(),
                 *formulas.NOT_ANSWERING_TEXT.values()):  # fmt: skip
        assert '"' not in text
        assert len(text) < 255  # a formula's text constant
