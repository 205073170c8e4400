"""The xlwings Lite book (``xlgrade template OUT.xlsx``): the template's sheets, no macros, and
the Lite add-in's part holding the book's Python code.

xlwings Lite is an Office add-in (store id :data:`ADDIN_ID`, from the Office store, type
``OMEX``). A book that uses it carries, as real Lite books do:

- ``xl/webextensions/webextension1.xml``: a ``we:webextension`` whose ``we:reference`` names
  the add-in, and whose ``we:property`` entries hold the code: ``main.py``,
  ``requirements.txt``, ``pyodideVersion``, ``addinVersion`` and ``xlwingsWorkbookId``, each
  value a JSON string (``json.dumps`` of the text) in an XML attribute;
- ``xl/webextensions/taskpanes.xml``: the task pane, docked right and shown when the book
  opens, pointing at the extension through ``xl/webextensions/_rels/taskpanes.xml.rels``;
- a package relationship of type :data:`REL_TASKPANES` to the task panes part, and content
  type overrides :data:`WEBEXTENSION_TYPE` and :data:`TASKPANES_TYPE`;
- a sheet button for each script (:data:`xlgrade.workbook.layout.LITE_BUTTONS`): a rounded
  rectangle in the sheet's drawing, named, over the cell its hyperlink (a drawing
  relationship to ``#Sheet!Cell``) selects, as real Lite books with buttons hold them
  (:func:`buttons_drawing_xml`).

``main.py`` is one import (:func:`main_py`): the functions and the buttons are the xlgrade
package's, installed by Lite from ``requirements.txt`` (:func:`requirements_txt`). Until the
package is on PyPI, ``requirement`` names a wheel URL instead of the pin (docs/install.md).
Everything is generated here and read back by tests; nothing is copied from a saved book.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from xlgrade.model import Game, Player, Settings
from xlgrade.teams import Division
from xlgrade.workbook import default_requirement, layout
from xlgrade.workbook.build import (
    LITE,
    add_override,
    add_relationship,
    members_of,
    repack,
    sheets_package,
)
from xlgrade.workbook.package import sheet_parts

__all__ = [
    "ADDIN_ID",
    "ADDIN_VERSION",
    "DRAWING_TYPE",
    "OPENPYXL_VERSION",
    "PYODIDE_VERSION",
    "REL_DRAWING",
    "REL_HYPERLINK",
    "REL_TASKPANES",
    "REL_WEBEXTENSION",
    "TASKPANES_TYPE",
    "WEBEXTENSION_TYPE",
    "XLWINGS_VERSION",
    "build_lite_workbook",
    "buttons_drawing_xml",
    "default_requirement",
    "main_py",
    "requirements_txt",
    "taskpanes_xml",
    "webextension_xml",
]

ADDIN_ID: Final = "WA200008175"
"""xlwings Lite's id in the Office store (its page: marketplace.microsoft.com, WA200008175)."""
STORE_TYPE: Final = "OMEX"
"""The store type of an add-in from the Office store."""
ADDIN_VERSION: Final = "1.0.0.0-35"
"""The add-in version a real Lite book records; the add-in rewrites it when it saves the book."""
PYODIDE_VERSION: Final = "0.27.5"
"""The Pyodide version a real Lite book records; as above."""
XLWINGS_VERSION: Final = "0.37.8"
"""The xlwings pinned in ``requirements.txt``: the release whose ``xlwings.server`` the tests
run the functions and scripts through."""
OPENPYXL_VERSION: Final = "3.1.5"
"""The openpyxl pinned in ``requirements.txt``: the New season script draws next season's book
with it (pure Python; the xlgrade package itself leaves it out under Pyodide)."""

REL_TASKPANES: Final = (
    "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
)
"""Package relationship type of ``xl/webextensions/taskpanes.xml``."""
REL_WEBEXTENSION: Final = "http://schemas.microsoft.com/office/2011/relationships/webextension"
"""Relationship type from the task panes part to ``webextension1.xml``."""
WEBEXTENSION_TYPE: Final = "application/vnd.ms-office.webextension+xml"
TASKPANES_TYPE: Final = "application/vnd.ms-office.webextensiontaskpanes+xml"
_NS_WE: Final = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_NS_TP: Final = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_NS_R: Final = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_RELS: Final = "http://schemas.openxmlformats.org/package/2006/relationships"
_NS_XDR: Final = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
_NS_A: Final = "http://schemas.openxmlformats.org/drawingml/2006/main"
REL_DRAWING: Final = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing"
REL_HYPERLINK: Final = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
)
DRAWING_TYPE: Final = "application/vnd.openxmlformats-officedocument.drawing+xml"
_BUTTON_FILL: Final = "1F4E78"
"""The buttons' colour: the template's header fill."""
_BUTTON_COLUMNS: Final = 3
_BUTTON_ROWS: Final = 2
_BOOK_ID: Final = uuid.uuid5(uuid.NAMESPACE_URL, "xlgrade:lite-template")
"""A fixed id for the extension and the book, so builds are reproducible."""
_PANE_WIDTH: Final = 400


