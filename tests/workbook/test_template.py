"""The template workbook: its sheets and headers, the ribbon and the VBA read back out of the
built file, and the shipped copy matching a fresh build.

The template's Settings and live formulas agree with the recalculation: a blank Horizon is
40 both ways, Floor at zero reaches the live points, the named ranges are names Excel accepts,
and every data validation shows its message.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
import xlgrade_udfs as xl
from oletools.olevba import VBA_Parser
from python_calamine import CalamineWorkbook

from tests.league import GAMES, PLAYERS, members, rows_by_header
from tests.paths import ROOT, TEMPLATE
from xlgrade.cli import main
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.read import read_inputs

SHIPPED = TEMPLATE


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
        "ECF rating", "ECF category", "ECF rapid rating", "ECF rapid category", "Last rated month",
        "ECF results in 12 months", "ECF rapid results in 12 months", "ECF P games",
        "ECF P score", "ECF P opposition", "ECF rapid P games", "ECF rapid P score",
        "ECF rapid P opposition", "Estimated rating", "Latest ECF rating", "Registered team",
        "Registered from", "FIDE rating", "ECF member", "League registered",
    )  # fmt: skip
    assert tuple(rows["Results"][0][:14]) == (
        "Date", "Division", "Match", "Board", "Home player", "Result", "Away player",
        "Time control", "Home grade", "Away grade", "Home score", "Away score",
        "Home points", "Away points",
    )  # fmt: skip
    assert rows["xlwings.conf"][0][:2] == ["UDF Modules", "xlgrade_udfs"]
    labels = [row[0] for row in rows["Settings"][1:]]
    for label in ("Season name", "Season start", "Season end", "Horizon", "Minimum games",
                  "Borrowing rule", "Category rules", "Junior age date", "Elo K policy",
                  "Conversion", "System", "P-method formula", "Partial opponents"):  # fmt: skip
        assert label in labels
    # How to use tells a grader how to switch to the ECF rating and where its columns come from.
    how = "\n".join(str(row[0]) for row in rows["How to use"])
    assert "For the ECF rating (2020 rules) instead: System on Settings" in how
    assert "xlgrade ratings LIST.csv --into THIS-FILE" in how


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
    shipped = ROOT / "xlgrade" / "workbook" / "vba" / "GradingRibbon.bas"
    assert source.replace("\r\n", "\n").strip() == shipped.read_text().strip()


def test_macro_enabled_content_type(template: bytes) -> None:
    types = members(template)["[Content_Types].xml"].decode()
    assert "application/vnd.ms-excel.sheet.macroEnabled.main+xml" in types
    assert "xl/vbaProject.bin" in members(template)


def test_results_formulas_use_functions_both_applications_have(template: bytes) -> None:
    sheet = members(template)["xl/worksheets/sheet4.xml"].decode()
    formulas = re.findall(r"<f(?: [^>]*)?>(.*?)</f>", sheet)
    assert any("SEASON_POINTS(" in f for f in formulas)
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


SETTINGS_HEADER = ["Setting", "Value", "Meaning"]


@pytest.mark.parametrize(
    ("value", "horizon"), [(None, 40.0), ("none", None), ("off", None), (25, 25.0)]
)
def test_a_blank_horizon_is_40_and_none_turns_it_off(value: object, horizon: object) -> None:
    inputs = read_inputs({"Settings": [SETTINGS_HEADER, ["Horizon", value, None]]})
    assert inputs.settings.horizon == horizon
    assert [p for p in inputs.problems if p.sheet == "Settings"] == []


def test_floor_at_zero_reaches_the_live_points() -> None:
    # A 10 losing to a 5: 5 − 50 = −45 points, or 0 with the floor (§2, published practice).
    assert xl.GRADE_POINTS(10, 5, 0) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, None) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, True) == 0.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, False) == -45.0
    assert xl.GRADE_POINTS(10, 5, 0, 40, "no") == -45.0
    # Beating a 200 counts the opponent as 10 + 40 (the horizon): 50 + 50 = 100.
    assert xl.GRADE_POINTS([[10], [10]], [[5], [200]], [[0], [1]], 40, False) == [
        [-45.0],
        [100.0],
    ]
    assert xl.GRADE_POINTS(10, 5, 0, 40, "maybe") == (
        "#VALUE! floor_at_zero 'maybe' is not yes or no"
    )


def test_elo_k_of_fide_2024_caps_k_times_the_periods_games_at_700() -> None:
    # FIDE 2024: K 20 for a 2000 with 40 earlier games, cut to 700 / 40 = 17.5 → 17 when
    # 40 games are rated in the period.
    assert xl.ELO_K(2000, 40, None, "fide-2024") == 20
    assert xl.ELO_K(2000, 40, None, "fide-2024", None, 40) == 17
    assert xl.ELO_K(2000, 40, None, "fide-2024", None, "x") == (
        "#VALUE! games_in_period 'x' is not a number"
    )


def _part(name: str) -> str:
    with zipfile.ZipFile(io.BytesIO(build_workbook())) as package:
        return package.read(name).decode("utf-8")


def test_every_defined_name_is_one_excel_accepts() -> None:
    names = re.findall(r'<definedName name="([^"]+)"', _part("xl/workbook.xml"))
    assert "Under12Divisions" in names
    assert "Under10Divisions" in names
    for name in names:
        assert re.fullmatch(r"(_xlnm\.)?[A-Za-z_][A-Za-z0-9_.]*", name), name


def test_every_data_validation_shows_its_message() -> None:
    sheets = [f"xl/worksheets/sheet{n}.xml" for n in range(1, 9)]
    validations = []
    with zipfile.ZipFile(io.BytesIO(build_workbook())) as package:
        for sheet in sheets:
            text = package.read(sheet).decode("utf-8")
            validations += re.findall(r"<dataValidation [^>]*>", text)
    assert len(validations) >= 10
    # The drop-down of players takes a code or any name too: Exceptions names an unknown one.
    players = [v for v in validations if 'sqref="E2:E20000 G2:G20000"' in v]
    assert len(players) == 1
    assert 'showErrorMessage="0"' in players[0]
    for validation in validations:
        if validation in players:
            continue
        assert 'showErrorMessage="1"' in validation, validation
        assert 'allowBlank="1"' in validation, validation
        assert " error=" in validation, validation
        assert "errorTitle=" in validation, validation
    results = [v for v in validations if 'sqref="F2:F20000"' in v]
    assert len(results) == 1
    assert 'errorStyle="warning"' in results[0]


def test_a_horizon_turned_off_stays_off_in_a_new_book() -> None:
    from xlgrade.settings import Settings
    from xlgrade.workbook.package import read_sheets

    book = build_workbook((), (), Settings(horizon=None))
    inputs = read_inputs(read_sheets(book, ["Settings"]))
    assert inputs.settings.horizon is None


@pytest.mark.parametrize(
    ("label", "value", "why"),
    [
        ("Horizon", -10, "cell B2 (Value): -10 is not 0 or more: the default is used"),
        (
            "Unanchored grade",
            5000,
            "cell B2 (Value): 5000 is not from 0 to 400: the default is used",
        ),
        (
            "Inactivity allowance",
            -20,
            "cell B2 (Value): -20 is not from 0 to 400: the default is used",
        ),
    ],
)
def test_a_setting_off_its_range_is_a_cell_problem(label: str, value: object, why: str) -> None:
    inputs = read_inputs({"Settings": [SETTINGS_HEADER, [label, value, None]]})
    assert [(p.what, p.why) for p in inputs.problems if p.sheet == "Settings"] == [
        ("bad setting", why)
    ]
    from xlgrade.settings import Settings

    # No game and no season given: the season is the one holding today.
    assert inputs.season is not None
    season = {
        "season_name": inputs.season.name,
        "season_start": inputs.season.start,
        "season_end": inputs.season.end,
    }
    assert inputs.settings == Settings(**season)


def test_a_blank_season_date_is_said_not_assumed() -> None:
    rows = [SETTINGS_HEADER, ["Season start", None, None], ["Season end", "2026-05-31", None]]
    inputs = read_inputs({"Settings": rows})
    assert [(p.row, p.what, p.why) for p in inputs.problems if p.sheet == "Settings"] == [
        (
            2,
            "blank setting",
            "cell B2 (Season start) is blank: 2025-06-01 is used, a year before the season's end",
        )
    ]


@pytest.mark.parametrize("suffix", [".xlsm", ".xlsx"])
def test_the_template_leaves_the_season_blank(suffix: str, tmp_path: Path) -> None:
    # A template started in any season must not refuse that season's games: its Season
    # name, start and end are blank, and the sheet says what a blank one means.
    path = tmp_path / f"t{suffix}"
    assert main(["template", str(path)]) == 0
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Settings").to_python()
    by_label = {row[0]: row[1:] for row in rows[1:]}
    for label in ("Season name", "Season start", "Season end"):
        assert by_label[label][0] == "", label
    assert "blank: 1 June of the season holding most of the games" in by_label["Season start"][1]
    assert "blank: 31 May of that season" in by_label["Season end"][1]


def test_a_blank_template_filled_with_this_seasons_games_grades_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The small league's games moved a year on, to October 2026 - January 2027: all in the
    # season 1 June 2026 to 31 May 2027 (docs/rules.md §11). Its 10 rows, one a default,
    # grade as they did in 2025-26: 9 graded.
    games = [replace(g, date=dt.date(g.date.year + 1, g.date.month, g.date.day))
             for g in GAMES if g.date is not None]  # fmt: skip
    assert len(games) == len(GAMES)
    book = tmp_path / "this-season.xlsm"
    book.write_bytes(build_workbook(PLAYERS, games))
    assert main(["recalc", str(book)]) == 0
    note = (
        "Season start and Season end are blank (cells B3 and B4): the 2026-27 season "
        "(2026-06-01 to 2027-05-31), the one the games were played in"
    )
    assert capsys.readouterr().out.splitlines() == [
        "6 players, 10 result rows: 9 graded, 0 rapidplay, 1 not graded (1 default)",
        "2 exceptions: 1 for the result rows not graded, 1 on Settings",
        f"note: Settings: {note}",
        f"Wrote {book}",
    ]
    sheets = CalamineWorkbook.from_path(str(book))
    exceptions = rows_by_header(sheets.get_sheet_by_name("Exceptions").to_python())
    assert {"Sheet": "Settings", "Row": 3, "What": "season from the games", "Why": note} in [
        {key: row[key] for key in ("Sheet", "Row", "What", "Why")} for row in exceptions
    ]
    assert not any(row["What"] == "date outside season" for row in exceptions)
