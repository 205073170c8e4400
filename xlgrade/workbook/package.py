"""Read the input sheets of a workbook file and rewrite its output sheets, touching nothing else.

A full load and save with a spreadsheet library drops what it does not model (VBA, the ribbon,
images, charts, dynamic-array formulas). Here the package is handled as the zip it is: every
member other than the output sheets' worksheet parts is copied as raw compressed bytes (its
local header, data and descriptor verbatim), and only the output sheets' ``<sheetData>`` and
column widths are replaced (:mod:`xlgrade.workbook.sheetxml`); their frozen panes and print
settings stay. Strings are written inline, so the shared-strings part is not touched either;
the styles part gains the output sheets' cell formats if it lacks them (a book built by
``xlgrade template`` has them already). An output sheet the book lacks is added (the
workbook part, its relationships and the content types then gain one entry each).

The zip container is :mod:`xlgrade.workbook.container` (listing, inflating and deflating the
parts, putting a package together); the relationships from the package root to each sheet,
and the entries a sheet added needs, are :mod:`xlgrade.workbook.relationships`; the styles part
is :mod:`xlgrade.workbook.styles`.

The write is whole or not at all (:mod:`xlgrade.formats.files`): the new package goes to a
temporary file beside the target, is flushed to disk and renamed over it, under the target's
lock; if anything fails on the way the target is left as it was. The new file keeps the
permission bits of the one it replaces (a new file gets the usual ones, from the umask); a
symbolic link is followed, so the file it points to is replaced and the link stays; a
read-only file, or a book open in Excel or LibreOffice, is refused, not replaced
(:func:`xlgrade.formats.files.check_target`).
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final, Protocol
from xml.parsers import expat

from xlgrade.cells import quote
from xlgrade.errors import FormatError
from xlgrade.formats.files import write_whole
from xlgrade.model import Problem
from xlgrade.schema import column_letters
from xlgrade.workbook import layout
from xlgrade.workbook.container import (
    MAX_COLUMNS,
    MAX_PACKAGE_BYTES,
    MAX_ROWS,
    MAX_SHEET_CELLS,
    Deflated,
    Scan,
    assemble_package,
    deflate_chunks,
    inflated_pieces,
    inflated_size,
    package_members,
    part_text,
    read_part,
    said_reference,
    workbook_members,
)
from xlgrade.workbook.relationships import (
    add_sheet_entries,
    book_date1904,
    refuse_missing_targets,
    sheet_parts,
)
from xlgrade.workbook.sheetxml import column_index, sheet_xml_chunks
from xlgrade.workbook.styles import book_date_style, book_styles, styles_part
from xlgrade.workbook.xmltext import (
    refuse_foreign_encoding,
    xml_bytes,
    xml_text,
    xml_unescape,
)

__all__ = [
    "SheetTable",
    "check_package",
    "check_parts",
    "check_rereads",
    "read_league_sheets",
    "read_sheets",
    "sheet_extent",
    "write_package",
    "write_sheets",
]


class SheetTable(Protocol):
    """A block of output: a header row and data rows (:class:`xlgrade.season.Table` is one)."""

    @property
    def headers(self) -> tuple[str, ...]:
        """Column headers, written in row 1."""

    @property
    def rows(self) -> list[tuple[object, ...]]:
        """Data rows, written from row 2."""


_NEGATIVE_VALUE: Final = re.compile(
    rb'<(?:[\w.-]+:)?c\b(?>[^<>]*?\sr="([A-Z]+[0-9]+)")[^<>]*?\ss="[^<>]*>'
    rb"(?:<(?:[\w.-]+:)?f\b[^<>]*(?:/>|>[^<]*</(?:[\w.-]+:)?f>))?<(?:[\w.-]+:)?v>(-[^<]*)<"
)
_FIRST_DAY: Final = -693_594.0  # 1 January of the year 1, in Excel's day numbers
_FAR_ROW: Final = re.compile(rb' r="[A-Z]{0,3}([0-9]{6,})"')
_FAR_COLUMN: Final = re.compile(rb' r="([A-Z]{2,})[0-9]')
_CONTENT_CELL: Final = re.compile(
    rb'<(?:[\w.-]+:)?c\b(?>[^<>]*?\sr="([A-Z]+)([0-9]+)")[^<>]*?(/?)>'
)
"""A cell's start tag. Each pattern of a start tag here looks no further than the tag's own
``<`` and ``>`` (``[^<>]``), and takes the first attribute it looks for as found (an atomic
group): otherwise a tag left open (``<c r="A1" `` repeated, no ``>``) is looked through again
from each ``<c`` and each ``r=``, and 100 KB take minutes."""


def check_package(data: bytes, sheets: Sequence[str] = ()) -> None:
    """Refuse, before any sheet is read, a file that is not a workbook package xlgrade can
    read, and the zip bombs and over-large sheets the limits of ``docs/limits.md`` bound.

    An old Excel 97-2003 ``.xls``, an encrypted book (an OLE compound file holding an
    ``EncryptedPackage``, ECMA-376 part 2 § 13) and an OpenDocument ``.ods`` are refused up
    front; so is a package without its content types or its relationships, a sheet whose part
    is missing, a package that declares more than :data:`MAX_PACKAGE_BYTES` inflated, and a
    part larger than :data:`MAX_PART_BYTES` (:func:`read_part`). The used range of each sheet
    of ``sheets`` is bounded by its cells, read from its XML before the spreadsheet reader
    makes a grid of it (:func:`sheet_extent`).

    Raises:
        FormatError: saying which of these the file is, and what to do.
    """
    _checked_parts(data, sheets)


_XML_PARTS: Final = (".xml", ".rels", ".vml")
"""How the names of the parts read as XML end (the drawings of comments are VML, XML too)."""
_REPLACED_WHOLE: Final = 20
_ROOT_END: Final = re.compile(rb"</(?:[\w.-]+:)?worksheet>\s*$")


def check_parts(data: bytes, skip: Collection[str] = (), replaced: Collection[str] = ()) -> None:
    """Refuse a package with a damaged part before anything is written from it: each part but
    those of ``skip`` (read by the caller, which checks them itself) inflates to its checksum
    (:func:`inflated_pieces`), each XML part is well-formed, each worksheet part holds no more
    than :class:`Scan` allows, and each part a relationship leads to (not an external target)
    is in the package. The parts of ``replaced`` (about to be written anew) are inflated and
    scanned only. Otherwise the damage would be copied into the book written, and the run said
    to succeed. Each part is looked at a piece at a time, never whole.

    Raises:
        FormatError: naming the part and what is wrong with it.
    """
    members, _ = package_members(data)
    names = {m.name for m in members}
    sheets = {part: sheet for sheet, part in sheet_parts(data).items()}
    for member in members:
        name = member.name
        if name.endswith("/") or name in skip:
            continue
        xml = name.lower().endswith(_XML_PARTS) and name not in replaced
        # A part replaced is written anew: looked at only if, inflated whole, it would hold
        # more than twenty times the book's bytes (docs/limits.md).
        if name in replaced and inflated_size(member) <= _REPLACED_WHOLE * len(data):
            continue
        scan = Scan(sheets[name], member) if name in sheets else None
        parser = expat.ParserCreate() if xml else None
        rels = bytearray() if name.endswith(".rels") else None
        try:
            for at, piece in enumerate(inflated_pieces(data, member)):
                if scan is not None:
                    scan(piece)
                if parser is not None:
                    if at == 0:  # the declaration, before expat reads it
                        refuse_foreign_encoding(piece, name)
                    parser.Parse(piece, False)
                if rels is not None:
                    rels += piece
            if parser is not None:
                parser.Parse(b"", True)
        except expat.ExpatError as error:
            raise FormatError(
                f"the part {quote(name)} is damaged: it is not well-formed XML ({error}); "
                "open the book in Excel, let it repair the book, and save it again"
            ) from None
        if rels is not None:
            refuse_missing_targets(xml_text(bytes(rels), name), name, names)


def _checked_parts(data: bytes, sheets: Sequence[str]) -> dict[str, bytes]:
    """:func:`check_package`, returning the parts of ``sheets`` it inflated, by part name, for
    the reader to use rather than inflate them again."""
    members = workbook_members(data)
    by_name = {m.name: m for m in members}
    declared = sum(inflated_size(m) for m in members)
    if declared > MAX_PACKAGE_BYTES:
        raise FormatError(
            f"the package declares {declared:,} bytes inflated, more than the "
            f"{MAX_PACKAGE_BYTES:,} xlgrade reads (see docs/limits.md)"
        )
    for required in ("[Content_Types].xml", "_rels/.rels"):
        if required not in by_name:
            raise FormatError(
                f"not a workbook: the package has no {quote(required)} (it is damaged; Excel "
                "would not open it either)"
            )
    parts = sheet_parts(data)
    inflated: dict[str, bytes] = {}
    for name in sheets:
        part = parts.get(name)
        if part is None:
            continue
        if part not in by_name:
            raise FormatError(f"the sheet {quote(name)} has no part {quote(part)} in the package")
        inflated[part] = read_part(data, by_name[part], scan=Scan(name, by_name[part]))
        refuse_foreign_encoding(inflated[part][:400], part)
        utf16 = inflated[part].startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        if not utf16 and not _ROOT_END.search(inflated[part][-256:]):
            raise FormatError(
                f"the sheet {quote(name)} is damaged: its part {quote(part)} stops before "
                "its end (no </worksheet>)"
            )
        sheet_extent(inflated[part], name)
    for member in members:  # the strings every sheet refers to: read whole, so bounded too
        if member.name.endswith("sharedStrings.xml"):
            read_part(data, member, scan=Scan("", member))
    return inflated


def sheet_extent(xml: bytes, sheet: str) -> tuple[int, int]:
    """The used range of a worksheet part, rows × columns, from the references of its rows and
    cells (not from the sheet's own ``<dimension>`` claim), bounded by the limits.

    A quick look at the references far out (two letters or more, six digits or more) gives
    a range at least as large as the reader's; only when that passes a limit are the cells
    that hold something read one by one, so an empty formatted cell far out is no reason to
    refuse the sheet.

    Raises:
        FormatError: a cell holding something past :data:`MAX_ROWS` or :data:`MAX_COLUMNS`,
            a used range of more than :data:`MAX_SHEET_CELLS`, or a number no cell of a
            league book holds (a date before the year 1), naming the cell.
    """
    numbers = _FAR_ROW.findall(xml)
    longest = max(map(len, numbers), default=0)
    rows = _row_and_column(max(n for n in numbers if len(n) == longest))[0] if numbers else 0
    letters = _FAR_COLUMN.findall(xml)
    widest = max(map(len, letters), default=0)
    # Without a reference of two letters, no column is past Z.
    columns = _row_and_column(max(x for x in letters if len(x) == widest))[1] if letters else 26
    if rows > MAX_ROWS or columns > MAX_COLUMNS or rows * columns > MAX_SHEET_CELLS:
        refs = [
            b"".join(found.group(1, 2))
            for found in _CONTENT_CELL.finditer(xml)
            if not found.group(3)
        ]
        rows, columns = _extent(refs)
        far_row = max(refs, key=lambda ref: _row_and_column(ref)[0], default=b"").decode()
        far_column = max(refs, key=lambda ref: _row_and_column(ref)[1], default=b"").decode()
        far_row, far_column = said_reference(far_row), said_reference(far_column)
        if rows > MAX_ROWS:
            raise FormatError(
                f"sheet {quote(sheet)}: cell {far_row} is past row {MAX_ROWS:,}, Excel's last"
            )
        if columns > MAX_COLUMNS:
            raise FormatError(
                f"sheet {quote(sheet)}: cell {far_column} is past column "
                f"{column_letters(MAX_COLUMNS - 1)}, the last xlgrade reads (see "
                "docs/limits.md): clear the cells beyond it"
            )
        if rows * columns > MAX_SHEET_CELLS:
            raise FormatError(
                f"sheet {quote(sheet)}: its used range, to row {rows:,} ({far_row}) and column "
                f"{column_letters(columns - 1)} ({far_column}), is more than the "
                f"{MAX_SHEET_CELLS:,} cells xlgrade reads (see docs/limits.md): clear the "
                "cells far from the table"
            )
    if b"<v>-" in xml:  # a date far before the year 1 stops the spreadsheet reader
        for ref, value in _NEGATIVE_VALUE.findall(xml):
            if _far_negative(value):
                raise FormatError(
                    f"sheet {quote(sheet)}: cell {said_reference(ref.decode())} holds "
                    f"{quote(value.decode(errors='replace'))}, which is no date, grade or "
                    "count"
                )
    return rows, columns


def _row_and_column(ref: bytes) -> tuple[int, int]:
    """The row number and column number (from 1) of a reference, 0 for a missing part;
    references past any limit count as 10**8."""
    letters = ref.rstrip(b"0123456789")
    number = ref[len(letters) :]
    row = (int(number) if len(number) <= 8 else 10**8) if number else 0
    column = (column_index(letters.decode()) + 1 if len(letters) <= 4 else 10**8) if letters else 0
    return row, column


def _extent(refs: Sequence[bytes]) -> tuple[int, int]:
    rows = columns = 0
    for ref in refs:
        row, column = _row_and_column(ref)
        rows, columns = max(rows, row), max(columns, column)
    return rows, columns


def _far_negative(value: bytes) -> bool:
    try:
        number = float(value[:40])
    except ValueError:
        return False
    return not number > _FIRST_DAY


def read_sheets(
    path: str | os.PathLike[str] | bytes,
    names: Sequence[str],
    *,
    source: str | None = None,
    notes: list[Problem] | None = None,
) -> dict[str, list[list[object]]]:
    """The cell values of the sheets ``names`` of the workbook at ``path`` (or of the package
    bytes ``path``, named ``source`` in messages), header row first.

    Read with python-calamine (formulas give their cached values). Blank cells are ``None``;
    numbers are floats or ints, dates :class:`datetime.date` or :class:`datetime.datetime`.
    A sheet the book lacks is left out of the result.

    Merged cells and hidden rows (the decision, as a grader reads the sheet): a value in merged
    cells over several rows (a date typed once beside a match's boards) is read in each of
    those rows that holds anything else, in the merge's first column; the other columns of a
    merge are blank, as they are in Excel. A hidden row is read like any other. Each is noted
    in ``notes``, when given: a ``"merged cell"`` problem for each row given the value, a
    ``"hidden row"`` one for each hidden row that holds a value
    (:data:`xlgrade.season.checks.ROW_NOTES`: notes, not reasons).

    Raises:
        FormatError: the file is not a workbook, naming it; merged cells that overlap past
            :data:`MAX_SHEET_CELLS` cells.
    """
    from python_calamine import CalamineError, CalamineWorkbook

    if isinstance(path, bytes):
        data, where = path, source or "the workbook"
    else:
        with open(path, "rb") as stream:  # an OSError here names the file
            data, where = stream.read(), os.fspath(path)
    out: dict[str, list[list[object]]] = {}
    try:
        inflated = _checked_parts(data, names)
    except FormatError as error:
        raise FormatError(f"{where}: {error}") from None
    name = ""
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    except CalamineError as error:
        bad = _bad_value(inflated.get(sheet_parts(data).get(name, ""), b""))
        if bad is not None:
            raise FormatError(f"{where}: sheet {quote(name)}: {bad}") from None
        raise FormatError(f"{where}: not a workbook: {error}") from None
    for name in names:
        if name not in book.sheet_names:
            continue
        try:
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        except CalamineError as error:  # the sheet's part: an entity it declares, say
            bad = _bad_value(inflated.get(sheet_parts(data).get(name, ""), b""))
            if bad is not None:
                raise FormatError(f"{where}: sheet {quote(name)}: {bad}") from None
            raise FormatError(f"{where}: sheet {quote(name)} cannot be read: {error}") from None
        out[name] = [[None if value == "" else value for value in row] for row in rows]
    found = _from_the_xml(data, out, where, inflated)
    if notes is not None:
        notes.extend(found)
    return out


_ERROR_CELL: Final = re.compile(
    r'<c\b(?=[^<>]*?\bt="e")(?>[^<>]*?\br="([A-Z]{1,3})(\d+)")[^<>]*>'
    r"(?:<f\b[^<>]*(?:/>|>[^<]*</f>))?<v>([^<]*)</v>",
)


_VALUE_CELL: Final = re.compile(
    rb"<(?:[\w.-]+:)?c\b(?>([^<>]*))>(?:<(?:[\w.-]+:)?f\b[^<>]*(?:/>|>[^<]*</(?:[\w.-]+:)?f>))?"
    rb"<(?:[\w.-]+:)?v>([^<]*)<"
)
_ATTRIBUTE: Final = re.compile(rb'\b(r|t)="([^"]*)"')


def _bad_value(raw: bytes) -> str | None:
    """The first cell of the worksheet part ``raw`` whose ``<v>`` is not a value of its type
    (a number, a boolean's 0 or 1, a shared string's index), in words naming the cell and
    quoting the value; ``None`` if there is none (the reader refused something else)."""
    for found in _VALUE_CELL.finditer(raw):
        attributes = dict(_ATTRIBUTE.findall(found.group(1)))
        kind = attributes.get(b"t", b"n")
        value = found.group(2).decode("utf-8", errors="replace")
        if kind == b"n":
            try:
                float(value)
                continue
            except ValueError:
                said = "a number"
        elif kind == b"b" and value.strip() not in ("0", "1"):
            said = "a true or false value (1 or 0)"
        elif kind == b"s" and not value.strip().isdecimal():
            said = "the number of a shared string"
        else:
            continue
        cell = attributes.get(b"r", b"").decode("utf-8", errors="replace")
        return (
            f"cell {said_reference(cell)} holds {quote(value)} where its type says "
            f"{said}: the sheet is damaged; open the book in Excel and save it again"
        )
    return None


def _from_the_xml(
    data: bytes,
    sheets: dict[str, list[list[object]]],
    where: str,
    inflated: Mapping[str, bytes],
) -> list[Problem]:
    """What python-calamine leaves out of each sheet's cells, from its part as the package
    check inflated it (``inflated``, by part name; each is inflated once): error cells
    (:func:`_error_values`), merged cells and hidden rows (:func:`_merged_and_hidden`, whose
    notes are returned)."""
    try:
        parts = sheet_parts(data)
    except (FormatError, KeyError, ValueError):
        return []
    notes: list[Problem] = []
    for name, rows in sheets.items():
        raw = inflated.get(parts.get(name, ""))
        if raw is None:
            continue
        _error_values(raw, rows)
        notes += _merged_and_hidden(raw, rows, name, where)
    return notes


def _error_values(raw: bytes, rows: list[list[object]]) -> None:
    """Put each error cell's text (``#N/A``, ``#REF!``…) where the reader left it blank, so that
    a formula gone wrong is reported as the text it shows, not taken for an empty cell."""
    if b't="e"' not in raw:  # most books have no error cell: no decoding, no search
        return
    text = raw.decode("utf-8", errors="replace")
    for letters, number, shown in _ERROR_CELL.findall(text):
        row, column = int(number) - 1, column_index(letters)
        while len(rows) <= row:
            rows.append([])
        while len(rows[row]) <= column:
            rows[row].append(None)
        rows[row][column] = xml_unescape(shown)


_MERGE: Final = re.compile(
    rb'<(?:[\w.-]+:)?mergeCell\b[^<>]*?\bref="([A-Z]{1,3})([0-9]{1,7}):([A-Z]{1,3})([0-9]{1,7})"'
)
_HIDDEN_ROW: Final = re.compile(
    rb'<(?:[\w.-]+:)?row\b(?=[^<>]*?\bhidden="(?:1|true)")[^<>]*?\br="([0-9]{1,7})"'
)


def _merged_and_hidden(
    raw: bytes, rows: list[list[object]], name: str, where: str
) -> list[Problem]:
    """Fill each merge's value down its rows of sheet ``name`` (part ``raw``) and note it, and
    note the hidden rows (see :func:`read_sheets`)."""
    notes: list[Problem] = []
    merges = _MERGE.findall(raw) if b"mergeCell" in raw else []
    hidden = _HIDDEN_ROW.findall(raw) if b"hidden=" in raw else []
    header = rows[0] if rows else []
    filled = 0
    for first_letters, first, _, last in merges:
        top, bottom = int(first), min(int(last), len(rows))
        column = column_index(first_letters.decode("ascii"))
        if top < 2 or top >= bottom:  # a header merged over two rows is no value of theirs
            continue
        filled += bottom - top
        if filled > MAX_SHEET_CELLS:
            raise FormatError(
                f"{where}: sheet {quote(name)}: its merged cells overlap, covering more than "
                f"{MAX_SHEET_CELLS:,} cells"
            )
        source = rows[top - 1]
        value = source[column] if column < len(source) else None
        if value is None:
            continue
        label = f"{first_letters.decode('ascii')}{top}"
        heading = header[column] if column < len(header) and header[column] else None
        shown = f" ({heading})" if heading is not None else ""
        for number in range(top + 1, bottom + 1):
            row = rows[number - 1]
            if column < len(row) and row[column] is not None:
                continue
            if not any(cell is not None for cell in row):
                continue
            row.extend([None] * (column + 1 - len(row)))
            row[column] = value
            ref = f"{first_letters.decode('ascii')}{number}"
            notes.append(
                Problem(
                    name,
                    number,
                    "merged cell",
                    f"cell {ref}{shown} is merged with {label} above it: read as "
                    f"{label}'s {quote(value)}",
                )
            )
    for number_text in hidden:
        number = int(number_text)
        if number <= len(rows) and any(cell is not None for cell in rows[number - 1]):
            notes.append(
                Problem(
                    name,
                    number,
                    "hidden row",
                    f"row {number} is hidden: it is read all the same",
                )
            )
    return notes


def write_sheets(
    path: str | os.PathLike[str],
    tables: Mapping[str, SheetTable],
    out: str | os.PathLike[str] | None = None,
    *,
    data: bytes | None = None,
    before_rename: Callable[[str], None] | None = None,
) -> None:
    """Rewrite the sheets named in ``tables`` of the workbook at ``path``; keep all else.

    Writes to ``out`` when given, else replaces ``path``; either way atomically. Sheets the book
    lacks are added at the end. ``data``, when given, is the package as already read from
    ``path``. ``before_rename`` (for tests) is called with the temporary
    file's name just before it is renamed into place.
    """
    if data is None:
        with open(path, "rb") as source:
            data = source.read()
    parts = sheet_parts(data)
    members, _ = package_members(data)
    by_name = {m.name: m for m in members}
    dates = book_date_style(data)
    date1904 = book_date1904(data)
    replace: dict[str, bytes | Deflated] = {}
    add: dict[str, bytes | Deflated] = {}
    styles: dict[str, int] = {}
    styled_part = styles_part(data)
    if styled_part is not None:
        try:
            before = part_text(data, by_name, styled_part)
            styled, styles = book_styles(before)
        except FormatError:  # a styles part written another way: plain cells, as before
            styles = {}
        else:
            if styled != before:  # a book that has the formats keeps its part as it is
                replace[styled_part] = xml_bytes(styled)

    def part_xml(old: bytes | None, table: SheetTable) -> Deflated:
        return deflate_chunks(
            sheet_xml_chunks(
                old,
                table.headers,
                table.rows,
                date_style=dates,
                styles=styles,
                cell_styles=getattr(table, "styles", None),
                date1904=date1904,
            )
        )

    for name, table in tables.items():
        part = parts.get(name)
        if part is not None and part in by_name:
            try:
                replace[part] = part_xml(read_part(data, by_name[part]), table)
            except FormatError as error:
                raise FormatError(
                    f"{os.fspath(path)}: sheet {quote(name)} cannot be rewritten: {error}"
                ) from None
            continue
        number = 1
        taken = set(by_name) | set(add)
        while f"xl/worksheets/sheet{number}.xml" in taken:
            number += 1
        part = f"xl/worksheets/sheet{number}.xml"
        add[part] = part_xml(None, table)
        staged = assemble_package(data, replace, add)
        entries = add_sheet_entries(staged, name, part)
        data = assemble_package(staged, entries, {})
        members, _ = package_members(data)
        by_name = {m.name: m for m in members}
        replace = {}
        add = {}
    write_package(
        assemble_package(data, replace, add),
        out if out is not None else path,
        before_rename=before_rename,
    )


def read_league_sheets(
    data: bytes, path: str | os.PathLike[str], notes: list[Problem] | None = None
) -> dict[str, list[list[object]]]:
    """The input sheets' cells of the package ``data`` read from ``path``
    (:func:`read_sheets`; its notes of merged cells and hidden rows
    go to ``notes`` when given).

    The package's other parts are checked too (:func:`check_parts`),
    so that a damaged one is not copied into a book written from these sheets.

    Raises:
        FormatError: the file is not a workbook, or lacks a sheet of
            :data:`~xlgrade.workbook.layout.REQUIRED_SHEETS`: then it is not a league
            workbook, and nothing is written to it; a part is damaged.
    """
    where = os.fspath(path)
    raw = read_sheets(data, layout.READ_SHEETS, source=where, notes=notes)
    missing = [name for name in layout.REQUIRED_SHEETS if name not in raw]
    if missing:
        names = " nor ".join(repr(name) for name in missing)
        raise FormatError(
            f"{where}: not a league workbook: it has no sheet named {names} "
            "(xlgrade template OUT.xlsm writes an empty one)"
        )
    parts = sheet_parts(data)
    read = {parts[name] for name in layout.READ_SHEETS if name in parts}
    replaced = {parts[name] for name in layout.OUTPUT_SHEETS if name in parts}
    try:
        check_parts(data, skip=read, replaced=replaced)
    except FormatError as error:
        raise FormatError(f"{where}: {error}") from None
    return raw


def check_rereads(written: bytes, target: str | os.PathLike[str]) -> None:
    """Refuse a league book about to be written at ``target`` (its bytes ``written``) that
    xlgrade's own reader would refuse: what ``xlgrade recalc`` reads of it
    (:func:`read_league_sheets`). A book is written from parts it did not read (a sheet
    ``ratings`` or ``import`` leaves as it is, say), and one of them may hold what the
    reader refuses (an entity declared in a sheet's XML and used there); such a book is
    not written.

    Raises:
        FormatError: naming ``target``, saying nothing was written, and the reader's reason.
    """
    where = os.fspath(target)
    try:
        read_league_sheets(written, where)
    except FormatError as error:
        said = str(error).removeprefix(f"{where}: ")
        raise FormatError(
            f"{where}: nothing was written: xlgrade would not read the book it would write "
            f"({said}); the fault is in a part of the book it was made from, kept as it was: "
            "open that book in Excel, let it repair it, save it, and run again"
        ) from None


def write_package(
    package: bytes,
    target: str | os.PathLike[str],
    *,
    before_rename: Callable[[str], None] | None = None,
) -> None:
    """Write the package bytes to ``target`` whole or not at all
    (:func:`xlgrade.formats.files.write_whole`): a temporary file beside it, flushed to disk and
    renamed over it, under the target's lock; on any failure the target is left as it was.

    ``target`` is checked first (:func:`xlgrade.formats.files.check_target`): a read-only file
    or a book open in Excel or LibreOffice is refused and a symbolic link is followed. The new
    file keeps the replaced file's permission bits, or gets those of any new file (0o666 less
    the umask).
    The temporary file is read again before the rename as ``xlgrade recalc`` reads a book
    (:func:`check_rereads`): a book xlgrade would not read is not written. ``before_rename``
    (for tests) is called with the temporary file's name after that check, just before the
    rename.

    Raises:
        FormatError: the book written would not be read again (:func:`check_rereads`).
        OSError: as :func:`xlgrade.formats.files.write_whole`.
    """

    def check(temporary: str) -> None:
        with open(temporary, "rb") as stream:
            check_rereads(stream.read(), target)
        if before_rename is not None:
            before_rename(temporary)

    write_whole(package, target, before_rename=check)
