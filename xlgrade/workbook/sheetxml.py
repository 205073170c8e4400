"""The XML of an output sheet: its cells, column widths and styles, as a grader reads and prints it.

:func:`sheet_xml` writes a worksheet part's ``<sheetData>`` (numbers as numbers, dates as dates,
text inline) and its ``<cols>``: each column as wide as its widest cell, so no name or date is
cut off and no header runs into the next. The styles a sheet's cells name are the book's own
cell formats; :func:`book_styles` finds those of :data:`STYLES` in ``xl/styles.xml`` and adds the
ones a book lacks, once (a second recalculation finds them and adds nothing).

Widths are counted in characters, as Excel's column width is (the width of a digit of the
book's font): a cell's shown text, two characters of margin, a bold header a tenth wider, up to
:data:`WIDEST` characters; longer text wraps within the column.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final
from xml.sax.saxutils import escape

from xlgrade.errors import FormatError

__all__ = [
    "STYLES",
    "WIDEST",
    "CellStyle",
    "book_styles",
    "column_letters",
    "column_widths",
    "date_style",
    "sheet_xml",
    "shown_text",
    "xml_attr",
    "xml_unescape",
]

_MAIN_NS: Final = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_EXCEL_EPOCH: Final = dt.date(1899, 12, 30)
_EPOCH_ORDINAL: Final = _EXCEL_EPOCH.toordinal()
_BAD_XML_CHARS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_DATE_FORMAT_IDS: Final = frozenset({14, 15, 16, 17, 22})
_COLS: Final = re.compile(r"<(?:\w+:)?cols\b[^>]*/>|<(\w+:)?cols\b.*?</(?:\w+:)?cols>", re.DOTALL)
_HEADER_FILL: Final = "FF1F4E78"
_HEADER_FONT_COLOUR: Final = "FFFFFFFF"

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


@dataclass(frozen=True)
class CellStyle:
    """A cell format of the output sheets.

    Attributes:
        number_format: the format code (``None`` for General).
        bold: bold text.
        header: white bold text on the header colour, as the template's header rows.
        wrap: text wraps within the column.
        centre: centred in the column (a category letter, a date), apart from its neighbours.
        top: at the top of its row (beside wrapped text).
        extra: characters the format adds to the shown value (``[`` and ``]``, ``*``), for
            the column's width.
    """

    number_format: str | None = None
    bold: bool = False
    header: bool = False
    wrap: bool = False
    centre: bool = False
    top: bool = False
    extra: int = 0


STYLES: Final[dict[str, CellStyle]] = {
    "header": CellStyle(bold=True, header=True),
    "date": CellStyle("yyyy-mm-dd", centre=True),
    # The YCA card's marks, on numbers that stay numbers: a working grade in brackets ([136]),
    # points where the horizon applied with a star (152*), a draw as ½.
    "working": CellStyle('"["General"]"', extra=2),
    "horizon": CellStyle('General"*"', extra=1),
    "score": CellStyle('[=0.5]"½";General', centre=True),
    "label": CellStyle(bold=True),
    "centre": CellStyle(centre=True),
    "bold centre": CellStyle(bold=True, centre=True),
    "wrap": CellStyle(wrap=True),
    "top": CellStyle(top=True),
    "centre top": CellStyle(centre=True, top=True),
}
"""The output sheets' cell formats, by the names tables give them."""


def xml_attr(tag: str, name: str) -> str | None:
    """The value of attribute ``name`` in the XML start tag ``tag``, if it has it."""
    found = re.search(rf'\b{name}\s*=\s*"([^"]*)"', tag)
    return found.group(1) if found else None


def xml_unescape(text: str) -> str:
    """XML text or an attribute value with its five entities read back."""
    return (
        text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&apos;", "'")
        .replace("&amp;", "&")
    )


