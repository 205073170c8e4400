"""A pytest plugin that keeps every worksheet-function call the tests make as xlwings Lite
makes it, for the Pyodide check (tests/pyodide/check_books.py) to replay.

With ``XLGRADE_OFFICEJS_CALLS=FILE`` set, every payload handed to
``xlwings.server.custom_functions_call`` during the run (the tests' own calls through
:func:`xlgrade.workbook.excel_calls.officejs_call`: tests/functions, and the shipped books'
formulas with their arguments worked out by LibreOffice, tests/workbook/
test_libreoffice_calls.py) is written to FILE as a JSON list, each payload once. Unset, the
plugin does nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

RECORD = "XLGRADE_OFFICEJS_CALLS"
"""The environment variable naming the file the payloads go to."""

_seen: dict[str, dict[str, Any]] = {}


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get(RECORD):
        return
    from xlgrade.workbook.excel_calls import prepare_officejs

    prepare_officejs()
    from xlwings import server

    called = server.custom_functions_call

    async def recorded(data: dict[str, Any], module: Any, *args: Any, **kwargs: Any) -> Any:
        _seen.setdefault(json.dumps(data, sort_keys=True, default=repr), data)
        return await called(data, module, *args, **kwargs)

    server.custom_functions_call = recorded


def pytest_unconfigure(config: pytest.Config) -> None:
    where = os.environ.get(RECORD)
    if where and not hasattr(config, "workerinput"):
        Path(where).write_text(json.dumps(list(_seen.values()), default=repr), encoding="utf-8")
