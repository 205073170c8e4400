"""The ribbon's entry point, ``recalculate_season()``, on a stand-in for a live xlwings Book.

The book is the real template (:func:`xlgrade.workbook.build.build_workbook`) with players and
games typed in; its input sheets are loaded into a fake Book that answers the parts of the
xlwings API the live code uses (``sheets``, ``used_range``, ``options(ndim=2).value``,
``range("A1").value = …``, ``clear_contents``, ``sheets.add``). Expected grades are worked by
hand from docs/rules.md §2–§4.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
import xlgrade_udfs as xl

from xlgrade.model import Game, Player
from xlgrade.workbook import formulas, layout

build = pytest.importorskip("xlgrade.workbook.build")
package = pytest.importorskip("xlgrade.workbook.package")


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


class FakeRange:
    """A rectangle of a FakeSheet: ``value`` reads and writes rows of cells."""

    def __init__(self, sheet: FakeSheet, row: int, column: int, rows: int, columns: int) -> None:
        self.sheet, self.row, self.column = sheet, row, column
        self.rows, self.columns = rows, columns
        self.ndim: int | None = None

    def options(self, ndim: int | None = None) -> FakeRange:
        self.ndim = ndim
        return self

    @property
    def value(self) -> Any:
        grid = [
            [self.sheet.cells.get((r, c)) for c in range(self.column, self.column + self.columns)]
            for r in range(self.row, self.row + self.rows)
        ]
        if self.ndim == 2:
            return grid
        if self.rows == self.columns == 1:
            return grid[0][0]
        return grid[0] if self.rows == 1 else grid

    @value.setter
    def value(self, rows: Any) -> None:
        self.sheet.writes += 1
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell is None:
                    self.sheet.cells.pop((self.row + r, self.column + c), None)
                else:
                    self.sheet.cells[(self.row + r, self.column + c)] = cell

    def clear_contents(self) -> None:
        for r in range(self.row, self.row + self.rows):
            for c in range(self.column, self.column + self.columns):
                self.sheet.cells.pop((r, c), None)


class FakeSheet:
    """A sheet as xlwings shows it: a name, a used range, ranges by address."""

    def __init__(self, name: str, rows: list[list[Any]] | None = None) -> None:
        self.name = name
        self.cells: dict[tuple[int, int], Any] = {}
        self.writes = 0
        for r, row in enumerate(rows or [], start=1):
            for c, cell in enumerate(row, start=1):
                if cell is not None:
                    self.cells[(r, c)] = cell

    @property
    def used_range(self) -> FakeRange:
        if not self.cells:  # xlwings: an empty sheet's used range is A1
            return FakeRange(self, 1, 1, 1, 1)
        rows = [r for r, _ in self.cells]
        columns = [c for _, c in self.cells]
        top, left = min(rows), min(columns)
        return FakeRange(self, top, left, max(rows) - top + 1, max(columns) - left + 1)

    def range(self, address: str) -> FakeRange:
        match = re.fullmatch(r"([A-Z]+)([0-9]+)", address)
        assert match is not None, address
        return FakeRange(self, int(match.group(2)), _column_number(match.group(1)), 1, 1)

    def rows(self) -> list[list[Any]]:
        """The sheet's cells from A1, as rows."""
        used = self.used_range
        return [
            [self.cells.get((r, c)) for c in range(1, used.column + used.columns)]
            for r in range(1, used.row + used.rows)
        ]


class FakeSheets:
    def __init__(self, sheets: list[FakeSheet]) -> None:
        self._sheets = sheets

    def __iter__(self) -> Any:
        return iter(self._sheets)

    def __getitem__(self, key: int | str) -> FakeSheet:
        if isinstance(key, int):
            return self._sheets[key]
        return next(s for s in self._sheets if s.name == key)

    @property
    def count(self) -> int:
        return len(self._sheets)

    def add(self, name: str, after: FakeSheet | None = None) -> FakeSheet:
        sheet = FakeSheet(name)
        at = self._sheets.index(after) + 1 if after is not None else 0
        self._sheets.insert(at, sheet)
        return sheet


