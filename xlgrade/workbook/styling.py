"""How the template's sheets look and print: column widths, drop-downs, highlighted rows, print
areas, the Grade History sheet and its chart, and the output sheets' cell formats, for the
builder (:mod:`xlgrade.workbook.build`) to call.

Each function takes the openpyxl workbook or sheet the builder is drawing, or the built package's
parts, and changes only what its name says.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Final

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.chart import BarChart, Reference  # type: ignore[import-untyped]
from openpyxl.chart.label import DataLabelList  # type: ignore[import-untyped]
from openpyxl.formatting.rule import FormulaRule  # type: ignore[import-untyped]
from openpyxl.styles import Alignment, Font, PatternFill  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter, quote_sheetname  # type: ignore[import-untyped]
from openpyxl.workbook.defined_name import DefinedName  # type: ignore[import-untyped]
from openpyxl.worksheet.datavalidation import DataValidation  # type: ignore[import-untyped]
from openpyxl.worksheet.worksheet import Worksheet  # type: ignore[import-untyped]

from xlgrade.workbook import layout
from xlgrade.workbook.outputs import CARD_SHEET_HEADERS, LIST_SHEET_HEADERS
from xlgrade.workbook.sheetxml import column_widths
from xlgrade.workbook.styles import book_styles

__all__ = [
    "BODY_FONT",
    "PLAYER_LIST",
    "PRINTED_COLUMNS",
    "ROWS_CHECKED",
    "append_row",
    "define_name",
    "finish_sheets",
    "fit_columns",
    "grade_history",
    "highlight_problem_rows",
    "output_styles",
    "player_drop_downs",
    "print_areas",
]

_STYLES_PART: Final = "xl/styles.xml"

BODY_FONT: Final = "Calibri"
"""The books' font (openpyxl's first font, the one of every unstyled cell), named by every
font a sheet sets: a font without a name is printed by LibreOffice in its serif."""

ROWS_CHECKED: Final = 20000
"""How far down the Results and Players sheets the drop-downs and highlighting reach, as the
builder's other validations do."""

PLAYER_LIST: Final = "PlayerList"
"""The defined name of the Players sheet's names, from row 2 to the last name: the drop-down of
Results' player columns and of the Grade History's player cell."""

PRINTED_COLUMNS: Final[Mapping[str, int]] = {
    layout.HOW_TO_USE: 1,
    layout.SETTINGS: len(layout.SETTINGS_HEADERS),
    layout.PLAYERS: len(layout.PLAYERS_HEADERS),
    # the typed columns, the grades and scores the points read, and the points last
    layout.RESULTS: len(layout.RESULTS_HEADERS) + len(layout.RESULTS_FORMULA_HEADERS),
    layout.GRADING_LIST: len(LIST_SHEET_HEADERS),
    layout.RAPID_LIST: len(LIST_SHEET_HEADERS),
    layout.PLAYER_CARDS: len(CARD_SHEET_HEADERS),
    layout.EXCEPTIONS: len(layout.EXCEPTIONS_HEADERS),
    layout.DIVISIONS: len(layout.DIVISIONS_HEADERS),
    layout.VIOLATIONS: len(layout.VIOLATIONS_HEADERS),
}
"""How many columns, from A, each sheet prints: its table's. The rows printed are those used."""

_BAD_FILL: Final = PatternFill("solid", fgColor="FFC7CE", bgColor="FFC7CE")
_BAD_FONT: Final = Font(color="9C0006")
_DEFAULT_FILL: Final = PatternFill("solid", fgColor="FFEB9C", bgColor="FFEB9C")
_DEFAULT_FONT: Final = Font(color="9C5700")


def output_styles(members: MutableMapping[str, bytes]) -> None:
    """Give the built package's styles part the output sheets' cell formats
    (:data:`xlgrade.workbook.styles.STYLES`), so that a recalculation of a template book finds
    them there and leaves the part as it is."""
    text, _ = book_styles(members[_STYLES_PART].decode("utf-8"))
    members[_STYLES_PART] = text.encode("utf-8")


def _shown(value: object) -> object:
    """A cell's value for its width: a formula (text starting ``=``, or an array formula)
    shows a short number."""
    if isinstance(value, str) and value.startswith("="):
        return "00000"
    if value is None or isinstance(value, str | int | float | dt.date):
        return value
    return "00000"


def append_row(ws: Worksheet, values: Sequence[object]) -> None:
    """Append a row of values; text that starts with "=" stays text, never a formula.

    Only the cells that need it are looked up again (``ws.max_row`` walks every cell, which
    made a large book's build quadratic)."""
    row = list(values)
    ws.append(row)
    for column, value in enumerate(row, start=1):
        if isinstance(value, str) and value.startswith("="):
            appended = ws._current_row  # the row append() just wrote
            ws.cell(row=appended, column=column).data_type = "s"


