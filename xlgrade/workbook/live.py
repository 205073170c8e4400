"""Recalculate the workbook open in Excel, through xlwings (the Grading tab's buttons).

xlwings is imported by the callers' ``Book`` objects only; nothing here imports it, so this
module loads on any computer. Each input sheet is read with one call (its used range) and each
output sheet is written with one call (a whole block), never cell by cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlgrade.model import Problem
from xlgrade.season import Table
from xlgrade.workbook import layout
from xlgrade.workbook.read import grade_inputs, read_inputs, recalculate_tables

__all__ = [
    "block",
    "check_results",
    "new_season",
    "problem_rows",
    "read_live",
    "recalculate",
    "recalculate_season",
    "write_live",
]


def read_live(book: Any, names: Sequence[str] = layout.INPUT_SHEETS) -> dict[str, list[list[Any]]]:
    """Cell values of the sheets ``names`` of the xlwings ``book``, one call a sheet, padded so
    that list index ``i`` is sheet row ``i + 1`` (as :func:`xlgrade.workbook.read.read_inputs`
    expects). Sheets the book lacks are left out."""
    present = {sheet.name: sheet for sheet in book.sheets}
    out: dict[str, list[list[Any]]] = {}
    for name in names:
        if name not in present:
            continue
        used = present[name].used_range
        values = used.options(ndim=2).value or []
        pad_columns = [None] * (used.column - 1)
        rows: list[list[Any]] = [[] for _ in range(used.row - 1)]
        rows += [pad_columns + list(row) for row in values]
        out[name] = rows
    return out


def block(table: Table) -> list[list[Any]]:
    """A table as one block of rows, header first, each row as wide as the widest."""
    width = max([len(table.headers)] + [len(row) for row in table.rows])
    rows = [list(table.headers)] + [list(row) for row in table.rows]
    return [row + [None] * (width - len(row)) for row in rows]


def write_live(book: Any, tables: dict[str, Table]) -> None:
    """Write each table to its sheet of ``book`` in one block, clearing the old contents
    first; a missing sheet is added after the last one."""
    present = {sheet.name: sheet for sheet in book.sheets}
    for name, table in tables.items():
        sheet = present.get(name)
        if sheet is None:
            sheet = book.sheets.add(name, after=book.sheets[book.sheets.count - 1])
        sheet.used_range.clear_contents()
        sheet.range("A1").value = block(table)


def recalculate(book: Any) -> dict[str, Table]:
    """Recalculate the season of the open xlwings ``book``: read its input sheets, grade, and
    write the output sheets. Returns the tables written."""
    tables = recalculate_tables(read_live(book))
    write_live(book, tables)
    return tables


def problem_rows(problems: Sequence[Problem]) -> list[tuple[object, ...]]:
    """Problems as Exceptions rows: sheet, row, what, why."""
    return [(p.sheet, p.row, p.what, p.why) for p in problems]


def check_results(book: Any = None) -> int:
    """The Check results button: read the input sheets of ``book`` (the calling book when
    ``None``), list every cell that cannot be read on the Exceptions sheet, grade nothing.
    Returns the number of problems."""
    if book is None:
        import xlwings as xw  # type: ignore[import-untyped,unused-ignore]

        book = xw.Book.caller()
    inputs = read_inputs(read_live(book))
    rows = problem_rows(inputs.problems)
    write_live(book, {layout.EXCEPTIONS: Table(("Sheet", "Row", "What", "Why"), rows)})
    return len(rows)


def recalculate_season(book: Any = None) -> None:
    """The Recalculate season button, for a book opened without ``xlgrade_udfs``: works on the
    calling book when ``book`` is ``None``."""
    if book is None:
        import xlwings as xw  # type: ignore[import-untyped,unused-ignore]

        book = xw.Book.caller()
    recalculate(book)


def new_season(book: Any = None) -> str:
    """The New season from this one button: save a new book beside the calling one for the
    next season (players and their grades carried on, no results; see
    :meth:`xlgrade.season.SeasonResult.next_season`) and open it. Returns its path."""
    import os

    from xlgrade.workbook.build import build_workbook
    from xlgrade.workbook.package import write_package

    if book is None:
        import xlwings as xw  # type: ignore[import-untyped,unused-ignore]

        book = xw.Book.caller()
    inputs = read_inputs(read_live(book))
    result = grade_inputs(inputs)
    players, settings = result.next_season()
    folder = os.path.dirname(str(book.fullname)) or "."
    stem = settings.season_name.replace("/", "-") or "next-season"
    path = os.path.join(folder, f"{stem}.xlsm")
    number = 1
    while os.path.exists(path):
        number += 1
        path = os.path.join(folder, f"{stem} ({number}).xlsm")
    write_package(build_workbook(players, (), settings), path)  # whole, or not at all
    book.app.books.open(path)
    return path
