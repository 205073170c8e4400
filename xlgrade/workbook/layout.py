"""The template workbook's layout, defined once: sheet names, column headers, named ranges and
the rows of the Settings sheet.

The builder (:mod:`xlgrade.workbook.build`), the readers (:mod:`xlgrade.workbook.read`) and the
writer (:mod:`xlgrade.workbook.package`) all take their names from here. Readers find columns by
header, compared with :func:`header_key` (case, spaces, dots, dashes and underscores ignored),
so a grader may add columns of his own or reorder them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from xlgrade.elo import K_POLICIES
from xlgrade.model import Settings

__all__ = [
    "EXCEPTIONS",
    "GRADING_LIST",
    "HISTORY",
    "HOW_TO_USE",
    "INPUT_SHEETS",
    "LISTS",
    "OUTPUT_SHEETS",
    "PLAYERS",
    "PLAYERS_HEADERS",
    "PLAYER_CARDS",
    "RAPID_LIST",
    "RESULTS",
    "RESULTS_FORMULA_HEADERS",
    "RESULTS_HEADERS",
    "RESULT_CODES",
    "SETTINGS",
    "SETTINGS_HEADERS",
    "SETTING_ROWS",
    "UDF_MODULE",
    "XLWINGS_CONF",
    "SettingKind",
    "SettingRow",
    "header_key",
    "setting_cell",
]

SETTINGS: Final = "Settings"
"""The sheet of season settings: one setting a row, ``Setting`` and ``Value`` columns."""
PLAYERS: Final = "Players"
"""The sheet of players with their start-of-season grades and earlier seasons' totals."""
RESULTS: Final = "Results"
"""The league results sheet: one game a row, the result from the home side."""
GRADING_LIST: Final = "Grading List"
RAPID_LIST: Final = "Rapid List"
PLAYER_CARDS: Final = "Player Cards"
EXCEPTIONS: Final = "Exceptions"
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

INPUT_SHEETS: Final = (SETTINGS, PLAYERS, RESULTS)
"""The sheets a recalculation reads."""
OUTPUT_SHEETS: Final = (GRADING_LIST, RAPID_LIST, PLAYER_CARDS, EXCEPTIONS)
"""The sheets a recalculation writes; nothing else in the book is touched."""

SETTINGS_HEADERS: Final = ("Setting", "Value", "Meaning")
PLAYERS_HEADERS: Final = (
    "Code",
    "Name",
    "Club",
    "Date of birth",
    "Junior",
    "Grade",
    "Estimated grade",
    "Previous games",
    "Previous points",
    "Earlier games",
    "Earlier points",
    "Lapsed grade",
)
"""Players columns. ``Grade`` is the published grade at the start of the season; ``Previous``
is last season's totals, ``Earlier`` the season before's; ``Lapsed grade`` an old grade of a
player inactive for three seasons, used less the inactivity allowance."""
RESULTS_HEADERS: Final = (
    "Date",
    "Division",
    "Match",
    "Board",
    "Home player",
    "Result",
    "Away player",
    "Time control",
)
"""Results columns the grader types; a player is named by his code or by his name."""
RESULTS_FORMULA_HEADERS: Final = (
    "Home points",
    "Away points",
    "Home grade",
    "Away grade",
    "Home score",
    "Away score",
)
"""Live columns of Results, computed by formulas (the points call ``GRADE_POINTS``)."""

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

SettingKind = Literal["text", "date", "number", "integer", "optional number", "choice", "yes/no"]


@dataclass(frozen=True)
class SettingRow:
    """One row of the Settings sheet.

    Attributes:
        label: the text in the ``Setting`` column.
        field: the :class:`xlgrade.model.Settings` field it sets.
        kind: how the ``Value`` cell is read.
        default: the value the template is shipped with (``None`` leaves the cell blank).
        meaning: the explanation shown beside it.
        choices: the accepted values of a ``choice`` (also the cell's drop-down list).
    """

    label: str
    field: str
    kind: SettingKind
    default: object
    meaning: str
    choices: tuple[str, ...] = ()


