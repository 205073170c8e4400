"""The same cell means the same thing wherever it is typed: in a worksheet function's argument,
on a workbook sheet, in a CSV folder read by ``xlgrade season`` (lenient) or by ``export``
(strict), and in a CSV file read by ``xlgrade import``. One table of cell texts, every entry
point fed from it, one expected meaning each.

A CSV file holds text, so it is fed the texts; a workbook and a worksheet function also get
the values Excel stores (TRUE, 1.0, a date, a serial number). No worksheet function takes a
date, so dates go through the three file readers only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
import xlgrade_udfs as udfs

from tests.lint import banned_imports
from xlgrade.editions import ListedRating
from xlgrade.formats.detect import read_any
from xlgrade.formats.folder import read_folder, read_folder_cells
from xlgrade.model import Game, Player
from xlgrade.workbook import layout
from xlgrade.workbook.read import read_inputs

SEPT_1 = dt.date(2025, 9, 1)
# Text a grader types, and what it means.
DATES = ["1/9/25", "01/09/2025", "1.9.25", "1 Sept 2025", "1st September 2025",
         "Monday 1 September 2025", "2025-09-01", "2025/09/01", "01/09/2025 19:30",
         "45901"]  # fmt: skip
YES = ["J", "j", "junior", "Jnr", "yes", "Y", "TRUE", "true", "1", "x"]
NO = ["no", "N", "FALSE", "0"]
GRADES = ["136", "[136]", " 136 ", "136.0", "[136.0]"]
# What Excel stores for the same cells: a workbook's reader and the functions get these.
EXCEL_DATES = [SEPT_1, dt.datetime(2025, 9, 1), dt.datetime(2025, 9, 1, 19, 30), 45901.0]
EXCEL_YES: list[object] = [True, 1.0]
EXCEL_NO: list[object] = [False, 0.0]
EXCEL_GRADES: list[object] = [136.0, 136]


def _player_row(column: str, cell: object) -> list[object]:
    row: list[object] = [None] * len(layout.PLAYERS_HEADERS)
    row[layout.PLAYERS_HEADERS.index("Name")] = "Smith, John"
    row[layout.PLAYERS_HEADERS.index(column)] = cell
    return row


def _game_row(cell: object) -> list[object]:
    row: list[object] = [None] * len(layout.RESULTS_HEADERS)
    for header, value in (("Home player", "A"), ("Result", "1-0"), ("Away player", "B")):
        row[layout.RESULTS_HEADERS.index(header)] = value
    row[layout.RESULTS_HEADERS.index("Date")] = cell
    return row


def _csv(headers: tuple[str, ...], row: list[object]) -> str:
    quoted = ['"' + ("" if cell is None else str(cell)) + '"' for cell in row]
    return ",".join(headers) + "\n" + ",".join(quoted) + "\n"


# Each entry point, from a cell to a player or a game.


def workbook_player(column: str, cell: object) -> Player:
    inputs = read_inputs(
        {layout.PLAYERS: [list(layout.PLAYERS_HEADERS), _player_row(column, cell)]}
    )
    assert [p for p in inputs.problems if p.sheet == layout.PLAYERS] == []
    (player,) = inputs.players
    return player


def _folder(tmp: Path, name: str, text: str) -> Path:
    folder = tmp / "league"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def season_folder_player(tmp: Path, column: str, cell: str) -> Player:
    folder = _folder(tmp, "players.csv", _csv(layout.PLAYERS_HEADERS, _player_row(column, cell)))
    inputs = read_inputs(read_folder_cells(folder))
    assert [p for p in inputs.problems if p.sheet == layout.PLAYERS] == []
    (player,) = inputs.players
    return player


def strict_folder_player(tmp: Path, column: str, cell: str) -> Player:
    folder = _folder(tmp, "players.csv", _csv(layout.PLAYERS_HEADERS, _player_row(column, cell)))
    (player,) = read_folder(folder, strict=True).players
    return player


def import_player(column: str, cell: str) -> Player:
    (player,) = read_any(_csv(layout.PLAYERS_HEADERS, _player_row(column, cell)), "in.csv").players
    return player


def workbook_game(cell: object) -> Game:
    inputs = read_inputs({layout.RESULTS: [list(layout.RESULTS_HEADERS), _game_row(cell)]})
    (game,) = inputs.games
    return game


def season_folder_game(tmp: Path, cell: str) -> Game:
    folder = _folder(tmp, "results.csv", _csv(layout.RESULTS_HEADERS, _game_row(cell)))
    (game,) = read_inputs(read_folder_cells(folder)).games
    return game


def strict_folder_game(tmp: Path, cell: str) -> Game:
    folder = _folder(tmp, "results.csv", _csv(layout.RESULTS_HEADERS, _game_row(cell)))
    (game,) = read_folder(folder, strict=True).games
    return game


def import_game(cell: str) -> Game:
    (game,) = read_any(_csv(layout.RESULTS_HEADERS, _game_row(cell)), "in.csv").games
    return game


@pytest.mark.parametrize("cell", DATES)
def test_a_date_means_the_same_everywhere(tmp_path: Path, cell: str) -> None:
    assert workbook_game(cell).date == SEPT_1
    assert season_folder_game(tmp_path, cell).date == SEPT_1
    assert strict_folder_game(tmp_path, cell).date == SEPT_1
    assert import_game(cell).date == SEPT_1
    assert workbook_player("Date of birth", cell).date_of_birth == SEPT_1
    assert season_folder_player(tmp_path, "Date of birth", cell).date_of_birth == SEPT_1
    assert strict_folder_player(tmp_path, "Date of birth", cell).date_of_birth == SEPT_1
    assert import_player("Date of birth", cell).date_of_birth == SEPT_1


@pytest.mark.parametrize("cell", EXCEL_DATES)
def test_a_date_cell_of_a_workbook(cell: object) -> None:
    assert workbook_game(cell).date == SEPT_1
    assert workbook_player("Date of birth", cell).date_of_birth == SEPT_1


# JUNIOR_ENHANCEMENT with no age: a junior gets the smallest enhancement, 4 (docs/rules.md
# §5), anyone else none.
YES_NO: list[tuple[object, bool]] = [(c, True) for c in YES] + [(c, False) for c in NO]


@pytest.mark.parametrize(("cell", "junior"), YES_NO)
def test_yes_or_no_means_the_same_everywhere(tmp_path: Path, cell: str, junior: bool) -> None:
    assert udfs.JUNIOR_ENHANCEMENT(None, cell) == (4 if junior else 0)
    assert workbook_player("Junior", cell).junior is junior
    assert season_folder_player(tmp_path, "Junior", cell).junior is junior
    assert strict_folder_player(tmp_path, "Junior", cell).junior is junior
    assert import_player("Junior", cell).junior is junior


@pytest.mark.parametrize(
    ("cell", "junior"), [(c, True) for c in EXCEL_YES] + [(c, False) for c in EXCEL_NO]
)
def test_yes_or_no_cells_of_a_workbook(cell: object, junior: bool) -> None:
    assert udfs.JUNIOR_ENHANCEMENT(None, cell) == (4 if junior else 0)
    assert workbook_player("Junior", cell).junior is junior


# GRADE_POINTS for a win over a player graded 136, without a grade of one's own (no horizon):
# "For a win, the opponents grade plus 50" (1997 leaflet): 136 + 50 = 186.


@pytest.mark.parametrize("cell", GRADES)
def test_a_grade_means_the_same_everywhere(tmp_path: Path, cell: str) -> None:
    assert udfs.GRADE_POINTS(None, cell, "1") == 186
    assert workbook_player("Grade", cell).grade == 136
    assert season_folder_player(tmp_path, "Grade", cell).grade == 136
    assert strict_folder_player(tmp_path, "Grade", cell).grade == 136
    assert import_player("Grade", cell).grade == 136


@pytest.mark.parametrize("cell", EXCEL_GRADES)
def test_a_grade_cell_of_a_workbook(cell: object) -> None:
    assert udfs.GRADE_POINTS(None, cell, "1") == 186
    assert workbook_player("Grade", cell).grade == 136


@pytest.mark.parametrize("cell", ["31/02/2025", "next week", "1 Smarch 2025"])
def test_a_date_refused_is_refused_everywhere_quoting_it(tmp_path: Path, cell: str) -> None:
    inputs = read_inputs({layout.RESULTS: [list(layout.RESULTS_HEADERS), _game_row(cell)]})
    assert [p.why for p in inputs.problems if p.sheet == layout.RESULTS] == [
        f"cell A2 (Date): {cell!r} is not a date"
    ]
    folder = _folder(tmp_path, "results.csv", _csv(layout.RESULTS_HEADERS, _game_row(cell)))
    lenient = read_inputs(read_folder_cells(folder))
    assert [p.why for p in lenient.problems if p.sheet == layout.RESULTS] == [
        f"cell A2 (Date): {cell!r} is not a date"
    ]
    strict: list[Callable[[], object]] = [
        lambda: read_folder(folder, strict=True),
        lambda: read_any(_csv(layout.RESULTS_HEADERS, _game_row(cell)), "in.csv"),
    ]
    for read in strict:
        with pytest.raises(ValueError, match=f"line 2: cell A2 \\(Date\\): '{cell}' is not a date"):
            read()


@pytest.mark.parametrize(
    "source",
    [
        "from xlgrade.workbook import layout",
        "from xlgrade.workbook.package import column_letters",
        "import xlgrade.workbook.read",
        "from xlgrade import workbook",
        "def f():\n    from ..workbook.read import read_inputs",
    ],
)
def test_the_lint_refuses_the_workbook_in_the_formats(source: str) -> None:
    """xlgrade/formats/ sits below xlgrade/workbook/ (xlgrade/formats/ruff.toml); the schema
    both share is xlgrade/schema.py, which the formats may import."""
    assert banned_imports("xlgrade/formats/folder.py", source + "\n")
    assert banned_imports("xlgrade/workbook/read.py", source + "\n") == []
    assert banned_imports("xlgrade/formats/folder.py", "from xlgrade import schema\n") == []


def test_the_ratings_table_a_player_and_edition_a_row() -> None:
    header = ["Code", "Name", "List", "ECF rating", "ECF category"]
    inputs = read_inputs(
        {
            "Ratings": [
                header,
                ["123456 a", "Ash, Ann", "September 2025", 1850, "k"],
                ["111111F", "Box, Bob", "2025-09", "high", None],
                ["111111F", "Box, Bob", None, 1750, None],
                [None, None, None, None, None],
            ]
        }
    )
    assert inputs.ratings == [
        ListedRating("123456A", dt.date(2025, 9, 1), 1850.0, "K", name="Ash, Ann", row=2)
    ]
    assert [(p.sheet, p.row, p.what, p.why) for p in inputs.problems if p.sheet == "Ratings"] == [
        (
            "Ratings",
            3,
            "bad rating row",
            "cell D3 (ECF rating): 'high' is not a number: the row is not used",
        ),
        (
            "Ratings",
            4,
            "bad rating row",
            "cell C4 (List) is blank: a Ratings row names a player and a list: the row is not used",
        ),
    ]
