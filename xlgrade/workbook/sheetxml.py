"""The XML of an output sheet: its cells and column widths, as a grader reads and prints it.

:func:`sheet_xml` writes a worksheet part's ``<sheetData>`` (numbers as numbers, dates as dates,
text inline) and its ``<cols>``: each column as wide as its widest cell, so no name or date is
cut off and no header runs into the next. The styles a sheet's cells name are the book's own
cell formats, those of :data:`xlgrade.workbook.styles.STYLES` (the styles part is
:mod:`xlgrade.workbook.styles`).

Widths are counted in characters, as Excel's column width is (the width of a digit of the
book's font): a cell's shown text, two characters of margin, a bold header a tenth wider, up to
:data:`WIDEST` characters; longer text wraps within the column.
"""

from __future__ import annotations

import codecs
import datetime as dt
import itertools
import math
import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Final, cast

from xlgrade.cells import date_serial, excel_epoch
from xlgrade.errors import FormatError
from xlgrade.schema import column_letters
from xlgrade.workbook.styles import STYLES
from xlgrade.workbook.xmltext import (
    xml_attr,
    xml_bytes,
    xml_escape,
    xml_text,
)

__all__ = [
    "WIDEST",
    "cell_xml",
    "cells_in_namespace",
    "column_index",
    "column_widths",
    "sheet_xml",
    "sheet_xml_chunks",
    "shown_text",
]

_MAIN_NS: Final = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_BAD_XML_CHARS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_PLAIN_SPACING: Final = re.compile(r"(?:[^\s]+(?: [^\s]+)*)?")
_COLS: Final = re.compile(
    r"<(?:\w+:)?cols\b[^<>]*/>|<(\w+:)?cols\b(?:[^<]|<(?!(?:\w+:)?cols\b))*?</(?:\w+:)?cols>"
)

WIDEST: Final = 80
"""The widest a column is made, in characters; longer text wraps (the Exceptions sheet's season
summary, a long reason)."""
_MARGIN: Final = 3
_CHARACTERS_PER_WIDTH: Final = 1.1
"""Characters of text in a unit of column width (a digit's width): letters are narrower on
average, so a line of prose holds about a tenth more."""
_LINE_HEIGHT: Final = 15.0
"""Points a line of text takes: Excel's default row height for its default 11-point font."""
_NARROWEST: Final = 4


def column_index(letters: str) -> int:
    """A column's index counted from 0 (A → 0, AA → 26), the inverse of
    :func:`~xlgrade.schema.column_letters`; a ``$`` (an absolute reference's) is passed over."""
    index = 0
    for letter in letters.replace("$", ""):
        index = index * 26 + ord(letter) - 64
    return index - 1