def column_letters(index: int) -> str:
    """A column's letters from its index counted from 0 (0 → A, 26 → AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


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

    ``styles`` maps (row index in ``rows``, column index) to a name in :data:`STYLES`.
    """
    marks = styles or {}
    count = max([len(headers)] + [len(row) for row in rows])
    longest = [0.0] * count
    for column, header in enumerate(headers):
        longest[column] = _longest_line(str(header)) * 1.1
    # Every cell as plain text first, one distinct value of a column at a time (a column of
    # 30,000 cells holds a few hundred values); a bool is a value apart (True == 1 in a set).
    for column, values in enumerate(itertools.zip_longest(*rows)):
        try:
            distinct: Iterable[object] = values if bool in set(map(type, values)) else set(values)
        except TypeError:  # a value that cannot be hashed: each cell is counted
            distinct = values
        size = float(max(map(_longest_line, map(shown_text, distinct)), default=0))
        if size > longest[column]:
            longest[column] = size
    # Then the cells whose style adds to their text: never less than their plain size.
    for (r, column), name in marks.items():
        style = STYLES.get(name)
        if style is None or not (style.extra or style.bold):
            continue
        if r >= len(rows) or column >= len(rows[r]):
            continue
        text = shown_text(rows[r][column])
        if not text:
            continue
        size = float(_longest_line(text) + style.extra)
        if style.bold:
            size *= 1.1
        if size > longest[column]:
            longest[column] = size
    return [round(min(max(size, _NARROWEST) + _MARGIN, WIDEST), 1) for size in longest]


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


def _cell(ref: str, value: object, date_style: int | None, style: int | None) -> str:
    """One ``<c>`` element: a number, a date serial (in ``date_style``), a boolean or inline
    text, in ``style`` when given; ``""`` for a blank cell without a style."""
    s = f' s="{style}"' if style is not None else ""
    if value is None:
        return f'<c r="{ref}"{s}/>' if s else ""
    if isinstance(value, bool):
        return f'<c r="{ref}"{s} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float) and math.isfinite(value):
        return f'<c r="{ref}"{s}><v>{value!r}</v></c>'
    if isinstance(value, dt.date) and date_style is not None:
        serial: float = (value.toordinal() - _EXCEL_EPOCH.toordinal()) * 1.0
        if isinstance(value, dt.datetime):
            serial += (value - dt.datetime.combine(value.date(), dt.time())).total_seconds() / 86400
        number = int(serial) if serial.is_integer() else serial
        return f'<c r="{ref}" s="{date_style}"><v>{number}</v></c>'
    text = value.isoformat() if isinstance(value, dt.date) else str(value)
    text = escape(_BAD_XML_CHARS.sub("", text))
    return f'<c r="{ref}"{s} t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'


