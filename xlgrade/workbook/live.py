"""The buttons on the workbook open in Excel, through xlwings: the classic Grading tab's and
the xlwings Lite book's scripts (:mod:`xlgrade_lite`).

xlwings is imported by the callers' ``Book`` objects only; nothing here imports it, so this
module loads on any computer. Each input sheet is read with one call (its used range) and each
output sheet is written with one call (a whole block), never cell by cell.

xlwings Lite reads and writes no file on the grader's computer; its **Files ▸ Import/Export**
menu holds files in the folder :data:`LITE_FILES` instead (docs/install.md). The Lite Import
script reads the file the grader dropped there (:func:`import_file`) and New season writes next
season's book there for him to download (:func:`new_season_file`). Neither needs openpyxl
but for the new book's drawing, imported when New season runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError
from xlgrade.formats.csvfile import typed_text
from xlgrade.formats.detect import import_file as read_import
from xlgrade.formats.files import write_whole
from xlgrade.formats.importing import check_lines
from xlgrade.model import Problem
from xlgrade.schema import column_letters
from xlgrade.season import EXCEPTION_HEADERS, Table
from xlgrade.teams import Division
from xlgrade.workbook import formulas, layout
from xlgrade.workbook.importing import (
    IMPORT_NOTES,
    IMPORT_NOTES_HEADERS,
    excepted_rows,
    notes_rows,
    plan_import,
)
from xlgrade.workbook.inputs import header_columns, refuse_unheaded
from xlgrade.workbook.read import grade_inputs, output_tables, read_inputs

if TYPE_CHECKING:
    from xlgrade.formats.detect import Imported
    from xlgrade.season import SeasonResult
    from xlgrade.workbook.importing import ImportPlan

__all__ = [
    "KEPT_LISTS",
    "LITE_FILES",
    "block",
    "check_results",
    "files_to_import",
    "import_file",
    "new_season",
    "new_season_file",
    "problem_rows",
    "read_live",
    "recalculate",
    "recalculate_season",
    "refuse_missing_sheets",
    "write_live",
    "write_live_formulas",
]


def refuse_missing_sheets(book: Any) -> None:
    """Stop a button's run, before anything is read or written, when the open ``book`` lacks
    a sheet of :data:`xlgrade.workbook.layout.REQUIRED_SHEETS` (renamed or deleted): graded
    without its Players or Results, a run would wipe the lists or carry no player into next
    season's book.

    Raises:
        FormatError: naming the book and each sheet it lacks.
    """
    present = {sheet.name for sheet in book.sheets}
    missing = [name for name in layout.REQUIRED_SHEETS if name not in present]
    if missing:
        names = " nor ".join(quote(name) for name in missing)
        where = getattr(book, "name", None) or "the book"
        raise FormatError(
            f"{where}: not a league workbook: it has no sheet named {names} (renamed or "
            "deleted? name it back); nothing was graded or written"
        )


def read_live(book: Any, names: Sequence[str] = layout.READ_SHEETS) -> dict[str, list[list[Any]]]:
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
    first; a missing sheet is added after the last one. Text that Excel would take for a
    formula is written as text (:func:`xlgrade.formats.csvfile.typed_text`)."""
    present = {sheet.name: sheet for sheet in book.sheets}
    for name, table in tables.items():
        sheet = present.get(name)
        if sheet is None:
            sheet = book.sheets.add(name, after=book.sheets[book.sheets.count - 1])
        sheet.used_range.clear_contents()
        sheet.range("A1").value = [[typed_text(v) for v in row] for row in block(table)]


KEPT_LISTS: Final = (
    "nothing was graded: the Grading List, Rapid List, Player Cards and Violations are those "
    "of the last good run"
)
"""The Exceptions sheet's last line when a header stops a button's run (:func:`recalculate`)."""


