"""The Results sheet's live points: one GRADE_POINTS formula a column, whatever the number of
rows, written as a dynamic array (Excel 365/2021 spill it and grow it with the table) that is
an array formula over the table's rows elsewhere; opened without the add-in it says so."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from xlgrade.generate import generate_league
from xlgrade.workbook import build, lite
from xlgrade.workbook.build import build_workbook, members_of
from xlgrade.workbook.package import sheet_parts

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


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
        assert [cell for cell, _, _ in calls["Lists"]] == ["E2"]  # the add-in probe
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


def test_without_the_add_in_only_name_errors_become_the_message() -> None:
    # The probe is TRUE only for error type 5 (#NAME?: the function is unknown); any other
    # error of GRADE_POINTS, and every answer, leaves the column to show what it computes.
    parts = members_of(build_workbook())
    lists = parts[sheet_parts(build_workbook())["Lists"]].decode()
    assert "<f>IFERROR(ERROR.TYPE(GRADE_POINTS(100,100,1))=5,FALSE)</f>" in lists
    for route, needs in (("classic", "Python and the xlwings"), ("lite", "the xlwings Lite")):
        formula = build.points_formula("Home points", route)  # type: ignore[arg-type]
        start = f'=IF({build.FUNCTIONS_MISSING},"Needs {needs} add-in: see How to use",'
        assert formula.startswith(start)
        assert "IFERROR" not in formula
        assert "ISERROR" not in formula