class FakeBook:
    def __init__(self, sheets: dict[str, list[list[Any]]]) -> None:
        self.sheets = FakeSheets([FakeSheet(name, rows) for name, rows in sheets.items()])


PLAYERS = [
    Player("Smith, John", code="210988J", grade=118.0),
    Player("Jones, Alan", grade=100.0),
]
# Smith (118) beats Jones (100) ten times: 18 apart, inside the horizon.
GAMES = [Game("210988J", "Jones, Alan", "1-0", date=dt.date(2025, 10, d)) for d in range(1, 11)]


@pytest.fixture
def book(tmp_path: Path) -> FakeBook:
    path = tmp_path / "season.xlsm"
    path.write_bytes(build.build_workbook(PLAYERS, GAMES))
    return FakeBook(package.read_sheets(path, layout.INPUT_SHEETS))


def _table(sheet: FakeSheet) -> list[dict[str, Any]]:
    header, *rows = sheet.rows()
    return [dict(zip(header, row, strict=False)) for row in rows if any(v is not None for v in row)]


def test_recalculate_season_writes_the_grading_list(book: FakeBook) -> None:
    inputs = {name: book.sheets[name].rows() for name in layout.INPUT_SHEETS}
    assert xl.recalculate_season(book) is None
    listed = {row["Name"]: row for row in _table(book.sheets[layout.GRADING_LIST])}
    # Smith: 10 wins against 100 → 150 a game → 150; Jones: 10 losses against 118 → 68.
    # Ten games in three seasons, at least one this season → category E (1997 leaflet).
    assert listed["Smith, John"]["Grade"] == 150
    assert listed["Smith, John"]["Games"] == 10
    assert listed["Smith, John"]["Category"] == "E"
    assert listed["Jones, Alan"]["Grade"] == 68
    assert listed["Jones, Alan"]["Points"] == 680
    # The input sheets are read, never written.
    assert {name: book.sheets[name].rows() for name in layout.INPUT_SHEETS} == inputs
    assert all(book.sheets[name].writes == 0 for name in layout.INPUT_SHEETS)


def test_each_output_sheet_is_written_in_one_block(book: FakeBook) -> None:
    xl.recalculate_season(book)
    for name in (layout.GRADING_LIST, layout.PLAYER_CARDS, layout.EXCEPTIONS):
        assert book.sheets[name].writes == 1, name


def test_the_grades_agree_with_the_worksheet_functions(book: FakeBook) -> None:
    # What a grader's own formulas would give beside the Results rows: the same grades.
    xl.recalculate_season(book)
    points = xl.GRADE_POINTS(118.0, [[100.0]] * 10, [["1-0"]] * 10)
    total = sum(row[0] for row in points)
    listed = {row["Name"]: row for row in _table(book.sheets[layout.GRADING_LIST])}
    assert xl.SEASON_GRADE(total, 10.0) == listed["Smith, John"]["Grade"] == 150
    assert xl.GRADE_CATEGORY(10.0) == listed["Smith, John"]["Category"]


def test_the_template_names_this_module_and_this_macro() -> None:
    assert layout.UDF_MODULE == xl.__name__ == "xlgrade_udfs"
    ribbon = pytest.importorskip("xlgrade.workbook.ribbon")
    assert "xlgrade_udfs.recalculate_season()" in ribbon.vba_source()


def test_the_template_calls_season_points_in_contract_order() -> None:
    home = build.points_formula("Home points")
    # The whole tables in one call, the Settings cells as they are, for SEASON_POINTS to read
    # as the season reads the book.
    tables = f"ResultsTable[[#All]],PlayersTable[[#All]],{formulas.SETTINGS_CELLS}"
    assert f'SEASON_POINTS({tables},"home")' in home


