"""The live formulas of the template that call xlgrade's functions: the points columns of the
Results sheet and the probe on the Lists sheet, in the form a book stores them and in the form
Excel is given them (typed, or written through Office.js).

A book saved by Excel stores a call of an Office.js add-in's custom function as
:data:`STORED_PREFIX`, the add-in's namespace and the function's name (xlwings Lite's functions
have no namespace: ``=GRADE_POINTS(...)`` in the cell, ``_xldudf_GRADE_POINTS(...)`` in the
file; docs/excel-checklist.md names the evidence). The classic book's functions are the
book's own VBA functions, stored by their plain names.

What the points columns say when xlgrade does not answer is worked out once, on the Lists sheet
(:data:`FUNCTIONS_MISSING`), in terms of what the grader has: Excel without the add-in, the
add-in there but xlgrade not answering, or LibreOffice. Nothing here imports openpyxl, so the
xlwings Lite scripts write these formulas again with the book open (:mod:`xlgrade.workbook.live`).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from xlgrade import schema
from xlgrade.schema import column_letters
from xlgrade.workbook.layout import SETTING_ROWS

__all__ = [
    "CLASSIC",
    "FUNCTIONS_MISSING",
    "LITE",
    "MISSING_TEXT",
    "NOT_ANSWERING_TEXT",
    "OFFICE_TEXT",
    "PLAYERS_TABLE",
    "POINTS_HEADERS",
    "PROBE_CELL",
    "PROBE_COLUMN",
    "PROBE_HEADER",
    "RESULTS_TABLE",
    "SETTINGS_CELLS",
    "STATE_CELL",
    "STORED_FUNCTIONS",
    "STORED_PREFIX",
    "Route",
    "points_formula",
    "probe_formula",
    "setting_name",
    "state_formula",
]

Route = Literal["classic", "lite"]
"""The Excel route a book is built for: classic xlwings (``.xlsm``) or xlwings Lite (``.xlsx``)."""
CLASSIC: Final[Route] = "classic"
LITE: Final[Route] = "lite"

STORED_PREFIX: Final = "_xldudf_"
"""What a saved book puts before an Office.js add-in's function name (and its namespace, which
xlwings Lite's functions have none of) in a stored formula."""
STORED_FUNCTIONS: Final = ("GRADE_POINTS", "SEASON_POINTS")
"""The add-in's functions the template's formulas call, as the web-extension part lists them."""

RESULTS_TABLE: Final = "ResultsTable"
"""The Excel table of the Results sheet: the typed columns and the looked-up ones."""
PLAYERS_TABLE: Final = "PlayersTable"
"""The Excel table of the Players sheet."""
SETTINGS_CELLS: Final = f"{schema.SETTINGS}!$A$1:$B${len(SETTING_ROWS) + 1}"
"""The Settings sheet's Setting and Value columns, header row first, as the template lays
them out (a row a setting of :data:`xlgrade.workbook.layout.SETTING_ROWS`)."""
POINTS_HEADERS: Final = ("Home points", "Away points")
"""The live columns computed by Python: one ``SEASON_POINTS`` formula a column, right of
:data:`RESULTS_TABLE` (a formula that spills may not stand inside a table)."""

PROBE_COLUMN: Final = 4
"""The Lists sheet's column (from 0) of the probe and its header."""
PROBE_CELL: Final = f"{column_letters(PROBE_COLUMN)}2"
"""The Lists sheet's cell calling ``GRADE_POINTS`` on fixed numbers: a number when xlgrade
answers."""
PROBE_HEADER: Final = "Probe"
"""The header above :data:`PROBE_CELL`: a book whose Lists sheet has it is laid out as these
formulas expect."""
STATE_CELL: Final = "F2"
"""The Lists sheet's cell named :data:`FUNCTIONS_MISSING`."""


def setting_name(label: str) -> str:
    """The defined name of the Settings sheet's cell of the setting labelled ``label``: its
    words run together, each capitalised. Excel's names take letters, digits and a few marks,
    so ``*`` is ``Star`` and others go: "Under-12 divisions" is ``Under12Divisions``."""
    words = re.sub(r"[^A-Za-z0-9 ]", "", label.replace("*", "Star")).split()
    return "".join(word.capitalize() for word in words)


FUNCTIONS_MISSING: Final = "FunctionsMissing"
"""A named cell: blank where xlgrade's functions answer, else what the points columns say
instead (:func:`state_formula`)."""

