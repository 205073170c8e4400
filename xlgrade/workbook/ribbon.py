"""The Grading ribbon tab: its buttons, defined once, and the customUI XML Excel reads.

Excel 2010 and later read ``customUI/customUI14.xml`` (the 2009/07 schema); Excel 2007 reads
``customUI/customUI.xml`` (the 2006/01 schema). Both are written from :data:`BUTTONS`, and each
button's ``onAction`` names a callback in ``vba/GradingRibbon.bas``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Final
from xml.sax.saxutils import quoteattr

__all__ = [
    "BUTTONS",
    "CUSTOM_UI_2006",
    "CUSTOM_UI_2009",
    "REL_UI_2006",
    "REL_UI_2009",
    "TAB_LABEL",
    "VBA_MODULE",
    "Button",
    "custom_ui_xml",
    "vba_source",
]

TAB_LABEL: Final = "Grading"
"""The tab's label."""
VBA_MODULE: Final = "GradingRibbon"
"""The VBA module holding the callbacks (``vba/GradingRibbon.bas``)."""
CUSTOM_UI_2006: Final = "http://schemas.microsoft.com/office/2006/01/customui"
CUSTOM_UI_2009: Final = "http://schemas.microsoft.com/office/2009/07/customui"
REL_UI_2006: Final = "http://schemas.microsoft.com/office/2006/relationships/ui/extensibility"
"""Package relationship type of ``customUI/customUI.xml``."""
REL_UI_2009: Final = "http://schemas.microsoft.com/office/2007/relationships/ui/extensibility"
"""Package relationship type of ``customUI/customUI14.xml``."""


@dataclass(frozen=True)
class Button:
    """One button of the Grading tab.

    Attributes:
        id: the control id.
        label: the text under the button.
        callback: the VBA ``Sub`` that ``onAction`` calls.
        image: a built-in Office icon (``imageMso``).
        tip: the screen tip.
        group: the group's label on the tab.
    """

    id: str
    label: str
    callback: str
    image: str
    tip: str
    group: str


BUTTONS: Final = (
    Button(
        "xlgradeRecalculate",
        "Recalculate season",
        "RecalculateSeason",
        "CalculateNow",
        "Grade the season from Settings, Players and Results; rewrite the output sheets.",
        "Season",
    ),
    Button(
        "xlgradeCheck",
        "Check results",
        "CheckResults",
        "DataValidation",
        "Check Players and Results and list every problem on the Exceptions sheet.",
        "Season",
    ),
    Button(
        "xlgradeNewSeason",
        "New season from this one",
        "NewSeason",
        "FileNew",
        "Save next season's book beside this one: this season's grades as the start grades, "
        "no results. This book is not changed.",
        "Season",
    ),
    Button(
        "xlgradeHelp",
        "How to use",
        "ShowHowToUse",
        "Help",
        "Show the How to use sheet.",
        "Help",
    ),
)
"""The tab's buttons, in order; consecutive buttons with the same ``group`` share a group."""


def custom_ui_xml(namespace: str = CUSTOM_UI_2009) -> bytes:
    """The customUI document for ``namespace`` (:data:`CUSTOM_UI_2009` or
    :data:`CUSTOM_UI_2006`), UTF-8 with an XML declaration."""
    groups: list[tuple[str, list[Button]]] = []
    for button in BUTTONS:
        if not groups or groups[-1][0] != button.group:
            groups.append((button.group, []))
        groups[-1][1].append(button)
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        f"<customUI xmlns={quoteattr(namespace)}>",
        "  <ribbon>",
        "    <tabs>",
        f'      <tab id="xlgradeTab" label={quoteattr(TAB_LABEL)}>',
    ]
    for index, (label, buttons) in enumerate(groups, start=1):
        lines.append(f'        <group id="xlgradeGroup{index}" label={quoteattr(label)}>')
        for b in buttons:
            size = "large" if b is BUTTONS[0] else "normal"
            lines.append(
                f"          <button id={quoteattr(b.id)} label={quoteattr(b.label)}"
                f" size={quoteattr(size)} imageMso={quoteattr(b.image)}"
                f" screentip={quoteattr(b.tip)} onAction={quoteattr(b.callback)}/>"
            )
        lines.append("        </group>")
    lines += ["      </tab>", "    </tabs>", "  </ribbon>", "</customUI>", ""]
    return "\r\n".join(lines).encode("utf-8")


def vba_source() -> str:
    """The callbacks' VBA source as shipped in ``vba/GradingRibbon.bas``, with CRLF line ends."""
    text = (resources.files("xlgrade.workbook") / "vba" / "GradingRibbon.bas").read_text("utf-8")
    return text.replace("\r\n", "\n").replace("\n", "\r\n")
