"""XML text as the parts of a workbook package hold it: decoding a part, encoding one, reading a
start tag's attribute, and escaping — the one home of each, for every part kind.

The parts are edited as text (a grader's book keeps every element xlgrade does not write), so
reading and writing the few entities XML defines is done here and nowhere else.
"""

from __future__ import annotations

import codecs
import re
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from xlgrade.cells import quote
from xlgrade.errors import FormatError

__all__ = [
    "refuse_foreign_encoding",
    "xml_attr",
    "xml_attr_value",
    "xml_bytes",
    "xml_escape",
    "xml_quoted",
    "xml_text",
    "xml_unescape",
]

_DECLARED_ENCODING: Final = re.compile(r"""^(\s*<\?xml\b[^>]*?\bencoding\s*=\s*["'])[^"']*(["'])""")


_ENCODING_SAID: Final = re.compile(
    rb"""\A\s*<\?xml\b[^>]{0,200}?\bencoding\s*=\s*["']([^"']{0,60})"""
)
_READ: Final = frozenset({"utf-8", "utf-16", "utf-16-le", "utf-16-be", "ascii"})
"""The encodings a part may declare, by Python's names for them: the two every XML processor
reads (XML 1.0 § 4.3.3), as Excel writes them, and ASCII, which is UTF-8's first half."""


def refuse_foreign_encoding(head: bytes, name: str) -> None:
    """Refuse the XML part ``name`` whose first bytes ``head`` declare an encoding other than
    UTF-8 or UTF-16 (Excel writes UTF-8): one unknown, one of several bytes a character other
    than these, or a single-byte one whose letters past ASCII would be read as UTF-8's.

    Raises:
        FormatError: naming the part and quoting the encoding it declares.
    """
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        head = head[:400].decode("utf-16", errors="replace").encode("ascii", errors="replace")
    found = _ENCODING_SAID.match(head[:400])
    if found is None:
        return
    said = found.group(1).decode("ascii", errors="replace")
    try:
        known = codecs.lookup(said).name
    except LookupError:
        known = ""
    if known not in _READ:
        raise FormatError(
            f"the part {quote(name)} declares its text in the encoding {quote(said)}, which "
            "xlgrade does not read (Excel writes UTF-8): open the book in Excel and save it "
            "again"
        )


def xml_text(raw: bytes, name: str) -> str:
    """The text of the XML part ``name``: UTF-8, or UTF-16 with its byte-order mark (the two
    encodings every XML processor reads, XML 1.0 § 4.3.3).

    Raises:
        FormatError: the part is neither, or declares another encoding
            (:func:`refuse_foreign_encoding`).
    """
    refuse_foreign_encoding(raw[:400], name)
    try:
        if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return raw.decode("utf-16")
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FormatError(f"the part {quote(name)} is neither UTF-8 nor UTF-16 text") from None


def xml_bytes(text: str) -> bytes:
    """The XML ``text`` as the bytes of a part: UTF-8, its declaration saying so."""
    return _DECLARED_ENCODING.sub(r"\g<1>UTF-8\g<2>", text, count=1).encode("utf-8")


def xml_attr(tag: str, name: str) -> str | None:
    """The value of attribute ``name`` in the XML start tag ``tag``, if it has it (as written:
    :func:`xml_unescape` reads its entities)."""
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


def xml_escape(text: str) -> str:
    """``text`` as the content of an element: ``&``, ``<`` and ``>`` as entities."""
    return escape(text)


def xml_attr_value(text: str) -> str:
    """``text`` as an attribute value written between double quotes: ``&``, ``<``, ``>`` and
    ``"`` as entities."""
    return escape(text, {'"': "&quot;"})


def xml_quoted(text: str) -> str:
    """``text`` as an attribute value with its quotes, double unless it holds a double quote
    and no single one (:func:`xml.sax.saxutils.quoteattr`)."""
    return quoteattr(text)