SETTING_ROWS: Final = (
    SettingRow("Season name", "season_name", "text", "2025-26", "Shown on the lists."),
    SettingRow("Season start", "season_start", "date", None, "First day of the season."),
    SettingRow("Season end", "season_end", "date", None, "Last day of the season."),
    SettingRow(
        "Horizon",
        "horizon",
        "optional number",
        40,
        "Grading horizon in points (none: no horizon; blank: 40).",
    ),
    SettingRow(
        "Minimum games",
        "min_games",
        "integer",
        30,
        "Games before borrowing from earlier seasons stops.",
    ),
    SettingRow(
        "Borrowing rule",
        "borrowing",
        "choice",
        "pro_rata",
        "How games are borrowed from earlier seasons.",
        ("pro_rata", "most_recent"),
    ),
    SettingRow(
        "Category rules",
        "category_rules",
        "choice",
        "bcf1997",
        "Which rule set gives the grade categories.",
        ("bcf1997", "ecf2015"),
    ),
    SettingRow(
        "Junior age date",
        "junior_age_date",
        "date",
        None,
        "Day juniors' ages are taken on (blank: the day after the season ends).",
    ),
    SettingRow(
        "Elo K policy",
        "elo_k_policy",
        "choice",
        None,
        "K policy for the Elo rating column (blank: no Elo ratings).",
        K_POLICIES,
    ),
    SettingRow(
        "Elo period",
        "elo_period",
        "choice",
        "season",
        "Elo rating period: the whole season, or each calendar month.",
        ("season", "month"),
    ),
    SettingRow(
        "Conversion",
        "conversion",
        "choice",
        "fide",
        "ECF to Elo formula for the Elo equivalent.",
        ("fide", "national", "ecf2020"),
    ),
    SettingRow(
        "Floor at zero", "floor_at_zero", "yes/no", "yes", "Game points below 0 count as 0."
    ),
    SettingRow(
        "List category *", "list_star", "yes/no", "no", "Publish players of category * too."
    ),
    SettingRow(
        "Inactivity allowance",
        "inactivity_allowance",
        "number",
        0,
        "Points taken off a lapsed grade used as a working grade.",
    ),
    SettingRow(
        "Unanchored grade",
        "unanchored_grade",
        "optional number",
        None,
        "Working grade for newcomers who only played each other (blank: not graded).",
    ),
    SettingRow(
        "Under-12 divisions",
        "under_12_divisions",
        "text",
        None,
        "Divisions whose players are all under 12 (comma-separated): all moves in 1 hour count.",
    ),
    SettingRow(
        "Under-10 divisions",
        "under_10_divisions",
        "text",
        None,
        "Divisions whose players are all under 10: all moves in 45 minutes count.",
    ),
    SettingRow(
        "Default time control",
        "default_time_control",
        "text",
        None,
        "Time control of rows that leave it blank.",
    ),
)
"""The Settings sheet's rows, in order."""


def setting_cell(settings: Settings, spec: SettingRow) -> object:
    """The value the Settings sheet holds for ``spec``'s setting of ``settings``: ``yes`` or
    ``no`` for a yes/no setting, ``none`` for one turned off whose default is on (a blank cell
    reads as the default), else the value itself."""
    value = getattr(settings, spec.field)
    if spec.kind == "yes/no":
        return "yes" if value else "no"
    if value is None and getattr(Settings(), spec.field) is not None:
        return "none"
    return value


def header_key(text: object) -> str:
    """The form in which headers are compared: lower case, without spaces, dots, dashes,
    underscores; ``"Date of birth"`` and ``"date_of_birth"`` match.

    >>> header_key(" Home  Player ")
    'homeplayer'
    """
    if text is None:
        return ""
    return "".join(ch for ch in str(text).lower() if ch not in " \t\n._-")
