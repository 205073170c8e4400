"""Build the template workbook, empty or filled with a season, for either Excel route.

The sheets are drawn with openpyxl, the same for both routes but for the words that say which
button to press. The classic book (``xlgrade template OUT.xlsm``): the Grading tab's VBA
callbacks compiled into ``xl/vbaProject.bin`` with pyOpenVBA from ``vba/GradingRibbon.bas``,
the ribbon's customUI parts from :mod:`xlgrade.workbook.ribbon`. The xlwings Lite book
(``xlgrade template OUT.xlsx``): no macros, the add-in's part from :mod:`xlgrade.workbook.lite`.
The last step rewrites the package with fixed timestamps and a fixed member order
(:func:`repack`), so the same input always gives the same bytes (tests compare the shipped books
in ``workbook/`` with fresh builds).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import tempfile
import zipfile
from collections.abc import Sequence
from typing import Final

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.styles import Alignment, Font, PatternFill  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter, quote_sheetname  # type: ignore[import-untyped]
from openpyxl.worksheet.datavalidation import DataValidation  # type: ignore[import-untyped]
from openpyxl.worksheet.formula import ArrayFormula  # type: ignore[import-untyped]
from openpyxl.worksheet.table import Table, TableFormula, TableStyleInfo  # type: ignore[import-untyped]
from openpyxl.worksheet.worksheet import Worksheet  # type: ignore[import-untyped]

from xlgrade import schema
from xlgrade.model import Game, Player
from xlgrade.schema import column_letters
from xlgrade.settings import Settings
from xlgrade.teams import Division, division_cells
from xlgrade.workbook import layout, ribbon, styling
from xlgrade.workbook.formulas import (
    CLASSIC,
    FUNCTIONS_MISSING,
    LITE,
    POINTS_HEADERS,
    PROBE_CELL,
    PROBE_HEADER,
    RESULTS_TABLE,
    STATE_CELL,
    STORED_FUNCTIONS,
    STORED_PREFIX,
    Route,
    points_formula,
    probe_formula,
    setting_name,
    state_formula,
)
from xlgrade.workbook.relationships import add_override, add_relationship

__all__ = [
    "CLASSIC",
    "FIXED_TIME",
    "FUNCTIONS_MISSING",
    "INSTALL_GUIDE",
    "LITE",
    "LOOKUP_HEADERS",
    "POINTS_HEADERS",
    "RESULTS_COLUMNS",
    "RESULTS_TABLE",
    "STORED_FUNCTIONS",
    "STORED_PREFIX",
    "Route",
    "add_dynamic_array_metadata",
    "build_workbook",
    "dynamic_arrays",
    "members_of",
    "points_formula",
    "repack",
    "results_formulas",
    "sheets_package",
]

FIXED_TIME: Final = (2025, 6, 1, 0, 0, 0)
"""Timestamp of every member of a built package, so builds are reproducible."""
_MACRO_MAIN: Final = b"application/vnd.ms-excel.sheet.macroEnabled.main+xml"
_XLSX_MAIN: Final = b"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
_HEADER_FILL: Final = PatternFill("solid", fgColor="1F4E78")
_HEADER_FONT: Final = Font(name=styling.BODY_FONT, size=11, bold=True, color="FFFFFF")
_FORMULA_FILL: Final = PatternFill("solid", fgColor="E2EFDA")
_MIN_ROWS: Final = 1
_FIXED_DATETIME: Final = dt.datetime(*FIXED_TIME)

_PRESS: Final[dict[Route, tuple[str, ...]]] = {
    CLASSIC: (
        "4. Press Grading ▸ Recalculate season (needs Python and the xlwings add-in), or run",
        "   xlgrade recalc THIS-FILE.xlsm   on any computer, with or without Excel.",
    ),
    LITE: (
        "4. Press Recalculate season, right of the Results table (it opens the xlwings Lite pane),",
        "   or choose it in the pane (Home ▸ xlwings Lite) and press Run; or run",
        "   xlgrade recalc THIS-FILE.xlsx   on any computer, with or without Excel.",
    ),
}
"""Step 4 of How to use: the button of the book's route."""