class FakeApp:
    """``book.app``: the message boxes shown, as (prompt, title, mode)."""

    def __init__(self) -> None:
        self.alerts: list[tuple[str, str | None, str | None]] = []

    def alert(self, prompt: str, title: str | None = None, mode: str | None = None) -> None:
        self.alerts.append((prompt, title, mode))


def test_a_header_mistake_keeps_the_last_lists_and_says_why_in_a_message(book: FakeBook) -> None:
    xl.recalculate_season(book)  # the last good run
    players = book.sheets[layout.PLAYERS]
    (grade,) = [at for at, value in players.cells.items() if value == "Grade" and at[0] == 1]
    players.cells[grade] = "Grading"
    before = {sheet.name: dict(sheet.cells) for sheet in book.sheets}
    app = FakeApp()
    book.app = app  # type: ignore[attr-defined]
    assert xl.recalculate_season(book) is None
    # Every sheet but Exceptions is as it was, cell for cell: the lists of the last good run.
    after = {sheet.name: dict(sheet.cells) for sheet in book.sheets}
    assert {n: c for n, c in after.items() if n != layout.EXCEPTIONS} == {
        n: c for n, c in before.items() if n != layout.EXCEPTIONS
    }
    why = (
        "column 'Grading' of the Players header is not known: did you mean 'Grade'? (read as "
        "it is, the column would be left out)"
    )
    assert book.sheets[layout.EXCEPTIONS].rows() == [
        ["Sheet", "Row", "What", "Why"],
        ["Players", 1, "unknown column", why],
        ["Settings", 3, "season from the games", "Season start and Season end are blank "
         "(cells B3 and B4): the 2025-26 season (2025-06-01 to 2026-05-31), the one the games "
         "were played in"],
        [None, None, "summary", "nothing was graded: the Grading List, Rapid List, Player "
         "Cards and Violations are those of the last good run"],
    ]  # fmt: skip
    assert app.alerts == [
        (
            f"Error: Players: {why}; nothing was graded: the Grading List, Rapid List, Player "
            "Cards and Violations are those of the last good run, and the Exceptions sheet "
            "says why",
            "Recalculate season",
            "critical",
        )
    ]


class _Books:
    """``app.books``: the books opened."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def open(self, path: str) -> None:
        self.opened.append(path)


class _App(FakeApp):
    def __init__(self) -> None:
        super().__init__()
        self.books = _Books()


def test_the_ribbon_keeps_the_live_columns_through_a_season(tmp_path: Path) -> None:
    # The classic book takes files through the command line (it has no Import button); then
    # Grading ▸ Recalculate season writes only the output sheets (the Results sheet, and the
    # formulas in it, are not written), and Grading ▸ New season saves next season's book,
    # which holds the formulas as Excel stores them, and so does an import into it.
    from tests.workbook.test_live_columns import _assert_live, _chain_files
    from xlgrade.cli import main
    from xlgrade.workbook import live

    chain = _chain_files(tmp_path)
    path = tmp_path / "league.xlsm"
    assert main(["template", str(path)]) == 0
    for kind in ("trf", "ecf", "players", "results"):
        assert main(["import", str(chain[kind]), "--into", str(path)]) == 0
        _assert_live(path)
    book = FakeBook(package.read_sheets(path, layout.INPUT_SHEETS))
    results = dict(book.sheets[layout.RESULTS].cells)
    app = _App()
    book.app = app  # type: ignore[attr-defined]
    book.fullname = str(path)  # type: ignore[attr-defined]
    xl.recalculate_season(book)
    assert app.alerts == []
    assert book.sheets[layout.GRADING_LIST].writes == 1
    assert book.sheets[layout.RESULTS].writes == 0
    assert book.sheets[layout.RESULTS].cells == results
    following = Path(live.new_season(book))
    assert app.books.opened == [str(following)]
    _assert_live(following)
    assert main(["import", str(chain["next"]), "--into", str(following)]) == 0
    _assert_live(following)
