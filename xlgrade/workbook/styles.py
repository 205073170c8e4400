"""The styles part (``xl/styles.xml``): the output sheets' cell formats, found or added.

:data:`STYLES` names the cell formats the output sheets' cells use (:class:`CellStyle`);
:func:`book_styles` finds each in a book's styles part and adds the ones it lacks, once (a
second recalculation finds them and adds nothing); :func:`date_style` finds a cell format
that shows a date, and :func:`book_date_style` that of a whole package (the cell format a
date is written in where its column has none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from xlgrade.errors import FormatError
from xlgrade.workbook.container import package_members, part_text
from xlgrade.workbook.xmltext import xml_attr, xml_attr_value, xml_unescape

__all__ = [
    "STYLES",
    "CellStyle",
    "book_date_style",
    "book_styles",
    "date_style",
    "styles_part",
]

_DATE_FORMAT_IDS: Final = frozenset({14, 15, 16, 17, 22})
_HEADER_FILL: Final = "FF1F4E78"
_HEADER_FONT_COLOUR: Final = "FFFFFFFF"


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
    quoted = xml_attr_value(code)
    entry = f'<numFmt numFmtId="{number}" formatCode="{quoted}"/>'
    if _block(text, "numFmts") is None:
        text = re.sub(r"(<styleSheet\b[^>]*>)", r'\1<numFmts count="0"></numFmts>', text, count=1)
    text, _ = _with_entry(text, "numFmts", "numFmt", entry)
    return number, text


def styles_part(data: bytes) -> str | None:
    """The name of the package's styles part, if it has one."""
    members, _ = package_members(data)
    return next((m.name for m in members if m.name.endswith("styles.xml")), None)


def book_date_style(data: bytes) -> int | None:
    """Index of a cell format in the package's styles part that shows a date, if the book
    has one (:func:`date_style`)."""
    part = styles_part(data)
    if part is None:
        return None
    return date_style(part_text(data, {m.name: m for m in package_members(data)[0]}, part))
