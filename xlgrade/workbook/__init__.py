"""The template workbook: its layout, its builder, and reading and writing its sheets.

Everything here that touches Excel itself (xlwings) imports it inside the function that needs a
live Excel, so the package works on any computer without it.
"""

from __future__ import annotations

from xlgrade import __version__

__all__ = ["default_requirement"]


def default_requirement() -> str:
    """The package line of the xlwings Lite book's ``requirements.txt``: this release of
    xlgrade, pinned (:func:`xlgrade.workbook.lite.requirements_txt`). Here, where importing it
    loads nothing else, for the help of ``xlgrade template``."""
    return f"xlgrade=={__version__}"