def main_py() -> str:
    """The book's ``main.py``: one import registers every function and every button."""
    return (
        '"""xlgrade: chess grading in this workbook, through xlwings Lite.\n'
        "\n"
        "The worksheet functions (GRADE_POINTS, SEASON_GRADE, ECF_TO_ELO, ...) and the scripts\n"
        "(Recalculate season, Check results, Import, New season) come from the xlgrade package\n"
        "named in requirements.txt. The How to use sheet says how to use them.\n"
        '"""\n'
        "\n"
        "from xlgrade_lite import *  # noqa: F403\n"
    )


def requirements_txt(requirement: str | None = None) -> str:
    """The book's ``requirements.txt``: xlwings, openpyxl (for New season's book) and xlgrade
    (``requirement``, or the pinned release when ``None``: a wheel's URL works too)."""
    package = requirement or default_requirement()
    return f"xlwings=={XLWINGS_VERSION}\nopenpyxl=={OPENPYXL_VERSION}\n{package}\n"


def _property(name: str, value: str) -> str:
    return f"<we:property name={quoteattr(name)} value={quoteattr(json.dumps(value))}/>"


def webextension_xml(requirement: str | None = None) -> bytes:
    """``xl/webextensions/webextension1.xml``: the add-in's reference and the book's code."""
    reference = (
        f'<we:reference id="{ADDIN_ID.lower()}" version="1.0.0.0" store="en-US" '
        f'storeType="{STORE_TYPE}"/>'
    )
    alternate = (
        f'<we:alternateReferences><we:reference id="{ADDIN_ID}" version="1.0.0.0" '
        f'store="{ADDIN_ID}" storeType="{STORE_TYPE}"/></we:alternateReferences>'
    )
    properties = "".join(
        _property(name, value)
        for name, value in (
            ("main.py", main_py()),
            ("requirements.txt", requirements_txt(requirement)),
            ("pyodideVersion", PYODIDE_VERSION),
            ("addinVersion", ADDIN_VERSION),
            ("xlwingsWorkbookId", str(_BOOK_ID)),
        )
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<we:webextension xmlns:we="{_NS_WE}" id="{{{str(_BOOK_ID).upper()}}}">'
        f"{reference}{alternate}<we:properties>{properties}</we:properties><we:bindings/>"
        f'<we:snapshot xmlns:r="{_NS_R}"/></we:webextension>'
    ).encode()


def taskpanes_xml() -> bytes:
    """``xl/webextensions/taskpanes.xml``: the add-in's pane, docked right, shown on opening."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<wetp:taskpanes xmlns:wetp="{_NS_TP}"><wetp:taskpane dockstate="right" '
        f'visibility="1" width="{_PANE_WIDTH}" row="0"><wetp:webextensionref '
        f'xmlns:r="{_NS_R}" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>'
    ).encode()


def _taskpanes_rels() -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{_NS_RELS}"><Relationship Id="rId1" '
        f'Type="{REL_WEBEXTENSION}" Target="webextension1.xml"/></Relationships>'
    ).encode()


def _cell_index(cell: str) -> tuple[int, int]:
    """``P2`` → (column 15, row 1), counted from 0 as a drawing's anchors count."""
    letters = cell.rstrip("0123456789")
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - 64
    return column - 1, int(cell[len(letters) :]) - 1