_FILES: Final[dict[Route, tuple[str, ...]]] = {
    CLASSIC: (
        "6. Grading ▸ New season from this one saves next season's book beside this one. To add",
        "   a TRF, an ECF results file or a CSV, run   xlgrade import FILE --into THIS-FILE.xlsm",
    ),
    LITE: (
        "6. To add a TRF, an ECF results file or a CSV: drop it on xlwings Lite ▸ Files ▸",
        "   Import/Export, then run Import. New season writes next season's book there to",
        "   download (Files ▸ Import/Export); this book is kept as this season's record.",
    ),
}
"""Step 6 of How to use: files in and out, on the book's route."""

_INSTALL: Final[dict[Route, str]] = {
    CLASSIC: "Needs: Excel on Windows with Python and the xlwings add-in.",
    LITE: "Needs: Excel 365 or 2021+ (Windows, Mac or the web) with the free xlwings Lite add-in.",
}

_HEAL: Final[dict[Route, tuple[str, ...]]] = {
    CLASSIC: (),
    LITE: (
        "   If they say the add-in is needed while the xlwings Lite pane is open and its output",
        "   shows no error, press Recalculate season once: every script writes the points",
        "   formulas again, and Excel then links them to the add-in's functions.",
    ),
}
"""How to use: the one press that mends the points columns of a Lite book (docs/install.md)."""

INSTALL_GUIDE: Final = "docs/install.md"
"""The install guide, named on How to use: a file of the xlgrade package's source."""


def _how_to_use_lines(route: Route) -> tuple[str, ...]:
    return (
        "xlgrade — grading a league season",
        "",
        f"{_INSTALL[route]} How to install it: {INSTALL_GUIDE} in the xlgrade source.",
        "",
        "1. Settings: the season's name and dates, the horizon and the other rules. Left blank,",
        "   the name and dates are those of the season (1 June to 31 May) holding the games.",
        "2. Players: one row a player. Grade is the published grade at the start of the season;",
        "   Previous/Earlier games and points are the totals of the two seasons before.",
        "   For the ECF rating (2020 rules) instead: System on Settings, and ECF rating and",
        "   ECF category on Players (xlgrade ratings LIST.csv --into THIS-FILE fills them).",
        "3. Results: one row a game, the result from the home side (1-0, ½-½, 0-1, 1-0 def…).",
        "   Name a player by his code or by his name as on Players.",
        "   Home points and Away points are live: one SEASON_POINTS formula a column grades",
        "   every row as Recalculate season does: the points on the player's card, or",
        "   'not graded:' and the reason on Exceptions. Where xlgrade does not answer, their",
        "   first row says why instead.",
        *_HEAL[route],
        *_PRESS[route],
        "5. Read Grading List, Rapid List, Player Cards and Exceptions. Every row that could not",
        "   be graded is on Exceptions with its sheet, its row and the reason.",
        *_FILES[route],
        "",
        "Only the output sheets are rewritten; your own sheets, charts and columns are kept.",
        "Columns are found by their header, so you may add columns or change their order.",
    )


LOOKUP_HEADERS: Final = tuple(h for h in layout.RESULTS_FORMULA_HEADERS if h not in POINTS_HEADERS)
"""The live columns Excel computes alone, a formula a row (the table's calculated columns)."""
RESULTS_COLUMNS: Final = layout.RESULTS_HEADERS + LOOKUP_HEADERS + POINTS_HEADERS
"""The template's Results columns in order: the table's, then the points beside it."""