def _row_cells(
    letters: Sequence[str],
    number: int,
    row: Sequence[object],
    date_style: int | None,
    styled: Mapping[int, int] | None,
    texts: dict[str, str],
) -> str:
    """The ``<c>`` elements of sheet row ``number``: each cell as :func:`_cell` writes it, in
    the style ``styled`` gives its column. Plain text, numbers and dates, most of a sheet, are
    written here directly; ``texts`` keeps the XML of each
    text once written (a name is on every row of its card)."""
    out: list[str] = []
    for i, value in enumerate(row):
        if styled and i in styled:
            if value is None:
                out.append(f'<c r="{letters[i]}{number}" s="{styled[i]}"/>')
                continue
            s = f' s="{styled[i]}"'
        elif value is None:
            continue
        else:
            s = ""
        if type(value) is str:
            body = texts.get(value)
            if body is None:
                text = escape(_BAD_XML_CHARS.sub("", value))
                body = f' t="inlineStr"><is><t xml:space="preserve">{text}</t></is></c>'
                texts[value] = body
            out.append(f'<c r="{letters[i]}{number}"{s}{body}')
        elif type(value) is int or (type(value) is float and math.isfinite(value)):
            out.append(f'<c r="{letters[i]}{number}"{s}><v>{value!r}</v></c>')
        elif type(value) is dt.date and date_style is not None:
            serial = value.toordinal() - _EPOCH_ORDINAL
            out.append(f'<c r="{letters[i]}{number}" s="{date_style}"><v>{serial}</v></c>')
        else:
            out.append(
                _cell(f"{letters[i]}{number}", value, date_style, styled.get(i) if styled else None)
            )
    return "".join(out)


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
) -> bytes:
    """The worksheet part holding ``headers`` and ``rows``, its columns fitted to them
    (:func:`column_widths`), as UTF-8 bytes; ``old`` is the part it replaces, as text or as the
    part's bytes (UTF-8 or UTF-16).

    Everything of ``old`` outside ``<sheetData>`` and ``<cols>`` (views, frozen panes, print
    settings) is kept; with no ``old`` a plain sheet is made (:func:`_new_sheet`). ``styles``
    maps the names of :data:`STYLES` to the book's cell formats (:func:`book_styles`); the
    header row is in ``header`` (else the old A1 cell's style), dates in ``date`` (else
    ``date_style``), and each cell named in ``cell_styles`` ((row index in ``rows``, column
    index) → a name of :data:`STYLES`) in its style. Text longer than :data:`WIDEST` wraps.
    """
    found = styles or {}
    marks = dict(cell_styles or {})
    header_style: int | None = found.get("header")
    from xlgrade.workbook.package import xml_bytes, xml_text  # the package's way with XML text

    if isinstance(old, bytes):
        old = xml_text(old, "a worksheet part")
    text = _new_sheet() if old is None else old
    if old is not None and header_style is None:
        first = re.search(r'<c\b[^>]*\br="A1"[^>]*>', text)
        if first:
            attr = xml_attr(first.group(0), "s")
            header_style = int(attr) if attr else None
    dates = found.get("date", date_style)
    prefix_match = re.search(r"<(\w+:)?sheetData\b[^>]*?(/>|>)", text)
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
    widths = column_widths(headers, rows, marks)
    if "wrap" in found:
        for r, row in enumerate(rows):
            for column, value in enumerate(row):
                if isinstance(value, str) and len(value) > WIDEST - _MARGIN:
                    marks.setdefault((r, column), "wrap")
    heights = _heights(rows, widths, marks) if "wrap" in found else {}
    if "top" in found:
        for r in heights:
            for column in range(len(rows[r])):
                mark = marks.get((r, column))
                if mark is None or mark == "centre":
                    marks[(r, column)] = "centre top" if mark else "top"
    out: list[str] = [f"<{ns}sheetData>"]
    width = len(widths)
    letters = [column_letters(i) for i in range(width)]
    cells = "".join(_cell(f"{letters[i]}1", h, None, header_style) for i, h in enumerate(headers))
    out.append(f'<{ns}row r="1">{cells}</{ns}row>')
    by_row: dict[int, dict[int, int]] = {}
    for (r, i), name in marks.items():
        index = found.get(name)
        if index is not None:
            by_row.setdefault(r, {})[i] = index
    texts: dict[str, str] = {}
    for r, row in enumerate(rows):
        number = r + 2
        cells = _row_cells(letters, number, row, dates, by_row.get(r), texts)
        tall = f' ht="{heights[r]}" customHeight="1"' if r in heights else ""
        out.append(f'<{ns}row r="{number}"{tall}>{cells}</{ns}row>')
    out.append(f"</{ns}sheetData>")
    prefix = _COLS.sub("", text[: prefix_match.start()])
    last = f"{letters[width - 1] if width else 'A'}{len(rows) + 1}"
    prefix = re.sub(r'(<(?:\w+:)?dimension\b[^>]*\bref=")[^"]*(")', rf"\g<1>A1:{last}\g<2>", prefix)
    return xml_bytes(prefix + _cols(widths, ns) + "".join(out) + text[suffix_at:])


def date_style(styles_xml: str) -> int | None:
    """Index of a cell format in the styles part ``styles_xml`` that shows a date, if any."""
    date_formats = set(_DATE_FORMAT_IDS)
    for tag in re.findall(r"<(?:\w+:)?numFmt\b[^>]*>", styles_xml):
        code = xml_unescape(xml_attr(tag, "formatCode") or "").lower()
        code = re.sub(r'"[^"]*"|\[[^\]]*\]', "", code)
        if "y" in code and "d" in code:
            date_formats.add(int(xml_attr(tag, "numFmtId") or -1))
    xfs = re.search(r"<(?:\w+:)?cellXfs\b.*?</(?:\w+:)?cellXfs>", styles_xml, re.DOTALL)
    if xfs is None:
        return None
    for index, tag in enumerate(re.findall(r"<(?:\w+:)?xf\b[^>]*>", xfs.group(0))):
        if int(xml_attr(tag, "numFmtId") or 0) in date_formats:
            return index
    return None


def _block(text: str, name: str) -> re.Match[str] | None:
    return re.search(rf"<{name}\b[^>]*>(.*?)</{name}>", text, re.DOTALL)


def _entries(body: str, name: str) -> list[str]:
    """The ``<name>`` elements of a block, each as written (self-closing or with content)."""
    return re.findall(rf"<{name}\b[^>]*/>|<{name}\b[^>]*>.*?</{name}>", body, re.DOTALL)


