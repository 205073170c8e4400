"""The buttons as xlwings Lite scripts, run through ``xlwings.server.custom_scripts_call`` on
the book as Lite hands it over (every sheet's values), the actions they return applied to those
values, and every output cell compared with what ``xlgrade recalc`` writes for the same book."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from xlgrade.cli import main
from xlgrade.generate import generate_league
from xlgrade.workbook import layout, lite
from xlgrade.workbook.package import read_sheets, sheet_parts

Grid = list[list[Any]]


def _officejs(value: object) -> object:
    """A cell as Office.js reads it: numbers, text, booleans; a date as its serial number."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        day = value.date() if isinstance(value, dt.datetime) else value
        return float((day - dt.date(1899, 12, 30)).days)
    return value


def _payload(sheets: dict[str, Grid]) -> dict[str, Any]:
    """The book as xlwings Lite sends it to a script (``getBookData``)."""
    import xlwings as xw

    width = {name: max((len(r) for r in grid), default=0) for name, grid in sheets.items()}
    return {
        "client": "Office.js",
        "version": xw.__version__,
        "book": {"name": "league.xlsx", "active_sheet_index": 0, "selection": "A1"},
        "names": [],
        "sheets": [
            {
                "name": name,
                "values": [
                    [_officejs(v) for v in row] + [""] * (width[name] - len(row)) for row in grid
                ]
                or [[]],
                "pictures": [],
                "shapes": [],
                "charts": [],
                "notes": [],
                "tables": [],
                "print_area": None,
                "visibility": "Visible",
                "show_gridlines": True,
                "pivot_tables": [],
            }
            for name, grid in sheets.items()
        ],
    }


def _apply(sheets: dict[str, Grid], actions: list[dict[str, Any]]) -> dict[str, Grid]:
    """The sheets after the script's actions, as Excel would apply them; an action this test
    does not know fails it."""
    names = list(sheets)
    out = {name: [list(row) for row in grid] for name, grid in sheets.items()}

    def area(action: dict[str, Any]) -> tuple[Grid, int, int, int, int]:
        grid = out[names[action["sheet_position"]]]
        return (grid, action["start_row"], action["start_column"], action["row_count"],
                action["column_count"])  # fmt: skip

    def fit(grid: Grid, rows: int, columns: int) -> None:
        while len(grid) < rows:
            grid.append([])
        for row in grid:
            row.extend([None] * (columns - len(row)))

    for action in actions:
        func = action["func"]
        if func == "addSheet":
            index, name = action["args"]
            names.insert(index, name)
            out[name] = []
        elif func == "sheetClearContents":
            out[names[action["sheet_position"]]] = []
        elif func == "rangeClearContents":
            grid, top, left, rows, columns = area(action)
            fit(grid, top + rows, left + columns)
            for r in range(top, top + rows):
                for c in range(left, left + columns):
                    grid[r][c] = None
        elif func == "setValues":
            grid, top, left, _, _ = area(action)
            values = action["values"]
            fit(grid, top + len(values), left + max(len(v) for v in values))
            for r, row in enumerate(values):
                for c, value in enumerate(row):
                    grid[top + r][left + c] = None if value == "" else value
        else:
            pytest.fail(f"an action the test does not apply: {func}")
    return {name: out[name] for name in names}


def _cells(grid: Grid) -> dict[tuple[int, int], object]:
    """The non-blank cells of a grid, numbers as floats and dates as ISO text (as a script
    writes them)."""
    found: dict[tuple[int, int], object] = {}
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is None or value == "":
                continue
            if isinstance(value, dt.date):
                value = value.isoformat()
            elif isinstance(value, bool):
                pass
            elif isinstance(value, int | float):
                value = float(value)
            found[(r, c)] = value
    return found


@pytest.fixture(scope="module")
def league_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Grid], Path]:
    """The Lite template filled with the example league (not recalculated), its sheets' values,
    and a copy that ``xlgrade recalc`` recalculated."""
    folder = tmp_path_factory.mktemp("lite-scripts")
    league = generate_league()
    book = folder / "league.xlsx"
    book.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    sheets = read_sheets(book, list(sheet_parts(book.read_bytes())))
    done = folder / "recalculated.xlsx"
    assert main(["recalc", str(book), "--out", str(done)]) == 0
    return sheets, done


def _run(module: ModuleType, script: str, sheets: dict[str, Grid]) -> dict[str, Grid]:
    import xlwings as xw
    from xlwings import server

    book = xw.Book(json=_payload(sheets))
    returned = asyncio.run(
        server.custom_scripts_call(module, script, typehint_to_value={xw.Book: book})
    )
    return _apply(sheets, returned.json()["actions"])


def test_recalculate_season_writes_what_xlgrade_recalc_writes(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    sheets, done = league_book
    after = _run(lite, "recalculate_season", sheets)
    expected = read_sheets(done, list(layout.OUTPUT_SHEETS))
    assert len(_cells(expected[layout.GRADING_LIST])) > 200  # 40 players' lines to compare
    for name in layout.OUTPUT_SHEETS:
        assert _cells(after[name]) == _cells(expected[name]), name
    for name in (layout.SETTINGS, layout.PLAYERS, layout.RESULTS):
        assert after[name] == sheets[name]  # the inputs are not touched


def test_check_results_lists_a_cell_that_cannot_be_read(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    sheets, _ = league_book
    players = [list(row) for row in sheets[layout.PLAYERS]]
    grade = players[0].index("Grade")
    players[1][grade] = "abc"
    after = _run(lite, "check_results", sheets | {layout.PLAYERS: players})
    listed = after[layout.EXCEPTIONS]
    assert listed[0][:4] == ["Sheet", "Row", "What", "Why"]
    (row,) = [r for r in listed[1:] if r[0] == layout.PLAYERS and r[1] in (2, 2.0)]
    assert "'abc'" in " ".join(str(v) for v in row)
    assert after[layout.GRADING_LIST] == sheets[layout.GRADING_LIST]  # nothing graded
