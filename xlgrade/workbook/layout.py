"""The template workbook's layout, defined once: sheet names, column headers, named ranges and
the rows of the Settings sheet (the settings of :mod:`xlgrade.settings`).

The builder (:mod:`xlgrade.workbook.build`), the readers (:mod:`xlgrade.workbook.read`) and the
writer (:mod:`xlgrade.workbook.package`) all take their names from here. Readers find columns by
header, compared with :func:`header_key` (of :mod:`xlgrade.cells`: case, spaces, dots, dashes
and underscores ignored), so a grader may add columns of his own or reorder them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from xlgrade import schema
from xlgrade.cells import header_key
from xlgrade.season.tables import (
    CARD_HEADERS,
    EXCEPTION_HEADERS,
    LIST_HEADERS,
    RATING_CARD_HEADERS,
    RATING_LIST_HEADERS,
)
from xlgrade.settings import SETTINGS as _TABLE
from xlgrade.settings import Kind, Setting
from xlgrade.settings import cell_value as setting_cell
from xlgrade.teams import BREACH_HEADERS

__all__ = [
    "CARD_SHEET_HEADERS",
    "DIVISIONS",
    "DIVISIONS_HEADERS",
    "EXCEPTIONS",
    "EXCEPTIONS_HEADERS",
    "GRADING_LIST",
    "HISTORY",
    "HOW_TO_USE",
    "INPUT_SHEETS",
    "LINEUP",
    "LINEUP_CHECK",
    "LISTS",
    "LIST_SHEET_HEADERS",
    "LITE_BUTTONS",
    "OUTPUT_SHEETS",
    "PLAYERS",
    "PLAYERS_HEADERS",
    "PLAYER_CARDS",
    "RAPID_LIST",
    "RATINGS",
    "RATINGS_HEADERS",
    "RATING_CARD_SHEET_HEADERS",
    "RATING_HEADERS",
    "RATING_LIST_SHEET_HEADERS",
    "READ_SHEETS",
    "REQUIRED_SHEETS",
    "RESULTS",
    "RESULTS_FORMULA_HEADERS",
    "RESULTS_HEADERS",
    "RESULT_CODES",
    "SETTINGS",
    "SETTINGS_HEADERS",
    "SETTING_ROWS",
    "UDF_MODULE",
    "VIOLATIONS",
    "VIOLATIONS_HEADERS",
    "XLWINGS_CONF",
    "LiteButton",
    "SettingKind",
    "SettingRow",
    "header_key",
    "setting_cell",
]

SETTINGS: Final = schema.SETTINGS
PLAYERS: Final = schema.PLAYERS
RESULTS: Final = schema.RESULTS
GRADING_LIST: Final = "Grading List"
RAPID_LIST: Final = "Rapid List"
PLAYER_CARDS: Final = "Player Cards"
EXCEPTIONS: Final = "Exceptions"
DIVISIONS: Final = schema.DIVISIONS
RATINGS: Final = schema.RATINGS
"""The rating lists loaded, a player's figures per edition (kept by ``xlgrade ratings``; read
with the input sheets where the book has it)."""
VIOLATIONS: Final = "Violations"
"""The sheet of every breach of the Divisions sheet's rules, one a row."""
HOW_TO_USE: Final = "How to use"
"""The short instructions sheet, first in the book."""
HISTORY: Final = "Grade History"
"""A sheet with a chart of one player's grades: start of season, estimate, this season."""
LISTS: Final = "Lists"
"""Hidden sheet with the result codes that data validation and the formulas use."""
XLWINGS_CONF: Final = "xlwings.conf"
"""xlwings reads its settings for this book from a sheet of this name."""
UDF_MODULE: Final = "xlgrade_udfs"
"""The Python module holding the Excel functions and the ribbon's macro."""

INPUT_SHEETS: Final = (SETTINGS, PLAYERS, RESULTS, DIVISIONS)
"""The sheets a recalculation reads (a book without a Divisions sheet has no division rules)."""
RATINGS_HEADERS: Final = schema.RATINGS_HEADERS
"""Ratings columns (:data:`xlgrade.editions.RATINGS_HEADERS`)."""
LINEUP: Final = schema.LINEUP
"""A captain's proposed line-up (read where the book has it; ``xlgrade lineup`` reads it)."""
LINEUP_CHECK: Final = "Line-up check"
"""Written by a recalculation of a book with a Line-up sheet: whether the line-up keeps its
division's rules, and each breach."""
READ_SHEETS: Final = (*INPUT_SHEETS, RATINGS, LINEUP)
"""The sheets read for a season: the input sheets and, where the book has them, the Ratings
sheet that ``xlgrade ratings`` keeps and a Line-up sheet."""
REQUIRED_SHEETS: Final = (PLAYERS, RESULTS)
"""The sheets a league workbook cannot do without, in every route (the command line and the
buttons): a run stops, writing nothing, when one is missing. A missing Settings sheet is only
a problem on the Exceptions sheet (the settings' defaults apply)."""
OUTPUT_SHEETS: Final = (GRADING_LIST, RAPID_LIST, PLAYER_CARDS, EXCEPTIONS, VIOLATIONS)
"""The sheets a recalculation writes; nothing else in the book is touched."""