def shown_text(value: object) -> str:
    """The text a cell shows for ``value`` in General format (or ``yyyy-mm-dd`` for a date)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ") if value.time() != dt.time() else value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.10g}"
    return str(value)


def column_widths(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    styles: Mapping[tuple[int, int], str] | None = None,
) -> list[float]:
    """Each column's width in characters: the longest line of its header (bold, a tenth wider)
    or of a cell's shown text (with what its style adds), plus a margin; at most :data:`WIDEST`.

    ``styles`` maps (row index in ``rows``, column index) to a name in
    :data:`~xlgrade.workbook.styles.STYLES`.
    """
    columns = itertools.zip_longest(*rows)
    distinct = [_distinct(values, set(map(type, values))) for values in columns]
    return _widths(headers, rows, distinct, styles or {})


def _widths(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    distinct: Sequence[Iterable[object]],
    marks: Mapping[tuple[int, int], str],
) -> list[float]:
    """:func:`column_widths`, ``distinct`` the values of each column of ``rows``
    (:func:`_distinct`)."""
    longest = [0.0] * max(len(headers), len(distinct))
    for column, header in enumerate(headers):
        longest[column] = _longest_line(str(header)) * 1.1
    # Every cell as plain text first, one distinct value of a column at a time (a column of
    # 30,000 cells holds a few hundred values).
    for column, values in enumerate(distinct):
        size = float(max(map(_longest_line, map(shown_text, values)), default=0))
        if size > longest[column]:
            longest[column] = size
    # Then the cells whose style adds to their text: never less than their plain size, each
    # distinct value of a column in a style once.
    marked: dict[tuple[int, str], list[object]] = {}
    for (r, column), name in marks.items():
        style = STYLES.get(name)
        if style is None or not (style.extra or style.bold):
            continue
        if r >= len(rows) or column >= len(rows[r]):
            continue
        marked.setdefault((column, name), []).append(rows[r][column])
    for (column, name), values in marked.items():
        style = STYLES[name]
        for value in _distinct(values, set(map(type, values))):
            text = shown_text(value)
            if not text:
                continue
            size = float(_longest_line(text) + style.extra)
            if style.bold:
                size *= 1.1
            if size > longest[column]:
                longest[column] = size
    return [round(min(max(size, _NARROWEST) + _MARGIN, WIDEST), 1) for size in longest]


def _distinct(values: Sequence[object], kinds: set[type]) -> Iterable[object]:
    """The values of ``values`` (of the types ``kinds``) each once where they can be told apart
    by a set (a bool is a value apart: True == 1 in a set; a value that cannot be hashed keeps
    every cell)."""
    try:
        return values if bool in kinds else set(values)
    except TypeError:
        return values


def _longest_line(text: str) -> int:
    """The length of the longest line of ``text``."""
    return max(map(len, text.split("\n"))) if "\n" in text else len(text)


def _heights(
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    marks: Mapping[tuple[int, int], str],
) -> dict[int, float]:
    """The height in points of each row whose wrapped text takes more than one line (a
    spreadsheet does not grow a row for wrapped text it did not type itself)."""
    out: dict[int, float] = {}
    for (r, column), name in marks.items():
        if name != "wrap":
            continue
        fits = int((widths[column] - _MARGIN) * _CHARACTERS_PER_WIDTH)
        lines = len(textwrap.wrap(shown_text(rows[r][column]), fits))
        if lines > 1:
            out[r] = max(out.get(r, 0.0), lines * _LINE_HEIGHT)
    return out


def _cols(widths: Sequence[float], ns: str) -> str:
    body = "".join(
        f'<{ns}col min="{i}" max="{i}" width="{width}" customWidth="1"/>'
        for i, width in enumerate(widths, start=1)
    )
    return f"<{ns}cols>{body}</{ns}cols>" if body else ""


def cell_xml(
    ref: str, value: object, date_style: int | None, style: int | None, *, date1904: bool = False
) -> str:
    """One ``<c>`` element: a number, a date serial (in ``date_style``; a day of the 1904 date
    system when ``date1904``, :func:`xlgrade.cells.date_serial`), a boolean or inline text, in
    ``style`` when given; ``""`` for a blank cell without a style."""
    s = f' s="{style}"' if style is not None else ""
    if value is None:
        return f'<c r="{ref}"{s}/>' if s else ""
    if isinstance(value, bool):
        return f'<c r="{ref}"{s} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float) and math.isfinite(value):
        return f'<c r="{ref}"{s}><v>{value!r}</v></c>'
    if isinstance(value, dt.date) and date_style is not None:
        number = date_serial(value, date1904=date1904)
        return f'<c r="{ref}" s="{date_style}"><v>{number}</v></c>'
    text = value.isoformat() if isinstance(value, dt.date) else str(value)
    return f'<c r="{ref}"{s}{_inline(text)}'


def _inline(text: str) -> str:
    """The end of a text cell's ``<c>`` element after its attributes ``r`` and ``s``: the text
    inline, escaped, without the characters XML cannot hold. It says ``xml:space="preserve"``
    only where the text has spaces to keep (at either end, two together, a tab or a line
    break: XML 1.0 § 2.10; a spreadsheet drops them otherwise), as Excel writes it."""
    text = xml_escape(_BAD_XML_CHARS.sub("", text))
    space = "" if _PLAIN_SPACING.fullmatch(text) else ' xml:space="preserve"'
    return f' t="inlineStr"><is><t{space}>{text}</t></is></c>'


def _text_xml(value: str, texts: dict[str, str]) -> str:
    """The end of a text cell's ``<c>`` element after its attributes ``r`` and ``s``, as
    :func:`cell_xml` writes it; ``texts`` keeps each text's once written (a name is on every row
    of its card)."""
    body = texts.get(value)
    if body is None:
        body = texts[value] = _inline(value)
    return body


def _plain_column(
    letter: str,
    numbers: Sequence[str],
    values: Sequence[object],
    kinds: set[type],
    date_style: int | None,
    texts: dict[str, str],
    formats: Mapping[int, int],
    date1904: bool = False,
) -> list[str] | None:
    """The ``<c>`` elements of one column, a row each, as :func:`cell_xml` writes them (``""``
    for a blank cell without a format); ``None`` when the column is blank throughout.
    ``kinds`` are the types of the whole column's values, ``formats`` the cell format of
    some of these rows (index in ``values`` → format).

    A column of one kind of value, most of a sheet, is written in one pass (text, numbers,
    dates); any other column a cell at a time by :func:`cell_xml`.
    """
    kinds = kinds - {type(None)}
    if not kinds and not formats:
        return None
    begin = f'<c r="{letter}'
    if formats:
        attributes = [""] * len(values)
        for at, style in formats.items():
            attributes[at] = f' s="{style}"'
    # Each kind is written by its own comprehensions, with a format attribute and without: one
    # pass a column with nothing made between (a shared assembly of the cells' bodies took a
    # quarter longer on the bench book's Player Cards).
    if kinds <= {str}:
        strings = cast(Sequence[str | None], values)
        if not formats:
            return [
                "" if value is None else f'{begin}{number}"{_text_xml(value, texts)}'
                for number, value in zip(numbers, strings, strict=True)
            ]
        return [
            (f'{begin}{number}"{s}/>' if s else "")
            if value is None
            else f'{begin}{number}"{s}{_text_xml(value, texts)}'
            for number, value, s in zip(numbers, strings, attributes, strict=True)
        ]
    if kinds <= {int, float}:
        figures = cast(Sequence[float | None], values)
        if all(math.isfinite(value) for value in set(figures) if value is not None):
            if not formats:
                return [
                    "" if value is None else f'{begin}{number}"><v>{value!r}</v></c>'
                    for number, value in zip(numbers, figures, strict=True)
                ]
            return [
                (f'{begin}{number}"{s}/>' if s else "")
                if value is None
                else f'{begin}{number}"{s}><v>{value!r}</v></c>'
                for number, value, s in zip(numbers, figures, attributes, strict=True)
            ]
    if kinds == {dt.date} and date_style is not None and not formats:
        days = cast(Sequence[dt.date | None], values)
        epoch = excel_epoch(date1904).toordinal()
        return [
            ""
            if day is None
            else f'{begin}{number}" s="{date_style}"><v>{day.toordinal() - epoch}</v></c>'
            for number, day in zip(numbers, days, strict=True)
        ]
    return [
        cell_xml(f"{letter}{number}", value, date_style, formats.get(at), date1904=date1904)
        for at, (number, value) in enumerate(zip(numbers, values, strict=True))
    ]


def _row_blocks(
    ns: str,
    letters: Sequence[str],
    rows: Sequence[Sequence[object]],
    columns: Sequence[Sequence[object]],
    kinds: Sequence[set[type]],
    date_style: int | None,
    styled: Mapping[tuple[int, int], int],
    heights: Mapping[int, float],
    block: int,
    date1904: bool = False,
) -> Iterator[str]:
    """The ``<row>`` elements of ``rows`` (``columns`` their cells a column at a time, each as
    long as the longest row; ``kinds`` the types in each), numbered from 2, ``block`` rows to a
    piece: each cell as :func:`cell_xml` writes it, in the cell format ``styled`` gives it ((row
    index, column index) → format: none past the end of its row); a row's height from
    ``heights``.

    Each piece is written a column at a time (:func:`_plain_column`), then each row joined:
    the same XML as a cell at a time, with much less work a cell.
    """
    count = len(rows)
    texts: dict[str, str] = {}
    by_block: dict[tuple[int, int], dict[int, int]] = {}
    for (r, column), style in styled.items():
        if 0 <= r < count and 0 <= column < len(rows[r]):
            by_block.setdefault((r // block, column), {})[r % block] = style
    for start in range(0, count, block):
        stop = min(start + block, count)
        numbers = [str(r) for r in range(start + 2, stop + 2)]
        cells = [
            _plain_column(
                letter,
                numbers,
                values[start:stop],
                kinds[column],
                date_style,
                texts,
                by_block.get((start // block, column), {}),
                date1904,
            )
            for column, (letter, values) in enumerate(zip(letters, columns, strict=False))
        ]
        opening = [f'<{ns}row r="{number}">' for number in numbers]
        for r in range(start, stop) if heights else ():
            if r in heights:
                opening[r - start] = f'<{ns}row r="{r + 2}" ht="{heights[r]}" customHeight="1">'
        present = [written for written in cells if written is not None]
        yield "".join(map("".join, zip(opening, *present, itertools.repeat(f"</{ns}row>"))))


def _new_sheet() -> str:
    """A plain worksheet part: header row frozen; landscape, one page wide."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<worksheet xmlns="{_MAIN_NS}"'
        ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>'
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2"'
        ' activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'
        "<sheetData/>"
        '<pageMargins left="0.5" right="0.5" top="0.75" bottom="0.75" header="0.3"'
        ' footer="0.3"/>'
        '<pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0"/>'
        "</worksheet>"
    )