MISSING_TEXT: Final[dict[Route, str]] = {
    CLASSIC: "Needs Python and the xlwings add-in: see How to use",
    LITE: (
        "Needs the xlwings Lite add-in (see How to use). Its pane open? Read the pane's "
        "output, then press Recalculate season once"
    ),
}
"""What the points columns say in Excel where ``GRADE_POINTS`` is an unknown name (``#NAME?``):
the add-in is not there, or (xlwings Lite) its pane is open but xlgrade did not load."""
NOT_ANSWERING_TEXT: Final[dict[Route, str]] = {
    CLASSIC: "xlgrade did not answer: check Python and the xlwings add-in (see How to use)",
    LITE: "xlgrade did not answer: read the xlwings Lite pane's output (Home ▸ xlwings Lite)",
}
"""What they say where ``GRADE_POINTS`` is known but answers no number on fixed numbers."""
OFFICE_TEXT: Final = (
    "LibreOffice: xlgrade recalc THIS-FILE computes the other sheets; these columns need Excel"
)
"""What they say in LibreOffice (or any program but Excel), which runs no Excel add-in."""
_NOT_EXCEL: Final = 'IFERROR(AND(INFO("system")<>"pcdos",INFO("system")<>"mac"),FALSE)'
"""TRUE outside Excel: Excel's INFO("system") is "pcdos" (Windows, the web) or "mac";
LibreOffice's names its system ("LINUX", "WNT", ...)."""


def _function(name: str, route: Route, stored: bool) -> str:
    """How a formula names the add-in's function ``name``: stored, or as Excel is given it."""
    return f"{STORED_PREFIX}{name}" if stored and route == LITE else name


def probe_formula(route: Route = CLASSIC, *, stored: bool = True) -> str:
    """The probe (:data:`PROBE_CELL`): ``GRADE_POINTS`` on fixed numbers."""
    return f"={_function('GRADE_POINTS', route, stored)}(100,100,1)"


def state_formula(route: Route = CLASSIC) -> str:
    """The cell :data:`FUNCTIONS_MISSING`: blank when the probe answers a number; where
    ``GRADE_POINTS`` is unknown (error type 5, ``#NAME?``), :data:`OFFICE_TEXT` outside Excel
    and :data:`MISSING_TEXT` in it; any other answer, :data:`NOT_ANSWERING_TEXT`."""
    probe = PROBE_CELL
    unknown = f"IFERROR(ERROR.TYPE({probe})=5,FALSE)"
    missing = f'IF({_NOT_EXCEL},"{OFFICE_TEXT}","{MISSING_TEXT[route]}")'
    return f'=IF(ISNUMBER({probe}),"",IF({unknown},{missing},"{NOT_ANSWERING_TEXT[route]}"))'


def points_formula(header: str, route: Route = CLASSIC, *, stored: bool = True) -> str:
    """The one formula of a points column (:data:`POINTS_HEADERS`): ``SEASON_POINTS`` over the
    Results and Players tables and the Settings cells, one call for every row, spilling down
    beside the table; ``stored`` as the book's file holds it, else as Excel is given it.

    ``SEASON_POINTS`` reads the three as ``xlgrade recalc`` reads the book and grades the
    season, so a row's points are those of its players' cards: players found by code or by
    any form of their name the season takes, results read as the season reads them, the
    season's settings and working grades. A row not graded says ``not graded:`` and the
    reason on its Exceptions line. Where xlgrade does not answer (:data:`FUNCTIONS_MISSING`
    not blank) the column's first row says why, the others are blank.

    A table with its header row is written ``Table[[#All]]``, which Excel reads as it reads
    ``Table[#All]`` and LibreOffice computes too (it takes ``[#All]`` alone for no name).
    """
    side = "home" if header == "Home points" else "away"
    rows = f"{RESULTS_TABLE}[Home player]"
    call = _function("SEASON_POINTS", route, stored)
    tables = f"{RESULTS_TABLE}[[#All]],{PLAYERS_TABLE}[[#All]],{SETTINGS_CELLS}"
    points = f'{call}({tables},"{side}")'
    first = f'IF(ROW({rows})=MIN(ROW({rows})),{FUNCTIONS_MISSING},"")'
    return f'=IF({FUNCTIONS_MISSING}<>"",{first},{points})'