def buttons_drawing_xml(buttons: Sequence[layout.LiteButton]) -> tuple[bytes, bytes]:
    """The drawing part of a sheet's ``buttons`` and its relationships: each a rounded
    rectangle named :attr:`~xlgrade.workbook.layout.LiteButton.shape`, anchored from its
    cell over three columns and two rows, its text the script's name, its click a hyperlink
    (relationship ``rIdN``) to ``#Sheet!Cell``."""
    anchors, rels = [], []
    for number, button in enumerate(buttons, start=1):
        column, row = _cell_index(button.cell)
        anchors.append(
            f"<xdr:twoCellAnchor><xdr:from><xdr:col>{column}</xdr:col><xdr:colOff>0</xdr:colOff>"
            f"<xdr:row>{row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to>"
            f"<xdr:col>{column + _BUTTON_COLUMNS}</xdr:col><xdr:colOff>0</xdr:colOff>"
            f"<xdr:row>{row + _BUTTON_ROWS}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>"
            f'<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="{number + 1}" '
            f"name={quoteattr(button.shape)} descr={quoteattr(f'Runs {button.script}')}>"
            f'<a:hlinkClick xmlns:r="{_NS_R}" r:id="rId{number}"/></xdr:cNvPr><xdr:cNvSpPr/>'
            '</xdr:nvSpPr><xdr:spPr><a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom>'
            f'<a:solidFill><a:srgbClr val="{_BUTTON_FILL}"/></a:solidFill><a:ln><a:noFill/>'
            '</a:ln></xdr:spPr><xdr:txBody><a:bodyPr vertOverflow="clip" horzOverflow="clip" '
            'rtlCol="0" anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r>'
            '<a:rPr lang="en-GB" sz="1100" b="1"><a:solidFill><a:srgbClr val="FFFFFF"/>'
            f"</a:solidFill></a:rPr><a:t>{escape(button.script)}</a:t></a:r></a:p>"
            "</xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor>"
        )
        target = f"#{button.sheet}!{button.cell}"
        rels.append(
            f'<Relationship Id="rId{number}" Type="{REL_HYPERLINK}" Target={quoteattr(target)}/>'
        )
    drawing = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<xdr:wsDr xmlns:xdr="{_NS_XDR}" xmlns:a="{_NS_A}">{"".join(anchors)}</xdr:wsDr>'
    )
    relationships = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<Relationships xmlns="{_NS_RELS}">{"".join(rels)}</Relationships>'
    )
    return drawing.encode(), relationships.encode()


def _add_buttons(members: dict[str, bytes], package: bytes) -> None:
    """Draw :data:`~xlgrade.workbook.layout.LITE_BUTTONS` on their sheets (each sheet's own
    drawing part: the template's sheets that take buttons have none)."""
    parts = sheet_parts(package)
    for sheet in dict.fromkeys(b.sheet for b in layout.LITE_BUTTONS):
        part = parts[sheet]
        number = 1
        while f"xl/drawings/drawing{number}.xml" in members:
            number += 1
        drawing, rels = buttons_drawing_xml([b for b in layout.LITE_BUTTONS if b.sheet == sheet])
        members[f"xl/drawings/drawing{number}.xml"] = drawing
        members[f"xl/drawings/_rels/drawing{number}.xml.rels"] = rels
        folder, _, name = part.rpartition("/")
        sheet_rels = f"{folder}/_rels/{name}.rels"
        old = members.get(sheet_rels, _EMPTY_RELS)
        members[sheet_rels] = add_relationship(
            old, "xlgradeButtons", REL_DRAWING, f"../drawings/drawing{number}.xml"
        )
        xml = members[part].decode("utf-8")
        reference = f'<drawing xmlns:r="{_NS_R}" r:id="xlgradeButtons"/>'
        # The drawing goes before the legacy drawing, the table parts or the extensions,
        # whichever comes first (the order of CT_Worksheet).
        for follower in ("<legacyDrawing", "<tableParts", "<extLst", "</worksheet>"):
            if follower in xml:
                xml = xml.replace(follower, reference + follower, 1)
                break
        members[part] = xml.encode("utf-8")
        members["[Content_Types].xml"] = add_override(
            members["[Content_Types].xml"], f"/xl/drawings/drawing{number}.xml", DRAWING_TYPE
        )


_EMPTY_RELS: Final = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<Relationships xmlns="{_NS_RELS}"></Relationships>'
).encode()


def build_lite_workbook(
    players: Sequence[Player] = (),
    games: Sequence[Game] = (),
    settings: Settings | None = None,
    divisions: Sequence[Division] = (),
    *,
    requirement: str | None = None,
) -> bytes:
    """The xlwings Lite template as ``.xlsx`` bytes, with ``players``, ``games`` and the
    ``divisions``' rules typed in.

    With no arguments this is the empty book that ``xlgrade template OUT.xlsx`` writes and
    ``workbook/xlgrade-template.xlsx`` ships; ``requirement`` replaces the pinned package in
    ``requirements.txt`` (a wheel's URL before the release is on PyPI). The same input gives
    the same bytes.
    """
    package = sheets_package(players, games, settings, LITE, divisions)
    members = members_of(package)
    _add_buttons(members, package)
    members["xl/webextensions/webextension1.xml"] = webextension_xml(requirement)
    members["xl/webextensions/taskpanes.xml"] = taskpanes_xml()
    members["xl/webextensions/_rels/taskpanes.xml.rels"] = _taskpanes_rels()
    types = members["[Content_Types].xml"]
    types = add_override(types, "/xl/webextensions/webextension1.xml", WEBEXTENSION_TYPE)
    types = add_override(types, "/xl/webextensions/taskpanes.xml", TASKPANES_TYPE)
    members["[Content_Types].xml"] = types
    members["_rels/.rels"] = add_relationship(
        members["_rels/.rels"], "xlgradeLite", REL_TASKPANES, "xl/webextensions/taskpanes.xml"
    )
    return repack(members)
