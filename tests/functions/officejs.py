"""Calls as xlwings Lite makes them, through ``xlwings.server`` (the Office.js protocol)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from xlgrade.workbook.excel_calls import OMITTED, officejs_call


def excel_call(module: ModuleType, name: str, *args: Any) -> Any:
    """``name`` called as xlwings Lite calls it: every argument a matrix (rows of cells) or
    ``None`` when left out, the answer as Excel receives it (rows of cells)."""
    given = [OMITTED if a is None else a for a in args]
    return officejs_call(name, *given, module=module, caller="Results!I2")