def sheet_xml(
    old: str | bytes | None,
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    date_style: int | None = None,
    styles: Mapping[str, int] | None = None,
    cell_styles: Mapping[tuple[int, int], str] | None = None,
    date1904: bool = False,
) -> bytes:
    """The worksheet part holding ``headers`` and ``rows``, its columns fitted to them
    (:func:`column_widths`), as UTF-8 bytes; ``old`` is the part it replaces, as text or as the
    part's bytes (UTF-8 or UTF-16).

    Everything of ``old`` outside ``<sheetData>`` and ``<cols>`` (views, frozen panes, print
    settings) is kept; with no ``old`` a plain sheet is made (:func:`_new_sheet`). ``styles``
    maps the names of :data:`~xlgrade.workbook.styles.STYLES` to the book's cell formats
    (:func:`~xlgrade.workbook.styles.book_styles`); the header row is in ``header`` (else the
    old A1 cell's style), dates in ``date`` (else ``date_style``), and each cell named in
    ``cell_styles`` ((row index in ``rows``, column index) → a name of ``STYLES``) in its
    style. Text longer than :data:`WIDEST` wraps. Dates are days of the book's date system:
    the 1904 system when ``date1904`` (:func:`xlgrade.workbook.package.book_date1904`).
    """
    return b"".join(
        sheet_xml_chunks(
            old,
            headers,
            rows,
            date_style=date_style,
            styles=styles,
            cell_styles=cell_styles,
            date1904=date1904,
        )
    )