def results_formulas(row: int, columns: dict[str, str]) -> dict[str, str]:
    """The formulas of one Results row's looked-up columns (:data:`LOOKUP_HEADERS`), by header.

    ``columns`` maps each header of :data:`layout.RESULTS_HEADERS` and
    :data:`layout.RESULTS_FORMULA_HEADERS` to its column letter. The grades are looked up with
    INDEX/MATCH (by code, then by name) and the scores in the ``ResultCodes`` list, so Excel
    and LibreOffice compute them alike. The points are not a row's: :func:`points_formula`.
    """
    c = {header: f"{letter}{row}" for header, letter in columns.items()}

    def grade(player: str) -> str:
        match = f"IFERROR(MATCH({player},PlayerCodes,0),MATCH({player},PlayerNames,0))"
        found = f"INDEX(PlayerGrades,{match})"
        return f'=IFERROR(IF(ISNUMBER({found}),{found},""),"")'

    def score(column: str) -> str:
        return f'=IFERROR(INDEX({column},MATCH({c["Result"]},ResultCodes,0)),"")'

    return {
        "Home grade": grade(c["Home player"]),
        "Away grade": grade(c["Away player"]),
        "Home score": score("ResultHome"),
        "Away score": score("ResultAway"),
    }


def _print_setup(ws: Worksheet) -> None:
    """Header row frozen and printed on every page; landscape, one page wide."""
    ws.freeze_panes = "A2"
    ws.print_title_rows = "1:1"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True


def _header(ws: Worksheet, headers: Sequence[str], widths: Sequence[float]) -> None:
    ws.append(list(headers))
    for index, width in enumerate(widths, start=1):
        cell = ws.cell(row=1, column=index)
        cell.fill = _HEADER_FILL
        cell.font = _HEADER_FONT
        cell.alignment = Alignment(vertical="center", wrap_text=True)
        ws.column_dimensions[get_column_letter(index)].width = width
    _print_setup(ws)


def _table(ws: Worksheet, name: str, headers: Sequence[str], rows: int) -> Table:
    ref = f"A1:{get_column_letter(len(headers))}{max(rows, _MIN_ROWS) + 1}"
    table = Table(displayName=name, ref=ref)
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
    table._initialise_columns()
    for column, header in zip(table.tableColumns, headers, strict=True):
        column.name = header
    ws.add_table(table)
    return table


def _name(wb: Workbook, name: str, sheet: str, ref: str) -> None:
    styling.define_name(wb, name, f"{quote_sheetname(sheet)}!{ref}")


def _how_to_use(wb: Workbook, route: Route) -> None:
    ws = wb.active
    assert ws is not None
    ws.title = layout.HOW_TO_USE
    for line in _how_to_use_lines(route):
        ws.append([line])
    ws["A1"].font = Font(name=styling.BODY_FONT, bold=True, size=14)
    ws.column_dimensions["A"].width = 100


def _settings(wb: Workbook, settings: Settings | None) -> None:
    ws = wb.create_sheet(layout.SETTINGS)
    _header(ws, layout.SETTINGS_HEADERS, (24, 16, 70))
    for index, spec in enumerate(layout.SETTING_ROWS, start=2):
        value = layout.setting_cell(settings, spec)  # no settings: the template's
        ws.append([spec.label, value, spec.meaning])
        cell = ws.cell(row=index, column=2)
        if isinstance(value, dt.date) or spec.kind == "date":  # a blank one typed in later
            cell.number_format = "yyyy-mm-dd"
        choices = spec.choices or (("yes", "no") if spec.kind == "yes/no" else ())
        if choices:
            validation = _checked(
                DataValidation(type="list", formula1='"' + ",".join(choices) + '"'),
                spec.label,
                f"Choose one of: {', '.join(choices)}.",
            )
            validation.add(cell.coordinate)
            ws.add_data_validation(validation)
        _name(wb, setting_name(spec.label), layout.SETTINGS, f"$B${index}")


