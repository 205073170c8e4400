"""Excel tables (``xl/tables/tableN.xml``): a sheet's table found, and its range, and the
ranges that run with it, grown to new rows.

A worksheet's table is the part its relationships name with the table type; its ``ref`` is
the header row and the data rows. When rows are added below (:mod:`xlgrade.workbook.inputs`),
:func:`shift_ranges` ends on the new last row each range that ended on the old one (the table's
``ref``, its ``autoFilter`` and ``sortState``; the sheet's data validation and conditional
formatting), and :func:`grow_arrays` does so for the array formulas over the table's rows.
The workbook's defined names are left as they are (the template's are whole columns).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from xlgrade._rounding import quote
from xlgrade.errors import FormatError
from xlgrade.workbook.container import package_members, part_text
from xlgrade.workbook.relationships import rels_part, resolve_part_name
from xlgrade.workbook.xmltext import xml_attr

__all__ = ["ExcelTable", "find_table", "grow_arrays", "shift_ranges"]

_TABLE_TYPE: Final = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/table"
_REF: Final = re.compile(r"^(\$?[A-Z]{1,3}\$?)(\d+)(?::(\$?[A-Z]{1,3}\$?)(\d+))?$")


@dataclass(frozen=True)
class ExcelTable:
    """An Excel table (a ``<table>`` part) over a sheet's rows.

    Attributes:
        part: the table part's name (``xl/tables/table1.xml``).
        xml: the part's text.
        first_row: the row of its header (the first row of its ``ref``).
        last_row: the last row of its ``ref``.
    """

    part: str
    xml: str
    first_row: int
    last_row: int


def find_table(
    data: bytes, sheet: str, part: str, names: Mapping[str, object]
) -> ExcelTable | None:
    """The one Excel table of the sheet ``sheet`` (its worksheet part ``part``; ``names``: the
    package's part names), or ``None`` when it has none.

    Raises:
        FormatError: the sheet has more than one table, or its table has no range or has a
            totals row.
    """
    rels_name = rels_part(part)
    if rels_name not in names:
        return None
    members, _ = package_members(data)
    by_name = {m.name: m for m in members}
    rels = part_text(data, by_name, rels_name)
    tables = [
        resolve_part_name(part, xml_attr(tag, "Target") or "")
        for tag in re.findall(r"<Relationship\b[^>]*>", rels)
        if xml_attr(tag, "Type") == _TABLE_TYPE
    ]
    tables = [t for t in tables if t in by_name]
    if not tables:
        return None
    if len(tables) > 1:
        raise FormatError(
            f"the {sheet} sheet has {len(tables)} Excel tables; rows can be added to a sheet "
            "with one table only"
        )
    xml = part_text(data, by_name, tables[0])
    tag = re.search(r"<(?:\w+:)?table\b[^>]*>", xml)
    ref = xml_attr(tag.group(0), "ref") if tag else None
    match = _REF.match(ref or "")
    if tag is None or match is None or match[3] is None:
        raise FormatError(f"the {sheet} sheet's table {tables[0]} has no range (ref) to read")
    if int(xml_attr(tag.group(0), "totalsRowCount") or 0) > 0:
        raise FormatError(
            f"the {sheet} sheet's table {quote(xml_attr(tag.group(0), 'name'))} has a totals row; "
            "turn it off (Table Design ▸ Total Row) before adding rows"
        )
    return ExcelTable(tables[0], xml, int(match[2]), int(match[4]))


def shift_ranges(text: str, tags: str, attribute: str, first: int, old: int, new: int) -> str:
    """Ranges in ``attribute`` of the ``tags`` that run from row ``first`` to row ``old`` end
    on row ``new`` instead."""

    def one(ref: str) -> str:
        match = _REF.match(ref)
        if match is None or match[3] is None or int(match[2]) != first or int(match[4]) != old:
            return ref
        return f"{match[1]}{match[2]}:{match[3]}{new}"

    def tag(found: re.Match[str]) -> str:
        return re.sub(
            rf'(\b{attribute}=")([^"]*)(")',
            lambda m: m[1] + " ".join(one(r) for r in m[2].split()) + m[3],
            found.group(0),
        )

    return re.sub(rf"<(?:\w+:)?(?:{tags})\b[^>]*>", tag, text)


def grow_arrays(sheet_data: str, first: int, old: int, new: int) -> str:
    """The array formulas of ``sheet_data`` that cover the table's rows, from row ``first`` to
    row ``old``, made to cover them to row ``new``: the points columns beside the table, as
    Excel 2019 and older and LibreOffice compute them (Excel 365 and 2021 spill them anyway)."""
    return re.sub(
        r'<(?:\w+:)?f\b[^>]*\bt="array"[^>]*>',
        lambda found: shift_ranges(found.group(0), "f", "ref", first, old, new),
        sheet_data,
    )