def sheet_xml_chunks(
    old: str | bytes | None,
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    date_style: int | None = None,
    styles: Mapping[str, int] | None = None,
    cell_styles: Mapping[tuple[int, int], str] | None = None,
    block: int = 4096,
    date1904: bool = False,
) -> Iterator[bytes]:
    """The worksheet part :func:`sheet_xml` writes, in pieces of UTF-8 bytes: the part up to
    the first data row, then ``block`` rows at a time, then the rest; joined, they are
    :func:`sheet_xml`'s bytes. A piece can be deflated while the next is written
    (:func:`xlgrade.workbook.container.deflate_chunks`).

    Raises:
        FormatError: ``old`` has no ``<sheetData>``, when the first piece is asked for.
    """
    found = styles or {}
    marks = dict(cell_styles or {})
    header_style: int | None = found.get("header")

    if isinstance(old, bytes):
        if header_style is not None:  # nothing of the old rows is kept: not even decoded
            old = _without_rows(old)
        old = xml_text(old, "a worksheet part")
    text = _new_sheet() if old is None else old
    if old is not None and header_style is None:
        first = re.search(r'<c\b(?>[^<>]*\br="A1")[^<>]*>', text)
        if first:
            attr = xml_attr(first.group(0), "s")
            header_style = int(attr) if attr else None
    dates = found.get("date", date_style)
    prefix_match = re.search(r"<(\w+:)?sheetData\b[^<>]*?(/>|>)", text)
    if prefix_match is None:
        raise FormatError("worksheet part has no <sheetData>")
    ns = prefix_match.group(1) or ""
    if prefix_match.group(2) == "/>":
        suffix_at = prefix_match.end()
    else:
        close = text.find(f"</{ns}sheetData>", prefix_match.end())
        if close < 0:
            raise FormatError("worksheet part has no </sheetData>")
        suffix_at = close + len(f"</{ns}sheetData>")
    columns = list(itertools.zip_longest(*rows))
    kinds = [set(map(type, values)) for values in columns]
    distinct = [_distinct(values, types) for values, types in zip(columns, kinds, strict=True)]
    widths = _widths(headers, rows, distinct, marks)
    if "wrap" in found:
        for column, values in enumerate(columns):
            long = {v for v in distinct[column] if isinstance(v, str) and len(v) > WIDEST - _MARGIN}
            for r, value in enumerate(values) if long else ():
                if isinstance(value, str) and value in long:
                    marks.setdefault((r, column), "wrap")
    heights = _heights(rows, widths, marks) if "wrap" in found else {}
    if "top" in found:
        for r in heights:
            for column in range(len(rows[r])):
                mark = marks.get((r, column))
                if mark is None or mark == "centre":
                    marks[(r, column)] = "centre top" if mark else "top"
    width = len(widths)
    letters = [column_letters(i) for i in range(width)]
    prefix = _COLS.sub("", text[: prefix_match.start()])
    last = f"{letters[width - 1] if width else 'A'}{len(rows) + 1}"
    prefix = re.sub(
        r'(<(?:\w+:)?dimension\b[^<>]*\bref=")[^"]*(")', rf"\g<1>A1:{last}\g<2>", prefix
    )
    cells = "".join(
        cell_xml(f"{letters[i]}1", h, None, header_style) for i, h in enumerate(headers)
    )
    cells = cells_in_namespace(cells, ns)
    yield xml_bytes(f'{prefix}{_cols(widths, ns)}<{ns}sheetData><{ns}row r="1">{cells}</{ns}row>')
    styled = {place: found[name] for place, name in marks.items() if name in found}
    for rows_xml in _row_blocks(
        ns, letters, rows, columns, kinds, dates, styled, heights, block, date1904
    ):
        yield cells_in_namespace(rows_xml, ns).encode("utf-8")
    yield f"</{ns}sheetData>{text[suffix_at:]}".encode()


