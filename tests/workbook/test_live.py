"""The live-Excel path (the ribbon's buttons) against a stand-in for an xlwings Book: one read
per input sheet, one block written per output sheet, the same tables as ``xlgrade recalc``.

The Grading tab's Check results button and the live reading of sheets whose used range does
not start at A1, on a minimal stand-in for an xlwings Book (only the calls the module makes).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from tests.league import build_league
from xlgrade.errors import FormatError
from xlgrade.model import Game, Player
from xlgrade.season import Table
from xlgrade.settings import RATING_2020, Settings
from xlgrade.workbook import layout, live
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import recalculate_tables


class _Range:
    def __init__(self, sheet: _Sheet, row: int = 1, column: int = 1) -> None:
        self.sheet, self.row, self.column = sheet, row, column

    def options(self, **_: object) -> _Range:
        return self

    @property
    def value(self) -> Any:
        self.sheet.reads += 1
        return [row[self.column - 1 :] for row in self.sheet.cells[self.row - 1 :]]

    @value.setter
    def value(self, block: list[list[object]]) -> None:
        self.sheet.writes.append(block)
        self.sheet.cells = [list(row) for row in block]

    def clear_contents(self) -> None:
        self.sheet.cells = []


class _Sheet:
    def __init__(self, name: str, cells: list[list[object]], top: int = 1) -> None:
        self.name, self.cells, self.top = name, cells, top
        self.reads = 0
        self.writes: list[list[list[object]]] = []

    @property
    def used_range(self) -> _Range:
        # The used range starts where the first non-blank row is, as in Excel.
        return _Range(self, self.top, 1)

    def range(self, _: str) -> _Range:
        return _Range(self)


class _Sheets(list[_Sheet]):
    @property
    def count(self) -> int:
        return len(self)

    def add(self, name: str, after: _Sheet) -> _Sheet:
        sheet = _Sheet(name, [])
        self.insert(self.index(after) + 1, sheet)
        return sheet


class _Book:
    def __init__(self, sheets: dict[str, list[list[object]]]) -> None:
        self.sheets = _Sheets(_Sheet(name, cells) for name, cells in sheets.items())


def test_live_recalculation_reads_once_and_writes_blocks(tmp_path: Path) -> None:
    raw = read_sheets(build_league(tmp_path), layout.INPUT_SHEETS)
    book = _Book({name: [list(r) for r in rows] for name, rows in raw.items()})
    tables = live.recalculate(book)
    assert tables == recalculate_tables(raw)
    by_name = {sheet.name: sheet for sheet in book.sheets}
    for name in layout.INPUT_SHEETS:
        assert by_name[name].reads == 1
    for name in layout.OUTPUT_SHEETS:
        assert len(by_name[name].writes) == 1, name
        block = by_name[name].writes[0]
        assert tuple(block[0][: len(tables[name].headers)]) == tables[name].headers
        assert len(block) == len(tables[name].rows) + 1


def test_the_live_recalculation_rates_a_rated_book(tmp_path: Path) -> None:
    # The Recalculate button of either book, on a book whose System is the ECF rating:
    # A (1600) beats B (1600) in September: 20 × (1 − .50) = +10 → 1610, B 1590.
    settings = Settings(
        season_start=dt.date(2025, 9, 1), season_end=dt.date(2026, 8, 31), system=RATING_2020
    )
    players = (Player("A", rating=1600), Player("B", rating=1600))
    path = tmp_path / "rated.xlsm"
    path.write_bytes(
        build_workbook(players, (Game("A", "B", "1-0", dt.date(2025, 9, 3)),), settings)
    )
    raw = read_sheets(path, layout.INPUT_SHEETS)
    book = _Book({name: [list(r) for r in rows] for name, rows in raw.items()})
    tables = live.recalculate(book)
    listed = tables[layout.GRADING_LIST]
    assert listed.headers == layout.RATING_LIST_SHEET_HEADERS
    assert [(r[1], r[6], r[9]) for r in listed.rows] == [
        ("A", 1610, "1600 → 1610"),
        ("B", 1590, "1600 → 1590"),
    ]
    assert tables[layout.PLAYER_CARDS].headers == layout.RATING_CARD_SHEET_HEADERS


def test_live_reading_keeps_sheet_row_numbers_when_the_used_range_starts_lower(
    tmp_path: Path,
) -> None:
    raw = read_sheets(build_league(tmp_path), layout.INPUT_SHEETS)
    book = _Book({name: [list(r) for r in rows] for name, rows in raw.items()})
    results = next(s for s in book.sheets if s.name == layout.RESULTS)
    results.cells = [[None] * 14, [None] * 14, *results.cells]
    results.top = 3
    read = live.read_live(book)
    assert read[layout.RESULTS][2:] == [list(r) for r in raw[layout.RESULTS]]


def test_check_results_lists_bad_cells_only(tmp_path: Path) -> None:
    raw = read_sheets(build_league(tmp_path), layout.INPUT_SHEETS)
    raw[layout.PLAYERS][2][5] = "abc"
    book = _Book({name: [list(r) for r in rows] for name, rows in raw.items()})
    assert live.check_results(book) == 1
    exceptions = next(s for s in book.sheets if s.name == layout.EXCEPTIONS)
    assert exceptions.cells[0] == ["Sheet", "Row", "What", "Why"]
    assert exceptions.cells[1][:3] == ["Players", 3, "bad grade"]
    assert "'abc'" in str(exceptions.cells[1][3])
    assert [s.name for s in book.sheets][-1] == layout.EXCEPTIONS


class UsedRange:
    """A sheet's used range: its top-left corner and its rows."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.row, self.column = sheet.corner

    def options(self, ndim: int) -> UsedRange:
        assert ndim == 2
        return self

    @property
    def value(self) -> list[list[Any]] | None:
        return self.sheet.rows or None

    def clear_contents(self) -> None:
        self.sheet.rows = []


