"""Replace the data rows of the Players and Results input sheets of an existing book, keeping
everything else.

A sheet's rows are rewritten as: the header row and the first data rows as they are (byte for
byte, every column, the grader's own columns included), then the new rows. With ``keep`` left
out every row that holds a value is kept and the new rows go after the last of them (an
append); ``keep=0`` replaces every data row. Only the worksheet part and its table part change;
every other member of the package (VBA, the ribbon, the other sheets, charts, styles, shared
strings) is copied as raw bytes (see :mod:`xlgrade.workbook.package`).

What is kept in step with the new rows:

* Columns are found by header (:func:`xlgrade.workbook.layout.header_key`), so reordered
  columns are filled where they stand. A new row's value for a header the sheet lacks is
  refused rather than dropped; a blank value needs no column.
* Each new cell gets the style of its column's cell in the last data row that styles it
  (a date in a column with no style gets the book's date format).
* On Results, the live columns (Home points, Away points, Home grade, Away grade, Home score,
  Away score) get the formulas the builder writes (:func:`xlgrade.workbook.build.
  results_formulas`), each only where the columns it reads are there too. The points
  columns' one formula each stays in the first data row, whether that row is kept or a new
  row is written over it (the template's blank row), and grows with the table; where it is
  missing it is written again, as the builder writes it for the book's route (with the cell
  metadata that makes it a dynamic array).
* The sheet's Excel table (``xl/tables/tableN.xml``): its ``ref`` and the refs inside it
  (``autoFilter``, ``sortState``) that end on its last row now end on the new last row; so do
  the array formulas over the table's rows (the points columns' one formula each, in the form
  that Excel 2019 and older and LibreOffice compute over a fixed range).
  Data validation and conditional formatting ranges that run from the first data row to the
  table's last row (a sheet ``autoFilter``: from the header row) move with it; ranges of a
  fixed length (the template's ``F2:F20000``) are left alone, as are ranges in the workbook's
  defined names (the template's are whole columns).
* A new row written over an old blank one (a table's spare rows) keeps the old row's cells in
  the grader's own columns (his formulas).
* ``xl/calcChain.xml``, Excel's list of formula cells, is dropped when present (Excel rebuilds
  it); the sheet's ``<dimension>`` is updated.

Refused with a :class:`~xlgrade.errors.FormatError` naming the sheet, the cell and quoting the
value, rather than losing data: a value in the grader's own column on a row that would be
replaced (unless the rows are refilled in place, :attr:`InputRows.in_place`: it then stays on
its row); a value below the sheet's table (the new rows would land on it); a sheet with more
than one table or a table with a totals row; an old cell that starts a shared formula on a
row that would be replaced. Merged cells, hyperlinks and comments are not moved (rows are
only added after the kept ones, so in an append nothing they point at moves).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from xlgrade._rounding import quote
from xlgrade.errors import FormatError
from xlgrade.schema import column_letters
from xlgrade.workbook import layout
from xlgrade.workbook.container import assemble_package, package_members, part_text
from xlgrade.workbook.formulas import CLASSIC, LITE, POINTS_HEADERS, Route, points_formula
from xlgrade.workbook.package import read_sheets, write_package
from xlgrade.workbook.relationships import book_date1904, sheet_parts, without_calc_chain
from xlgrade.workbook.sheetxml import cell_xml, cells_in_namespace, column_index
from xlgrade.workbook.styles import book_date_style
from xlgrade.workbook.tables import ExcelTable, find_table, grow_arrays, shift_ranges
from xlgrade.workbook.xmltext import xml_attr, xml_escape

__all__ = [
    "InputRows",
    "book_sheets",
    "header_columns",
    "input_rows_package",
    "refuse_unheaded",
    "write_input_rows",
]

_HEADERS: Final[Mapping[str, tuple[str, ...]]] = {
    layout.PLAYERS: layout.PLAYERS_HEADERS,
    layout.RESULTS: layout.RESULTS_HEADERS + layout.RESULTS_FORMULA_HEADERS,
}
_REQUIRED: Final[Mapping[str, tuple[str, ...]]] = {
    layout.PLAYERS: ("Name",),
    layout.RESULTS: ("Home player", "Result", "Away player"),
}
_METADATA: Final = "xl/metadata.xml"
"""The cell metadata part a dynamic array's ``cm="1"`` points at."""
_NOWHERE: Final = "XFD"
"""Column letter standing for a live column's input the sheet lacks (its formula is skipped)."""