def recalculate(book: Any) -> dict[str, Table]:
    """Recalculate the season of the open xlwings ``book``: read its input sheets, grade, and
    write the output sheets. Returns the tables written.

    A header that stops the run (:attr:`xlgrade.formats.tables.Inputs.stopped`) writes only
    the Exceptions sheet: the reader's problems, then the line :data:`KEPT_LISTS`; the other
    output sheets keep the lists of the last good run.

    Raises:
        HeaderError: a header stopped the run (after the Exceptions sheet is written).
    """
    refuse_missing_sheets(book)
    inputs = read_inputs(read_live(book))
    if inputs.stopped:
        rows = [*problem_rows(inputs.problems), (None, None, "summary", KEPT_LISTS)]
        write_live(book, {layout.EXCEPTIONS: Table(EXCEPTION_HEADERS, rows)})
        inputs.refuse_stopped(then=f"; {KEPT_LISTS}, and the Exceptions sheet says why")
    tables = output_tables(
        grade_inputs(inputs), inputs.divisions, inputs.rating_history, inputs.lineup
    )
    write_live(book, tables)
    return tables


def write_live_formulas(book: Any) -> list[str]:
    """Write the xlwings Lite book's live formulas again, as Excel is given them: the probe
    on Lists and the points columns' (:func:`xlgrade.workbook.formulas.points_formula`, under
    their headers on Results). Excel parses them as typed, so a call it stored unlinked from
    the add-in's function is linked again. Only a book whose Lists sheet is laid out as these
    formulas expect (:data:`~xlgrade.workbook.formulas.PROBE_HEADER` over the probe) is
    written; a points header that is not there is left alone. Returns the cells written, as
    ``Sheet!Cell``."""
    sheets = read_live(book, (layout.LISTS, layout.RESULTS))
    lists, results = sheets.get(layout.LISTS, []), sheets.get(layout.RESULTS, [])
    probe, column = formulas.PROBE_CELL, formulas.PROBE_COLUMN
    header = lists[0][column] if lists and len(lists[0]) > column else None
    if header != formulas.PROBE_HEADER:
        return []
    present = {sheet.name: sheet for sheet in book.sheets}
    present[layout.LISTS].range(probe).formula = formulas.probe_formula(formulas.LITE, stored=False)
    written = [f"{layout.LISTS}!{probe}"]
    top = _header_row(results)
    columns = _columns(results)
    for points in formulas.POINTS_HEADERS:
        found = columns.get(layout.header_key(points))
        if found is None:
            continue
        cell = f"{column_letters(found)}{top + 2}"
        formula = formulas.points_formula(points, formulas.LITE, stored=False)
        present[layout.RESULTS].range(cell).formula = formula
        written.append(f"{layout.RESULTS}!{cell}")
    return written


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
    inputs = read_inputs(read_live(book))  # a missing sheet is a line: this lists, grades nothing
    rows = problem_rows(inputs.problems)
    write_live(book, {layout.EXCEPTIONS: Table(("Sheet", "Row", "What", "Why"), rows)})
    return len(rows)


def recalculate_season(book: Any = None) -> None:
    """The classic Recalculate season button: :func:`recalculate` on ``book`` (the calling
    book when ``None``). A run that cannot grade says why in a message box
    (``book.app.alert``), not a traceback."""
    if book is None:
        import xlwings as xw  # type: ignore[import-untyped,unused-ignore]

        book = xw.Book.caller()
    try:
        recalculate(book)
    except GradingError as error:
        book.app.alert(f"Error: {error}", title="Recalculate season", mode="critical")


LITE_FILES: Final = "/data"
"""The folder of xlwings Lite's Files ▸ Import/Export menu: a file dropped on the menu is there
for Python to read, and a file Python writes there is offered for download (xlwings Lite's
documentation, "Files")."""
_WORKBOOK_ENDINGS: Final = (".xlsx", ".xlsm", ".xls")