_SHEET_DATA: Final = re.compile(rb"<(\w+:)?sheetData\b[^<>]*?(/>|>)")

_CELL_TAGS: Final = re.compile(r"<(/?)(c|v|is|t)\b")
"""The tags a written cell is made of (ECMA-376 Part 1 § 18.3.1.4 ``c``, § 18.3.1.96 ``v``,
§ 18.3.1.53 ``is``, § 18.4.12 ``t``)."""


def cells_in_namespace(xml: str, ns: str) -> str:
    """Cells as written, for a part whose elements carry the prefix ``ns`` (``"x:"``) rather
    than a default namespace: each cell tag with the prefix too, so the cells are in the
    spreadsheet namespace as the rows around them are. A cell's text is escaped, so every
    ``<`` left in it is a tag. Without a prefix (as Excel writes), the cells as they are."""
    return _CELL_TAGS.sub(rf"<\g<1>{ns}\g<2>", xml) if ns else xml


def _without_rows(part: bytes) -> bytes:
    """A worksheet part's UTF-8 bytes with what its ``<sheetData>`` holds left out (the rows
    :func:`sheet_xml_chunks` replaces), the rest as it is; the part as it is when it is not
    so plain (UTF-16, no rows, no closing tag)."""
    if part.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return part
    opening = _SHEET_DATA.search(part)
    if opening is None or opening.group(2) == b"/>":
        return part
    close = part.find(b"</" + (opening.group(1) or b"") + b"sheetData>", opening.end())
    return part if close < 0 else part[: opening.end()] + part[close:]