def _divisions(wb: Workbook, divisions: Sequence[Division]) -> None:
    """The Divisions sheet: the headers of :data:`layout.DIVISIONS_HEADERS` and a row for each
    division's rules (a blank cell: no such rule)."""
    ws = wb.create_sheet(layout.DIVISIONS)
    headers = layout.DIVISIONS_HEADERS
    _header(ws, headers, [20] + [12] * (len(headers) - 1))
    for division in divisions:
        styling.append_row(ws, division_cells(division))
    # The rules' cells centred under their headers, typed ones too (the columns' own format):
    # a number at the right of its column reads as the next column's.
    centred = Alignment(horizontal="center")
    for index in range(2, len(headers) + 1):
        ws.column_dimensions[get_column_letter(index)].alignment = centred
        for row in range(2, len(divisions) + 2):
            ws.cell(row=row, column=index).alignment = centred


def _players(wb: Workbook, players: Sequence[Player]) -> None:
    ws = wb.create_sheet(layout.PLAYERS)
    headers = layout.PLAYERS_HEADERS
    widths = [c.width for c in schema.PLAYERS_COLUMNS]
    sized = widths.index(None) if None in widths else len(widths)
    _header(ws, headers, [w for w in widths[:sized] if w is not None])
    for p in players:
        styling.append_row(ws, schema.book_value(p))
    _table(ws, "PlayersTable", headers, len(players))
    last = max(len(players), _MIN_ROWS) + 1
    dob = headers.index("Date of birth") + 1
    for row in range(2, last + 1):
        ws.cell(row=row, column=dob).number_format = "yyyy-mm-dd"
    for name, header in (
        ("PlayerCodes", "Code"),
        ("PlayerNames", "Name"),
        ("PlayerGrades", "Grade"),
        ("PlayerEstimates", "Estimated grade"),
        ("PlayerRatings", "ECF rating"),
    ):
        letter = get_column_letter(headers.index(header) + 1)
        _name(wb, name, layout.PLAYERS, f"${letter}:${letter}")
    junior = _checked(
        DataValidation(type="list", formula1='"yes,no"'), "Junior", "yes, no or blank."
    )
    for cells in _runs(schema.PLAYERS_COLUMNS, "flag", 5000):
        junior.add(cells)
    grade = _checked(
        DataValidation(type="decimal", operator="between", formula1="0", formula2="400"),
        "Grade",
        "A grade is a number from 0 to 400.",
    )
    for cells in _runs(schema.PLAYERS_COLUMNS, "grade", 5000):
        grade.add(cells)
    ws.add_data_validation(junior)
    ws.add_data_validation(grade)


def _runs(columns: Sequence[schema.Column], kind: str, last: int) -> list[str]:
    """The ranges, rows 2 to ``last``, of the ``columns`` of ``kind``, side-by-side ones as one
    (``F2:G5000``)."""
    runs: list[list[int]] = []
    for index, column in enumerate(columns):
        if column.kind != kind:
            continue
        if runs and runs[-1][1] == index - 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return [f"{column_letters(a)}2:{column_letters(b)}{last}" for a, b in runs]