@dataclass(frozen=True)
class InputRows:
    """The new data rows of one input sheet.

    Attributes:
        rows: the new rows, each a mapping of header to value (``None``: blank). Headers are
            compared with :func:`~xlgrade.workbook.layout.header_key`.
        keep: how many data rows under the header stay as they are; ``None``: every row up
            to the last that holds a value (the new rows are appended).
        in_place: the new rows are the old ones refilled, row for row (the same players in
            the same order, as ``xlgrade ratings`` writes them): a replaced row keeps its
            cells in the grader's own columns, which still belong to it, rather than being
            refused.
    """

    rows: Sequence[Mapping[str, object]] = field(default_factory=tuple)
    keep: int | None = None
    in_place: bool = False


@dataclass
class _Cell:
    column: int
    xml: str
    constant: bool  # holds a value that is not a formula's result
    shared_master: bool  # starts a shared formula over other cells
    formula: bool = False  # holds a formula


@dataclass
class _Row:
    number: int
    xml: str
    cells: list[_Cell]


def _parse_rows(body: str, ns: str) -> list[_Row]:
    rows: list[_Row] = []
    # Up to the next row (cell) at most: a row left open is not looked through to the end
    # of the part again from each of the rows after it.
    pattern = re.compile(rf"<{ns}row\b[^<>]*?(?:/>|>(?:[^<]|<(?!{ns}row\b))*?</{ns}row>)")
    cell_pattern = re.compile(rf"<{ns}c\b[^<>]*?(?:/>|>(?:[^<]|<(?!{ns}c\b))*?</{ns}c>)")
    number = 0
    for found in pattern.finditer(body):
        xml = found.group(0)
        head = xml[: xml.index(">") + 1]
        given = xml_attr(head, "r")
        number = int(given) if given else number + 1
        cells: list[_Cell] = []
        column = -1
        for cell in cell_pattern.finditer(xml):
            text = cell.group(0)
            tag = text[: text.index(">") + 1]
            letters = re.match(r"\$?([A-Z]{1,3})", xml_attr(tag, "r") or "")
            column = column_index(letters[1]) if letters else column + 1  # r is optional
            formula = re.search(rf"<{ns}f\b[^>]*>", text)
            value = re.search(rf"<{ns}v>([^<]+)</{ns}v>", text) or re.search(rf"<{ns}is>", text)
            master = formula is not None and xml_attr(formula.group(0), "t") == "shared"
            master = (
                master and formula is not None and xml_attr(formula.group(0), "ref") is not None
            )
            constant = value is not None and formula is None
            cells.append(_Cell(column, text, constant, master, formula is not None))
        rows.append(_Row(number, xml, cells))
    return sorted(rows, key=lambda row: row.number)


def header_columns(header: Sequence[object]) -> dict[str, int]:
    """Header key (:func:`~xlgrade.workbook.layout.header_key`) → column index of a sheet's
    header row; a key met twice is its first column."""
    columns: dict[str, int] = {}
    for index, text in enumerate(header):
        key = layout.header_key(text)
        if key and key not in columns:
            columns[key] = index
    return columns


