"""Relationships and content types: which part is which, and the entries a part added or
dropped needs.

A package names its parts through relationships parts (``_rels/.rels`` from the package root
to the workbook, ``xl/_rels/workbook.xml.rels`` from the workbook to its sheets, a sheet's own
to its table) and gives each part's content type in ``[Content_Types].xml``.
:func:`workbook_part`, :func:`resolve_part_name` and :func:`sheet_parts` follow the
relationships from the package root to each sheet; :func:`add_sheet_entries`,
:func:`add_relationship`, :func:`add_override` and :func:`without_calc_chain` write the entries
of a part added or dropped; :func:`refuse_missing_targets` refuses a relationship to a part the
package lacks.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from typing import Final

from xlgrade.cells import quote
from xlgrade.errors import FormatError
from xlgrade.workbook.container import package_members, part_text, workbook_members
from xlgrade.workbook.xmltext import xml_attr, xml_attr_value, xml_bytes, xml_unescape

__all__ = [
    "add_override",
    "add_relationship",
    "add_sheet_entries",
    "book_date1904",
    "refuse_missing_targets",
    "rels_part",
    "resolve_part_name",
    "sheet_parts",
    "without_calc_chain",
    "workbook_part",
]

_WORKSHEET_TYPE: Final = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
)
_WORKSHEET_CT: Final = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_CALC_CHAIN_TYPE: Final = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain"
)


def resolve_part_name(base: str, target: str) -> str:
    """The part name a relationship's ``target`` names, relative to the part ``base``
    (``resolve_part_name("xl/workbook.xml", "worksheets/sheet1.xml")`` is
    ``xl/worksheets/sheet1.xml``); a target starting ``/`` is from the package root."""
    if target.startswith("/"):
        return target[1:]
    parts = base.split("/")[:-1] + target.split("/")
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return "/".join(out)


def workbook_part(data: bytes) -> str:
    """The name of the package's main part (the workbook), from ``_rels/.rels``."""
    members, _ = package_members(data)
    names = {m.name: m for m in members}
    rels = part_text(data, names, "_rels/.rels")
    for tag in re.findall(r"<Relationship\b[^>]*>", rels):
        if (xml_attr(tag, "Type") or "").endswith("/officeDocument"):
            return resolve_part_name("", xml_attr(tag, "Target") or "")
    raise FormatError("not a workbook: the package names no main part")


def sheet_parts(data: bytes) -> dict[str, str]:
    """Sheet name → its worksheet part in the package ``data`` (``xl/worksheets/sheet3.xml``).

    Raises:
        FormatError: the file is not a workbook package (:func:`check_package`), or lacks a
            part its relationships lead to.
    """
    members = workbook_members(data)
    names = {m.name: m for m in members}
    book = workbook_part(data)
    rels_name = resolve_part_name(book, "_rels/" + book.rsplit("/", 1)[-1] + ".rels")
    rels = part_text(data, names, rels_name)
    targets = {
        xml_attr(tag, "Id"): resolve_part_name(book, xml_attr(tag, "Target") or "")
        for tag in re.findall(r"<Relationship\b[^>]*>", rels)
    }
    workbook = part_text(data, names, book)
    parts: dict[str, str] = {}
    for tag in re.findall(r"<(?:\w+:)?sheet\b[^>]*>", workbook):
        name = xml_attr(tag, "name")
        rid = re.search(r'\br:id\s*=\s*"([^"]*)"', tag) or re.search(r'\bid\s*=\s*"([^"]*)"', tag)
        if name is not None and rid and rid.group(1) in targets:
            parts[xml_unescape(name)] = targets[rid.group(1)] or ""
    return parts


def book_date1904(data: bytes) -> bool:
    """Whether the package's workbook counts its dates in Excel's 1904 date system
    (``<workbookPr date1904="1"/>``, or ``"true"``: ECMA-376 Part 1, 18.2.28): its date
    serials are then days since 1 January 1904 (:func:`xlgrade.cells.serial_date`).

    Raises:
        FormatError: the file is not a workbook package.
    """
    members = workbook_members(data)
    workbook = part_text(data, {m.name: m for m in members}, workbook_part(data))
    found = re.search(r"<(?:\w+:)?workbookPr\b[^>]*>", workbook)
    flag = xml_attr(found.group(0), "date1904") if found else None
    return (flag or "").strip().lower() in {"1", "true"}


def rels_part(part: str) -> str:
    """The name of the relationships part of the part ``part``
    (``xl/worksheets/_rels/sheet1.xml.rels`` for ``xl/worksheets/sheet1.xml``)."""
    folder, _, base = part.rpartition("/")
    return f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"