def _results(wb: Workbook, games: Sequence[Game], route: Route) -> None:
    ws = wb.create_sheet(layout.RESULTS)
    in_table = layout.RESULTS_HEADERS + LOOKUP_HEADERS
    headers = RESULTS_COLUMNS
    widths = (11, 12, 26, 7, 24, 9, 24, 12, 9, 9, 9, 9, 10, 10)
    _header(ws, headers, widths)
    letters = {h: get_column_letter(i) for i, h in enumerate(headers, start=1)}
    for g in games:
        styling.append_row(
            ws,
            [
                g.date,
                g.event or None,
                g.match or None,
                g.board,
                g.home,
                g.result,
                g.away,
                g.time_control or None,
            ],
        )
    last = max(len(games), _MIN_ROWS) + 1
    for row in range(2, last + 1):
        ws.cell(row=row, column=headers.index("Date") + 1).number_format = "yyyy-mm-dd"
        ws.cell(row=row, column=headers.index("Result") + 1).number_format = "@"
        for header, formula in results_formulas(row, letters).items():
            cell = ws[f"{letters[header]}{row}"]
            cell.value = formula
            cell.fill = _FORMULA_FILL
        for header in POINTS_HEADERS:
            ws[f"{letters[header]}{row}"].fill = _FORMULA_FILL
    for header in POINTS_HEADERS:
        letter = letters[header]
        # A dynamic array in Excel 365/2021 (the cell's metadata, see dynamic_arrays); an
        # array over the rows there are in Excel 2019 and older and in LibreOffice.
        ws[f"{letter}2"] = ArrayFormula(f"{letter}2:{letter}{last}", points_formula(header, route))
    table = _table(ws, RESULTS_TABLE, in_table, len(games))
    for column in table.tableColumns:
        if column.name in LOOKUP_HEADERS:
            formula = results_formulas(2, letters)[column.name][1:]
            column.calculatedColumnFormula = TableFormula(attr_text=formula)
    # A result off the list is only warned about: xlgrade reads many more forms (W, =, 1d…)
    # and the Exceptions sheet names any it cannot.
    result = _checked(
        DataValidation(type="list", formula1="ResultCodes"),
        "Result",
        "Not one of the list's results (1-0, ½-½, 0-1 or a default). Keep it anyway?",
        style="warning",
    )
    result.add(f"{letters['Result']}2:{letters['Result']}20000")
    board = _checked(
        DataValidation(type="whole", operator="between", formula1="1", formula2="100"),
        "Board",
        "A board is a whole number from 1 to 100.",
    )
    board.add(f"{letters['Board']}2:{letters['Board']}20000")
    date = _checked(
        DataValidation(type="date", operator="greaterThan", formula1="1"),
        "Date",
        "Type a date, such as 2025-10-01.",
    )
    date.add(f"{letters['Date']}2:{letters['Date']}20000")
    for validation in (result, board, date):
        ws.add_data_validation(validation)


def _checked(
    validation: DataValidation, title: str, message: str, *, style: str = "stop"
) -> DataValidation:
    """``validation`` with its message shown when a typed value breaks it: Excel refuses the
    value (``stop``) or asks whether to keep it (``warning``). Blank cells are allowed."""
    validation.allow_blank = True
    validation.showErrorMessage = True
    validation.errorStyle = style
    validation.errorTitle = title
    validation.error = message
    return validation


def _lists(wb: Workbook, route: Route) -> None:
    ws = wb.create_sheet(layout.LISTS)
    ws.append(["Result", "Home score", "Away score"])
    for text, home, away in layout.RESULT_CODES:
        ws.append([text, "def" if home is None else home, "def" if away is None else away])
    last = len(layout.RESULT_CODES) + 1
    _name(wb, "ResultCodes", layout.LISTS, f"$A$2:$A${last}")
    _name(wb, "ResultHome", layout.LISTS, f"$B$2:$B${last}")
    _name(wb, "ResultAway", layout.LISTS, f"$C$2:$C${last}")
    probe, state = (c.rstrip("0123456789") for c in (PROBE_CELL, STATE_CELL))
    ws[f"{probe}1"] = PROBE_HEADER
    # One cell, stored as the points columns are (a dynamic array: cm="1"), so that Excel 365
    # shows the call as typed, not with the implicit intersection of an old formula (=@…).
    ws[PROBE_CELL] = ArrayFormula(f"{PROBE_CELL}:{PROBE_CELL}", probe_formula(route))
    ws[f"{state}1"] = "Functions missing"
    ws[STATE_CELL] = state_formula(route)
    _name(wb, FUNCTIONS_MISSING, layout.LISTS, f"${state}${STATE_CELL[len(state) :]}")
    ws.sheet_state = "hidden"