def fit_columns(ws: Worksheet) -> None:
    """Make each column of ``ws`` as wide as its widest value
    (:func:`xlgrade.workbook.sheetxml.column_widths`), and no narrower than the builder made it
    (room for what a grader will type in an empty template). A formula counts as a short
    number."""
    rows = [tuple(_shown(v) for v in row) for row in ws.iter_rows(values_only=True)]
    if not rows:
        return
    headers = tuple("" if v is None else str(v) for v in rows[0])
    for index, width in enumerate(column_widths(headers, rows[1:]), start=1):
        dimension = ws.column_dimensions[get_column_letter(index)]
        dimension.width = max(width, dimension.width or 0)


def define_name(wb: Workbook, name: str, text: str) -> None:
    """Give the book the defined name ``name`` for ``text`` (a reference such as
    ``Players!$B:$B``), replacing one of that name."""
    wb.defined_names[name] = DefinedName(name, attr_text=text)


def player_drop_downs(wb: Workbook) -> None:
    """A drop-down of the Players sheet's names on Results' Home player and Away player columns
    (the defined name :data:`PLAYER_LIST`). A code, or a name typed by hand, is still taken
    (no error message): the Exceptions sheet names any player it cannot find."""
    players = quote_sheetname(layout.PLAYERS)
    column = get_column_letter(layout.PLAYERS_HEADERS.index("Name") + 1)
    first = f"{players}!${column}$2"
    define_name(
        wb,
        PLAYER_LIST,
        f"OFFSET({first},0,0,MAX(1,COUNTA({players}!${column}:${column})-1),1)",
    )
    ws = wb[layout.RESULTS]
    choose = DataValidation(type="list", formula1=PLAYER_LIST, allow_blank=True)
    choose.showErrorMessage = False
    for header in ("Home player", "Away player"):
        letter = get_column_letter(layout.RESULTS_HEADERS.index(header) + 1)
        choose.add(f"{letter}2:{letter}{ROWS_CHECKED}")
    ws.add_data_validation(choose)


def highlight_problem_rows(wb: Workbook) -> None:
    """Colour the Results and Players rows that the last recalculation listed on the Exceptions
    sheet: amber for a default (kept, not graded, as the rules say), red for every other reason.

    Conditional formatting on a count of the Exceptions sheet's rows for this sheet and row
    (through the defined names ``ExceptionSheets``, ``ExceptionRows``, ``ExceptionWhat``), so
    the colours follow each recalculation with nothing rewritten on the input sheets."""
    exceptions = quote_sheetname(layout.EXCEPTIONS)
    for name, header in (
        ("ExceptionSheets", "Sheet"),
        ("ExceptionRows", "Row"),
        ("ExceptionWhat", "What"),
    ):
        letter = get_column_letter(layout.EXCEPTIONS_HEADERS.index(header) + 1)
        define_name(wb, name, f"{exceptions}!${letter}:${letter}")
    for sheet, width in (
        (layout.RESULTS, len(layout.RESULTS_HEADERS) + len(layout.RESULTS_FORMULA_HEADERS)),
        (layout.PLAYERS, len(layout.PLAYERS_HEADERS)),
    ):
        ws = wb[sheet]
        cells = f"A2:{get_column_letter(width)}{ROWS_CHECKED}"
        listed = f'COUNTIFS(ExceptionSheets,"{sheet}",ExceptionRows,ROW()'
        ws.conditional_formatting.add(
            cells,
            FormulaRule(
                formula=[f'{listed},ExceptionWhat,"default")>0'],
                fill=_DEFAULT_FILL,
                font=_DEFAULT_FONT,
                stopIfTrue=True,
            ),
        )
        ws.conditional_formatting.add(
            cells, FormulaRule(formula=[f"{listed})>0"], fill=_BAD_FILL, font=_BAD_FONT)
        )