def refuse_unheaded(
    sheet: str, columns: Mapping[str, int], rows: Sequence[Mapping[str, object]]
) -> None:
    """Refuse new rows holding a value the sheet has no column for, naming the header, the
    value and the row: nothing is dropped on the way into a book.

    Raises:
        FormatError: a value of a new row has no column headed for it on the sheet.
    """
    for number, values in enumerate(rows, start=1):
        for key, value in values.items():
            if value is not None and layout.header_key(key) not in columns:
                raise FormatError(
                    f"the {sheet} sheet has no column headed {quote(key)} for the value "
                    f"{quote(value)} of new row {number}; add the column and import again"
                )


def _value_text(raw: Sequence[Sequence[object]], number: int, column: int) -> object:
    row = raw[number - 1] if number - 1 < len(raw) else []
    return row[column] if column < len(row) else None


@dataclass(frozen=True)
class _Columns:
    """Where one input sheet's columns are.

    Attributes:
        sheet: the sheet's name.
        raw: the sheet's cells as read (for quoting a cell refused).
        header_row: the row of its headers (its table's first row, else row 1).
        width: how many cells the header row has.
        at: header key (:func:`~xlgrade.workbook.layout.header_key`) → column index.
        ours: the columns of xlgrade's headers; the rest are the grader's own.
        live: the live columns (Results' formulas), written by formula, never by value.
        spilling: the points columns among them, one formula a column at its first data
            row that spills over the rest (:func:`xlgrade.workbook.formulas.points_formula`):
            a new row written over that first row keeps the formula.
    """

    sheet: str
    raw: Sequence[Sequence[object]]
    header_row: int
    width: int
    at: Mapping[str, int]
    ours: frozenset[int]
    live: frozenset[int]
    spilling: frozenset[int] = frozenset()

    def where(self, row: _Row, cell: _Cell) -> str:
        """A cell of the sheet, named and its value quoted, for a refusal."""
        ref = f"{column_letters(cell.column)}{row.number}"
        return f"{self.sheet} cell {ref} ({quote(_value_text(self.raw, row.number, cell.column))})"


@dataclass(frozen=True)
class _Writing:
    """How the new rows' cells are written.

    Attributes:
        ns: the prefix of the part's elements (``""`` or ``"x:"``).
        styles: column index → the style of its cell in the last data row that styles it.
        date_style: the book's date format, for a date in a column with no style.
        date1904: the book counts dates in the 1904 date system
            (:func:`~xlgrade.workbook.relationships.book_date1904`).
        letters: each of xlgrade's headers the sheet has → its column's letters.
    """

    ns: str
    styles: Mapping[int, str]
    date_style: int | None
    date1904: bool
    letters: Mapping[str, str]


def _sheet_columns(
    sheet: str,
    raw: Sequence[Sequence[object]],
    header_row: int,
    new_rows: Sequence[Mapping[str, object]],
) -> _Columns:
    """Where the columns of the sheet ``sheet`` are, its headers in ``header_row``.

    Raises:
        FormatError: a required column is not there, or a value of ``new_rows`` has no
            column (:func:`refuse_unheaded`).
    """
    header = raw[header_row - 1] if header_row - 1 < len(raw) else []
    columns = header_columns(header)
    for needed in _REQUIRED[sheet]:
        if layout.header_key(needed) not in columns:
            raise FormatError(
                f"the {sheet} sheet has no column headed {quote(needed)} in row {header_row}"
            )
    ours = {columns[k] for k in map(layout.header_key, _HEADERS[sheet]) if k in columns}
    live = {
        columns[k]
        for k in map(layout.header_key, layout.RESULTS_FORMULA_HEADERS)
        if k in columns and sheet == layout.RESULTS
    }
    spilling = {
        columns[k]
        for k in map(layout.header_key, POINTS_HEADERS)
        if k in columns and sheet == layout.RESULTS
    }
    refuse_unheaded(sheet, columns, new_rows)
    return _Columns(
        sheet, raw, header_row, len(header), columns, frozenset(ours), frozenset(live),
        frozenset(spilling),
    )  # fmt: skip