_EMPTY_OUTPUT: Final[dict[Route, str]] = {
    CLASSIC: "Press Grading ▸ Recalculate season, or run: xlgrade recalc THIS-FILE.xlsm",
    LITE: "Run Recalculate season in xlwings Lite, or run: xlgrade recalc THIS-FILE.xlsx",
}


def _outputs(wb: Workbook, route: Route) -> None:
    for sheet in layout.OUTPUT_SHEETS:
        ws = wb.create_sheet(sheet)
        ws.append([_EMPTY_OUTPUT[route]])
        for column in range(1, 13):
            cell = ws.cell(row=1, column=column)
            cell.fill = _HEADER_FILL
            cell.font = _HEADER_FONT
        ws.column_dimensions["A"].width = 12
        ws.column_dimensions["B"].width = 26
        ws.column_dimensions["C"].width = 18
        _print_setup(ws)


def _xlwings_conf(wb: Workbook) -> None:
    ws = wb.create_sheet(layout.XLWINGS_CONF)
    ws.append(["UDF Modules", layout.UDF_MODULE])
    ws.column_dimensions["A"].width = 16
    ws.column_dimensions["B"].width = 16


def sheets_package(
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings | None,
    route: Route = CLASSIC,
    divisions: Sequence[Division] = (),
) -> bytes:
    """The book's sheets as an ``.xlsx`` package, before the route's own parts are added."""
    wb = Workbook()
    _how_to_use(wb, route)
    _settings(wb, settings)
    _players(wb, players)
    _results(wb, games, route)
    _divisions(wb, divisions)
    _outputs(wb, route)
    styling.grade_history(wb, (players[0].name or players[0].code) if players else None)
    _lists(wb, route)
    if route == CLASSIC:
        _xlwings_conf(wb)
    styling.finish_sheets(wb)
    wb.active = 1
    wb.calculation.fullCalcOnLoad = True
    wb.properties.creator = "xlgrade"
    wb.properties.title = "xlgrade league grading"
    wb.properties.created = _FIXED_DATETIME
    wb.properties.modified = _FIXED_DATETIME
    buffer = io.BytesIO()
    wb.save(buffer)
    return dynamic_arrays(buffer.getvalue())


_METADATA_PART: Final = "xl/metadata.xml"
_REL_METADATA: Final = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
)
_METADATA_TYPE: Final = (
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
)
_METADATA_XML: Final = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    b'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
    b'<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" '
    b'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
    b'clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>'
    b'<futureMetadata name="XLDAPR" count="1"><bk><extLst>'
    b'<ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">'
    b'<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk>'
    b'</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>'
    b"</metadata>"
)
"""The cell metadata that makes an array formula a dynamic array (it spills and resizes) in
Excel 365 and 2021: its one entry, ``XLDAPR`` with ``fDynamic``, is what each such cell's
``cm="1"`` points at. Excel 2019 and older, and LibreOffice, ignore it and keep the array
formula over the rows it was written for."""


def dynamic_arrays(package: bytes) -> bytes:
    """Every array formula of the package made a dynamic array: ``cm="1"`` on its cell and
    the metadata part it refers to (:data:`_METADATA_XML`, its relationship and content type
    added where the package lacks them)."""
    members = members_of(package)
    found = False
    for name in [n for n in members if n.startswith("xl/worksheets/sheet")]:
        text = members[name].decode("utf-8")
        marked = re.sub(r'<c ((?:(?!cm=)[^>])*?)>(<f t="array")', r'<c \1 cm="1">\2', text)
        found = found or '<f t="array"' in text
        if marked != text:
            members[name] = marked.encode("utf-8")
    if not found:
        return package
    add_dynamic_array_metadata(members)
    return repack(members)