def grade_history(wb: Workbook, first: str | None) -> None:
    """The Grade History sheet: type or choose a player (his name or his code) in B1; the
    sheet shows his name and code, his grade at the start of the season, his estimated grade
    and this season's grade from the Grading List, and a bar chart of them on an axis from 0.
    Below them his ECF rating at the start of the season (Players) and after it (the Grading
    List of a season rated by the ECF rating, 2020 rules; blank when the season is graded).

    ``first`` is the player shown in a new book (the first on Players), if any."""
    ws = wb.create_sheet(layout.HISTORY)
    grading = f"{quote_sheetname(layout.GRADING_LIST)}!$A$1:$Z$20000"
    headers = f"{quote_sheetname(layout.GRADING_LIST)}!$1:$1"

    def number(found: str) -> str:
        return f'=IFERROR(IF(ISNUMBER({found}),{found},""),"")'

    def listed(column: str, key: str, figure: str = "Grade") -> str:
        where = f'INDEX({grading},0,MATCH("{column}",{headers},0))'
        return f'INDEX({grading},MATCH({key},{where},0),MATCH("{figure}",{headers},0))'

    row = "IFERROR(MATCH($B$1,PlayerCodes,0),MATCH($B$1,PlayerNames,0))"
    ws.append(["Player (name or code)", first])
    ws.append(["Name", f'=IFERROR(INDEX(PlayerNames,{row}),"not on Players")'])
    ws.append(["Code", f'=IFERROR(INDEX(PlayerCodes,{row})&"","")'])
    ws.append([None, "Grade"])
    this_season = f"IFERROR({listed('Code', '$B$3')},{listed('Name', '$B$2')})"
    for label, formula in (
        ("Start of season", number(f"INDEX(PlayerGrades,{row})")),
        ("Estimate", number(f"INDEX(PlayerEstimates,{row})")),
        ("This season", number(this_season)),
    ):
        ws.append([label, formula])
    rated = f"IFERROR({listed('Code', '$B$3', 'Rating')},{listed('Name', '$B$2', 'Rating')})"
    ws.append([])
    ws.append([None, "ECF rating"])
    ws.append(["Start of season", number(f"INDEX(PlayerRatings,{row})")])
    ws.append(["This season", number(rated)])
    ws.column_dimensions["A"].width = 24
    ws.column_dimensions["B"].width = 26
    ws["A1"].font = Font(name=BODY_FONT, size=11, bold=True)
    ws["B1"].font = Font(name=BODY_FONT, size=11, bold=True)
    choose = DataValidation(type="list", formula1=PLAYER_LIST, allow_blank=True)
    choose.showErrorMessage = False
    choose.add("B1")
    ws.add_data_validation(choose)
    chart = BarChart()
    chart.title = "Grade history"
    chart.y_axis.title = "Grade"
    chart.y_axis.scaling.min = 0
    chart.y_axis.delete = False
    chart.x_axis.delete = False
    chart.legend = None
    chart.add_data(Reference(ws, min_col=2, min_row=4, max_row=7), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=5, max_row=7))
    chart.dataLabels = DataLabelList(
        showVal=True, showSerName=False, showCatName=False, showLegendKey=False, showPercent=False
    )
    chart.height = 7.5
    chart.width = 14
    ws.add_chart(chart, "D2")


def finish_sheets(wb: Workbook) -> None:
    """Everything here that the built book's sheets need, once they are drawn: the input
    sheets' columns fitted (:func:`fit_columns`), the drop-downs of players
    (:func:`player_drop_downs`), problem rows coloured (:func:`highlight_problem_rows`) and
    the print areas (:func:`print_areas`)."""
    for sheet in layout.INPUT_SHEETS:
        fit_columns(wb[sheet])
    # A number or date next to text would touch it: centred, "1" stands apart from the home
    # player and a date from the division.
    for sheet, header in (
        (layout.RESULTS, "Date"),
        (layout.RESULTS, "Board"),
        (layout.PLAYERS, "Date of birth"),
    ):
        ws = wb[sheet]
        column = [c.value for c in ws[1]].index(header) + 1
        for (cell,) in ws.iter_rows(min_row=2, min_col=column, max_col=column):
            cell.alignment = Alignment(horizontal="center")
    player_drop_downs(wb)
    highlight_problem_rows(wb)
    print_areas(wb)


def print_areas(wb: Workbook) -> None:
    """Each sheet of :data:`PRINTED_COLUMNS` prints its table's columns, and the Grade History
    its cells and chart; the header row is printed on every page (set by the builder)."""
    for sheet, count in PRINTED_COLUMNS.items():
        ws = wb[sheet]
        last = get_column_letter(count)
        area = f"{quote_sheetname(sheet)}!$A:${last}"
        ws.defined_names["_xlnm.Print_Area"] = DefinedName("_xlnm.Print_Area", attr_text=area)
    history = wb[layout.HISTORY]
    area = f"{quote_sheetname(layout.HISTORY)}!$A$1:$K$18"
    history.defined_names["_xlnm.Print_Area"] = DefinedName("_xlnm.Print_Area", attr_text=area)