def _free_path(folder: str, stem: str, ending: str) -> str:
    """``folder/stem.ending``, or ``folder/stem (2).ending`` and so on when that is taken."""
    path = os.path.join(folder, f"{stem}{ending}")
    number = 1
    while os.path.exists(path):
        number += 1
        path = os.path.join(folder, f"{stem} ({number}){ending}")
    return path


def _next_season(book: Any) -> tuple[str, Any, Any, list[Division]]:
    """The file name stem, players, settings and divisions' rules of the season after the
    book's (:meth:`xlgrade.season.SeasonResult.next_season`; the rules carry on).

    Raises:
        FormatError: the book lacks its Players or Results sheet (:func:`refuse_missing_sheets`).
        HeaderError: a header stops the run.
    """
    refuse_missing_sheets(book)
    inputs = read_inputs(read_live(book))
    inputs.refuse_stopped()
    players, settings = grade_inputs(inputs).next_season()
    stem = settings.season_name.replace("/", "-") or "next-season"
    return stem, players, settings, list(inputs.divisions.values())


def new_season(book: Any = None) -> str:
    """The New season from this one button: save a new book beside the calling one for the
    next season (players and their grades carried on, no results; see
    :meth:`xlgrade.season.SeasonResult.next_season`) and open it. Returns its path."""
    from xlgrade.workbook.build import build_workbook
    from xlgrade.workbook.package import write_package

    if book is None:
        import xlwings as xw  # type: ignore[import-untyped,unused-ignore]

        book = xw.Book.caller()
    stem, players, settings, divisions = _next_season(book)
    folder = os.path.dirname(str(book.fullname)) or "."
    path = _free_path(folder, stem, ".xlsm")
    write_package(build_workbook(players, (), settings, divisions), path)  # whole, or not at all
    book.app.books.open(path)
    return path


def new_season_file(book: Any, folder: str | None = None) -> str:
    """The xlwings Lite New season script: next season's Lite book (players and their grades
    carried on, no results, as :func:`new_season` and ``xlgrade new-season`` make it) written
    to ``folder`` (:data:`LITE_FILES`), named after the season (``2026-27.xlsx``), for the
    grader to download from Files ▸ Import/Export. The open book is not changed. The new
    book carries the engine running here (:func:`xlgrade.workbook.lite.engine_zip`: in
    xlwings Lite, the open book's own) and ids of its own. Returns the path written.
    """
    from xlgrade.workbook.lite import build_lite_workbook

    stem, players, settings, divisions = _next_season(book)
    where = folder if folder is not None else LITE_FILES
    os.makedirs(where, exist_ok=True)
    path = _free_path(where, stem, ".xlsx")
    package = build_lite_workbook(players, (), settings, divisions)
    # Whole or not at all, through the one writer (its lock none in Pyodide: files.locked).
    write_whole(package, path)
    return path


def files_to_import(folder: str | None = None) -> list[str]:
    """The files of ``folder`` (:data:`LITE_FILES`) that Import would read: every file but
    workbooks (New season's books are written there too), by name."""
    where = folder if folder is not None else LITE_FILES
    if not os.path.isdir(where):
        return []
    return sorted(
        name
        for name in os.listdir(where)
        if os.path.isfile(os.path.join(where, name))
        and not name.lower().endswith((*_WORKBOOK_ENDINGS, ".partial"))
        and not _written_on_the_way(name)
    )


def _written_on_the_way(name: str) -> bool:
    """Whether ``name`` is a file the one writer makes on its way to a book (its temporary
    file, its lock file: :mod:`xlgrade.formats.files`), left there by a run cut short."""
    return (name.startswith(".xlgrade-") and name.endswith(".tmp")) or name.endswith(
        ".xlgrade-lock"
    )