def add_dynamic_array_metadata(members: dict[str, bytes]) -> None:
    """Put the metadata part that ``cm="1"`` refers to (:data:`_METADATA_XML`) in the package
    ``members``, with its relationship from the workbook and its content type (each unless it
    is there)."""
    members[_METADATA_PART] = _METADATA_XML
    members["xl/_rels/workbook.xml.rels"] = add_relationship(
        members["xl/_rels/workbook.xml.rels"], "xlgradeMetadata", _REL_METADATA, "metadata.xml"
    )
    members["[Content_Types].xml"] = add_override(
        members["[Content_Types].xml"], "/" + _METADATA_PART, _METADATA_TYPE
    )


def _add_vba(package: bytes) -> bytes:
    from pyopenvba import ExcelFile  # type: ignore[import-untyped]

    with tempfile.TemporaryDirectory(prefix="xlgrade-") as folder:
        plain = os.path.join(folder, "plain.xlsm")
        done = os.path.join(folder, "done.xlsm")
        with open(plain, "wb") as out:
            out.write(package)
        with ExcelFile(plain) as book:
            project = book.add_vba_project()
            project.add_module(ribbon.VBA_MODULE, ribbon.vba_source())
            book.save(done)
        with open(done, "rb") as built:
            return built.read()


def members_of(package: bytes) -> dict[str, bytes]:
    """Every member of a zip package by name."""
    with zipfile.ZipFile(io.BytesIO(package)) as zin:
        return {info.filename: zin.read(info) for info in zin.infolist()}


def repack(members: dict[str, bytes]) -> bytes:
    """``members`` as a zip package: the content types and the package relationships first,
    the rest by name, every member stamped :data:`FIXED_TIME` and the core properties'
    modified date too, so that the same members always give the same bytes."""
    members = dict(members)
    stamp = _FIXED_DATETIME.strftime("%Y-%m-%dT%H:%M:%SZ")
    core = members["docProps/core.xml"].decode("utf-8")
    core = re.sub(r"(<dcterms:modified\b[^>]*>)[^<]*", rf"\g<1>{stamp}", core)
    members["docProps/core.xml"] = core.encode("utf-8")
    styling.output_styles(members)
    first = ["[Content_Types].xml", "_rels/.rels"]
    order = first + sorted(name for name in members if name not in first)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in order:
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 0
            zout.writestr(info, members[name])
    return out.getvalue()


def _finish(package: bytes) -> bytes:
    """Macro-enable the content type, add both customUI parts and fix every timestamp."""
    members = members_of(package)
    types = members["[Content_Types].xml"].replace(_XLSX_MAIN, _MACRO_MAIN)
    members["[Content_Types].xml"] = types
    members["customUI/customUI.xml"] = ribbon.custom_ui_xml(ribbon.CUSTOM_UI_2006)
    members["customUI/customUI14.xml"] = ribbon.custom_ui_xml(ribbon.CUSTOM_UI_2009)
    rels = members["_rels/.rels"]
    rels = add_relationship(rels, "xlgradeUI", ribbon.REL_UI_2006, "customUI/customUI.xml")
    rels = add_relationship(rels, "xlgradeUI14", ribbon.REL_UI_2009, "customUI/customUI14.xml")
    members["_rels/.rels"] = rels
    return repack(members)


def build_workbook(
    players: Sequence[Player] = (),
    games: Sequence[Game] = (),
    settings: Settings | None = None,
    divisions: Sequence[Division] = (),
) -> bytes:
    """The classic template workbook as ``.xlsm`` bytes, with ``players``, ``games`` and the
    ``divisions``' rules typed in.

    With no arguments this is the empty template that ``xlgrade template OUT.xlsm`` writes and
    ``workbook/xlgrade-template.xlsm`` ships. The result is the same bytes for the same input.
    The xlwings Lite book is :func:`xlgrade.workbook.lite.build_lite_workbook`.
    """
    package = sheets_package(players, games, settings, CLASSIC, divisions)
    package = _finish(package)  # macro-enabled content type before the VBA project is added
    return _finish(_add_vba(package))