SETTINGS_HEADERS: Final = schema.SETTINGS_HEADERS
DIVISIONS_HEADERS: Final = schema.DIVISIONS_HEADERS
"""Divisions columns (:data:`xlgrade.schema.DIVISIONS_HEADERS`); a blank cell is no such rule."""
VIOLATIONS_HEADERS: Final = BREACH_HEADERS
"""Violations columns (:data:`xlgrade.teams.BREACH_HEADERS`)."""
LIST_SHEET_HEADERS: Final[tuple[str, ...]] = (*LIST_HEADERS, "Note")
"""Columns of the Grading List and Rapid List sheets: the season's list
(:data:`xlgrade.season.LIST_HEADERS`), and a note saying why a player below the list is not on
it."""
CARD_SHEET_HEADERS: Final[tuple[str, ...]] = (
    *(header for header in CARD_HEADERS if header != "Note"),
    "Grade",
    "Category",
    "Note",
)
"""Columns of the Player Cards sheet: the season's card columns
(:data:`xlgrade.season.CARD_HEADERS`) with the new Grade and Category before the Note. A card's
games have Game, Date, Opponent, Result (1, ½ or 0), Opponent grade and Points; its first row
the grade at the start of the season, its last rows the totals, what was borrowed, and the new
grade and category."""
RATING_LIST_SHEET_HEADERS: Final[tuple[str, ...]] = (*RATING_LIST_HEADERS, "Note")
"""Columns of the Grading List and Rapid List sheets when the setting ``System`` is the ECF
rating (2020 rules): the rated list (:data:`xlgrade.season.tables.RATING_LIST_HEADERS`) and a
note saying why a player below the list has no rating."""
RATING_CARD_SHEET_HEADERS: Final[tuple[str, ...]] = RATING_CARD_HEADERS
"""Columns of the Player Cards sheet when the season is rated
(:data:`xlgrade.season.tables.RATING_CARD_HEADERS`)."""
EXCEPTIONS_HEADERS: Final = EXCEPTION_HEADERS
"""Exceptions columns (:data:`xlgrade.season.EXCEPTION_HEADERS`)."""
RATING_HEADERS: Final = tuple(column.header for column in schema.RATING_COLUMNS)
"""The Players columns of the ECF rating (in :data:`PLAYERS_HEADERS` after ``Lapsed grade``)."""
TEAM_PLAYER_HEADERS: Final = tuple(column.header for column in schema.TEAM_COLUMNS)
"""The Players columns only the divisions' rules read (:mod:`xlgrade.teams`), last."""
PLAYERS_HEADERS: Final = schema.PLAYERS_HEADERS
"""Players columns (:data:`xlgrade.schema.PLAYERS_COLUMNS`, each with its meaning)."""
RESULTS_HEADERS: Final = schema.RESULTS_HEADERS
"""Results columns the grader types (:data:`xlgrade.schema.RESULTS_COLUMNS`); a player is named
by his code or by his name."""
RESULTS_FORMULA_HEADERS: Final = schema.RESULTS_FORMULA_HEADERS
"""Live columns of Results, computed by formulas (the points call ``SEASON_POINTS``)."""

RESULT_CODES: Final[tuple[tuple[str, float | None, float | None], ...]] = (
    ("1-0", 1.0, 0.0),
    ("½-½", 0.5, 0.5),
    ("0-1", 0.0, 1.0),
    ("1-0 def", None, None),
    ("0-1 def", None, None),
    ("0-0 def", None, None),
    ("½-½ def", None, None),
)
"""The results offered in the Result column's list, with each side's score for the formulas
(``None``: a default, not graded, no points)."""

SettingKind = Kind
"""How a Settings cell is read (:data:`xlgrade.settings.Kind`)."""
SettingRow = Setting
"""One row of the Settings sheet: a setting of the table (:class:`xlgrade.settings.Setting`)."""

SETTING_ROWS: Final = tuple(spec for spec in _TABLE if spec.on_sheet)
"""The Settings sheet's rows, in order: the settings of :data:`xlgrade.settings.SETTINGS`
that the sheet shows."""


@dataclass(frozen=True)
class LiteButton:
    """A button on a sheet of the xlwings Lite book that runs one of its scripts.

    Office.js links no shape to code; xlwings Lite runs a script when the cell a shape's
    hyperlink selects is selected (xlwings Lite's documentation, "Running a script via sheet
    button"): the shape :attr:`shape` covers :attr:`cell` of :attr:`sheet` and links to it,
    and the script's ``@script(button=...)`` names both (:attr:`reference`).

    Attributes:
        script: the script's name in the task pane (``@script(name=...)``).
        shape: the shape's name (Excel's name box).
        sheet: the sheet it is drawn on.
        cell: the cell it covers and links to, at its top-left corner.
    """

    script: str
    shape: str
    sheet: str
    cell: str

    @property
    def reference(self) -> str:
        """``[shape]Sheet!Cell``, as ``@script(button=...)`` takes it."""
        return f"[{self.shape}]{self.sheet}!{self.cell}"


LITE_BUTTONS: Final = (
    LiteButton("Recalculate season", "xlgrade_recalculate", RESULTS, "P2"),
    LiteButton("Check results", "xlgrade_check_results", RESULTS, "P5"),
    LiteButton("Import", "xlgrade_import", RESULTS, "P8"),
    LiteButton("New season", "xlgrade_new_season", RESULTS, "P11"),
)
"""The xlwings Lite book's sheet buttons, on Results to the right of the points columns (one
blank column between): each two rows high and three columns wide, a row apart."""
