"""The template workbook: its layout, its builder, and reading and writing its sheets.

Everything here that touches Excel itself (xlwings) imports it inside the function that needs a
live Excel, so the package works on any computer without it.
"""

from __future__ import annotations

__all__: list[str] = []
