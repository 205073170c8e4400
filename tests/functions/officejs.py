"""Calls as xlwings Lite makes them, through ``xlwings.server`` (the Office.js protocol)."""

from __future__ import annotations

import asyncio
from types import ModuleType
from typing import Any


def excel_call(module: ModuleType, name: str, *args: Any) -> Any:
    """``name`` called as xlwings Lite calls it: every argument a matrix (rows of cells) or
    ``None`` when left out, the answer as Excel receives it (rows of cells)."""
    import xlwings as xw
    from xlwings import server

    data = {
        "func_name": name,
        "args": list(args),
        "version": xw.__version__,
        "client": "Office.js",
        "runtime": "1.4",
        "culture_info_name": "en-GB",
        "date_format": "dd/mm/yyyy",
        "caller_address": "Results!I2",
    }
    return asyncio.run(server.custom_functions_call(data, module))