def _sheet_data(text: str, sheet: str) -> tuple[str, str, str, str]:
    """A worksheet part's text cut at its ``<sheetData>``: what comes before it, the prefix
    of its elements, what it holds and what comes after it.

    Raises:
        FormatError: the part has no rows.
    """
    opening = re.search(r"<(\w+:)?sheetData\b[^<>]*?(/>|>)", text)
    if opening is None or opening.group(2) == "/>":  # pragma: no cover - no header row then
        raise FormatError(f"the {sheet} sheet has no rows")
    ns = opening.group(1) or ""
    close = text.find(f"</{ns}sheetData>", opening.end())
    end = close + len(f"</{ns}sheetData>")
    return text[: opening.start()], ns, text[opening.end() : close], text[end:]


def _refuse_below(columns: _Columns, rows: Sequence[_Row], region_end: int) -> None:
    """Refuse a value below the sheet's table (ending on ``region_end``): the new rows would
    go there."""
    for row in rows:
        if row.number > region_end:
            for cell in row.cells:
                if cell.constant:
                    raise FormatError(
                        f"{columns.where(row, cell)} is below the sheet's table, which ends on "
                        f"row {region_end}; the new rows would go there: move it and import again"
                    )


def _kept(columns: _Columns, data_rows: Sequence[_Row], keep: int | None) -> int:
    """How many data rows stay: ``keep``, or when ``None`` every row up to the last that holds
    a value outside the live columns."""
    if keep is not None:
        return keep
    used = [
        r.number
        for r in data_rows
        if any(c.constant and c.column not in columns.live for c in r.cells)
    ]
    return max(used, default=columns.header_row) - columns.header_row


def _column_styles(data_rows: Sequence[_Row]) -> dict[int, str]:
    """Column index → the style of its cell in the last data row that styles it."""
    styles: dict[int, str] = {}
    for row in data_rows:
        for cell in row.cells:
            style = xml_attr(cell.xml[: cell.xml.index(">") + 1], "s")
            if style is not None:
                styles[cell.column] = style
    return styles


def _refuse_losses(
    columns: _Columns,
    row: _Row,
    replaced: Sequence[_Cell],
    *,
    in_place: bool,
    dropped: bool = False,
) -> None:
    """Refuse to replace ``row`` (its cells ``replaced`` written anew; ``dropped``: the whole
    row, by none) where a value in the grader's own column or a shared formula would be lost.
    Refilled where it stands (``in_place``), a row keeps its own cells: nothing is lost."""
    own = [c for c in row.cells if c.column not in columns.ours and c.constant]
    if own and (dropped or not in_place):
        raise FormatError(
            f"{columns.where(row, own[0])} is in a column of your own on a row that would be "
            "replaced; rows can only be replaced where your columns are blank"
        )
    for cell in replaced:
        if cell.shared_master:
            ref = f"{column_letters(cell.column)}{row.number}"
            raise FormatError(
                f"{columns.sheet} cell {ref} starts a shared formula "
                "on a row that would be replaced; clear the row's formulas and import again"
            )


def _value_cells(
    columns: _Columns, number: int, values: Mapping[str, object], writing: _Writing
) -> dict[int, str]:
    """The cells of new row ``number`` holding ``values`` (header → value), by column."""
    keyed = {layout.header_key(k): v for k, v in values.items()}
    cells: dict[int, str] = {}
    for heading in _HEADERS[columns.sheet]:
        key = layout.header_key(heading)
        if key not in columns.at or columns.at[key] in columns.live:
            continue
        index = columns.at[key]
        style = writing.styles.get(index)
        written = cell_xml(
            f"{column_letters(index)}{number}",
            keyed.get(key),
            int(style) if style is not None else writing.date_style,
            int(style) if style is not None else None,
            date1904=writing.date1904,
        )
        if written:
            cells[index] = cells_in_namespace(written, writing.ns)
    return cells


