"""The Grading tab's Check results button and the live reading of sheets whose used range does
not start at A1, on a minimal stand-in for an xlwings Book (only the calls the module makes)."""

from __future__ import annotations

from typing import Any

import pytest

from xlgrade.season import Table
from xlgrade.workbook import layout, live


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
    book = Book(players_from_b2())
    monkeypatch.setattr(xw.Book, "caller", staticmethod(lambda: book))
    assert live.check_results() == 3
    live.recalculate_season()
    names = [sheet.name for sheet in book.sheets]
    assert set(layout.OUTPUT_SHEETS) <= set(names)
    assert ["Players", 3, "bad grade", "cell C3 (Grade): 'abc' is not a number: left out"] in [
        row[:4] for row in book.sheet(layout.EXCEPTIONS).rows
    ]


def test_a_block_is_as_wide_as_its_widest_row() -> None:
    table = Table(("A", "B"), [(1,), (1, 2, 3)])
    assert live.block(table) == [["A", "B", None], [1, None, None], [1, 2, 3]]