class Cell:
    """``sheet.range("A1")``: writing a block there replaces the sheet's rows."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet

    @property
    def value(self) -> None:  # pragma: no cover - only written
        return None

    @value.setter
    def value(self, rows: list[list[Any]]) -> None:
        self.sheet.rows, self.sheet.corner = rows, (1, 1)


class Sheet:
    """A sheet with rows of values whose top-left cell is at ``corner`` (row, column)."""

    def __init__(self, name: str, rows: list[list[Any]], corner: tuple[int, int] = (1, 1)) -> None:
        self.name, self.rows, self.corner = name, rows, corner

    @property
    def used_range(self) -> UsedRange:
        return UsedRange(self)

    def range(self, address: str) -> Cell:
        assert address == "A1"
        return Cell(self)


class Sheets(list[Sheet]):
    """A book's sheets; ``add`` puts a new one after the given sheet."""

    @property
    def count(self) -> int:
        return len(self)

    def add(self, name: str, after: Sheet) -> Sheet:
        sheet = Sheet(name, [])
        self.insert(self.index(after) + 1, sheet)
        return sheet


class Book:
    """A book of sheets."""

    def __init__(self, *sheets: Sheet) -> None:
        self.sheets = Sheets(sheets)

    def sheet(self, name: str) -> Sheet:
        return next(sheet for sheet in self.sheets if sheet.name == name)


def players_from_b2() -> Sheet:
    # The Players table typed from B2: its header is on row 2, its first player on row 3.
    return Sheet("Players", [["Name", "Grade"], ["Smith, John", "abc"]], corner=(2, 2))


def test_a_used_range_away_from_a1_keeps_sheet_rows_and_columns() -> None:
    raw = live.read_live(Book(players_from_b2()))
    assert raw == {
        "Players": [[], [None, "Name", "Grade"], [None, "Smith, John", "abc"]],
    }


def test_check_results_lists_every_unreadable_cell_and_grades_nothing() -> None:
    book = Book(Sheet("Intro", [["Welcome"]]), players_from_b2())
    assert live.check_results(book) == 3
    assert [sheet.name for sheet in book.sheets] == ["Intro", "Players", layout.EXCEPTIONS]
    assert book.sheet(layout.EXCEPTIONS).rows == [
        ["Sheet", "Row", "What", "Why"],
        ["Settings", None, "missing sheet", "the book has no sheet named 'Settings'"],
        ["Players", 3, "bad grade", "cell C3 (Grade): 'abc' is not a number: left out"],
        ["Results", None, "missing sheet", "the book has no sheet named 'Results'"],
    ]
    assert layout.GRADING_LIST not in [sheet.name for sheet in book.sheets]


def test_check_results_replaces_the_old_exceptions() -> None:
    old = Sheet(layout.EXCEPTIONS, [["Sheet", "Row", "What", "Why"], ["x", 1, "old", "old"]])
    book = Book(players_from_b2(), old)
    live.check_results(book)
    assert ["x", 1, "old", "old"] not in book.sheet(layout.EXCEPTIONS).rows
    assert len(book.sheets) == 2


def test_the_buttons_work_on_the_calling_book(monkeypatch: pytest.MonkeyPatch) -> None:
    xw = pytest.importorskip("xlwings")
    book = Book(players_from_b2(), Sheet(layout.RESULTS, [list(layout.RESULTS_HEADERS)]))
    monkeypatch.setattr(xw.Book, "caller", staticmethod(lambda: book))
    assert live.check_results() == 2  # the bad grade and the missing Settings sheet
    live.recalculate_season()
    names = [sheet.name for sheet in book.sheets]
    assert set(layout.OUTPUT_SHEETS) <= set(names)
    assert ["Players", 3, "bad grade", "cell C3 (Grade): 'abc' is not a number: left out"] in [
        row[:4] for row in book.sheet(layout.EXCEPTIONS).rows
    ]


def test_a_block_is_as_wide_as_its_widest_row() -> None:
    table = Table(("A", "B"), [(1,), (1, 2, 3)])
    assert live.block(table) == [["A", "B", None], [1, None, None], [1, 2, 3]]


def test_recalculate_and_new_season_refuse_a_book_without_results() -> None:
    book = Book(players_from_b2())
    for button in (live.recalculate, live.new_season):
        with pytest.raises(FormatError, match=r"^the book: .* no sheet named 'Results' \("):
            button(book)
    assert [sheet.name for sheet in book.sheets] == ["Players"]  # nothing written