def _formula_cells(columns: _Columns, number: int, writing: _Writing) -> dict[int, str]:
    """The live cells of new row ``number`` (the builder's formulas), by column; each only
    where the columns it reads are there too."""
    # The builder's module draws sheets with openpyxl: imported only here, where a file is
    # written, so that importing into a book open in xlwings Lite needs none.
    from xlgrade.workbook.build import results_formulas

    ns = writing.ns
    formulas = results_formulas(
        number, {h: writing.letters.get(h, _NOWHERE) for h in _HEADERS[columns.sheet]}
    )
    cells: dict[int, str] = {}
    for heading, formula in formulas.items():
        key = layout.header_key(heading)
        if key not in columns.at or f"{_NOWHERE}{number}" in formula:
            continue
        index = columns.at[key]
        style = writing.styles.get(index)
        s = f' s="{style}"' if style is not None else ""
        cells[index] = (
            f'<{ns}c r="{column_letters(index)}{number}"{s}>'
            f"<{ns}f>{xml_escape(formula[1:])}</{ns}f></{ns}c>"
        )
    return cells


def _new_row(
    columns: _Columns,
    number: int,
    values: Mapping[str, object],
    old: _Row | None,
    writing: _Writing,
) -> str:
    """New row ``number`` holding ``values``, over the old row ``old`` if there is one (its
    cells in the grader's own columns kept)."""
    cells: dict[int, str] = {}
    if old is not None:
        for cell in old.cells:
            if cell.column not in columns.ours or (
                cell.column in columns.spilling and cell.formula
            ):
                cells[cell.column] = cell.xml
    cells.update(_value_cells(columns, number, values, writing))
    if columns.live:
        cells.update(_formula_cells(columns, number, writing))
    joined = "".join(cells[i] for i in sorted(cells))
    return f'<{writing.ns}row r="{number}">{joined}</{writing.ns}row>'


def _rows_xml(
    columns: _Columns,
    rows: Sequence[_Row],
    region_end: int,
    keep_until: int,
    change: InputRows,
    writing: _Writing,
) -> tuple[list[str], int]:
    """The rows of the new ``<sheetData>``: the old rows to ``keep_until`` as they are, the
    new rows of ``change`` after them, then the old rows below; and the last old data row kept.

    Raises:
        FormatError: a row replaced would lose a value (:func:`_refuse_losses`).
    """
    header_row = columns.header_row
    new_end = keep_until + len(change.rows)
    out: list[str] = []
    old_by_number = {r.number: r for r in rows}
    numbers = sorted(set(old_by_number) | set(range(keep_until + 1, new_end + 1)))
    last_kept = header_row
    for number in numbers:
        old = old_by_number.get(number)
        if number <= keep_until or number > new_end:
            assert old is not None
            blank = not any(c.constant for c in old.cells)
            if number <= keep_until or number > region_end or blank:
                out.append(old.xml)
                if header_row < number <= region_end:
                    last_kept = number
            else:  # a row replaced by none
                _refuse_losses(columns, old, old.cells, in_place=change.in_place, dropped=True)
            continue
        if old is not None:
            replaced = [c for c in old.cells if c.column in columns.ours]
            _refuse_losses(columns, old, replaced, in_place=change.in_place)
        values = change.rows[number - keep_until - 1]
        out.append(_new_row(columns, number, values, old, writing))
    return out, last_kept


def _with_dimension(prefix: str, width: int, height: int) -> str:
    """The part's text before ``<sheetData>`` with its ``<dimension>`` made ``width`` columns
    by ``height`` rows."""
    return re.sub(
        r'(<(?:\w+:)?dimension\b[^>]*\bref=")[^"]*(")',
        rf"\g<1>A1:{column_letters(width - 1)}{height}\g<2>",
        prefix,
    )