def _with_entry(text: str, block: str, name: str, entry: str) -> tuple[str, int]:
    """``text`` with ``entry`` in its ``block`` (added at the end unless it is there), and the
    entry's index among the block's ``name`` elements."""
    found = _block(text, block)
    if found is None:
        raise FormatError(f"the styles part has no <{block}>")
    entries = _entries(found.group(1), name)
    if entry in entries:
        return text, entries.index(entry)
    body = found.group(1) + entry
    opening = re.sub(r'\scount="\d+"', "", text[found.start() : found.start(1)])
    opening = opening[:-1] + f' count="{len(entries) + 1}">'
    return text[: found.start()] + opening + body + f"</{block}>" + text[found.end() :], len(
        entries
    )


def book_styles(styles_xml: str) -> tuple[str, dict[str, int]]:
    """The styles part with every cell format of :data:`STYLES` in it, and each one's index.

    A format already there (written by an earlier recalculation) is found, not added again.
    The fonts are the book's first font, made bold (and white on the header fill).

    Raises:
        FormatError: the part has no fonts, fills or cell formats, or names them with a prefix.
    """
    text = styles_xml
    fonts = _block(text, "fonts")
    if fonts is None or _block(text, "fills") is None or _block(text, "cellXfs") is None:
        raise FormatError("the styles part has no fonts, fills or cell formats")
    first_font = (_entries(fonts.group(1), "font") or ["<font></font>"])[0]
    inner = re.sub(r"^<font\b[^>]*>|</font>$|^<font\b[^>]*/>$", "", first_font)
    inner = re.sub(r"<(b|color)\b[^>]*/>|<(b|color)\b[^>]*>.*?</\2>", "", inner)
    bold_font = f'<font><b val="1"/>{inner}</font>'
    header_font = f'<font><b val="1"/><color rgb="{_HEADER_FONT_COLOUR}"/>{inner}</font>'
    indexes: dict[str, int] = {}
    for name, style in STYLES.items():
        number_id = 0
        if style.number_format is not None:
            number_id, text = _number_format(text, style.number_format)
        font_id = 0
        if style.header:
            text, font_id = _with_entry(text, "fonts", "font", header_font)
        elif style.bold:
            text, font_id = _with_entry(text, "fonts", "font", bold_font)
        fill_id = 0
        if style.header:
            fill = (
                f'<fill><patternFill patternType="solid"><fgColor rgb="{_HEADER_FILL}"/>'
                '<bgColor indexed="64"/></patternFill></fill>'
            )
            text, fill_id = _with_entry(text, "fills", "fill", fill)
        applied = (
            (' applyNumberFormat="1"' if number_id else "")
            + (' applyFont="1"' if font_id else "")
            + (' applyFill="1"' if fill_id else "")
        )
        xf = f'<xf numFmtId="{number_id}" fontId="{font_id}" fillId="{fill_id}" borderId="0"'
        xf += f' xfId="0"{applied}'
        if style.wrap or style.header:
            xf += ' applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>'
        elif style.centre or style.top:
            place = ' horizontal="center"' if style.centre else ""
            place += ' vertical="top"' if style.top else ""
            xf += f' applyAlignment="1"><alignment{place}/></xf>'
        else:
            xf += "/>"
        text, indexes[name] = _with_entry(text, "cellXfs", "xf", xf)
    return text, indexes


def _number_format(text: str, code: str) -> tuple[int, str]:
    """The id of the custom number format ``code`` in the styles part ``text`` (added if it
    is not there), and the part."""
    taken: list[int] = []
    for tag in re.findall(r"<numFmt\b[^>]*>", text):
        number = int(xml_attr(tag, "numFmtId") or -1)
        taken.append(number)
        if xml_unescape(xml_attr(tag, "formatCode") or "") == code:
            return number, text
    number = max([163, *taken]) + 1
    quoted = escape(code, {'"': "&quot;"})
    entry = f'<numFmt numFmtId="{number}" formatCode="{quoted}"/>'
    if _block(text, "numFmts") is None:
        text = re.sub(r"(<styleSheet\b[^>]*>)", r'\1<numFmts count="0"></numFmts>', text, count=1)
    text, _ = _with_entry(text, "numFmts", "numFmt", entry)
    return number, text