def import_file(book: Any, folder: str | None = None) -> list[str]:
    """The xlwings Lite Import script: add the files in ``folder`` (:data:`LITE_FILES`) to
    the open book, as ``xlgrade import FILE --into BOOK`` adds each to the book's file: a
    players CSV first (so that the games of the others can name its players), then the rest
    by name — the leagues, congresses and clubs of a union's season, say.

    Each file is read as the command line reads it (:func:`xlgrade.formats.detect.read_any`:
    a TRF, an ECF results file, a players or results CSV); the rows it adds are those of
    :func:`xlgrade.workbook.importing.plan_import` against the book as the files before it
    left it (its players matched to the book's, a file imported before refused), written
    under the last filled row of Players and Results by header, each sheet's Excel table
    grown over them; the entries not games go on Import notes after the earlier ones; then
    the season is graded and the output sheets written as :func:`recalculate` writes them.
    Nothing is written when any of the files cannot be imported. Returns the lines to show
    the grader, each file's first.

    Raises:
        GradingError: no file in ``folder``; a file cannot be read or is imported already
            (:class:`~xlgrade.errors.RepeatedImportError`), naming it; the book's sheets
            cannot take the rows (:class:`~xlgrade.errors.FormatError`).
    """
    refuse_missing_sheets(book)
    where = folder if folder is not None else LITE_FILES
    names = files_to_import(where)
    if not names:
        raise GradingError(
            "no file to import: drop the TRF, ECF results file or CSV on xlwings Lite ▸ "
            "Files ▸ Import/Export, then run Import again"
        )
    notes: dict[str, list[str]] = {}
    read: list[tuple[str, Imported]] = []
    for name in names:
        notes[name] = []
        try:
            read.append((name, read_import(os.path.join(where, name), name, notes[name])))
        except GradingError as error:
            raise type(error)(f"{name}: {error}") from None
    read.sort(key=lambda item: item[1].kind != "players CSV")  # stable: by name after
    raw = read_live(book, (*layout.READ_SHEETS, IMPORT_NOTES))
    for sheet in (layout.PLAYERS, layout.RESULTS):
        if sheet not in raw:
            raise FormatError(f"the book has no sheet named {quote(sheet)}")
    after: dict[str, Sequence[Sequence[object]]] = dict(raw)
    new: dict[str, list[dict[str, object]]] = {layout.PLAYERS: [], layout.RESULTS: []}
    first: dict[str, int] = {}
    steps = []
    old_notes: Sequence[Sequence[object]] = raw.get(IMPORT_NOTES, [])
    for name, imported in read:
        try:
            plan = plan_import(book.name, read_inputs(after), imported)
        except GradingError as error:
            raise type(error)(f"{name}: {error}") from None
        rows = {layout.PLAYERS: plan.players, layout.RESULTS: plan.games}
        for sheet, added in rows.items():
            cells, at = _appended(after[sheet], sheet, added)
            after[sheet] = cells
            first.setdefault(sheet, at)
            new[sheet].extend(added)
        steps.append((name, imported, plan, at))
        if imported.problems:
            old_notes = [IMPORT_NOTES_HEADERS, *notes_rows(old_notes, imported.problems)]
    inputs = read_inputs(after)
    result = grade_inputs(inputs)
    tables = output_tables(result, inputs.divisions, inputs.rating_history, inputs.lineup)
    if any(imported.problems for _, imported in read):
        tables[IMPORT_NOTES] = Table(IMPORT_NOTES_HEADERS, list(map(tuple, old_notes[1:])))
    # Every check is done: the writing starts here.
    for sheet, appended in new.items():
        _write_rows(book, sheet, raw[sheet], first[sheet], appended)
    write_live(book, tables)
    lines: list[str] = []
    for name, imported, plan, at in steps:
        lines += _import_lines(name, imported, plan, at, notes[name], result)
    return lines