def _grown_table(
    table: ExcelTable, header_row: int, table_end: int, suffix: str, sheet_data: str
) -> tuple[str, bytes, str]:
    """The ranges that ran to the table's last row made to end on ``table_end``: those of
    the part's text after ``<sheetData>`` (``suffix``: data validation, conditional
    formatting, the sheet's autofilter), the table part's and the array formulas of
    ``sheet_data``; returned in that order, the table part as bytes."""
    last = table.last_row
    suffix = shift_ranges(
        suffix, "dataValidation|conditionalFormatting", "sqref", header_row + 1, last, table_end
    )
    suffix = shift_ranges(suffix, "autoFilter", "ref", header_row, last, table_end)
    table_xml = table.xml
    for tags, first in (("table|autoFilter", header_row), ("sortState", header_row + 1)):
        table_xml = shift_ranges(table_xml, tags, "ref", first, last, table_end)
    sheet_data = grow_arrays(sheet_data, header_row + 1, last, table_end)
    return suffix, table_xml.encode("utf-8"), sheet_data


def _with_points(
    columns: _Columns, out: list[str], first: int, last: int, writing: _Writing, route: Route
) -> bool:
    """Give row ``first`` of ``out`` (the rows' XML) each points column's formula over rows
    ``first`` to ``last`` where it has none (a book whose formulas an earlier import dropped,
    or the grader cleared), as the builder writes it: an array formula marked as a dynamic
    array (``cm="1"``). Returns whether a formula was written."""
    if not columns.spilling:
        return False
    found = (
        i for i, xml in enumerate(out) if xml_attr(xml[: xml.index(">") + 1], "r") == str(first)
    )
    index = next(found, None)
    if index is None:
        return False
    ns = writing.ns
    row = _parse_rows(out[index], ns)[0]
    cells = {cell.column: cell for cell in row.cells}
    added: dict[int, str] = {}
    for header in POINTS_HEADERS:
        column = columns.at.get(layout.header_key(header))
        if column is None or (column in cells and cells[column].formula):
            continue
        letter = column_letters(column)
        style = writing.styles.get(column)
        s = f' s="{style}"' if style is not None else ""
        formula = xml_escape(points_formula(header, route)[1:])
        added[column] = (
            f'<{ns}c r="{letter}{first}"{s} cm="1"><{ns}f t="array" '
            f'ref="{letter}{first}:{letter}{last}">{formula}</{ns}f></{ns}c>'
        )
    if not added:
        return False
    xml = {column: cell.xml for column, cell in cells.items()} | added
    head = out[index][: out[index].index(">") + 1]
    head = head[:-2] + ">" if head.endswith("/>") else head
    out[index] = f"{head}{''.join(xml[c] for c in sorted(xml))}</{ns}row>"
    return True


def _sheet_part(
    data: bytes,
    sheet: str,
    part: str,
    change: InputRows,
    raw: Sequence[Sequence[object]],
    date_style: int | None,
    route: Route = CLASSIC,
) -> tuple[dict[str, bytes], int, bool]:
    """The new worksheet part (and table part) of one sheet, its first new row, and whether
    a points formula was written anew (:func:`_with_points`)."""
    members, _ = package_members(data)
    by_name = {m.name: m for m in members}
    table = find_table(data, sheet, part, by_name)
    columns = _sheet_columns(sheet, raw, table.first_row if table else 1, change.rows)
    header_row = columns.header_row
    prefix, ns, body, suffix = _sheet_data(part_text(data, by_name, part), sheet)
    rows = _parse_rows(body, ns)
    region_end = table.last_row if table else max([header_row] + [r.number for r in rows])
    _refuse_below(columns, rows, region_end)
    data_rows = [r for r in rows if header_row < r.number <= region_end]
    keep_until = header_row + _kept(columns, data_rows, change.keep)
    letters = {
        h: column_letters(columns.at[layout.header_key(h)])
        for h in _HEADERS[sheet]
        if layout.header_key(h) in columns.at
    }
    writing = _Writing(ns, _column_styles(data_rows), date_style, book_date1904(data), letters)
    out, last_kept = _rows_xml(columns, rows, region_end, keep_until, change, writing)
    table_end = max(keep_until + len(change.rows), header_row + 1, last_kept)
    mended = table is not None and _with_points(
        columns, out, header_row + 1, table_end, writing, route
    )
    width = max(
        [columns.width]
        + [c.column + 1 for r in rows for c in r.cells]
        + [i + 1 for i in columns.ours]
    )
    prefix = _with_dimension(prefix, width, max([table_end] + [r.number for r in rows]))
    replaced_parts: dict[str, bytes] = {}
    sheet_data = f"<{ns}sheetData>{''.join(out)}</{ns}sheetData>"
    if table is not None:
        suffix, replaced_parts[table.part], sheet_data = _grown_table(
            table, header_row, table_end, suffix, sheet_data
        )
    replaced_parts[part] = (prefix + sheet_data + suffix).encode("utf-8")
    return replaced_parts, keep_until + 1, mended