def refuse_missing_targets(rels: str, name: str, names: Collection[str]) -> None:
    """Refuse a relationships part ``name`` (its text ``rels``) whose internal targets are not
    all ``names``.

    Raises:
        FormatError: naming the part missing and the part that refers to it.
    """
    folder, _, file = name.rpartition("/")
    source = folder.removesuffix("_rels") + file.removesuffix(".rels")  # "" for the package
    for tag in re.findall(r"<(?:[\w.-]+:)?Relationship\b[^>]*>", rels):
        if (xml_attr(tag, "TargetMode") or "").lower() == "external":
            continue
        given = xml_unescape(xml_attr(tag, "Target") or "").partition("#")[0]  # "#Sheet!A1": here
        target = resolve_part_name(source, given) if given else ""
        if target and target not in names:
            raise FormatError(
                f"the package has no part {quote(target)}, though {quote(source or name)} "
                "refers to it (it is damaged; Excel would repair it, dropping what it held)"
            )


def add_sheet_entries(data: bytes, name: str, part: str) -> dict[str, bytes]:
    """The workbook part, its relationships and the content types with one more sheet."""
    members, _ = package_members(data)
    names = {m.name: m for m in members}
    book = workbook_part(data)
    rels_name = resolve_part_name(book, "_rels/" + book.rsplit("/", 1)[-1] + ".rels")
    rels = part_text(data, names, rels_name)
    ids = set(re.findall(r'\bId="([^"]*)"', rels))
    number = 1
    while f"rIdX{number}" in ids:
        number += 1
    rid = f"rIdX{number}"
    target = os.path.relpath(part, os.path.dirname(book)).replace(os.sep, "/")
    rels = rels.replace(
        "</Relationships>",
        f'<Relationship Id="{rid}" Type="{_WORKSHEET_TYPE}" Target="{target}"/></Relationships>',
    )
    workbook = part_text(data, names, book)
    ids_used = [int(x) for x in re.findall(r'<(?:\w+:)?sheet\b[^>]*\bsheetId="(\d+)"', workbook)]
    sheet_id = max(ids_used, default=0) + 1
    closing = re.search(r"</(\w+:)?sheets>", workbook)
    if closing is None:
        raise FormatError("workbook part has no <sheets>")
    ns = closing.group(1) or ""
    tag = f'<{ns}sheet name="{xml_attr_value(name)}" sheetId="{sheet_id}" r:id="{rid}"/>'
    workbook = workbook[: closing.start()] + tag + workbook[closing.start() :]
    types = part_text(data, names, "[Content_Types].xml")
    types = types.replace(
        "</Types>", f'<Override PartName="/{part}" ContentType="{_WORKSHEET_CT}"/></Types>'
    )
    return {
        book: xml_bytes(workbook),
        rels_name: xml_bytes(rels),
        "[Content_Types].xml": xml_bytes(types),
    }


def add_relationship(rels: bytes, rel_id: str, rel_type: str, target: str) -> bytes:
    """``rels`` (a relationships part) with one more relationship, unless one has ``target``."""
    text = rels.decode("utf-8")
    if f'Target="{target}"' not in text:
        extra = f'<Relationship Id="{rel_id}" Type="{rel_type}" Target="{target}"/>'
        text = text.replace("</Relationships>", extra + "</Relationships>")
    return text.encode("utf-8")


def add_override(types: bytes, part: str, content_type: str) -> bytes:
    """``[Content_Types].xml`` with an override for ``part`` (``/xl/…``), unless it has one."""
    text = types.decode("utf-8")
    if f'PartName="{part}"' not in text:
        extra = f'<Override PartName="{part}" ContentType="{content_type}"/>'
        text = text.replace("</Types>", extra + "</Types>")
    return text.encode("utf-8")


def without_calc_chain(data: bytes) -> tuple[dict[str, bytes], frozenset[str]]:
    """Edits that drop ``xl/calcChain.xml`` (its relationship and content type too): the parts
    changed by name, and the names of the parts to drop."""
    members, _ = package_members(data)
    by_name = {m.name: m for m in members}
    chains = {name for name in by_name if name.rsplit("/", 1)[-1] == "calcChain.xml"}
    if not chains:
        return {}, frozenset()
    edits: dict[str, bytes] = {}
    for name in by_name:
        if not name.endswith(".rels"):
            continue
        text = part_text(data, by_name, name)
        kept = re.sub(rf'<Relationship\b[^>]*Type="{re.escape(_CALC_CHAIN_TYPE)}"[^>]*/>', "", text)
        if kept != text:
            edits[name] = kept.encode("utf-8")
    types = part_text(data, by_name, "[Content_Types].xml")
    for chain in chains:
        types = re.sub(rf'<Override\b[^>]*PartName="/{re.escape(chain)}"[^>]*/>', "", types)
    edits["[Content_Types].xml"] = types.encode("utf-8")
    return edits, frozenset(chains)