def _import_lines(
    name: str,
    imported: Imported,
    plan: ImportPlan,
    first: int,
    notes: Sequence[str],
    result: SeasonResult,
) -> list[str]:
    """What the import of one file did, for the grader."""
    merged = plan.merged
    excepted = excepted_rows(result, range(first, first + len(plan.games)))
    lines = [
        f"{name} ({imported.kind}): {imported.accounting}",
        f"{len(merged.added)} players added, {merged.already_known} already there; "
        + (
            f"{len(plan.games)} games added on Results rows {first} to "
            f"{first + len(plan.games) - 1}"
            if plan.games
            else "no games added"
        ),
    ]
    lines += [f"note: {name}: {note}" for note in notes]
    if imported.problems:
        lines.append(f"{len(imported.problems)} entries not games, listed on {IMPORT_NOTES}")
    if plan.games:
        lines.append(
            f"Imported games: {len(plan.games) - len(excepted)} graded, {len(excepted)} on "
            "Exceptions"
        )
    return lines + check_lines(merged)


def _header_row(cells: Sequence[Sequence[object]]) -> int:
    """The index of a sheet's header row: its first row with a value, as the reader takes it."""
    index = 0
    while index < len(cells) and all(v is None for v in cells[index]):
        index += 1
    return index


def _columns(cells: Sequence[Sequence[object]]) -> dict[str, int]:
    """Header key → column index of the sheet's header row (the first column of a key)."""
    top = _header_row(cells)
    return header_columns(cells[top] if top < len(cells) else [])


_TYPED: Final[Mapping[str, tuple[str, ...]]] = {
    layout.PLAYERS: layout.PLAYERS_HEADERS,
    layout.RESULTS: layout.RESULTS_HEADERS,
}
"""The typed columns of the sheets that take rows (Results' live columns are formulas)."""


def _appended(
    cells: Sequence[Sequence[object]], sheet: str, rows: Sequence[Mapping[str, object]]
) -> tuple[list[list[object]], int]:
    """The sheet's cells with ``rows`` written under its last filled row, by header, and the
    sheet row of the first of them.

    Raises:
        FormatError: a value of a new row has no column headed for it on the sheet.
    """
    columns = _columns(cells)
    refuse_unheaded(sheet, columns, rows)
    typed = [columns[k] for k in map(layout.header_key, _TYPED[sheet]) if k in columns]
    top = _header_row(cells)
    filled = [
        i
        for i, row in enumerate(cells)
        if i > top and any(c < len(row) and row[c] not in (None, "") for c in typed)
    ]
    first = max(filled, default=top) + 1  # a list index: the sheet row is one more
    out = [list(row) for row in cells[:first]]
    width = max([len(row) for row in cells] + [c + 1 for c in columns.values()])
    for values in rows:
        row: list[object] = [None] * width
        for key, value in values.items():
            if value is not None:
                row[columns[layout.header_key(key)]] = value
        out.append(row)
    return out, first + 1


def _write_rows(
    book: Any,
    sheet: str,
    cells: Sequence[Sequence[object]],
    first: int,
    rows: Sequence[Mapping[str, object]],
) -> None:
    """Write ``rows`` from sheet row ``first`` down, one column at a time (the grader's own
    columns between are left alone), and grow the sheet's Excel table over them."""
    if not rows:
        return
    target = next(s for s in book.sheets if s.name == sheet)
    columns = _columns(cells)
    for heading in _TYPED[sheet]:
        key = layout.header_key(heading)
        values = [[typed_text(values.get(heading))] for values in rows]
        if key not in columns or all(v == [None] for v in values):
            continue
        letter = column_letters(columns[key])
        target.range(f"{letter}{first}:{letter}{first + len(rows) - 1}").value = values
    last = first + len(rows) - 1
    for table in getattr(target, "tables", ()):
        address = str(table.range.address).replace("$", "")
        start, _, end = address.partition(":")
        end_column = end.rstrip("0123456789")
        if int(end[len(end_column) :]) < last:
            table.resize(target.range(f"{start}:{end_column}{last}"))
