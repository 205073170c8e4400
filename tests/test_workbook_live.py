"""The live-Excel path (the ribbon's buttons) against a stand-in for an xlwings Book: one read
per input sheet, one block written per output sheet, the same tables as ``xlgrade recalc``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_workbook_helpers import build_league

from xlgrade.workbook import layout, live
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