def book_sheets(data: bytes) -> dict[str, str]:
    """:func:`~xlgrade.workbook.relationships.sheet_parts`, with a package that lacks a part it
    names refused as a :class:`~xlgrade.errors.FormatError` too."""
    try:
        return sheet_parts(data)
    except KeyError as error:
        raise FormatError(
            f"not a workbook: the package has no part {quote(error.args[0])}"
        ) from None


def input_rows_package(
    data: bytes, changes: Mapping[str, InputRows]
) -> tuple[bytes, dict[str, int]]:
    """The package ``data`` with the data rows of the sheets in ``changes`` (Players and
    Results) replaced as the module docstring says, and the sheet row number of each sheet's
    first new row.

    Raises:
        FormatError: the book cannot take the rows without losing data (module docstring), or
            it is not a workbook, or it lacks one of the sheets.
        ValueError: a sheet other than Players or Results is named.
    """
    for sheet in changes:
        if sheet not in _HEADERS:
            raise ValueError(f"only the Players and Results sheets take rows, not {quote(sheet)}")
    parts = book_sheets(data)
    try:
        raw = read_sheets(data, list(changes))
    except Exception as error:  # the reader's own error types
        raise FormatError(f"the book cannot be read: {error}") from None
    date_style = book_date_style(data)
    names = {m.name for m in package_members(data)[0]}
    route = LITE if any(n.startswith("xl/webextensions/") for n in names) else CLASSIC
    replace: dict[str, bytes] = {}
    first: dict[str, int] = {}
    mended = False
    for sheet, change in changes.items():
        if sheet not in parts or sheet not in raw:
            raise FormatError(f"the book has no sheet named {quote(sheet)}")
        parts_now, first[sheet], written = _sheet_part(
            data, sheet, parts[sheet], change, raw[sheet], date_style, route
        )
        replace.update(parts_now)
        mended = mended or written
    edits, remove = without_calc_chain(data)
    package = assemble_package(data, replace | edits, {}, remove)
    if mended and _METADATA not in names:
        # The formula written anew is a dynamic array: the part its cm="1" points at.
        from xlgrade.workbook.build import dynamic_arrays

        package = dynamic_arrays(package)
    return package, first


def write_input_rows(
    path: str | os.PathLike[str],
    changes: Mapping[str, InputRows],
    out: str | os.PathLike[str] | None = None,
    *,
    before_rename: Callable[[str], None] | None = None,
) -> None:
    """Replace the data rows of the book at ``path`` (see :func:`input_rows_package`) and
    write it back atomically, or to ``out`` when given. ``before_rename`` is for tests (see
    :func:`xlgrade.workbook.package.write_package`)."""
    with open(path, "rb") as source:
        data = source.read()
    package, _ = input_rows_package(data, changes)
    write_package(package, out if out is not None else path, before_rename=before_rename)
